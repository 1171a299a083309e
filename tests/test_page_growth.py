"""A page costs what its own data costs, not the whole site's: the SQL statements a signed-in
player's pages run stay the same when the site grows tenfold around them (60 -> 600 decks, with
collections, wants and trades of other players). Statements are counted, never timed: a test
cannot fail because a machine is slow, and a statement per deck (or per user) of the site shows
as growth at once."""
from __future__ import annotations

import logging

import pytest

from deckhub.core.decklist import Deck
from deckhub.services import collection, trading
from deckhub.services.accounts import create_user
from deckhub.services.decks import create_deck
from deckhub.store import models
from deckhub.store.db import database

GAME = "kaijudo"
PASSWORD = "correct horse"
CARDS = ["argus-vigilant-seer", "halo-hawk", "cloudwalker-drone"]


class _Counter(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.n = 0

    def emit(self, record):
        self.n += isinstance(record.msg, tuple)  # (sql, params); the pool logs its own lines too


def _statements(client, url: str) -> int:
    """SQL statements the page at `url` runs once warm (what a worker loads once, such as a
    catalogue, is not the page's cost); peewee logs each statement at DEBUG."""
    assert client.get(url).status_code == 200
    logger, counter = logging.getLogger("peewee"), _Counter()
    level = logger.level
    logger.addHandler(counter)
    logger.setLevel(logging.DEBUG)
    try:
        response = client.get(url)
    finally:
        logger.removeHandler(counter)
        logger.setLevel(level)
    assert response.status_code == 200, (url, response.get_data(as_text=True)[:500])
    return counter.n


def _grow(start: int, decks: int) -> None:
    """`decks` more decks of other players (one public in three, each holding cards of CARDS), and a
    collection with wants and trades, shown publicly, for each player (one per 30 decks)."""
    printings, user = collection.game_index(GAME).by_card, None
    for n in range(start, start + decks):
        if n % 30 == 0 or user is None:
            user = create_user(f"player{n}", PASSWORD)
            trading.set_lists_public(user, True)
            for i, key in enumerate(CARDS):
                collection.set_quantities(user, printings[key][0].id, quantity=2, want_quantity=i % 2,
                                          trade_quantity=(i + 1) % 2)
        deck = Deck(GAME)
        deck.add("Deck", CARDS[n % 3], 1 + n % 4)
        deck.add("Deck", CARDS[(n + 1) % 3], 2)
        create_deck(user.id, GAME, "standard", f"Deck {n}", deck=deck, is_public=n % 3 == 0)


@pytest.fixture
def site(app):
    """Me (two decks, one public; wants and trades) among other players' decks."""
    with app.app_context(), database.connection_context():
        me = create_user("meplayer", PASSWORD)
        printings = collection.game_index(GAME).by_card
        collection.set_quantities(me, printings[CARDS[0]][0].id, quantity=1, want_quantity=3)
        collection.set_quantities(me, printings[CARDS[1]][0].id, quantity=3, trade_quantity=2)
        mine = Deck(GAME)
        mine.add("Deck", CARDS[0], 4)
        mine.add("Deck", CARDS[2], 3)
        own = create_deck(me.id, GAME, "standard", "Mine", deck=mine, is_public=True).row.id
        create_deck(me.id, GAME, "standard", "Other of mine", deck=mine)
        _grow(0, 58)
        theirs = models.Deck.get((models.Deck.is_public == True) & (models.Deck.owner != me.id)).id  # noqa: E712
    client = app.test_client()
    assert client.post("/login", data={"username": "meplayer", "password": PASSWORD}).status_code == 302
    return app, client, own, theirs


def test_a_players_pages_run_as_many_statements_on_a_site_ten_times_larger(site):
    app, client, own, theirs = site
    with app.app_context(), database.connection_context():
        code = models.CardSet.select(models.CardSet.code).where(models.CardSet.game == GAME).first().code
    pages = [f"/decks/{own}", f"/decks/{theirs}", "/decks/", "/decks/public", "/decks/public?sort=copied",
             "/decks/public?card=halo+hawk", "/api/v1/decks/public?card=argus+vigilant+seer", "/collection/wants",
             "/most-wanted", f"/most-wanted?game={GAME}", "/collection/", "/collection/wants?page=1",
             f"/collection/{GAME}/sets/{code}", f"/games/{GAME}/sets/{code}/edit", f"/cards?game={GAME}&q=hawk+zq"]
    small = {page: _statements(client, page) for page in pages}
    with app.app_context(), database.connection_context():
        _grow(58, 540)
        assert models.Deck.select().count() == 600
    large = {page: _statements(client, page) for page in pages}
    assert large == small


def test_most_wanted_and_public_decks_run_as_many_statements_with_a_thousand_goldfish_games_more(site):
    """Most wanted once read every goldfish game's deck, 500 at a time; its counts are kept now, so
    a thousand more games (and their unknown cards) change what it shows, not what it runs."""
    from deckhub.services import tallies
    app, client, _, _ = site
    pages = ["/most-wanted", "/most-wanted?game=neopets-tcg", "/decks/public", "/api/v1/decks/public?game=kaijudo"]
    small = {page: _statements(client, page) for page in pages}
    with app.app_context(), database.connection_context():
        from deckhub.services.catalogue_store import get_catalogue
        unknown = [c.key for c in get_catalogue("neopets-tcg") if c.type is None][:40]
        owner = models.User.get(models.User.username == "meplayer").id
        rows = [{"owner": owner, "game": "neopets-tcg", "seed": n, "share_token": f"growth{n}",
                 "deck_data": {"game": "neopets-tcg", "sections": {"Deck": [{"card": unknown[n % 40], "qty": 3}]}}}
                for n in range(1_200)]
        for start in range(0, len(rows), 300):
            models.GoldfishSession.insert_many(rows[start:start + 300]).execute()
        tallies.recount()  # rows written around the goldfish service: its counts made again
    large = {page: _statements(client, page) for page in pages}
    assert large == small
    assert "waiting for an unknown fact" not in client.get("/most-wanted?game=neopets-tcg").get_data(as_text=True)

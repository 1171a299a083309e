"""The counts kept for "most wanted" and the public deck list (`services.tallies`) follow every
service that changes their inputs, in its transaction: after any sequence of deck saves, editor
sessions, visibility changes, copies, deletions, goldfish games started, replayed, deleted and
accounts moved in, the kept counts equal those counted afresh from the rows (`tallies.recount`)."""
from __future__ import annotations

import pytest

from deckhub.core.decklist import Deck
from deckhub.services import backup, decks, goldfish, public_decks, tallies
from deckhub.services.accounts import create_user
from deckhub.services.facts import most_wanted
from deckhub.store import models
from deckhub.store.db import database

GAME = "kaijudo"
A, B, C = "argus-vigilant-seer", "halo-hawk", "cloudwalker-drone"


def kept() -> tuple[dict, dict]:
    demand = {(r.game, r.card_key): (r.decks, r.games) for r in models.CardDemand.select()
              if r.decks or r.games}
    public = {r.game: r.decks for r in models.PublicDeckCount.select() if r.decks}
    return demand, public


def counted_afresh() -> tuple[dict, dict]:
    with database.atomic() as transaction:  # recount, read, and leave the kept counts as they were
        tallies.recount()
        fresh = kept()
        transaction.rollback()
    return fresh


def _deck(*cards) -> Deck:
    deck = Deck(GAME)
    for key, qty in cards:
        deck.add("Deck", key, qty)
    return deck


@pytest.fixture
def ctx(app):
    with app.app_context(), database.connection_context():
        yield create_user("tallyer", "correct horse"), create_user("other", "correct horse")


def test_deck_saves_visibility_copies_and_deletion_move_the_counts(ctx):
    me, other = ctx
    stored = decks.create_deck(me.id, GAME, "standard", "Mine", deck=_deck((A, 3), (B, 2)), is_public=True)
    assert kept() == ({(GAME, A): (1, 0), (GAME, B): (1, 0)}, {GAME: 1}) == counted_afresh()
    stored = decks.change_quantity(stored, "Deck", C, 1)
    stored = decks.change_quantity(stored, "Deck", B, -2)
    stored = decks.change_quantity(stored, "Deck", A, 1)  # more copies of a card held: no new deck holds it
    assert kept()[0] == {(GAME, A): (1, 0), (GAME, C): (1, 0)}
    for delta in (1, 1, -1, -1, -1):  # an editor session's clicks, back to where it started and beyond
        stored = decks.change_quantity(stored, "Deck", B, delta, session="session-token-1")
    assert kept() == counted_afresh()

    decks.update_settings(stored, is_public=False)
    decks.update_settings(stored, is_public=False)  # asked twice: counted once
    assert kept()[1] == {} == counted_afresh()[1]
    decks.edit_settings(decks.load(models.Deck.get_by_id(stored.row.id)), is_public=True, name="Mine again")
    assert kept()[1] == {GAME: 1}

    copy = decks.copy_deck(decks.load(models.Deck.get_by_id(stored.row.id)), other)
    assert kept() == counted_afresh() and kept()[0][(GAME, A)] == (2, 0)
    decks.update_deck(copy, {"is_public": True}, _deck((B, 1)))
    assert kept() == ({(GAME, A): (1, 0), (GAME, B): (1, 0), (GAME, C): (1, 0)}, {GAME: 2}) == counted_afresh()

    decks.delete_deck(decks.load(models.Deck.get_by_id(stored.row.id)))
    assert kept() == ({(GAME, B): (1, 0)}, {GAME: 1}) == counted_afresh()
    assert public_decks.browse().total == 1 and public_decks.browse(game=GAME).total == 1
    assert public_decks.browse(game="neopets-tcg").total == 0


def test_goldfish_games_started_replayed_and_deleted_move_the_counts(ctx):
    me, _ = ctx
    stored = decks.create_deck(me.id, GAME, "standard", "Played", deck=_deck((A, 20), (C, 20)))
    first = goldfish.start(me.id, stored.row, stored.deck, {}, seed=3)
    second = goldfish.start(me.id, None, _deck((A, 40)), {}, seed=4)
    assert kept()[0] == {(GAME, A): (1, 2), (GAME, C): (1, 1)} == counted_afresh()[0]
    game = goldfish.play_to_end(goldfish.load(first), None)
    restarted = goldfish.restart(game)  # a new session beside the finished one
    assert restarted.session.id != first.id and kept()[0][(GAME, C)] == (1, 2)
    goldfish.set_archived(first, True)  # archived games are kept, so still counted
    goldfish.delete_session(second)
    goldfish.delete_session(second)  # deleted once, counted out once
    assert kept()[0] == {(GAME, A): (1, 2), (GAME, C): (1, 2)} == counted_afresh()[0]
    decks.delete_deck(stored)  # the games of a deleted deck stay, and stay counted
    assert kept()[0] == {(GAME, A): (0, 2), (GAME, C): (0, 2)} == counted_afresh()[0]


def test_an_account_moved_in_brings_its_counts(ctx):
    me, _ = ctx
    stored = decks.create_deck(me.id, GAME, "standard", "Moved", deck=_deck((A, 20), (B, 20)), is_public=True)
    goldfish.start(me.id, stored.row, stored.deck, {}, seed=5)
    document = backup.export_user(me.username)
    backup.import_user(document, "moved_in")
    assert kept() == ({(GAME, A): (2, 2), (GAME, B): (2, 2)}, {GAME: 2}) == counted_afresh()


def test_most_wanted_reads_the_kept_counts(ctx):
    me, _ = ctx
    neo = "neopets-tcg"
    from deckhub.services.catalogue_store import get_catalogue
    unknown = [c for c in get_catalogue(neo) if c.type is None][:2]
    deck = Deck(neo)
    for card in unknown:
        deck.add("Deck", card.key, 2)
    decks.create_deck(me.id, neo, "standard", "Unknowns", deck=deck)
    decks.create_deck(me.id, neo, "standard", "One unknown", deck=_one(neo, unknown[1].key))
    ranked = most_wanted(neo)
    assert [(w.card.key, w.decks, w.games) for w in ranked if w.field == "type"] == [
        (unknown[1].key, 2, 0), (unknown[0].key, 1, 0)]


def _one(game: str, key: str) -> Deck:
    deck = Deck(game)
    deck.add("Deck", key, 3)
    return deck


def test_db_recount_makes_the_counts_again_after_rows_mended_by_hand(app):
    from click.testing import CliRunner

    from deckhub.cli import main
    with app.app_context(), database.connection_context():
        me = create_user("mender", "correct horse")
        decks.create_deck(me.id, GAME, "standard", "Counted", deck=_deck((A, 20), (B, 20)), is_public=True)
        expected = kept()
        models.CardDemand.update(decks=7).execute()  # counts gone wrong outside the site
        models.PublicDeckCount.delete().execute()
    env = {"DATABASE_URL": app.config["DATABASE_URL"], "DECKHUB_SECRET_KEY": "test", "DECKHUB_QUEUE_URL": "immediate"}
    result = CliRunner().invoke(main, ["db", "recount"], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "2 cards counted" in result.output and f"{GAME}: 1 public deck\n" in result.output
    with app.app_context(), database.connection_context():
        assert kept() == expected

"""Browsing public decks: the service, the page `/decks/public` and `GET /api/v1/decks/public`;
copies counted; private decks never listed."""
from __future__ import annotations

import re

import pytest

from deckhub.store import models
from deckhub.services import public_decks
from deckhub.services.accounts import create_user
from deckhub.core.decklist import Deck
from deckhub.store.db import database
from deckhub.services.decks import copy_deck, create_deck, delete_deck, load
from tests.conftest import page_html as text

PASSWORD = "correct horse"
SECRET = "Alice's private deck 9b2e"


def _deck(owner, name, cards, game="kaijudo", public=True, section="Deck"):
    deck = Deck(game)
    for key, qty in cards.items():
        deck.add(section, key, qty)
    return create_deck(owner.id, game, "standard", name, deck=deck, is_public=public).row.id


@pytest.fixture
def world(app):
    """alice: two public Kaijudo decks (one with Argus), a private one with Argus, a public
    Neopets TCG deck; bob: one public Kaijudo deck without Argus."""
    with database.connection_context():
        alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
        ids = {
            "argus": _deck(alice, "Light Rush", {"argus-vigilant-seer": 3, "halo-hawk": 2}),
            "drones": _deck(alice, "Drone Swarm", {"cloudwalker-drone": 4}),
            "secret": _deck(alice, SECRET, {"argus-vigilant-seer": 4}, public=False),
            "bob": _deck(bob, "Bob's Hawks", {"halo-hawk": 3}),
            "neo": _deck(alice, "Darigan Rush", {}, game="neopets-tcg"),
        }
    return ids


def browse(**kwargs):
    with database.connection_context():
        return public_decks.browse(**kwargs)


def names(result) -> list[str]:
    return [d.row.name for d in result.decks]


def test_every_public_deck_newest_first_and_never_a_private_one(world):
    result = browse()
    assert names(result) == ["Darigan Rush", "Bob's Hawks", "Drone Swarm", "Light Rush"]
    assert result.total == 4 and SECRET not in names(result)
    assert [d.owner for d in result.decks] == ["alice", "bob", "alice", "alice"]
    assert all(d.version == 1 and d.copies == 0 for d in result.decks)


def test_filters_by_game_by_deck_name_and_by_a_card_with_a_typo(world):
    assert names(browse(game="neopets-tcg")) == ["Darigan Rush"]
    assert names(browse(q="rush")) == ["Darigan Rush", "Light Rush"]
    assert names(browse(q="rush", game="kaijudo")) == ["Light Rush"]
    typo = browse(card="Argus Vigilnt Seer")
    assert [c.key for c in typo.cards] == ["argus-vigilant-seer"]
    assert names(typo) == ["Light Rush"]  # the private deck that holds 4 Argus is not shown
    assert names(browse(card="halo hawk", game="kaijudo")) == ["Bob's Hawks", "Light Rush"]
    assert names(browse(card="halo hawk", q="bob")) == ["Bob's Hawks"]


def test_a_card_filter_follows_each_deck_s_visibility_and_cards(world):
    from deckhub.services.decks import change_quantity, update_settings
    with database.connection_context():
        secret = load(models.Deck.get_by_id(world["secret"]))
        update_settings(secret, is_public=True)  # made public: now found by its cards
        assert names(public_decks.browse(card="argus vigilant seer")) == [SECRET, "Light Rush"]
        change_quantity(load(models.Deck.get_by_id(world["secret"])), "Deck", "halo-hawk", 1)  # a card added later
        assert names(public_decks.browse(card="halo hawk")) == ["Bob's Hawks", SECRET, "Light Rush"]
        update_settings(load(models.Deck.get_by_id(world["secret"])), is_public=False)
        assert names(public_decks.browse(card="halo hawk")) == ["Bob's Hawks", "Light Rush"]
        change_quantity(load(models.Deck.get_by_id(world["bob"])), "Deck", "halo-hawk", -3)  # no longer holds it
        first, second = public_decks.browse(card="halo hawk", per_page=1), public_decks.browse(card="halo hawk", page=2, per_page=1)
    assert (first.total, names(first), names(second)) == (1, ["Light Rush"], [])


def test_a_card_filter_that_names_no_card_finds_nothing_and_says_so(world):
    result = browse(card="zzqxv wibble")
    assert result.cards == [] and result.decks == [] and result.total == 0


def test_a_card_filter_is_read_once_until_a_catalogue_it_searched_changes(world, monkeypatch):
    from deckhub.services.catalogue_store import bump_stamp
    searched = []
    real = public_decks.search_games
    monkeypatch.setattr(public_decks, "search_games", lambda *args: searched.append(args[1]) or real(*args))
    assert [c.key for c in browse(card="halo hawk").cards] == ["halo-hawk"]
    assert [c.key for c in browse(card="halo hawk").cards] == ["halo-hawk"] and searched == ["halo hawk"]
    with database.connection_context():
        bump_stamp("neopets-tcg")  # any game of the search: it is read again
    assert [c.key for c in browse(card="halo hawk").cards] == ["halo-hawk"] and len(searched) == 2


def test_most_copied_first_counts_every_copy_made_even_of_deleted_copies(world):
    with database.connection_context():
        carol = create_user("carol", PASSWORD)
        drones = load(models.Deck.get_by_id(world["drones"]))
        copies = [copy_deck(drones, carol.id) for _ in range(2)]
        copy_deck(load(models.Deck.get_by_id(world["bob"])), carol.id)
        delete_deck(copies[0])  # a copy made stays counted
        assert public_decks.copies_made(world["drones"]) == 2
    result = browse(sort="copied", game="kaijudo")
    assert names(result) == ["Drone Swarm", "Bob's Hawks", "Light Rush"]
    assert [d.copies for d in result.decks] == [2, 1, 0]
    with database.connection_context():  # deleting the copied deck takes its count with it
        delete_deck(load(models.Deck.get_by_id(world["drones"])))
        assert models.DeckCopy.select().where(models.DeckCopy.source == world["drones"]).count() == 0


def test_pages(world):
    first, second = browse(per_page=3), browse(per_page=3, page=2)
    assert (first.total, first.pages, first.first, first.last) == (4, 2, 1, 3)
    assert names(first) + names(second) == names(browse())
    assert browse(page=9).decks == []


@pytest.mark.parametrize("sort", ["newest", "copied"])
@pytest.mark.parametrize("filters", [{}, {"game": "kaijudo"}, {"card": "halo hawk"}, {"card": "argus vigilant seer"},
                                     {"q": "rush"}, {"card": "halo hawk", "q": "hawks"}])
def test_every_page_of_a_listing_holds_the_decks_of_the_whole_list_in_its_order(world, sort, filters):
    """A page's decks are picked by their ids along the index, then read: one deck a page walks the
    same decks in the same order as a page of them all, and the private deck holding Argus never."""
    whole = browse(sort=sort, **filters)
    paged = [browse(sort=sort, page=n, per_page=1, **filters) for n in range(1, whole.total + 2)]
    assert [names(p) for p in paged] == [[name] for name in names(whole)] + [[]]
    assert {p.total for p in paged} == {whole.total} and SECRET not in names(whole)
    assert [(d.owner, d.version, d.copies) for p in paged for d in p.decks] == [
        (d.owner, d.version, d.copies) for d in whole.decks]


def test_a_filter_shape_writes_its_sql_once_and_binds_each_requests_values(world):
    """The count and the page of one shape (sort, game or not, cards per game) keep their SQL: a
    second card, game or page of the same shape gets its own decks, never the first one's."""
    public_decks._PREPARED.clear()
    assert names(browse(card="halo hawk", game="kaijudo", per_page=1)) == ["Bob's Hawks"]
    again = browse(card="halo hawk", game="kaijudo", per_page=1, page=2)
    assert names(again) == ["Light Rush"] and again.total == 2
    argus = browse(card="argus vigilant seer", game="kaijudo")
    assert names(argus) == ["Light Rush"] and argus.total == 1 and argus.decks[0].version == 1
    assert names(browse(card="cloudwalker drone", sort="copied")) == ["Drone Swarm"]
    assert len(public_decks._PREPARED) == 2  # (newest, a game, one card) and (copied, every game, one card)
    assert all(q._sql and None not in q._sql.values() for pair in public_decks._PREPARED._entries.values() for q in pair)


@pytest.mark.parametrize("kwargs, words", [
    ({"game": "chess"}, "no game"), ({"sort": "oldest"}, "Sort by"), ({"page": 0}, "page"),
    ({"per_page": 1000}, "per_page"),
])
def test_bad_filters_are_refused_with_a_reason(world, kwargs, words):
    with pytest.raises(public_decks.BrowseError, match=words):
        browse(**kwargs)


# --------------------------------------------------------------------------- the page


def test_the_page_lists_filters_and_links_each_deck(client, world):
    page = client.get("/decks/public")
    assert page.status_code == 200
    html = text(page)
    assert '<a href="/decks/public">Public decks</a>' in html  # in the site navigation
    assert f'href="/decks/{world["argus"]}">Light Rush</a>' in html and SECRET not in html
    assert "by bob" in html and "0 copies made" in html and "1–4 of 4 decks" in html
    html = text(client.get("/decks/public?card=argus+vigilnt+seer"))
    assert "Decks holding" in html and "Argus, Vigilant Seer</a> (Kaijudo)" in html
    assert "Light Rush" in html and "Bob's Hawks" not in html and SECRET not in html
    html = text(client.get("/decks/public?game=kaijudo&q=hawks&sort=copied"))
    assert "Bob&#39;s Hawks" in html and "Light Rush" not in html
    assert '<option value="copied" selected>' in html and '<option value="kaijudo" selected>' in html


def test_the_page_says_when_nothing_matches(client, world):
    html = text(client.get("/decks/public?q=nothing+like+this"))
    assert "No public deck matches these filters" in html
    html = text(client.get("/decks/public?card=zzqxv+wibble"))
    assert "No card is called anything like “zzqxv wibble”" in html


def test_an_empty_site_says_how_to_share_a_deck(client):
    html = text(client.get("/decks/public"))
    assert "No one has made a deck public yet" in html


@pytest.mark.parametrize("query", ["sort=best", "game=chess", "page=0", "page=x", "page=99999999999999"])
def test_bad_queries_answer_400_with_a_message(client, world, query):
    page = client.get(f"/decks/public?{query}")
    assert page.status_code == 400
    assert "Sort by" in text(page) or "game" in text(page) or "page" in text(page)


def test_copying_from_the_browser_is_counted(client, auth, world):
    auth.login("bob", PASSWORD)
    assert client.post(f"/decks/{world['argus']}/copy").status_code == 302
    assert client.post(f"/decks/{world['secret']}/copy").status_code == 404  # not bob's to copy
    html = text(client.get("/decks/public?sort=copied"))
    assert re.search(r"Light Rush</a> <span class=\"meta\">[^<]*1 copy made", html)
    assert html.index("Light Rush") < html.index("Drone Swarm")


def test_my_decks_links_to_the_public_decks(client, auth, world):
    auth.login("alice", PASSWORD)
    assert 'href="/decks/public"' in client.get("/decks/").get_data(as_text=True)


# --------------------------------------------------------------------------- the JSON twin

def test_the_api_lists_public_decks_with_the_same_filters(client, world):
    body = client.get("/api/v1/decks/public").get_json()
    assert body["total"] == 4 and body["page"] == 1 and body["cards"] == []
    assert [d["name"] for d in body["decks"]] == ["Darigan Rush", "Bob's Hawks", "Drone Swarm", "Light Rush"]
    first = body["decks"][-1]
    assert first["id"] == world["argus"] and first["owner"] == "alice" and first["is_public"] is True
    assert first["copies"] == 0 and first["version"] == 1 and "sections" not in first
    body = client.get("/api/v1/decks/public?card=Argus%20Vigilnt&game=kaijudo&sort=copied").get_json()
    assert [d["name"] for d in body["decks"]] == ["Light Rush"]
    assert body["cards"] == [{"game": "kaijudo", "id": "argus-vigilant-seer", "name": "Argus, Vigilant Seer"}]
    body = client.get("/api/v1/decks/public?q=rush&per_page=1&page=2").get_json()
    assert [d["name"] for d in body["decks"]] == ["Light Rush"] and body["total"] == 2 and body["per_page"] == 1
    assert SECRET not in client.get("/api/v1/decks/public?card=argus").get_data(as_text=True)


@pytest.mark.parametrize("query", ["sort=best", "game=chess", "page=0", "page=x"])
def test_the_api_refuses_bad_filters_with_400(client, world, query):
    response = client.get(f"/api/v1/decks/public?{query}")
    assert response.status_code == 400
    assert response.get_json()["status"] == 400 and response.get_json()["error"]

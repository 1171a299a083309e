"""Goldfish: who goes first (Go first / Go second / Random, shown on the board and kept in the
replay), an undo of a finished game that says it continues in a new game, and the history's
archive and delete (the owner's alone, behind a confirmation that needs no JavaScript)."""
from __future__ import annotations

import re

import pytest

from conftest import csrf_token
from deckhub.store import models
from deckhub.store.db import database
from test_goldfish_web import deck_for, start
from tests.conftest import page_html as text


@pytest.fixture
def player(auth):
    auth.signup("alice")
    return auth._client


@pytest.mark.parametrize("game", ["kaijudo", "neopets-tcg", "neopets-battledome"])
def test_the_start_page_offers_three_turn_orders_and_the_board_shows_the_one_played(player, game):
    deck_id = deck_for(player, game)
    page = text(player.get(f"/goldfish/decks/{deck_id}"))
    assert "<legend>Who goes first</legend>" in page
    radios = re.findall(r'<input type="radio" name="opt_first" value="(\w+)" ?(checked)?', page)
    assert radios == [("random", "checked"), ("first", ""), ("second", "")]
    assert 'type="checkbox" name="opt_first"' not in page
    assert "You go second ·" in text(player.get(start(player, deck_id, first="second")))
    drawn = {re.search(r"You go (first|second) \(drawn at random\)", text(player.get(start(player, deck_id, seed=s))))
             .group(1) for s in range(1, 9)}
    assert drawn == {"first", "second"}
    board = start(player, deck_id, seed=3)
    shown = re.search(r"You go \w+ \(drawn at random\)", text(player.get(board))).group(0)
    assert shown in text(player.get(f"{board}/replay?step=0"))  # the replay draws the same order


def test_undoing_a_finished_game_says_it_continues_as_a_new_one(player):
    board = start(player, deck_for(player, "kaijudo"), seed=5)
    player.post(f"{board}/play-out", data={"step": "0"})
    old_id = int(board.rsplit("/", 1)[1])
    with database.connection_context():
        steps = len(models.GoldfishSession.get_by_id(old_id).actions)
    response = player.post(f"{board}/undo", data={"step": str(steps), "count": "1"})
    new_id = int(response.location.split("#")[0].rsplit("/", 1)[1])
    assert new_id != old_id
    page = text(player.get(response.location))
    assert (f'This game was over; undoing continues it as a new game #{new_id}. The finished game '
            f'<a href="/goldfish/{old_id}">#{old_id}</a> stays as it ended.') in page
    # an undo within a game in progress is only an undo
    page = text(player.post(f"/goldfish/{new_id}/undo", data={"step": str(steps - 1)}, follow_redirects=True))
    assert "This game was over" not in page


def _listed(client, archived: bool = False) -> list[int]:
    page = client.get("/goldfish/" + ("?archived=1" if archived else "")).get_data(as_text=True)
    return [int(n) for n in re.findall(r'<a href="/goldfish/(\d+)">', page)]


def test_archived_games_leave_the_list_and_come_back(player):
    deck_id = deck_for(player, "kaijudo")
    ids = [int(start(player, deck_id, seed=s).rsplit("/", 1)[1]) for s in (1, 2, 3)]
    assert sorted(_listed(player)) == ids and "Show archived" not in text(player.get("/goldfish/"))
    response = player.post(f"/goldfish/{ids[0]}/archive", data={"archived": "1"})
    assert response.status_code == 303
    page = text(player.get(response.location))
    assert f"Game #{ids[0]} archived" in page and '<a href="/goldfish/?archived=1">Show archived (1)</a>' in page
    assert sorted(_listed(player)) == ids[1:] and _listed(player, archived=True) == [ids[0]]
    assert player.get(f"/goldfish/{ids[0]}").status_code == 200  # an archived game still opens and replays
    player.post(f"/goldfish/{ids[0]}/archive", data={"archived": "0"})
    assert sorted(_listed(player)) == ids and _listed(player, archived=True) == []


def test_delete_asks_first_then_deletes_for_good(player):
    board = start(player, deck_for(player, "kaijudo"))
    session_id = int(board.rsplit("/", 1)[1])
    confirm = player.get(f"/goldfish/{session_id}/delete")
    page = text(confirm)
    assert confirm.status_code == 200 and f"Delete game #{session_id}?" in page
    assert f'<form method="post" action="/goldfish/{session_id}/delete"' in page
    with database.connection_context():
        assert models.GoldfishSession.select().count() == 1  # asking deleted nothing
    response = player.post(f"/goldfish/{session_id}/delete")
    assert response.status_code == 303 and f"Game #{session_id} deleted." in text(player.get(response.location))
    with database.connection_context():
        assert models.GoldfishSession.select().count() == 0
    assert player.get(board).status_code == 404


def test_only_the_owner_archives_or_deletes_and_only_with_a_form_token(csrf_app):
    def signed_up(flask_app, name):
        client = flask_app.test_client()
        page = client.get("/signup").get_data(as_text=True)
        client.post("/signup", data={"username": name, "password": "correct horse", "confirm": "correct horse",
                                     "csrf_token": csrf_token(page)})
        return client
    alice, bob = signed_up(csrf_app, "alice"), signed_up(csrf_app, "bob")
    page = alice.get("/decks/import").get_data(as_text=True)
    created = alice.post("/decks/import", data={"name": "Mine", "game": "kaijudo", "format": "",
                                                "decklist": "40 Argus, Vigilant Seer", "csrf_token": csrf_token(page)})
    deck_id = int(created.location.rsplit("/", 1)[1])
    page = alice.get(f"/goldfish/decks/{deck_id}").get_data(as_text=True)
    board = alice.post(f"/goldfish/decks/{deck_id}", data={"seed": "4", "csrf_token": csrf_token(page)}).location
    session_id = int(board.rsplit("/", 1)[1])
    token = csrf_token(bob.get("/goldfish/").get_data(as_text=True))
    assert bob.get(f"/goldfish/{session_id}/delete").status_code == 404
    assert bob.post(f"/goldfish/{session_id}/delete", data={"csrf_token": token}).status_code == 404
    assert bob.post(f"/goldfish/{session_id}/archive", data={"archived": "1", "csrf_token": token}).status_code == 404
    assert alice.post(f"/goldfish/{session_id}/delete").status_code == 400  # no form token
    assert alice.post(f"/goldfish/{session_id}/archive", data={"archived": "1"}).status_code == 400
    with database.connection_context():
        kept = models.GoldfishSession.get_by_id(session_id)
        assert not kept.archived
    listed = alice.get("/goldfish/").get_data(as_text=True)
    assert alice.post(f"/goldfish/{session_id}/archive",
                      data={"archived": "1", "csrf_token": csrf_token(listed)}).status_code == 303

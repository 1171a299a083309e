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


@pytest.fixture
def player(auth):
    auth.signup("alice")
    return auth._client


def text(response) -> str:
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


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

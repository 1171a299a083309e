"""The pages with the widest forms fit a 1,280 px screen, and a card's text on the goldfish board
closes on a click and when the pointer leaves it (it covered the next card and the phase buttons)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from deckhub.core.engine import get_engine
from deckhub.games import get_game
from deckhub.services import goldfish as goldfish_store
from deckhub.services.decks import create_deck
from deckhub.store import models

pytestmark = pytest.mark.browser


def _deck(username: str, game: str) -> models.Deck:
    """The game's first sample deck, stored as the player's (the Battledome one lacks the most values)."""
    user = models.User.get(models.User.username == username)
    name, deck = get_engine(game).decks()[0]
    return create_deck(user.id, game, get_game(game).format(None).id, name, deck=deck).row


@pytest.mark.parametrize("game", ["neopets-battledome", "neopets-tcg"])
def test_statistics_and_goldfish_start_fit_1280(live_server, page, game):
    username = live_server.signup(page)
    row = _deck(username, game)
    for path in (f"/decks/{row.id}/stats/", f"/goldfish/decks/{row.id}"):
        page.goto(live_server.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 1280, f"{path} is {width} px wide"


def test_a_cards_text_closes_on_click_and_on_leaving(live_server, page):
    username = live_server.signup(page)
    row = _deck(username, "kaijudo")
    user = models.User.get(models.User.username == username)
    session = goldfish_store.start(user.id, row, get_engine("kaijudo").decks()[0][1], {}, seed=3)
    page.goto(f"{live_server.url}/goldfish/{session.id}")
    tile = page.locator("#board .zone-hand .tile").filter(has=page.locator(".tile-text")).first
    text = tile.locator(".tile-text")
    tile.locator(".tile-head").hover()
    expect(text).to_be_visible()
    tile.locator(".tile-head").click()
    expect(text).to_be_hidden()
    page.mouse.move(0, 0)
    tile.locator(".tile-head").hover()
    expect(text).to_be_visible()  # open again once the pointer came back
    page.mouse.move(0, 0)
    expect(text).to_be_hidden()

"""Goldfish in real Chromium for every engine: import a deck, start, act, undo, play to a result."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from deckhub.core.engine import engines
from deckhub.games import load_catalogue
from deckhub.importers.decklists import write_text

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("engine", engines(), ids=lambda e: e.game)
def test_goldfish_a_deck_to_a_win(live_server, page, engine):
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    name, deck = engine.decks()[0]
    live_server.signup(page)
    page.goto(live_server.url + "/decks/import")
    page.get_by_label("Deck name").fill("Goldfish test")
    page.get_by_label("Game").select_option(engine.game)
    page.get_by_label("Deck list").fill(write_text(deck, load_catalogue(engine.game)))
    page.get_by_label("Keep the lines that could be read").check()
    page.get_by_role("button", name="Import").click()
    page.get_by_role("link", name="Goldfish this deck").click()
    expect(page.get_by_label("Seed")).to_be_visible()  # the start form has loaded, not the deck page
    values = engine.sample_options.get("card_values") or {}
    # the engine's own test-fixture values for the cards the catalogue lacks: one form asks for all of
    # them at once (a card of unknown type shows every type's fields), so one pass fills it
    filled = page.evaluate("""values => {
        let filled = 0;
        for (const el of document.querySelectorAll('[name^="cv__"]')) {
          const [, key, field] = el.name.split('__');
          const v = (values[key] || {})[field];
          if (v !== undefined) { el.value = String(v); filled += 1; }
        }
        return filled; }""", values)
    assert filled or not values, "the start form asked for none of the values the deck needs"
    page.get_by_label("Seed").fill("3")
    page.get_by_role("button", name="Start the game").click()
    board = page.locator("#board")
    expect(board.locator(".meta")).to_contain_text("Seed 3")
    expect(board.locator(".meta")).to_contain_text("step 0")

    # take two of the rules' own actions (the board redraws in place), then undo one
    for step in (1, 2):
        board.locator(".general-actions button, .tile-actions button, .pending button").first.click()
        expect(page.locator("#board .meta")).to_contain_text(f"step {step}")
    page.keyboard.press("u")  # the undo shortcut
    expect(page.locator("#board .meta")).to_contain_text("step 1")

    # a forged action is refused with a reason and changes nothing
    page.evaluate("""() => { const f = document.querySelector('#board form.act');
                             f.querySelector('input[name=action]').value = '{"kind":"cheat"}'; }""")
    page.locator("#board form.act button").first.click()
    expect(page.locator(".flash.error")).to_be_visible()
    expect(page.locator("#board .meta")).to_contain_text("step 1")

    page.get_by_role("button", name="Play to the end").click()
    expect(page.locator("#board .result")).to_contain_text(re.compile(r"You won on (turn|round) \d+"))
    page.reload()  # the game survives a reload: it is stored as (deck, seed, options, actions)
    expect(page.locator("#board .result")).to_be_visible()
    assert not problems, problems


def test_question_mark_shows_the_keyboard_shortcuts_and_escape_hides_them(live_server, page):
    from deckhub.services import goldfish as goldfish_store
    from deckhub.store import models
    from deckhub.services.decks import create_deck
    username = live_server.signup(page)
    user = models.User.get(models.User.username == username)
    engine = next(e for e in engines() if e.game == "kaijudo")
    name, deck = engine.decks()[0]
    stored = create_deck(user.id, "kaijudo", "standard", name, deck=deck)
    session = goldfish_store.start(user.id, stored.row, deck, {}, seed=3)
    page.goto(f"{live_server.url}/goldfish/{session.id}")
    overlay = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(overlay).to_be_hidden()
    page.keyboard.press("?")
    expect(overlay).to_be_visible()
    expect(overlay).to_contain_text("undo one step")
    page.keyboard.press("Escape")
    expect(overlay).to_be_hidden()
    page.get_by_text("Keyboard shortcuts").click()  # a plain <details>: it opens without the shortcut too
    expect(overlay).to_be_visible()
    # a face-down zone is one group with its count, not a line per hidden card
    expect(page.locator('select[name="card"] optgroup[label^="Deck ("]')).to_have_attribute(
        "label", re.compile(r"Deck \(\d+ face down\)"))

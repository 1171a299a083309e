"""My card values in a real browser: the Darigan theme deck's missing values entered once, in one form,
used by a second game and a simulation that wins, listed, proposed in one step and approved.

The values are the Neopets TCG engine's TEST FIXTURE values (SAMPLE_CARD_VALUES), not facts.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from deckhub.games.neopets_tcg.engine import SAMPLE_CARD_VALUES

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
DARIGAN = Path(__file__).resolve().parents[2] / "data" / "neopets-tcg" / "decks" / "darigan-theme-deck.txt"
FORM_FIELDS = ("type", "species", "bank_value", "tap_to_play")


def _curator(live_server) -> str:
    from deckhub.services.accounts import create_user
    from deckhub.store.db import database

    name = live_server.new_name("curator")
    with database.connection_context():
        create_user(name, PASSWORD, curator=True)
    return name


def _fill_values_form(page) -> int:
    """Fill every input of the values form for which the fixture has a value; returns how many."""
    filled = 0
    for key, values in SAMPLE_CARD_VALUES.items():
        for field in FORM_FIELDS:
            if field not in values:
                continue
            box = page.locator(f'[name="cv__{key}__{field}"]')
            if box.count() == 0:
                continue
            if box.evaluate("e => e.tagName") == "SELECT":
                box.select_option(str(values[field]))
            else:
                box.fill(str(values[field]))
            filled += 1
    return filled


def test_darigan_values_once_then_games_simulation_proposals_and_approval(live_server, page):
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    curator = _curator(live_server)
    player = live_server.signup(page)

    page.goto(live_server.url + "/decks/import")
    page.get_by_label("Deck name").fill("Darigan")
    page.get_by_label("Game").select_option("neopets-tcg")
    page.get_by_label(re.compile("deck file")).set_input_files(str(DARIGAN))
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#validation .badge.so-far")).to_have_text("Legal so far")
    expect(page.locator("#validation")).to_contain_text("Chocolate Korbats")
    deck_url = page.url

    # one form: every value at once, no second round trip
    page.goto(deck_url.replace("/decks/", "/goldfish/decks/"))
    expect(page.locator("fieldset.card-values legend")).to_contain_text("23 cards")
    assert _fill_values_form(page) == 39
    page.get_by_label("Seed").fill("7")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/goldfish/\d+$"))

    # a second game asks for nothing
    page.goto(deck_url.replace("/decks/", "/goldfish/decks/"))
    expect(page.locator("fieldset.card-values")).to_have_count(0)
    expect(page.get_by_text(re.compile("This game uses 39 of your own card values"))).to_be_visible()
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/goldfish/\d+$"))

    # a simulation uses them and wins games
    page.goto(deck_url + "/stats/")
    page.get_by_label("Games").fill("30")
    page.get_by_role("button", name="Run the simulation").click()
    panel = page.locator(".result-panel").first  # the page reloads itself when the run is done
    expect(panel).to_be_visible(timeout=60_000)
    expect(panel).to_contain_text(re.compile(r"Wins\s*[1-9]\d* \("))
    expect(panel).not_to_contain_text("Played without their values")

    # the deck is checked with them: legal, but said to rest on my values
    page.goto(deck_url)
    expect(page.locator("#validation h2")).to_contain_text("Legal")
    expect(page.locator("#validation .badge.so-far")).to_have_count(0)
    expect(page.locator("#validation")).to_contain_text("yours, not reviewed")

    # My card values lists them; one step proposes them all
    page.get_by_role("navigation", name="Main").get_by_role("link", name="My card values").click()
    expect(page.locator("table.my-values caption")).to_have_text("39 values of Neopets TCG cards")
    for box in page.locator('input[name="select"]').all():
        box.check()
    page.get_by_label("A printed card I own").check()
    page.get_by_role("button", name="Propose the selected values").click()
    expect(page.get_by_text("23 proposals sent to the curators (39 values)")).to_be_visible()

    # a curator approves them
    page.get_by_role("button", name="Log out").click()
    live_server.login(page, curator)
    page.goto(live_server.url + "/review?game=neopets-tcg")
    items = page.locator("article.cm-item").filter(has_text=f"by {player}")
    expect(items).to_have_count(23)
    for _ in range(23):
        items.first.get_by_role("button", name="Approve").click()
        expect(page.get_by_text(re.compile(r"Approved proposal #\d+"))).to_be_visible()
    expect(items).to_have_count(0)

    # the card pages show them as contributed
    page.goto(live_server.url + "/games/neopets-tcg/cards/chocolate-korbats")
    fact = page.locator("dl.facts dt").filter(has_text=re.compile("^Type$")).locator("xpath=following-sibling::dd[1]")
    expect(fact).to_have_text(re.compile(r"^\s*Item\s+contributed\s*$"))
    assert problems == []

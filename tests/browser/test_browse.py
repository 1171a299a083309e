"""A visitor in a real browser: signs up, logs out and in, browses a game, searches, opens a card."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_sign_up_log_in_browse_search_and_open_a_card(live_server, page):
    problems = []
    page.on("console", lambda msg: problems.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    username = live_server.signup(page)
    expect(page.get_by_role("banner")).to_contain_text(username)

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_text("Signed out.")).to_be_visible()
    live_server.login(page, username)

    # browse: games page -> Kaijudo -> a set -> a card
    page.goto(live_server.url + "/")
    page.get_by_role("heading", name="Kaijudo").get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Kaijudo")
    page.get_by_role("link", name="Rise of the Duel Masters").click()
    expect(page.locator(".set-count")).to_contain_text("180 of 180")
    first_row = page.locator("table.checklist tbody tr").first
    expect(first_row).to_contain_text("Argus, Vigilant Seer")

    # search with a typo and odd punctuation, from the game's search page
    page.goto(live_server.url + "/cards")
    page.get_by_label("Game").select_option("kaijudo")
    page.get_by_label("Name").fill("ARGUS vigilent!")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/cards\?.*game=kaijudo"))
    results = page.locator("table.results-table")
    expect(results).to_contain_text("Argus, Vigilant Seer")

    # the game's filters appear once a game is chosen, and narrow the results
    page.get_by_label("Civilization").select_option("Fire")
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_text(re.compile("No cards match"))).to_be_visible()
    expect(page.get_by_text("Did you mean")).to_be_visible()

    # open the card page from the suggestion
    page.get_by_role("link", name="Argus, Vigilant Seer").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Argus, Vigilant Seer")
    facts = page.locator("dl.facts")
    expect(facts).to_contain_text("Level")
    expect(facts).to_contain_text("Light")
    expect(page.locator("table.printings")).to_contain_text("Rise of the Duel Masters")
    # the page's own style sheet applied (the CSP allows only our own files): the facts are a grid
    assert page.locator("dl.facts").evaluate("el => getComputedStyle(el).display") == "grid"
    assert problems == []  # no blocked style sheet or script, no missing asset


def test_huntik_card_shows_its_version_and_unknown_pages_are_404(live_server, page):
    page.goto(live_server.url + "/cards?game=huntik&q=dante+vale")
    page.get_by_role("link", name="Dante Vale, Private Investigator").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Dante Vale, Private Investigator")

    response = page.goto(live_server.url + "/games/no-such-game")
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Not found")

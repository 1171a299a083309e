"""Statistics in real Chromium: start a simulation, watch its progress, read the histogram."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

DECK = Path(__file__).resolve().parents[2] / "data" / "kaijudo" / "decks" / "[9SHA]Solar_Eclipse.o8d"


def test_simulate_a_deck_and_see_the_histogram(live_server, page):
    live_server.signup(page)
    page.goto(live_server.url + "/decks/import")
    page.get_by_label("Deck name").fill("Solar Eclipse")
    page.get_by_label("Game").select_option("kaijudo")
    page.get_by_label(re.compile("deck file")).set_input_files(str(DECK))
    page.get_by_role("button", name="Import").click()
    page.get_by_role("link", name="Statistics & odds").click()
    expect(page.locator("#odds table")).to_contain_text("opening hand")

    page.get_by_label("Games").fill("3000")
    page.get_by_label("Seed").fill("12")
    page.get_by_role("button", name="Run the simulation").click()
    expect(page.get_by_text(re.compile(r"Simulation #\d+ started: 3,000 games with seed 12"))).to_be_visible()
    # while it runs the page shows a progress bar and refreshes itself; then the results appear
    expect(page.locator("tr[id^=run-]").first).to_contain_text(re.compile(r"queued|running|done"))
    expect(page.get_by_role("img", name=re.compile("Winning turn histogram"))).to_be_visible(timeout=60_000)
    expect(page.locator(".result-panel")).to_contain_text("Wins")


def test_a_long_run_shows_its_progress_and_is_cancelled_with_its_button(live_server, page):
    live_server.signup(page)
    page.goto(live_server.url + "/decks/import")
    page.get_by_label("Deck name").fill("Solar Eclipse")
    page.get_by_label("Game").select_option("kaijudo")
    page.get_by_label(re.compile("deck file")).set_input_files(str(DECK))
    page.get_by_role("button", name="Import").click()
    page.get_by_role("link", name="Statistics & odds").click()
    page.get_by_label("Games").fill("100000")
    page.get_by_role("button", name="Run the simulation").click()
    row = page.locator("tr[id^=run-]").first
    # the worker's finished chunks move the bar (the page polls; no reload needed)
    expect(row).to_contain_text(re.compile(r"running: [1-9][\d,]* of 100,000 games"), timeout=60_000)
    bar = row.get_by_role("progressbar")
    expect(bar).to_have_attribute("max", "100000")
    assert int(bar.get_attribute("value") or 0) > 0 or int(bar.evaluate("b => b.value")) > 0
    row.get_by_role("button", name="Cancel").click()
    expect(page.get_by_text(re.compile(r"Simulation #\d+ cancelled\."))).to_be_visible()
    expect(row).to_contain_text("cancelled")
    expect(row.get_by_role("button", name="Cancel")).to_have_count(0)

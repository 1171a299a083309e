"""Card pictures in real Chromium, for every game: the deck's visual view, search results and a
goldfish board at 1,280 and 390 px wide, each screenshotted, with every picture loaded and no
page scrolling sideways; a name's hover picture opens on pointing and closes on leaving.

Screenshots go to DECKHUB_SCREENSHOTS (a folder) when it is set, else to the test's own temporary
folder, so a person can look at what the test saw.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from deckhub.core.engine import engines
from deckhub.services import goldfish as goldfish_store
from deckhub.services.decks import create_deck
from deckhub.games import get_game
from deckhub.store import models

pytestmark = pytest.mark.browser

WIDTHS = (1280, 390)
# pictures not loaded (a broken image has naturalWidth 0), and how far the page scrolls sideways
LOOK = """() => ({
  wide: document.documentElement.scrollWidth - window.innerWidth,
  broken: [...document.querySelectorAll('img.card-face, img.result-face, img.tile-scan')]
            .filter(img => img.complete && img.naturalWidth === 0).map(img => img.src).slice(0, 5),
  faces: document.querySelectorAll('img.card-face, img.result-face, img.tile-scan').length,
})"""


def _load_pictures(page) -> None:
    """Scroll the lazy pictures into view and wait until each has loaded or failed."""
    page.evaluate("() => document.querySelectorAll('img[loading=lazy]').forEach(img => img.loading = 'eager')")
    page.wait_for_function("""() => [...document.images].every(img => img.complete)""")


@pytest.mark.parametrize("engine", engines(), ids=lambda e: e.game)
def test_pictures_at_desktop_and_phone_widths_never_scroll_sideways(live_server, browser, engine, tmp_path):
    shots = Path(os.environ.get("DECKHUB_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    setup = browser.new_page()
    username = live_server.signup(setup)
    state = setup.context.storage_state()
    setup.context.close()
    user = models.User.get(models.User.username == username)
    deck_name, deck = engine.decks()[0]
    stored = create_deck(user.id, engine.game, get_game(engine.game).formats[0].id, deck_name, deck=deck)
    session = goldfish_store.start(user.id, stored.row, deck, dict(engine.sample_options), seed=3)
    word = deck_name.split()[0] if deck_name.split()[0].isalpha() else "a"
    pages = {"deck-grid": f"/decks/{stored.row.id}?view=grid&by=type",
             "deck-stacks": f"/decks/{stored.row.id}?view=stacks&by=cost",
             "search": f"/cards?game={engine.game}&q={word}",
             "goldfish": f"/goldfish/{session.id}"}
    problems = []
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900}, storage_state=state)
        context.set_default_timeout(20_000)
        page = context.new_page()
        try:
            for name, path in pages.items():
                page.goto(live_server.url + path)
                expect(page.locator("main")).to_be_visible()
                _load_pictures(page)
                page.screenshot(path=str(shots / f"{engine.game}-{name}-{width}.png"), full_page=True)
                seen = page.evaluate(LOOK)
                if seen["wide"] > 0:
                    problems.append(f"{path} at {width}px scrolls {seen['wide']}px sideways")
                if seen["broken"]:
                    problems.append(f"{path} at {width}px: pictures not loaded: {seen['broken']}")
                if not seen["faces"]:
                    problems.append(f"{path} at {width}px shows no card picture")
        finally:
            context.close()
    assert not problems, "\n".join(problems)


def test_a_names_picture_opens_on_hover_and_closes_on_leaving(live_server, page):
    live_server.signup(page)
    page.goto(live_server.url + "/games/huntik/sets/SAS")
    name = page.locator(".face-hover").first
    picture = name.locator(".face-pop")
    expect(picture).to_be_hidden()
    name.locator("a").hover()
    expect(picture).to_be_visible()
    page.mouse.move(5, 5)  # away from the list
    expect(picture).to_be_hidden()

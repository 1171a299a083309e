"""Every main page on a phone-sized screen (390 px wide): nothing sticks out sideways.

A page is usable at that width when the page itself never scrolls sideways (a wide table may
scroll inside its own box) and no button or field lies outside the screen. Each page is also
checked for the favicon and for no 4xx/5xx answer while it loads.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from deckhub.services import comparisons
from deckhub.services import goldfish as goldfish_store
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.collection import adjust
from deckhub.core.engine import engines
from deckhub.services.decks import create_deck
from deckhub.games import all_games, get_game

pytestmark = pytest.mark.browser

WIDTH = 390

# elements right of the screen's edge that the page cannot scroll to (a box scrolling sideways
# inside itself is fine: its overflowing children are inside that box's own scroll area)
OUTSIDE = """width => {
  const doc = document.documentElement;
  const out = [];
  if (doc.scrollWidth > width) out.push(`page is ${doc.scrollWidth}px wide`);
  for (const el of document.querySelectorAll('button, input, select, textarea, a.button, h1, h2, p, table, svg, img')) {
    if (!el.offsetParent && el.tagName !== 'svg') continue;
    let clipped = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (['auto', 'scroll', 'hidden'].includes(s.overflowX) || s.position === 'absolute') { clipped = true; break; }
    }
    if (clipped) continue;
    const r = el.getBoundingClientRect();
    if (r.width && r.right > width + 1) out.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || el.name || '').trim().slice(0, 40)}" ends at ${Math.round(r.right)}px`);
  }
  return out.slice(0, 8);
}"""


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": WIDTH, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def _world(live_server, phone) -> list[str]:
    """A player with a deck, a goldfish game and some cards in every game; the paths to visit."""
    username = live_server.signup(phone)
    user = models.User.get(models.User.username == username)
    paths = ["/", "/cards", "/cards?q=seer", "/decks/", "/decks/import", "/collection/", "/collection/import",
             "/collection/wants", "/collection/?q=seer", "/decks/public", "/decks/public?card=seer&sort=copied", "/goldfish/", "/account/", "/login", "/signup"]
    samples = {e.game: e for e in engines()}
    for game in all_games():
        engine = samples[game.slug]
        deck_name, deck = engine.decks()[0]
        stored = create_deck(user.id, game.slug, game.formats[0].id, deck_name, deck=deck)
        session = goldfish_store.start(user.id, stored.row, deck, dict(engine.sample_options), seed=3)
        catalogue = get_catalogue(game.slug)
        card = next(iter(catalogue))
        for printing in models.Printing.select().join(models.Card).where(models.Card.game == game.slug).limit(3):
            adjust(user, printing.id, "quantity", 2)
        set_code = next(iter(catalogue.sets))
        paths += [f"/games/{game.slug}", f"/games/{game.slug}/sets/{set_code}",
                  f"/games/{game.slug}/cards/{card.key}", f"/cards?game={game.slug}&q=a",
                  f"/collection/{game.slug}/sets/{set_code}", f"/decks/{stored.row.id}",
                  f"/decks/{stored.row.id}/edit", f"/decks/{stored.row.id}/versions",
                  f"/decks/{stored.row.id}/settings", f"/decks/{stored.row.id}/stats/",
                  f"/goldfish/decks/{stored.row.id}", f"/goldfish/{session.id}", f"/goldfish/{session.id}/replay",
                  f"/decks/{stored.row.id}/stats/compare"]
        if game.slug == "huntik":  # a comparison's tables on the page (one: a player's runs at once are limited)
            comparisons.start(user, stored.row.id, stored.row.id, 20, 3)
    return paths


def test_every_main_page_fits_a_390px_screen(live_server, phone):
    failed: list[str] = []
    phone.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    problems: dict[str, list[str]] = {}
    for path in _world(live_server, phone):
        phone.goto(live_server.url + path)
        expect(phone.locator("main")).to_be_visible()
        found = phone.evaluate(OUTSIDE, WIDTH)
        if "/collection/" in path and "/sets/" in path:  # the checklist reflows: its ± buttons are on screen
            right = phone.evaluate("""() => Math.max(...[...document.querySelectorAll(
                'form.owned-controls button')].map(b => b.getBoundingClientRect().right))""")
            if right > WIDTH:
                found.append(f"a ± button ends at {right:.0f}px")
        if found:
            problems[path] = found
    assert not problems, "\n".join(f"{path}: {found}" for path, found in problems.items())
    assert not failed, failed
    icon = phone.request.get(live_server.url + "/favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"] == "image/x-icon"

"""A deck taken to the table in real Chromium: the registration sheet prints on one page, and the
proxy sheet prints its cards at 63 × 88 mm, nine to a page, on A4 and on Letter."""
from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

BULL_RUSH = Path(__file__).resolve().parents[2] / "data" / "kaijudo" / "decks" / "[2ED]Bull_Rush.o8d"
PX_PER_MM = 96 / 25.4  # CSS pixels
PDF_PAGE = re.compile(rb"/Type\s*/Page\b")


def _import_deck(live_server, page) -> tuple[str, int]:
    live_server.signup(page)
    page.goto(live_server.url + "/decks/import")
    page.get_by_label("Deck name").fill("Bull Rush")
    page.get_by_label("Game").select_option("kaijudo")
    page.locator("input[type=file]").set_input_files(str(BULL_RUSH))
    page.get_by_role("button", name=re.compile("Import")).click()
    expect(page.get_by_role("heading", name="Bull Rush")).to_be_visible()
    cards = int(re.search(r"\((\d+) cards\)", page.locator(".stats h2").inner_text()).group(1))
    return page.url.rsplit("/", 1)[1], cards


def test_the_registration_sheet_prints_on_one_page(live_server, page):
    deck_id, cards = _import_deck(live_server, page)
    page.get_by_role("link", name="Print deck sheet").click()
    page.get_by_label("Player name").fill("Ada Player")
    page.get_by_label("Date").fill("2026-12-05")
    page.get_by_role("button", name="Fill in").click()
    expect(page.locator(".sheet-fields")).to_contain_text("Ada Player")
    page.emulate_media(media="print")
    expect(page.locator(".sheet-fill")).to_be_hidden()  # the form and the site's header stay on the screen
    expect(page.locator("header.site")).to_be_hidden()
    expect(page.locator(".sheet-table caption").first).to_contain_text(f"Deck ({cards})")
    for paper in ("A4", "Letter"):
        assert len(PDF_PAGE.findall(page.pdf(format=paper))) == 1, paper


@pytest.mark.parametrize("paper, size_mm", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_the_proxy_sheet_prints_real_size_cards_nine_to_a_page(live_server, page, paper, size_mm):
    deck_id, cards = _import_deck(live_server, page)
    page.get_by_role("link", name="Proxies").click()
    page.get_by_label("Paper").select_option(paper)
    page.get_by_role("button", name="Show").click()
    page.emulate_media(media="print")
    pages = page.locator(".proxy-page")
    expect(pages).to_have_count(math.ceil(cards / 9))
    for i in range(pages.count()):
        expect(pages.nth(i).locator(".proxy-card")).to_have_count(min(9, cards - 9 * i))
    sheet = pages.first.bounding_box()
    assert abs(sheet["width"] - size_mm[0] * PX_PER_MM) < 1 and abs(sheet["height"] - size_mm[1] * PX_PER_MM) < 2
    for card in pages.first.locator(".proxy-card").all():
        box = card.bounding_box()
        assert abs(box["width"] - 63 * PX_PER_MM) < 0.5 and abs(box["height"] - 88 * PX_PER_MM) < 0.5, box
        assert box["x"] >= sheet["x"] and box["x"] + box["width"] <= sheet["x"] + sheet["width"]
    assert page.locator(".proxy-card").first.evaluate("img => img.complete && img.naturalWidth > 0")
    expect(page.locator(".proxy-controls")).to_be_hidden()
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    assert len(PDF_PAGE.findall(pdf)) == math.ceil(cards / 9)
    # the server's PDF: one page per nine cards too
    served = page.request.get(f"{live_server.url}/decks/{deck_id}/proxies.pdf?paper={paper}")
    assert served.ok and len(PDF_PAGE.findall(served.body())) == math.ceil(cards / 9)

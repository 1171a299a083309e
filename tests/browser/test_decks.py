"""The deck editor end to end in real Chromium: build a deck, see it checked, fix it, share, export."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

DATA = Path(__file__).resolve().parents[2] / "data"


def test_build_check_fix_and_export_a_deck(live_server, page):
    live_server.signup(page)
    page.get_by_role("link", name="My decks").click()
    expect(page.get_by_text("You have no decks yet")).to_be_visible()

    page.get_by_label("Deck name").fill("Light rush")
    page.get_by_label("Game").select_option("kaijudo")
    page.get_by_role("button", name="Create deck").click()
    expect(page.get_by_role("heading", name="Editing “Light rush”")).to_be_visible()
    expect(page.locator("#validation")).to_contain_text("Not legal")

    # search a card with a typo and add it four times: too many copies, and the card is flagged
    page.get_by_label("Find a Kaijudo card").fill("argus vigilent")
    page.get_by_role("button", name="Search").click()
    for _ in range(4):
        page.get_by_role("button", name="Add Argus, Vigilant Seer to Deck").click()
    row = page.locator("#card-argus-vigilant-seer")
    expect(row).to_have_class(re.compile("flagged"))
    expect(row).to_contain_text("4")
    expect(page.locator("#validation")).to_contain_text("At most 3 copies of Argus, Vigilant Seer")
    page.get_by_role("button", name="− Argus, Vigilant Seer").click()
    expect(page.locator("#validation")).not_to_contain_text("At most 3 copies")

    # paste a list with a bad line: nothing is saved and the line is named with suggestions
    page.get_by_label("Paste cards").fill("3 Blade Seer\n2 Chasm Entangle\n1 Zzyzx Qwerty")
    page.get_by_role("button", name="Apply").click()
    expect(page.get_by_role("alert")).to_contain_text("Line 3:")
    expect(page.get_by_role("alert")).to_contain_text("Nothing was saved")
    page.get_by_label("Paste cards").fill("3 Blade Seer\n2 Chasm Entangle\n1 Zzyzx Qwerty")
    page.get_by_label("Keep the lines that could be read").check()
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("#card-blade-seer")).to_contain_text("3")
    expect(page.locator("#card-chasm-entangler")).to_contain_text("2")

    # the deck page: statistics charts, versions, sharing
    page.get_by_role("link", name="view the deck").click()
    expect(page.get_by_role("img", name=re.compile("Card types"))).to_be_visible()
    page.get_by_role("link", name=re.compile("version")).first.click()
    expect(page.get_by_text("Changes from version")).to_be_visible()
    page.go_back()
    page.get_by_role("link", name="Settings & sharing").click()
    page.get_by_role("checkbox", name=re.compile("Public")).check()
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".share")).to_contain_text("/decks/")
    with page.expect_download() as download:
        page.get_by_role("link", name="OCTGN .o8d").click()
    assert download.value.suggested_filename == "Light rush.o8d"


def test_import_a_published_deck_file_and_see_it_legal(live_server, page):
    live_server.signup(page)
    page.goto(live_server.url + "/decks/import")
    page.get_by_label("Deck name").fill("Rocket Storm")
    page.get_by_label("Game").select_option("kaijudo")
    page.get_by_label(re.compile("deck file")).set_input_files(str(DATA / "kaijudo" / "decks" / "[3RIS]Rocket_Storm.o8d"))
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#validation h2")).to_contain_text("Legal")
    expect(page.locator("#validation")).to_contain_text("Deck: 40")


def test_clicks_in_one_editing_session_make_one_version(live_server, page):
    live_server.signup(page)
    page.goto(live_server.url + "/decks/")
    page.get_by_label("Deck name").fill("One session")
    page.get_by_label("Game").select_option("kaijudo")
    page.get_by_role("button", name="Create deck").click()
    page.get_by_label("Find a Kaijudo card").fill("argus vigilent")
    page.get_by_role("button", name="Search").click()
    for _ in range(3):
        page.get_by_role("button", name="Add Argus, Vigilant Seer to Deck").click()
    page.get_by_role("button", name="− Argus, Vigilant Seer").click()
    expect(page.locator(".deck-head .meta")).to_contain_text("(version 2)")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("Your next change starts a new version")).to_be_visible()
    page.get_by_role("button", name="− Argus, Vigilant Seer").click()
    expect(page.locator(".deck-head .meta")).to_contain_text("(version 3)")
    expect(page.locator("#card-argus-vigilant-seer")).to_contain_text("1")
    page.get_by_role("link", name="versions").click()
    versions = page.locator("ol[reversed] > li")
    expect(versions).to_have_count(3)
    expect(versions.nth(1)).to_contain_text("+2 Argus, Vigilant Seer (Deck)")
    expect(versions.nth(0)).to_contain_text("-1 Argus, Vigilant Seer (Deck)")

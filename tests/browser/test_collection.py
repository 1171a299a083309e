"""A collector in a real browser: imports a CSV (a bad row caught by the dry run), commits, checks a
set's completion bar, marks a card with ±, and exports the collection back."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

BAD_CSV = ("Game,Set,Number,Name,Quantity,Foil_Quantity\r\n"
           "kaijudo,Evo Fury,1,Chasm Entangler,3,1\r\n"
           "kaijudo,evo-fury,2,,2,\r\n"
           "kaijudo,,,Cloudwalker Dronne,1,\r\n").encode("utf-8")
GOOD_CSV = ("\ufeffGame,Set,Number,Name,Quantity,Foil_Quantity\r\n"
            "kaijudo,Evo Fury,1,Chasm Entangler,3,1\r\n"
            "kaijudo,evo-fury,2,,2,\r\n").encode("utf-8")


def upload(page, data: bytes) -> None:
    page.get_by_label("CSV file").set_input_files({"name": "my-cards.csv", "mimeType": "text/csv", "buffer": data})
    page.get_by_role("button", name="Check the file").click()


def test_import_checklist_plus_minus_and_export(live_server, page, tmp_path):
    problems = []
    page.on("console", lambda msg: problems.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    live_server.signup(page)

    # the header link leads to the overview; nothing owned yet
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Collection").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("My collection")
    expect(page.get_by_label("Kaijudo completion: 0 of 1293")).to_be_visible()

    # upload a file with a misspelt card: the dry run names the row and suggests the card
    page.get_by_role("link", name="Import a CSV").click()
    upload(page, BAD_CSV)
    expect(page.get_by_role("heading", name="1 row with problems")).to_be_visible()
    bad_row = page.locator("#line-4")
    expect(bad_row).to_contain_text("Kaijudo has no card 'Cloudwalker Dronne'")
    expect(bad_row).to_contain_text("did you mean Cloudwalker Drone")
    expect(page.get_by_role("button", name=re.compile(r"^Import"))).to_have_count(0)
    page.get_by_role("link", name="All rows").click()
    expect(page.locator("#line-2")).to_contain_text("quantity 0 → 3, foil 0 → 1")

    # the corrected file imports in one step after its dry run
    page.get_by_role("link", name="Upload a corrected file").click()
    upload(page, GOOD_CSV)
    expect(page.get_by_role("heading", name="Ready to import")).to_be_visible()
    page.get_by_role("button", name="Import 2 changes").click()
    expect(page.get_by_role("heading", name="Imported")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("2 changed")

    # the set checklist shows the completion bar: 2 distinct cards of 60
    page.get_by_role("link", name="See my collection").click()
    page.get_by_role("link", name="Evo Fury", exact=True).click()
    bar = page.locator("#set-completion progress")
    expect(bar).to_have_attribute("max", "60")
    expect(bar).to_have_attribute("value", "2")
    expect(bar).to_have_accessible_name("Evo Fury completion: 2 of 60")
    expect(page.locator("#set-completion")).to_contain_text("2 of 60 (3%)")
    expect(page.get_by_role("link", name="Owned (2)")).to_be_visible()

    # + on a missing card: the page comes back to that row with the new count and bar
    page.get_by_role("button", name="One more quantity: Cobalt, the Storm Knight").click()
    expect(bar).to_have_attribute("value", "3")
    expect(page).to_have_url(re.compile(r"#p\d+$"))
    row = page.locator("tr", has=page.get_by_role("link", name="Cobalt, the Storm Knight"))
    expect(row.locator(".coll-have")).to_have_text("1")
    page.get_by_role("button", name="One more foil: Cobalt, the Storm Knight").click()
    page.get_by_role("button", name="One less quantity: Cobalt, the Storm Knight").click()
    expect(row.locator(".coll-have")).to_have_text("0 + 1 foil")
    expect(page.locator("#set-completion")).to_contain_text("3 of 60 (5%)")
    page.get_by_role("link", name="Duplicates (2)").click()
    expect(page.locator("table.coll-checklist tbody tr")).to_have_count(2)

    # export: the same rows come back, formula-safe and ready to import again
    page.get_by_role("link", name="My collection").click()
    with page.expect_download() as download:
        page.get_by_role("link", name="Export everything (CSV)").click()
    path = tmp_path / "export.csv"
    download.value.save_as(path)
    assert download.value.suggested_filename.startswith("deckhub-collection-")
    assert path.read_bytes().decode("utf-8-sig").splitlines() == [
        "game,set,number,name,version,quantity,foil_quantity,want_quantity,trade_quantity",
        "kaijudo,evo-fury,1,Chasm Entangler,,3,1,0,0",
        "kaijudo,evo-fury,2,Cloudwalker Drone,,2,0,0,0",
        "kaijudo,evo-fury,3,\"Cobalt, the Storm Knight\",,0,1,0,0",
    ]
    page.goto(live_server.url + "/collection/import")
    upload(page, path.read_bytes())
    expect(page.get_by_role("heading", name="Ready to import")).to_be_visible()
    expect(page.locator(".coll-summary")).to_contain_text("0 will change")
    assert problems == []


def test_find_a_card_on_the_collection_page_and_type_its_quantity(live_server, page):
    live_server.signup(page)
    page.goto(live_server.url + "/collection/")
    page.get_by_label("Add a card", exact=True).fill("argus vigilent")
    page.get_by_label("Game", exact=True).select_option("kaijudo")
    page.get_by_role("button", name="Find").click()
    found = page.locator(".coll-finds")
    expect(found).to_contain_text("Argus, Vigilant Seer")
    found.get_by_role("button", name="One more quantity: Argus, Vigilant Seer").first.click()
    box = page.get_by_role("spinbutton", name="Quantity: Argus, Vigilant Seer").first
    expect(box).to_have_value("1")
    box.fill("4")
    box.press("Enter")  # sets the typed number: no JavaScript needed
    expect(page.get_by_role("spinbutton", name="Quantity: Argus, Vigilant Seer").first).to_have_value("4")
    expect(page.get_by_label("Kaijudo completion: 1 of 1293")).to_be_visible()
    page.get_by_role("spinbutton", name="Foil: Argus, Vigilant Seer").first.fill("2")
    page.locator(".coll-finds").get_by_role("button", name="Set", exact=True).first.click()
    expect(page.get_by_role("spinbutton", name="Foil: Argus, Vigilant Seer").first).to_have_value("2")
    expect(page.get_by_role("spinbutton", name="Quantity: Argus, Vigilant Seer").first).to_have_value("4")


def test_paste_a_list_and_add_a_deck_to_the_collection_through_the_dry_run(live_server, page, tmp_path):
    live_server.app.config["COLLECTION_UPLOAD_DIR"] = str(tmp_path / "uploads")
    live_server.signup(page)
    page.goto(live_server.url + "/collection/import")
    page.get_by_label("Game of the list").select_option("kaijudo")
    page.get_by_label("Cards", exact=True).fill("3 Cloudwalker Drone\n2x Chasm Entangler")
    page.get_by_role("button", name="Check the list").click()
    expect(page.get_by_role("heading", name="Ready to import")).to_be_visible()
    page.get_by_role("button", name="Import 2 changes").click()
    expect(page.get_by_role("heading", name="Imported")).to_be_visible()
    page.goto(live_server.url + "/collection/")
    expect(page.locator(".coll-game").filter(has_text="Kaijudo")).to_contain_text("5 cards")

    # a deck of the same cards: added on top, after the same check
    page.goto(live_server.url + "/decks/import")
    page.get_by_label("Deck name").fill("Drones")
    page.get_by_label("Game").select_option("kaijudo")
    page.get_by_label("Deck list").fill("4 Cloudwalker Drone")
    page.get_by_role("button", name="Import").click()
    page.get_by_role("button", name="Add this deck to my collection").click()
    expect(page.get_by_role("heading", name="Ready to import")).to_be_visible()
    expect(page.locator(".coll-preview")).to_contain_text("3 → 7")
    page.get_by_role("button", name="Import 1 change").click()
    expect(page.get_by_role("heading", name="Imported")).to_be_visible()  # the commit is a queue job
    page.goto(live_server.url + "/collection/")
    expect(page.locator(".coll-game").filter(has_text="Kaijudo")).to_contain_text("9 cards")


def test_fix_a_misspelt_row_by_picking_its_suggestion_then_import(live_server, page):
    live_server.signup(page)
    page.goto(live_server.url + "/collection/import")
    upload(page, BAD_CSV)
    expect(page.get_by_role("heading", name="1 row with problems")).to_be_visible()
    row = page.locator("#line-4")
    row.get_by_label("Cloudwalker Drone").check()
    page.get_by_role("button", name="Check again with my picks").click()
    expect(page.get_by_role("heading", name="Ready to import")).to_be_visible()
    page.get_by_role("link", name="All rows").click()
    expect(page.locator("#line-4")).to_contain_text("your pick")
    expect(page.locator("#line-4")).to_contain_text("added to line 3")
    page.get_by_role("button", name="Import 2 changes").click()
    expect(page.get_by_role("heading", name="Imported")).to_be_visible()
    page.goto(live_server.url + "/collection/kaijudo/sets/evo-fury")
    row = page.locator("tr", has=page.get_by_role("link", name="Cloudwalker Drone"))
    expect(row.locator(".coll-have")).to_have_text("3")  # line 3's 2 and the fixed line 4's 1

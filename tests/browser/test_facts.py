"""A player in a real browser downloads a game's facts CSV, fills in a spreadsheet, has a bad row
caught by the check, uploads the fixed file, proposes it, and finds the bars and *Most wanted*.

Values proposed here are made up for the test, not facts about the cards.
"""
from __future__ import annotations

import csv
import io

import pytest
from playwright.sync_api import expect

from deckhub.store import models
from deckhub.store.db import database

pytestmark = pytest.mark.browser

URL = "https://example.org/neopets-tcg/checklist"


def upload(page, rows: list[dict[str, str]]) -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    page.get_by_label("CSV file").set_input_files({"name": "meridell.csv", "mimeType": "text/csv",
                                                   "buffer": out.getvalue().encode("utf-8")})
    page.get_by_role("button", name="Check the file").click()


def test_download_fill_in_check_and_propose(live_server, page):
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    live_server.signup(page)
    page.goto(live_server.url + "/games/neopets-tcg")
    expect(page.get_by_text("Battle for Meridell:", exact=False).first).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("link", name="download every card's facts (CSV)").click()
    rows = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8-sig").read())))
    untyped = [r for r in rows if not r["type"]]
    first, second = untyped[0], untyped[1]
    first.update(type="Item", bank_value="5", text='Says "hello" & <waves>', source=URL)
    second.update(bank_value="100", source=URL)

    page.get_by_role("link", name="upload as proposals").click()
    upload(page, rows)
    expect(page.get_by_text("Bank value must be a whole number from 0 to 99, not 100")).to_be_visible()
    expect(page.get_by_role("button", name="Propose", exact=False)).to_have_count(0)

    second.update(bank_value="", source="")
    page.get_by_role("link", name="Upload a corrected file").click()
    upload(page, rows)
    expect(page.get_by_role("heading", name="Ready to propose")).to_be_visible()
    expect(page.get_by_text("Bank value: unknown → 5")).to_be_visible()
    page.get_by_role("button", name="Propose values for 1 card").click()
    expect(page.get_by_text("1 proposal from meridell.csv waits for a curator")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("My proposals")
    with database.connection_context():  # the file's values reached the proposal unchanged
        proposal = models.Proposal.select().order_by(models.Proposal.id.desc()).first()
    assert proposal.values == {"type": "Item", "bank_value": 5, "text": 'Says "hello" & <waves>'}
    assert proposal.source == URL and proposal.card_key and proposal.status == "pending"

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Most wanted").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Most wanted card facts")
    assert problems == []

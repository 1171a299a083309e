"""The community catalogue in a real browser: a player proposes card facts, a curator approves them.

The values are made up for the test, not facts about the card.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"  # LiveServer.login's default


def _curator(live_server) -> str:
    """A curator account made from the command line's code path (`deckhub user add NAME --curator`)."""
    from deckhub.services.accounts import create_user
    from deckhub.store.db import database

    name = live_server.new_name("curator")
    with database.connection_context():
        create_user(name, PASSWORD, curator=True)
    return name


def _fact(page, label: str):
    """The value (dd) of one fact on a card page."""
    return page.locator("dl.facts dt").filter(has_text=re.compile(f"^{label}$")).locator("xpath=following-sibling::dd[1]")


def test_a_player_proposes_facts_and_a_curator_approves_them(live_server, page):
    problems = []
    page.on("console", lambda msg: problems.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    curator = _curator(live_server)
    player = live_server.signup(page)
    expect(page.get_by_role("navigation", name="Main")).not_to_contain_text("Review")

    # propose: from the card page, a type, two stats and a source
    page.goto(live_server.url + "/games/neopets-tcg/cards/commander-garoo")
    expect(_fact(page, "Strength")).to_have_text("unknown")
    page.get_by_role("link", name="Propose a correction").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Propose facts for Commander Garoo")
    page.get_by_label("Type", exact=True).select_option("Hero")
    page.get_by_label("Strength", exact=True).fill("-3")  # refused: a stat is a small non-negative number
    page.get_by_label("Magic", exact=True).fill("6")
    page.get_by_label("A web page").check()  # no source is preselected for a player's first proposal
    page.get_by_label("Web address of the source").fill("https://example.org/commander-garoo")
    page.get_by_role("button", name="Send proposal").click()
    expect(page.get_by_text("Strength must be a whole number from 0 to 99")).to_be_visible()
    page.get_by_label("Strength", exact=True).fill("3")
    page.get_by_role("button", name="Send proposal").click()
    expect(page.get_by_text(re.compile(r"Thank you: your proposal #\d+ for Commander Garoo: it waits for another player or a curator"))).to_be_visible()
    expect(_fact(page, "Strength")).to_have_text("unknown")  # nothing changes before review

    # approve: the curator's queue shows the diff against the current values
    page.get_by_role("button", name="Log out").click()
    live_server.login(page, curator)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Review").click()
    item = page.locator("article.cm-item").filter(has_text="commander-garoo").filter(has_text=f"by {player}")
    expect(item).to_have_count(1)
    expect(item.locator("table.cm-diff")).to_contain_text("Strength unknown 3")
    expect(item.locator("table.cm-diff")).to_contain_text("Type unknown Hero")
    item.get_by_label("Note").fill("matches the card")
    item.get_by_role("button", name="Approve").click()
    expect(page.get_by_text(re.compile(r"Approved proposal #\d+: the catalogue uses its values now"))).to_be_visible()

    # the card page uses the values at once, each marked contributed with who and where from
    page.goto(live_server.url + "/games/neopets-tcg/cards/commander-garoo")
    expect(_fact(page, "Strength")).to_have_text(re.compile(r"^\s*3\s+contributed\s*$"))
    expect(_fact(page, "Type")).to_have_text(re.compile(r"^\s*Hero\s+contributed\s*$"))
    origins = page.locator("table.cm-origins")
    expect(origins.locator("tr", has_text="Magic")).to_contain_text(f"proposed by {player}, approved by {curator}")
    expect(origins.locator("tr", has_text="Magic")).to_contain_text("https://example.org/commander-garoo")
    page.get_by_role("link", name="History of its facts").click()
    expect(page.locator("table.cm-history")).to_contain_text(f"proposed by {player}, approved by {curator}")
    assert problems == []

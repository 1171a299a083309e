"""The set editor in a real browser: five cards entered by keyboard alone, saved as one batch,
and a curator approves four of them and rejects one.

The values are made up for the test, not facts about the cards.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_community import _curator, _fact

pytestmark = pytest.mark.browser

CARDS = [  # (key, name, what to type in the Type cell, the type it completes to, strength)
    ("the-darkest-faerie", "The Darkest Faerie", "v", "Villain", "7"),
    ("the-ensorcellator", "The Ensorcellator", "vi", "Villain", "4"),
    ("faerie-slingshot", "Faerie Slingshot", "it", "Item", "1"),
    ("ferocious-negg", "Ferocious Negg", "i", "Item", "2"),
    ("fire-shoyru", "Fire Shoyru", "b", "Basic Neopet", "3"),
]


def test_five_cards_entered_by_keyboard_become_one_batch_that_a_curator_partly_approves(live_server, page):
    problems = []
    page.on("console", lambda msg: problems.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    curator = _curator(live_server)
    player = live_server.signup(page)
    page.goto(live_server.url + "/games/neopets-tcg/sets/first-edition")
    page.get_by_role("link", name="Edit this set's facts in a grid").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Set editor: First Edition")

    # one click puts the cursor in the first card's Type cell; the rest is the keyboard
    first = page.locator(f'input[name="c:{CARDS[0][0]}:type"]')
    first.click()
    keys = page.keyboard
    for n, (key, _name, typed, _type, strength) in enumerate(CARDS):
        expect(page.locator(f'input[name="c:{key}:type"]')).to_be_focused()
        keys.type(typed)                           # the choice completes as it is typed
        for _ in range(3):                         # Tab: Species, Faerie, Strength
            keys.press("Tab")
        expect(page.locator(f'input[name="c:{key}:strength"]')).to_be_focused()
        keys.type(strength)
        if n == len(CARDS) - 1:
            break
        if n % 2 == 0:
            keys.press("Enter")                    # Enter goes down a row (to its Strength)
            for _ in range(3):
                keys.press("Shift+Tab")            # back to that row's Type
        else:
            keys.press("ArrowDown")                # so does the down arrow
            for _ in range(3):
                keys.press("ArrowLeft")            # left, cell by cell, to its Type
    for key, _name, _typed, full, strength in CARDS:
        expect(page.locator(f'input[name="c:{key}:type"]')).to_have_value(full)
        expect(page.locator(f'input[name="c:{key}:strength"]')).to_have_value(strength)
    expect(page.locator("#se-changed")).to_have_text("10 cells changed.")
    page.get_by_label("Web address of the source").fill("https://example.org/first-edition-checklist")
    page.get_by_role("button", name="Send changes as one batch").click()
    expect(page.get_by_text(re.compile(r"Thank you: batch #\d+ \(5 cards\) waits for a curator"))).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_contain_text("5 cards of first-edition")
    batch_url = page.url

    # the curator sees the batch in the queue and decides card by card
    page.get_by_role("button", name="Log out").click()
    live_server.login(page, curator)
    page.goto(live_server.url + "/review")
    page.get_by_role("link", name=re.compile(r"Batch #\d+")).filter(has_text=batch_url.rsplit("/", 1)[1]).click()
    expect(page.locator("table.cm-batch tbody tr")).to_have_count(5)
    expect(page.locator("table.cm-batch")).to_contain_text("Villain")
    for _key, name, _typed, _type, _strength in CARDS[:4]:
        page.get_by_label(f"Approve {name}").check()
    page.get_by_label(f"Reject {CARDS[4][1]}").check()
    page.get_by_label(f"Reason for {CARDS[4][1]} (the proposer sees it)").fill("the strength is unreadable on the scan")
    page.get_by_role("button", name="Send decisions").click()
    expect(page.get_by_text(re.compile(r"Batch #\d+: 4 approved, 1 rejected\."))).to_be_visible()
    expect(page.locator("table.cm-batch")).to_contain_text("the strength is unreadable on the scan")

    for key, _name, _typed, full, strength in CARDS[:4]:
        page.goto(live_server.url + f"/games/neopets-tcg/cards/{key}")
        expect(_fact(page, "Type")).to_have_text(re.compile(rf"^\s*{full}\s+contributed\s*$"))
    page.goto(live_server.url + f"/games/neopets-tcg/cards/{CARDS[4][0]}")
    expect(_fact(page, "Strength")).to_have_text("unknown")
    assert problems == []
    del player

"""A set's shared work in a real browser: a player claims a range of collector numbers, sees the
claim on the set's page and in the work list, sees the progress chart, and releases the claim —
with JavaScript, and without it (the pages are plain forms and links: they must work without)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SET = "/games/neopets-tcg/sets/mystery-island"


def _claim_see_and_release(live_server, page, first: int, last: int, javascript: bool) -> None:
    name = live_server.signup(page)
    page.goto(live_server.url + SET)
    work = page.get_by_role("region", name="Who is working on what")
    expect(work).to_contain_text("Nobody has claimed any numbers of this set.")
    work.get_by_role("link", name="Claim numbers to work on, and see what is still unknown").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Shared work on this set")

    # the work list: the facts still unknown, with numbers and where they stand
    expect(page.get_by_role("heading", name=re.compile(r"^Still unknown \(\d[\d,]*\)$"))).to_be_visible()
    rows = page.locator("table.cm-list tbody tr")
    expect(rows.first).to_be_visible()
    expect(rows.first.locator("td").nth(4)).to_have_text(re.compile(r"unknown|disputed"))

    # claim a range: the page says whose it is and until when, and the list marks its cards
    page.get_by_label("From number").fill(str(first))
    page.get_by_label("To number").fill(str(last))
    page.get_by_role("button", name="Claim these numbers").click()
    expect(page.get_by_text(re.compile(rf"Numbers {first}–{last} are yours until \d{{4}}-\d\d-\d\d\."))).to_be_visible()
    mine = page.locator("li", has_text=f"Numbers {first}–{last}: {name}")
    expect(mine).to_have_count(1)
    expect(rows.filter(has=page.locator("td:last-child", has_text=re.compile(f"^{name}$"))).first).to_be_visible()

    # the chart: an SVG picture of the last 30 days
    chart = page.get_by_role("img", name=re.compile("^Chart: how many of the set's facts"))
    src = chart.get_attribute("src")
    answer = page.request.get(live_server.url + src)
    assert answer.status == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in answer.text() and "<script" not in answer.text()
    if javascript:  # the browser drew it (no broken picture)
        expect(chart).to_have_js_property("complete", True)
        assert chart.evaluate("img => img.naturalWidth") > 0

    # the set's page shows who works on what, and the chart too
    page.goto(live_server.url + SET)
    work = page.get_by_role("region", name="Who is working on what")
    expect(work.get_by_role("listitem")).to_contain_text([re.compile(rf"Numbers {first}–{last}: {name}, until ")])
    expect(work.get_by_role("img", name=re.compile("^Chart: how many of the set's facts"))).to_have_attribute("src", src)

    # release: the numbers are free again for everyone
    work.get_by_role("link", name="Claim numbers to work on, and see what is still unknown").click()
    page.locator("li", has_text=f"Numbers {first}–{last}: {name}").get_by_role("button", name="Release").click()
    expect(page.get_by_text("Released.")).to_be_visible()
    expect(page.locator("li", has_text=f"Numbers {first}–{last}: {name}")).to_have_count(0)
    page.goto(live_server.url + SET)
    expect(page.get_by_role("region", name="Who is working on what")).not_to_contain_text(name)


def test_claim_see_and_release_a_range_of_a_sets_numbers(live_server, page):
    problems = []
    page.on("console", lambda msg: problems.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    _claim_see_and_release(live_server, page, 1, 12, javascript=True)
    assert problems == []


def test_claims_work_lists_and_the_chart_work_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        _claim_see_and_release(live_server, page, 20, 31, javascript=False)
        # a visitor sees the work, and is asked to sign in to claim
        visitor = browser.new_context(java_script_enabled=False).new_page()
        visitor.goto(live_server.url + SET + "/work")
        expect(visitor.get_by_role("link", name="Sign in")).to_be_visible()
        expect(visitor.get_by_role("button", name="Claim these numbers")).to_have_count(0)
        visitor.context.close()
    finally:
        context.close()

"""Community features in real Chromium: finding a public deck by a card with a typo, copying it, and
matching want and trade lists once a player opts in."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from deckhub.services import collection
from deckhub.store import models
from deckhub.core.decklist import Deck
from deckhub.services.decks import create_deck

pytestmark = pytest.mark.browser


def _printing(key: str) -> int:
    return collection.game_index("kaijudo").by_card[key][0].id


def test_find_a_public_deck_by_a_card_and_copy_it(live_server, page):
    author = live_server.signup(page)
    uid = models.User.get(models.User.username == author).id
    deck = Deck("kaijudo")
    deck.add("Deck", "argus-vigilant-seer", 3)
    create_deck(uid, "kaijudo", "standard", f"Seer Parade {author}", deck=deck, is_public=True)
    create_deck(uid, "kaijudo", "standard", f"Seer Secret {author}", deck=deck)  # private

    live_server.signup(page)  # someone else finds it
    page.get_by_role("link", name="Public decks").click()
    expect(page.get_by_role("heading", name="Public decks")).to_be_visible()
    page.get_by_label("Game").select_option("kaijudo")
    page.get_by_label("Holds the card").fill("argus vigilnt seer")
    page.get_by_label("Deck name").fill(author)
    page.get_by_role("button", name="Find decks").click()
    expect(page.locator(".public-deck-card")).to_contain_text("Argus, Vigilant Seer")
    results = page.locator("ol.public-decks")
    expect(results).to_contain_text(f"Seer Parade {author}")
    expect(results).to_contain_text(f"by {author}")
    expect(page.get_by_text(f"Seer Secret {author}")).to_have_count(0)

    page.get_by_role("link", name=f"Seer Parade {author}").click()
    page.get_by_role("button", name="Copy to my decks").click()
    expect(page.get_by_text(f"Copied to your decks as “Copy of Seer Parade {author}”.")).to_be_visible()

    page.goto(f"{live_server.url}/decks/public?sort=copied&q={author}")
    expect(page.get_by_label("Order")).to_have_value("copied")
    expect(page.locator("ol.public-decks li").first).to_contain_text("1 copy made")
    page.get_by_label("Deck name").fill("no deck is called this")
    page.get_by_role("button", name="Find decks").click()
    expect(page.get_by_text("No public deck matches these filters")).to_be_visible()


def test_opt_in_and_see_who_has_what_i_want(live_server, page):
    trader = live_server.signup(page)
    trader_id = models.User.get(models.User.username == trader).id
    collection.set_quantities(trader_id, _printing("halo-hawk"), quantity=3, trade_quantity=3)
    page.get_by_role("link", name="Collection").click()
    page.goto(live_server.url + "/collection/wants")
    page.get_by_label("Show my want and trade lists publicly").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your want and trade lists are public now")).to_be_visible()
    expect(page.get_by_label("Show my want and trade lists publicly")).to_be_checked()

    seeker = live_server.signup(page)
    seeker_id = models.User.get(models.User.username == seeker).id
    collection.set_quantities(seeker_id, _printing("halo-hawk"), want_quantity=2)
    page.goto(live_server.url + "/collection/wants")
    wants = page.locator("section", has=page.get_by_role("heading", name="Who has what I want"))
    match = wants.locator("li", has_text=trader)
    expect(match).to_contain_text("1 card, up to 2 copies")
    expect(match.get_by_role("row", name="Halo Hawk")).to_contain_text("3")
    match.get_by_role("link", name="trade list").click()
    expect(page.get_by_role("heading", name=f"{trader}’s trade list")).to_be_visible()
    expect(page.get_by_role("cell", name="Halo Hawk")).to_be_visible()

    page.get_by_role("link", name="Halo Hawk").click()
    expect(page.locator(".card-traders")).to_contain_text(f"{trader}: 3")
    page.goto(f"{live_server.url}/users/{seeker}/wants")  # the seeker never opted in
    expect(page.get_by_text("does not show their want and trade lists publicly")).to_be_visible()

"""The community catalogue's pages: propose, review, revert, history, and who may do what.

Values proposed here are made up for the tests, not facts about the cards.
"""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from deckhub.store import models
from deckhub.store.db import database
from tests.conftest import AuthActions, csrf_token
from tests.conftest import visible_text as text

NEO = "neopets-tcg"
DARIGAN = (Path(__file__).resolve().parents[1] / "data" / NEO / "decks" / "darigan-theme-deck.txt").read_text(encoding="utf-8")
URL = "https://example.org/neopets-tcg/checklist"


@pytest.fixture
def users(app):
    """(curator, player): two signed-in clients; the first account a site makes is its curator."""
    curator, player = app.test_client(), app.test_client()
    assert AuthActions(curator).signup("curie").status_code == 302
    assert AuthActions(player).signup("pat").status_code == 302
    return curator, player


def propose(client, key, values, source=URL, game=NEO, printed=False):
    form = {f"f_{k}": v for k, v in values.items()}
    form.update({"source_kind": "printed" if printed else "url", "source_url": "" if printed else source})
    return client.post(f"/games/{game}/propose/card/{key}", data=form)


def last_proposal_id(app) -> int:
    with app.app_context(), database.connection_context():
        return models.Proposal.select().order_by(models.Proposal.id.desc()).first().id


def test_propose_stats_and_a_bank_value_then_a_curator_approves_and_every_page_uses_them(app, users):
    curator, player = users
    # before: the goldfish start page asks for The Thieves' Code's bank value, the check cannot type Meaty Pie
    imported = player.post("/decks/import", data={"name": "Darigan", "game": NEO, "format": "", "decklist": DARIGAN})
    assert imported.status_code == 302
    deck_id = int(imported.location.rsplit("/", 1)[1])
    assert "cv__the-thieves-code__bank_value" in player.get(f"/goldfish/decks/{deck_id}").get_data(as_text=True)
    check = player.post("/api/check", json={"game": NEO, "decklist": DARIGAN}).get_json()
    assert any("Meaty Pie" in v["cards"] for v in check["violations"] if v["severity"] == "unverified")

    form = player.get("/games/neopets-tcg/propose/card/blue-skeith")
    assert form.status_code == 200 and "Bank value" in text(form) and "Now: Skeith (derived)" in text(form)
    sent = propose(player, "blue-skeith", {"strength": "3", "agility": "4", "magic": "0", "intelligence": "2"})
    assert sent.status_code == 302 and sent.location.endswith("/games/neopets-tcg/cards/blue-skeith")
    stats_id = last_proposal_id(app)
    assert propose(player, "the-thieves-code", {"bank_value": "2"}).status_code == 302
    bank_id = last_proposal_id(app)
    assert propose(player, "meaty-pie", {"type": "Item", "bank_value": "1"}, printed=True).status_code == 302
    pie_id = last_proposal_id(app)
    assert "Strength 3" not in text(player.get("/games/neopets-tcg/cards/blue-skeith"))  # nothing changes yet
    mine = text(player.get("/proposals"))
    assert f"#{stats_id}" in mine and "pending" in mine

    queue = curator.get("/review")
    assert queue.status_code == 200
    page = text(queue)
    assert "3 proposals waiting" in page and "Bank value unknown 2" in page and "by pat" in page
    for pid in (stats_id, bank_id, pie_id):
        done = curator.post(f"/review/{pid}/approve", data={"reason": "matches the card", "next": "/review"})
        assert done.status_code == 302 and done.location.endswith("/review")
    assert "Nothing waits for review" in text(curator.get("/review"))

    card = text(player.get("/games/neopets-tcg/cards/blue-skeith"))
    for expected in ("Strength 3 contributed", "Agility 4 contributed", "Magic 0 contributed", "Intelligence 2 contributed",
                     "proposed by pat, approved by curie", URL, "Species Skeith derived"):
        assert expected in card, expected
    thieves = text(player.get("/games/neopets-tcg/cards/the-thieves-code"))
    assert "Bank value 2 contributed" in thieves and "Intelligence bonus 4 imported" in thieves
    pie = text(player.get("/games/neopets-tcg/cards/meaty-pie"))
    assert "Type Item contributed" in pie and "printed card owned by pat" in pie
    # the deck checks and the goldfish engine use the new values at once
    check = player.post("/api/check", json={"game": NEO, "decklist": DARIGAN}).get_json()
    assert not any("Meaty Pie" in v["cards"] for v in check["violations"] if v["severity"] == "unverified")
    start = player.get(f"/goldfish/decks/{deck_id}").get_data(as_text=True)
    assert "cv__the-thieves-code__bank_value" not in start and "cv__meaty-pie__" not in start
    # the history of the card's fields
    history = text(player.get("/games/neopets-tcg/history/blue-skeith"))
    assert "Strength unknown 3 proposed by pat, approved by curie" in history
    assert "Proposal" not in history or f"#{stats_id}" in history


def test_a_non_curator_cannot_review(app, users):
    curator, player = users
    assert propose(player, "the-thieves-code", {"bank_value": "2"}).status_code == 302
    pid = last_proposal_id(app)
    assert player.get("/review").status_code == 403
    for action in ("approve", "reject"):
        assert player.post(f"/review/{pid}/{action}", data={"reason": "mine"}).status_code == 403
    anonymous = app.test_client()
    assert anonymous.get("/review").status_code == 302 and "/login" in anonymous.get("/review").location
    assert anonymous.post(f"/review/{pid}/approve").status_code == 302
    assert anonymous.get("/games/neopets-tcg/propose/card/meaty-pie").status_code == 302
    with app.app_context(), database.connection_context():
        assert models.Proposal.get_by_id(pid).status == "pending"
    assert "Bank value 2" not in text(player.get("/games/neopets-tcg/cards/the-thieves-code"))
    # the header shows the queue to curators only; a proposal's page is its proposer's and the curators'
    assert 'href="/review"' in curator.get("/").get_data(as_text=True)
    assert 'href="/review"' not in player.get("/").get_data(as_text=True)
    assert player.get(f"/proposals/{pid}").status_code == 200
    stranger = app.test_client()
    AuthActions(stranger).signup("sam")
    assert stranger.get(f"/proposals/{pid}").status_code == 404
    assert curator.post(f"/review/{pid}/approve", data={}).status_code == 302
    assert "Bank value 2 contributed" in text(player.get("/games/neopets-tcg/cards/the-thieves-code"))
    assert player.post(f"/review/{pid}/revert", data={"reason": "no"}).status_code == 403


def test_bad_values_are_refused_with_400_and_the_form_says_why(app, users):
    _, player = users
    response = propose(player, "blue-skeith", {"strength": "-2", "type": "Dragon", "faerie": "Purple"}, source="ftp://x")
    assert response.status_code == 400
    page = text(response)
    for expected in ("Strength must be a whole number from 0 to 99", "Type must be one of: Basic Neopet",
                     "Faerie must be one of: Air, Dark", "must be a web address starting with http"):
        assert expected in page, expected
    assert "Nothing to propose" in text(propose(player, "blue-skeith", {"species": "Skeith"}))
    long = propose(player, "blue-skeith", {"text": "x" * 5000})
    assert long.status_code == 400
    with app.app_context(), database.connection_context():
        assert not models.Proposal.select().exists()
    assert player.get("/games/neopets-tcg/propose/card/no-such-card").status_code == 404
    assert player.get("/games/chess/propose/card/x").status_code == 404


def test_html_in_proposed_text_is_escaped_everywhere(app, users):
    curator, player = users
    evil = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    assert propose(player, "meaty-pie", {"text": evil, "species": "<b>Pie</b>"}).status_code == 302
    pid = last_proposal_id(app)
    for page in (curator.get("/review"), curator.get(f"/proposals/{pid}")):
        html = page.get_data(as_text=True)
        assert "<script>alert(1)" not in html and "<img src=x" not in html and "&lt;script&gt;" in html
    assert curator.post(f"/review/{pid}/approve", data={}).status_code == 302
    for url in ("/games/neopets-tcg/cards/meaty-pie", "/games/neopets-tcg/history/meaty-pie",
                "/cards?game=neopets-tcg&q=meaty"):
        html = curator.get(url).get_data(as_text=True)
        assert "<script>alert(1)" not in html and "<img src=x" not in html and "<b>Pie</b>" not in html, url


def test_proposals_are_rate_limited_per_user(databases):
    from tests.conftest import make_app
    app = make_app(databases.with_catalogues(), WTF_CSRF_ENABLED=False, PROPOSAL_RATE_LIMIT=2)
    client = app.test_client()
    AuthActions(client).signup("pat")
    assert propose(client, "blue-skeith", {"strength": "1"}).status_code == 302
    assert propose(client, "blue-skeith", {"strength": "2"}).status_code == 302
    refused = propose(client, "blue-skeith", {"strength": "3"})
    assert refused.status_code == 429 and "2 proposals in the last 60 minutes" in text(refused)


def test_review_forms_need_a_csrf_token(csrf_app):
    curator = csrf_app.test_client()
    page = curator.get("/signup").get_data(as_text=True)
    curator.post("/signup", data={"username": "curie", "password": "correct horse", "confirm": "correct horse",
                                  "csrf_token": csrf_token(page)})
    form = curator.get("/games/neopets-tcg/propose/card/meaty-pie").get_data(as_text=True)
    data = {"f_bank_value": "1", "source_kind": "url", "source_url": URL}
    assert curator.post("/games/neopets-tcg/propose/card/meaty-pie", data=data).status_code == 400
    assert curator.post("/games/neopets-tcg/propose/card/meaty-pie",
                        data={**data, "csrf_token": csrf_token(form)}).status_code == 302
    pid = last_proposal_id(csrf_app)
    assert curator.post(f"/review/{pid}/approve", data={}).status_code == 400
    review = curator.get(f"/proposals/{pid}").get_data(as_text=True)
    assert curator.post(f"/review/{pid}/approve", data={"csrf_token": csrf_token(review)}).status_code == 302


def test_reject_with_a_reason_changes_nothing_and_the_proposer_sees_why(app, users):
    curator, player = users
    propose(player, "the-thieves-code", {"bank_value": "7"})
    pid = last_proposal_id(app)
    refused = curator.post(f"/review/{pid}/reject", data={"reason": " "})
    assert refused.status_code == 302 and "Give a reason" in text(curator.get(refused.location))
    assert curator.post(f"/review/{pid}/reject", data={"reason": "The checklist shows 2."}).status_code == 302
    assert "rejected" in text(player.get("/proposals")) and "The checklist shows 2." in text(player.get("/proposals"))
    assert "Bank value unknown" in text(player.get("/games/neopets-tcg/cards/the-thieves-code"))
    again = curator.post(f"/review/{pid}/approve", data={})
    assert "rejected already" in text(curator.get(again.location))


def test_revert_from_the_proposal_page_and_the_history_keeps_both(app, users):
    curator, player = users
    propose(player, "blue-skeith", {"strength": "7", "species": "Not a Skeith"})
    pid = last_proposal_id(app)
    curator.post(f"/review/{pid}/approve", data={})
    assert "Strength 7 contributed" in text(player.get("/games/neopets-tcg/cards/blue-skeith"))
    page = text(curator.get(f"/proposals/{pid}"))
    assert "Revert this approval" in page
    assert curator.post(f"/review/{pid}/revert", data={"reason": "spam"}).status_code == 302
    card = text(player.get("/games/neopets-tcg/cards/blue-skeith"))
    assert "Strength unknown" in card and "Species Skeith derived" in card
    history = text(player.get("/games/neopets-tcg/history/blue-skeith"))
    assert "reverted by curie" in history and "revert: spam" in history and "Not a Skeith" in history
    assert "approved, then reverted" in text(player.get(f"/proposals/{pid}"))


def test_propose_a_missing_battledome_card_from_its_set_page(app, users):
    curator, player = users
    set_page = player.get("/games/neopets-battledome/sets/defenders-of-neopia").get_data(as_text=True)
    link = "/games/neopets-battledome/propose/new-card?set=defenders-of-neopia"
    assert link in unescape(set_page)
    form = player.get(link)
    assert form.status_code == 200 and '<option selected value="defenders-of-neopia">' in form.get_data(as_text=True)
    data = {"name": "Test Kougra", "f_type": "Neopet", "card_set": "defenders-of-neopia", "number": "12",
            "rarity": "Rare", "f_hp": "9", "f_species": "Kougra", "source_kind": "printed"}
    duplicate = player.post("/games/neopets-battledome/propose/new-card", data={**data, "name": "Acara"})
    assert duplicate.status_code == 400 and "already has" in text(duplicate)
    sent = player.post("/games/neopets-battledome/propose/new-card", data=data)
    assert sent.status_code == 302 and sent.location.endswith("/sets/defenders-of-neopia")
    pid = last_proposal_id(app)
    review = text(curator.get(f"/proposals/{pid}"))
    assert "new card “Test Kougra”" in review and "defenders-of-neopia #12 (Rare)" in review
    done = curator.post(f"/review/{pid}/approve", data={})
    assert done.location.endswith("/games/neopets-battledome/cards/test-kougra")
    card = text(player.get("/games/neopets-battledome/cards/test-kougra"))
    assert "HP 9 contributed" in card and "Type Neopet contributed" in card
    assert "12 Test Kougra Neopet contributed Rare" in text(player.get("/games/neopets-battledome/sets/defenders-of-neopia"))


def test_community_pages_need_nothing_the_content_security_policy_blocks(app, users):
    curator, player = users
    propose(player, "blue-skeith", {"strength": "3"})
    pid = last_proposal_id(app)
    for client, url in ((player, "/games/neopets-tcg/propose/card/blue-skeith"), (player, "/proposals"),
                        (player, "/games/neopets-battledome/propose/new-card"), (curator, "/review"),
                        (curator, f"/proposals/{pid}"), (player, "/games/neopets-tcg/history/blue-skeith"),
                        (player, "/games/neopets-tcg/cards/blue-skeith")):
        html = client.get(url).get_data(as_text=True)
        assert "<style" not in html and " style=" not in html and "<script" not in html, url


@pytest.mark.parametrize("url", ["/review?page=abc", "/review?page=-5", "/review?game=chess", "/proposals/99999",
                                 "/games/neopets-tcg/history/%00", "/games/neopets-tcg/history/no-such-card",
                                 "/games/neopets-tcg/propose/card/%00"])
def test_odd_requests_are_4xx_never_500(users, url):
    curator, _ = users
    assert curator.get(url).status_code in (200, 400, 404)


def test_control_characters_in_a_missing_card_never_reach_the_database(users):
    _, player = users
    response = player.post("/games/neopets-battledome/propose/new-card",
                           data={"name": "Nul\x00Card", "card_set": "defenders-\x00", "number": "1\x00",
                                 "source_kind": "printed"})
    assert response.status_code == 400
    page = text(response)
    assert "may not contain NUL characters" in page  # refused at the door, before the form is read
    response = player.post("/games/neopets-battledome/propose/new-card",
                           data={"name": "Bell\x07Card", "card_set": "defenders-\x01", "number": "1",
                                 "source_kind": "printed"})
    assert response.status_code == 400
    page = text(response)
    assert "one line without control characters" in page and "has no such set" in page


def _checked_source(html: str) -> str | None:
    """The value of the source radio the page has checked, None when none is."""
    for tag in re.findall(r"<input[^>]*name=\"source_kind\"[^>]*>", html):
        if re.search(r"\bchecked\b", tag):
            return re.search(r'value="([^"]*)"', tag).group(1)
    return None


def test_single_card_forms_preselect_no_source_but_offer_the_players_last_one(users):
    """As the set editor: nothing is chosen for a player who never proposed (an empty web address
    would only be refused), a form sent without a choice asks for one, and the next form offers
    the source of the player's last proposal in that game."""
    _, player = users
    for url in ("/games/neopets-tcg/propose/card/meaty-pie", "/games/neopets-tcg/propose/new-card",
                f"/games/{NEO}/sets/battle-for-meridell/edit"):
        assert _checked_source(player.get(url).get_data(as_text=True)) is None, url
    unchosen = player.post("/games/neopets-tcg/propose/card/meaty-pie", data={"f_type": "Item", "source_url": URL})
    assert unchosen.status_code == 400 and "Choose where these facts come from" in text(unchosen)
    assert propose(player, "meaty-pie", {"type": "Item"}).status_code == 302
    for url in ("/games/neopets-tcg/propose/card/the-thieves-code", "/games/neopets-tcg/propose/new-card",
                f"/games/{NEO}/sets/battle-for-meridell/edit"):
        html = player.get(url).get_data(as_text=True)
        assert _checked_source(html) == "url" and f'value="{URL}"' in html, url
    assert propose(player, "the-thieves-code", {"bank_value": "2"}, printed=True).status_code == 302
    assert _checked_source(player.get("/games/neopets-tcg/propose/card/blue-skeith").get_data(as_text=True)) == "printed"
    assert _checked_source(player.get("/games/kaijudo/propose/new-card").get_data(as_text=True)) is None  # per game

"""The set editor and batch review pages, and scans on the web (as a browser without JavaScript
sends them: every cell of the grid is posted, only changed ones become proposals).

Values proposed here are made up for the tests, not facts about the cards; the pictures are drawn
by the tests.
"""
from __future__ import annotations

import io
import re
from html import unescape
from pathlib import Path

import pytest
from PIL import Image

from deckhub.store import models
from deckhub.store.db import database
from tests.conftest import AuthActions
from tests.conftest import visible_text as text

NEO = "neopets-tcg"
SET = "first-edition"
EDITOR = f"/games/{NEO}/sets/{SET}/edit"
URL = "https://example.org/neopets-tcg/first-edition"
DARIGAN = (Path(__file__).resolve().parents[1] / "data" / NEO / "decks" / "darigan-theme-deck.txt").read_text(encoding="utf-8")


@pytest.fixture
def users(app):
    curator, player = app.test_client(), app.test_client()
    assert AuthActions(curator).signup("curie").status_code == 302  # the first account is the curator
    assert AuthActions(player).signup("pat").status_code == 302
    return curator, player


def grid_form(html: str) -> dict:
    """Every input of the grid with the value the page shows, as a browser without JS posts them."""
    form = {}
    for name, value in re.findall(r'<input name="((?:c|n):[^"]+)" value="([^"]*)"', html):
        form[unescape(name)] = unescape(value)
    for name, value in re.findall(r'<textarea name="((?:c|n):[^"]+)"[^>]*>([^<]*)</textarea>', html, re.S):
        form[unescape(name)] = unescape(value)
    return form


def picture(fmt="PNG", size=(60, 84)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (10, 120, 200)).save(out, fmt)
    return out.getvalue()


def counts(app):
    with app.app_context(), database.connection_context():
        return (models.ProposalBatch.select().count(), models.Proposal.select().count(), models.Scan.select().count(),
                models.RateLimitHit.select().where(models.RateLimitHit.bucket.startswith("proposal:")).count())


def test_the_grid_lists_the_set_in_number_order_with_every_field(app, users):
    _, player = users
    assert "Edit this set's facts in a grid" in player.get(f"/games/{NEO}/sets/{SET}").get_data(as_text=True)
    assert app.test_client().get(EDITOR).status_code == 302  # log in first
    page = player.get(EDITOR)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    rows = re.findall(r'<input name="c:([^":]+):type"', html)
    assert len(rows) == 234 and rows[:3] == ["aisha-myriad", "commander-garoo", "the-darkest-faerie"]
    for label in ("Type", "Species", "Faerie", "Strength", "Bank value", "Rules text", "Scan"):
        assert f">{label}</th>" in html, label
    assert '<datalist id="dl-type"><option value="Basic Neopet">' in html
    assert 'list="dl-faerie"' in html and 'class="unknown"' in html
    assert player.get(f"/games/{NEO}/sets/no-such-set/edit").status_code == 404


def test_saving_sends_the_changed_cells_as_one_batch_with_a_new_card(app, users):
    _, player = users
    form = grid_form(player.get(EDITOR).get_data(as_text=True))
    assert len(form) > 234 * 15
    form.update({"c:aisha-myriad:type": "hero", "c:aisha-myriad:strength": "3", "c:commander-garoo:bank_value": "2",
                 "n:0:number": "999", "n:0:name": "Made-up Test Card", "n:0:rarity": "C", "n:0:type": "Item",
                 "source_kind": "url", "source_url": URL})
    sent = player.post(EDITOR, data=form)
    assert sent.status_code == 302, text(sent)[:500]
    assert re.fullmatch(r"/batches/\d+", sent.location)
    assert counts(app) == (1, 3, 0, 1)
    page = text(player.get(sent.location))
    assert "Batch #1: 3 cards of First Edition" in page and "Made-up Test Card new card" in page
    assert "Hero" in page and "pending" in page


def test_a_bad_cell_refuses_the_save_keeps_what_was_typed_and_marks_the_cell(app, users):
    _, player = users
    form = grid_form(player.get(EDITOR).get_data(as_text=True))
    form.update({"c:aisha-myriad:strength": "300", "c:commander-garoo:faerie": "Purple", "c:fire-shoyru:magic": "4",
                 "source_kind": "url", "source_url": URL})
    refused = player.post(EDITOR, data=form)
    assert refused.status_code == 400
    page, html = text(refused), refused.get_data(as_text=True)
    assert "Aisha Myriad: Strength must be a whole number from 0 to 99, not 300" in page
    assert "Commander Garoo: Faerie must be one of" in page
    assert '<input name="c:fire-shoyru:magic" value="4"' in html  # the good cell is kept for the next try
    assert re.search(r'name="c:aisha-myriad:strength" value="300"[^>]*aria-invalid="true"', html)
    assert counts(app) == (0, 0, 0, 0)
    form["source_url"] = ""
    assert "Say where the facts come from" in text(player.post(EDITOR, data={**form, "c:aisha-myriad:strength": "3",
                                                                            "c:commander-garoo:faerie": ""}))
    unchanged = grid_form(player.get(EDITOR).get_data(as_text=True))
    nothing = player.post(EDITOR, data={**unchanged, "source_kind": "url", "source_url": URL})
    assert nothing.status_code == 400 and "Nothing to propose" in text(nothing)


def test_a_curator_reviews_a_batch_as_a_cell_diff_approving_some(app, users):
    curator, player = users
    form = {"c:aisha-myriad:strength": "3", "c:commander-garoo:strength": "5", "c:the-ensorcellator:magic": "2",
            "source_kind": "url", "source_url": URL}
    location = player.post(EDITOR, data=form).location
    batch_id = int(location.rsplit("/", 1)[1])
    queue = text(curator.get("/review"))
    assert f"Batch #{batch_id}" in queue and "3 cards" in queue
    page = curator.get(location)
    assert "Send decisions" in page.get_data(as_text=True)
    with app.app_context(), database.connection_context():
        ids = [p.id for p in models.Proposal.select().order_by(models.Proposal.id)]
    assert player.post(location, data={f"d:{ids[0]}": "approve"}).status_code == 403
    assert curator.post(location, data={f"d:{ids[1]}": "reject"}).status_code == 400  # a rejection needs a reason
    done = curator.post(location, data={f"d:{ids[0]}": "approve", f"d:{ids[1]}": "reject", f"d:{ids[2]}": "",
                                        "reason": "the scan shows 4"})
    assert done.status_code == 302
    card = text(player.get(f"/games/{NEO}/cards/aisha-myriad"))
    assert "Strength 3 contributed" in card
    assert "Strength 5" not in text(player.get(f"/games/{NEO}/cards/commander-garoo"))
    assert "1 waiting for review" in text(player.get(location))
    assert curator.post(location, data={"all": "approve"}).status_code == 302
    assert "Magic 2 contributed" in text(player.get(f"/games/{NEO}/cards/the-ensorcellator"))
    assert "Proposals sent together" not in text(curator.get("/review"))  # no batch waits
    stranger = app.test_client()
    AuthActions(stranger).signup("sam")
    assert stranger.get(location).status_code == 404


def test_a_scan_is_evidence_then_the_printings_picture_on_card_deck_and_goldfish_pages(app, users):
    curator, player = users
    sent = player.post(EDITOR, data={"c:aisha-myriad:strength": "3", "s:aisha-myriad": (io.BytesIO(picture()), "aisha.png"),
                                     "source_kind": "printed"}, content_type="multipart/form-data")
    assert sent.status_code == 302
    with app.app_context(), database.connection_context():
        scan = models.Scan.get()
        proposal_id = scan.proposal_id
    src = f"/scans/{scan.id}"
    assert app.test_client().get(src).status_code == 404  # not public before approval
    assert player.get(src).status_code == 200 and curator.get(src).mimetype == "image/png"
    assert src in curator.get(sent.location).get_data(as_text=True)  # beside the diff
    assert src not in player.get(f"/games/{NEO}/cards/aisha-myriad").get_data(as_text=True)
    assert curator.post(f"/review/{proposal_id}/approve", data={}).status_code == 302
    shown = app.test_client().get(src)
    assert shown.status_code == 200 and shown.headers["X-Content-Type-Options"] == "nosniff"
    card = player.get(f"/games/{NEO}/cards/aisha-myriad")
    assert src in card.get_data(as_text=True) and "Scan by pat" in text(card)
    deck = player.post("/decks/import", data={"name": "With Aisha", "game": NEO, "format": "",
                                              "decklist": DARIGAN + "\n1 Aisha Myriad\n"})
    deck_page = player.get(deck.location).get_data(as_text=True)
    assert src in deck_page and 'title="Scan by pat"' in deck_page


def test_a_proposal_form_takes_a_scan_and_refuses_a_non_image_or_an_oversized_one(app, users):
    _, player = users
    url = f"/games/{NEO}/propose/card/commander-garoo"
    for data, message in ((b"<svg xmlns='http://www.w3.org/2000/svg'/>", "not a JPEG, PNG or WebP"),
                          (b"\xff\xd8\xff" + b"\0" * (3 * 1024 * 1024 + 10), "at most 3 MB")):
        refused = player.post(url, data={"f_strength": "2", "source_kind": "url", "source_url": URL,
                                         "scan": (io.BytesIO(data), "card.jpg")}, content_type="multipart/form-data")
        assert refused.status_code == 400 and message in text(refused)
    refused = player.post(EDITOR, data={"c:aisha-myriad:strength": "3", "s:aisha-myriad": (io.BytesIO(b"hello"), "a.webp"),
                                        "source_kind": "printed"}, content_type="multipart/form-data")
    assert refused.status_code == 400 and "Aisha Myriad: This file is not a JPEG, PNG or WebP" in text(refused)
    assert counts(app) == (0, 0, 0, 0)
    sent = player.post(url, data={"source_kind": "url", "source_url": URL, "scan": (io.BytesIO(picture("JPEG")), "c.jpg")},
                       content_type="multipart/form-data")
    assert sent.status_code == 302 and counts(app)[1:3] == (1, 1)


def test_approved_scans_show_on_goldfish_tiles(app, users):
    from deckhub.services.community.proposing import propose_facts
    from deckhub.services.community.reviewing import approve
    from deckhub.services.catalogue_store import get_catalogue
    from tests.test_goldfish_web import deck_for, start

    curator, player = users
    deck_id = deck_for(player, "kaijudo")
    with app.app_context(), database.connection_context():
        pat, curie = models.User.get(username="pat"), models.User.get(username="curie")
        data = models.DeckVersion.select().where(models.DeckVersion.deck == deck_id).first().data
        keys = sorted({row["card"] for section in data["sections"].values() for row in section})
        for key in keys:  # every card of the deck, so the opening hand shows some
            proposal = propose_facts(pat, "kaijudo", key, {}, URL, scan=picture(), rate_limit=1000)
            approve(proposal.id, curie)
        assert get_catalogue("kaijudo").get(keys[0]) is not None
    board = player.get(start(player, deck_id)).get_data(as_text=True)
    shown = re.search(r'<img class="tile-scan" src="(/games/kaijudo/cards/[^"]+/picture\?size=thumb&amp;v=\d+)" alt="" '
                      r'title="Scan by pat"', board)
    assert shown and player.get(shown.group(1).replace("&amp;", "&")).mimetype == "image/png"  # the scan, not the drawn face


def test_huntik_new_rows_take_a_version(app, users):
    _, player = users
    html = player.get("/games/huntik/sets/SAS/edit").get_data(as_text=True)
    assert 'name="n:0:version"' in html
    assert 'name="n:0:version"' not in player.get(EDITOR).get_data(as_text=True)
    sent = player.post("/games/huntik/sets/SAS/edit", data={"n:0:name": "Made-up Seeker", "n:0:version": "Test Version",
                                                            "n:0:number": "999", "source_kind": "printed"})
    assert sent.status_code == 302
    with app.app_context(), database.connection_context():
        assert models.Proposal.get().new_card["version"] == "Test Version"


def test_the_source_is_a_required_choice_then_the_last_batchs_source_is_offered(app, users):
    _, player = users
    html = player.get(EDITOR).get_data(as_text=True)
    assert not re.search(r'name="source_kind"[^>]*checked', html)  # no default that would be refused
    refused = player.post(EDITOR, data={"c:aisha-myriad:strength": "3", "source_url": ""})
    assert refused.status_code == 400 and "Choose where these facts come from" in text(refused)
    assert '<input name="c:aisha-myriad:strength" value="3"' in refused.get_data(as_text=True)  # what was typed is kept
    assert counts(app) == (0, 0, 0, 0)
    assert player.post(EDITOR, data={"c:aisha-myriad:strength": "3", "source_kind": "url", "source_url": URL}).status_code == 302
    html = player.get(EDITOR).get_data(as_text=True)
    assert re.search(r'<input[^>]*name="source_kind"[^>]*value="url"[^>]*checked|<input[^>]*checked[^>]*value="url"', html)
    assert f'value="{URL}"' in html
    player.post(EDITOR, data={"c:commander-garoo:strength": "5", "source_kind": "printed"})
    html = player.get(EDITOR).get_data(as_text=True)
    assert re.search(r'<input[^>]*checked[^>]*value="printed"|<input[^>]*value="printed"[^>]*checked', html)


def test_go_to_number_jumps_to_the_cards_row_without_javascript(users):
    _, player = users
    html = player.get(EDITOR).get_data(as_text=True)
    assert '<label for="se-goto">Go to number</label>' in html and '<tr id="no-12">' in html
    jump = player.get(EDITOR + "?goto=012")
    assert jump.status_code == 302 and jump.location.endswith(EDITOR + "#no-12")
    missing = player.get(EDITOR + "?goto=9999")
    assert missing.status_code == 404 and "No card of First Edition has the number “9999”" in text(missing)


def test_batch_review_gives_each_card_its_own_reason(app, users):
    curator, player = users
    location = player.post(EDITOR, data={"c:aisha-myriad:strength": "3", "c:commander-garoo:strength": "5",
                                         "c:the-ensorcellator:magic": "2", "source_kind": "url",
                                         "source_url": URL}).location
    with app.app_context(), database.connection_context():
        ids = [p.id for p in models.Proposal.select().order_by(models.Proposal.id)]
    assert 'aria-label="Reason for Aisha Myriad (the proposer sees it)"' in curator.get(location).get_data(as_text=True)
    done = curator.post(location, data={f"d:{ids[0]}": "approve", f"d:{ids[1]}": "reject", f"d:{ids[2]}": "reject",
                                        f"r:{ids[1]}": "my copy says 6", f"r:{ids[2]}": "that is its agility"})
    assert done.status_code == 302
    with app.app_context(), database.connection_context():
        assert [(p.status, p.reason) for p in models.Proposal.select().order_by(models.Proposal.id)] == [
            ("approved", ""), ("rejected", "my copy says 6"), ("rejected", "that is its agility")]
    page = text(player.get(location))
    assert "rejected my copy says 6" in page and "rejected that is its agility" in page


def test_a_self_approved_proposal_is_marked_in_review_and_history(app, users):
    curator, _ = users
    location = curator.post(EDITOR, data={"c:aisha-myriad:strength": "3", "source_kind": "url",
                                          "source_url": URL}).location
    assert curator.post(location, data={"all": "approve"}).status_code == 302  # the site's only curator
    assert "approved self-approved" in text(curator.get(location))
    assert "self-approved" in text(curator.get("/review"))
    assert "approved by curie self-approved" in text(curator.get(f"/games/{NEO}/history/aisha-myriad"))

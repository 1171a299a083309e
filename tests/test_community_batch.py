"""Proposal batches (deckhub.services.community: proposing.propose_batch, reviewing.review_batch) and card
scans (deckhub.services.scans).

Values proposed here are made up for the tests, not facts about the cards; the pictures are
drawn by the tests.
"""
from __future__ import annotations

import io
import threading

import pytest
from PIL import Image

from deckhub.services import scans
from deckhub.services.community.errors import CommunityError, NotAllowed, ProposalInvalid, RateLimited
from deckhub.services.community.proposing import NewCard, propose_batch, propose_facts
from deckhub.services.community.reverting import revert
from deckhub.services.community.review_queue import batch_proposals, pending, pending_batches
from deckhub.services.community.reviewing import approve, review_batch
from deckhub.store import models
from deckhub.services.accounts import create_user
from deckhub.services.catalogue_store import get_catalogue
from deckhub.store.db import database

NEO = "neopets-tcg"
SET = "first-edition"
URL = "https://example.org/neopets-tcg/first-edition"


@pytest.fixture
def people(app):
    with app.app_context(), database.connection_context():
        curator = create_user("curie", "a long password")  # the first account is a curator
        player = create_user("pat", "a long password")
        yield curator, player


def picture(fmt: str = "PNG", size=(60, 84), exif: bool = False) -> bytes:
    img = Image.new("RGB", size, (200, 30, 40))
    out = io.BytesIO()
    extra = {}
    if exif:
        data = Image.Exif()
        data[0x010F] = "SecretCam"      # Make
        data[0x8825] = {2: (1.0, 2.0, 3.0)}  # GPS
        extra["exif"] = data.tobytes()
    img.save(out, fmt, **extra)
    return out.getvalue()


def test_a_batch_of_cells_becomes_one_proposal_per_card_sent_together(people):
    _, player = people
    batch = propose_batch(player, NEO, [
        ("aisha-myriad", "type", "Hero"), ("aisha-myriad", "strength", "3"), ("aisha-myriad", "magic", ""),
        ("commander-garoo", "type", "villain"), ("commander-garoo", "bank_value", 2),
        (NewCard("Made-up Test Card", "999", "C"), "type", "Item"),
        (NewCard("Made-up Test Card", "999", "C"), "bank_value", "1"),
    ], URL, set_code=SET)
    proposals = batch_proposals(batch.id)
    assert [p.card_key for p in proposals] == ["aisha-myriad", "commander-garoo", ""]
    assert proposals[0].values == {"type": "Hero", "strength": 3}  # the empty cell is no change
    assert proposals[1].values == {"type": "Villain", "bank_value": 2}
    assert proposals[2].new_card == {"name": "Made-up Test Card", "version": None, "type": "Item", "set": SET,
                                     "number": "999", "rarity": "C"}
    assert {p.source for p in proposals} == {URL} and batch.set_code == SET
    assert get_catalogue(NEO).get("aisha-myriad").type is None  # nothing changes before review


def test_one_bad_cell_refuses_the_whole_batch_naming_every_problem(people):
    _, player = people
    with pytest.raises(ProposalInvalid) as refused:
        propose_batch(player, NEO, [
            ("aisha-myriad", "strength", "3"), ("commander-garoo", "strength", "-3"),
            ("commander-garoo", "faerie", "Purple"), ("no-such-card", "magic", 1),
            (NewCard("Aisha Myriad"), "type", "Hero")], URL, set_code=SET)
    errors = refused.value.errors
    assert "from 0 to 99" in errors["commander-garoo:strength"] and errors["commander-garoo:strength"].startswith("Commander Garoo")
    assert "one of" in errors["commander-garoo:faerie"]
    assert "no card" in errors["no-such-card:card"]
    assert "already has" in errors["new:0:name"]
    assert models.Proposal.select().count() == 0 and models.ProposalBatch.select().count() == 0
    assert models.RateLimitHit.select().where(models.RateLimitHit.bucket.startswith("proposal:")).count() == 0
    with pytest.raises(ProposalInvalid, match="Say where"):
        propose_batch(player, NEO, [("aisha-myriad", "strength", "3")], "", set_code=SET)
    with pytest.raises(ProposalInvalid, match="Nothing to propose"):
        propose_batch(player, NEO, [("aisha-myriad", "strength", "")], URL, set_code=SET)


def test_a_batch_counts_once_against_the_rate_limit(people):
    _, player = people
    cells = [(row_key, "strength", "4") for row_key in ("aisha-myriad", "commander-garoo", "the-darkest-faerie",
                                                        "the-ensorcellator", "faerie-slingshot")]
    propose_batch(player, NEO, cells, URL, set_code=SET, rate_limit=2)
    assert models.Proposal.select().count() == 5 and models.RateLimitHit.select().where(models.RateLimitHit.bucket.startswith("proposal:")).count() == 1
    propose_facts(player, NEO, "fire-shoyru", {"strength": 1}, URL, rate_limit=2)
    with pytest.raises(RateLimited, match="2 proposals"):
        propose_batch(player, NEO, [("ferocious-negg", "strength", "1")], URL, rate_limit=2)
    assert models.Proposal.select().count() == 6 and models.RateLimitHit.select().where(models.RateLimitHit.bucket.startswith("proposal:")).count() == 2


def test_the_rate_limit_holds_when_requests_arrive_at_once(app, people):
    """Eight batches sent at the same moment with a limit of 3: exactly 3 are stored."""
    _, player = people
    results: list[str] = []
    barrier = threading.Barrier(8)

    def send(n: int) -> None:
        with app.app_context(), database.connection_context():
            barrier.wait()
            try:
                propose_batch(player, NEO, [("aisha-myriad", "strength", str(n + 1))], URL, rate_limit=3)
                results.append("ok")
            except RateLimited:
                results.append("limited")
            except Exception as exc:  # a busy database is a refusal too, never a fourth batch
                results.append(type(exc).__name__)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("ok") <= 3 and models.ProposalBatch.select().count() == results.count("ok")
    assert results.count("ok") >= 1, results


def test_a_curator_approves_some_of_a_batch_and_rejects_the_rest(people):
    curator, player = people
    batch = propose_batch(player, NEO, [
        ("aisha-myriad", "strength", "3"), ("commander-garoo", "strength", "5"), ("the-ensorcellator", "magic", "2")],
        URL, set_code=SET)
    ids = [p.id for p in batch_proposals(batch.id)]
    assert [b.id for b, waiting in pending_batches(NEO)] == [batch.id]
    assert pending(NEO, batched=False) == []
    with pytest.raises(ProposalInvalid, match="reason"):
        review_batch(batch.id, curator, {ids[0]: "approve", ids[1]: "reject"})
    with pytest.raises(NotAllowed):
        review_batch(batch.id, player, {ids[0]: "approve"})
    done = review_batch(batch.id, curator, {ids[0]: "approve", ids[1]: "reject"}, "checked the card")
    assert done == {"approved": [ids[0]], "rejected": [ids[1]], "failed": []}
    catalogue = get_catalogue(NEO)
    assert catalogue.get("aisha-myriad").attrs["strength"] == 3
    assert catalogue.get("commander-garoo").attrs.get("strength") is None
    assert [(b.id, waiting) for b, waiting in pending_batches(NEO)] == [(batch.id, 1)]
    with pytest.raises(CommunityError, match="waiting"):
        review_batch(batch.id, curator, {ids[0]: "approve"})
    review_batch(batch.id, curator, {ids[2]: "approve"})
    assert pending_batches(NEO) == []


# ---------------------------------------------------------------------------------- scans

def test_clean_image_reencodes_and_strips_metadata():
    for fmt, mime in (("JPEG", "image/jpeg"), ("PNG", "image/png"), ("WEBP", "image/webp")):
        clean = scans.clean_image(picture(fmt, exif=True))
        assert clean.mime == mime and (clean.width, clean.height) == (60, 84)
        with Image.open(io.BytesIO(clean.data)) as img:
            assert img.format == fmt and not img.getexif() and "exif" not in img.info
    assert b"SecretCam" not in scans.clean_image(picture("JPEG", exif=True)).data


@pytest.mark.parametrize("data, message", [
    (b"GIF89a not really", "not a JPEG, PNG or WebP"),
    (b"%PDF-1.4 a document", "not a JPEG, PNG or WebP"),
    (picture("PNG")[:60], "not a JPEG, PNG or WebP"),
    (b"", "empty"),
    (b"\x89PNG" + b"\0" * (3 * 1024 * 1024), "at most 3 MB"),
])
def test_clean_image_refuses_what_is_not_a_small_card_picture(data, message):
    with pytest.raises(scans.ScanRefused, match=message):
        scans.clean_image(data)


def test_clean_image_refuses_a_decompression_bomb():
    bomb = io.BytesIO()
    Image.new("1", (8000, 8000)).save(bomb, "PNG")  # 64 million pixels in a few kilobytes
    assert len(bomb.getvalue()) < 100_000
    with pytest.raises(scans.ScanRefused, match="million"):
        scans.clean_image(bomb.getvalue())


def test_an_approved_scan_becomes_the_printings_image_crediting_its_sender(people):
    curator, player = people
    batch = propose_batch(player, NEO, [("aisha-myriad", "strength", "3")], URL,
                          scans={"aisha-myriad": picture("PNG")}, set_code=SET)
    (proposal,) = batch_proposals(batch.id)
    assert scans.card_image(NEO, "aisha-myriad") is None  # evidence only, until approved
    approve(proposal.id, curator)
    image = scans.card_image(NEO, "aisha-myriad", SET)
    assert image is not None and image.by == "pat" and image.set_code == SET
    assert bytes(models.Scan.get_by_id(image.scan_id).data).startswith(b"\x89PNG")
    revert(proposal.id, curator, "wrong picture")
    assert scans.card_image(NEO, "aisha-myriad") is None


def test_a_scan_alone_is_a_proposal_and_a_bad_one_stores_nothing(people):
    curator, player = people
    with pytest.raises(ProposalInvalid, match="not a JPEG"):
        propose_facts(player, NEO, "commander-garoo", {"strength": 2}, URL, scan=b"<svg></svg>")
    with pytest.raises(ProposalInvalid, match="one card"):
        propose_batch(player, NEO, [("aisha-myriad", "strength", "3"), ("commander-garoo", "magic", "1")],
                      URL, scan=picture())
    assert models.Proposal.select().count() == 0 and models.Scan.select().count() == 0
    proposal = propose_facts(player, NEO, "commander-garoo", {}, URL, scan=picture("JPEG"))
    approve(proposal.id, curator)
    assert scans.card_image(NEO, "commander-garoo").by == "pat"


def test_a_new_cards_scan_shows_the_printing_its_approval_adds(people):
    curator, player = people
    new = NewCard("Made-up Scanned Card", "998", "C")
    batch = propose_batch(player, NEO, [(new, "type", "Item")], URL, scans={new: picture("WEBP")},
                          set_code=SET)
    (proposal,) = batch_proposals(batch.id)
    approve(proposal.id, curator)
    assert scans.card_image(NEO, "made-up-scanned-card", SET).by == "pat"


def test_a_batch_review_is_one_catalogue_change_and_a_failing_card_leaves_the_others(people):
    curator, player = people
    batch = propose_batch(player, NEO, [
        ("aisha-myriad", "strength", "3"), ("commander-garoo", "strength", "5"), ("the-ensorcellator", "magic", "2")],
        URL, set_code=SET)
    ids = [p.id for p in batch_proposals(batch.id)]
    # stored as it may have been before a rule tightened: approval checks it again and refuses it
    models.Proposal.update(values={"strength": 500}).where(models.Proposal.id == ids[1]).execute()
    stamp = models.CatalogueStamp.get(models.CatalogueStamp.game == NEO).version
    done = review_batch(batch.id, curator, {pid: "approve" for pid in ids})
    assert done == {"approved": [ids[0], ids[2]], "rejected": [], "failed": [ids[1]]}
    assert models.CatalogueStamp.get(models.CatalogueStamp.game == NEO).version == stamp + 1
    assert models.Proposal.get_by_id(ids[1]).status == "pending"
    catalogue = get_catalogue(NEO)
    assert catalogue.get("aisha-myriad").attrs["strength"] == 3 and catalogue.get("the-ensorcellator").attrs["magic"] == 2
    assert models.FactChange.select().where(models.FactChange.proposal == ids[1]).count() == 0


# ---------------------------------------------------------------------------------- per-card reasons, self-approval

def test_each_rejected_card_keeps_its_own_reason_and_approved_cards_get_none_they_were_not_given(people):
    curator, player = people
    batch = propose_batch(player, NEO, [
        ("aisha-myriad", "strength", "3"), ("commander-garoo", "strength", "5"), ("the-ensorcellator", "magic", "2"),
        ("the-darkest-faerie", "magic", "4")], URL, set_code=SET)
    ids = [p.id for p in batch_proposals(batch.id)]
    with pytest.raises(ProposalInvalid, match="every card you reject"):  # the third rejection has no reason
        review_batch(batch.id, curator, {ids[0]: "reject", ids[1]: "reject"}, reasons={ids[0]: "blurred scan"})
    done = review_batch(batch.id, curator, {ids[0]: "approve", ids[1]: "reject", ids[2]: "reject", ids[3]: "reject"},
                        "not on the checklist", {ids[1]: "the strength is 6 on my copy", ids[2]: "that is its agility"})
    assert done == {"approved": [ids[0]], "rejected": ids[1:], "failed": []}
    reasons = {p.id: p.reason for p in batch_proposals(batch.id)}
    assert reasons == {ids[0]: "", ids[1]: "the strength is 6 on my copy", ids[2]: "that is its agility",
                       ids[3]: "not on the checklist"}


def test_a_reason_given_with_an_approval_stays_on_that_card(people):
    curator, player = people
    batch = propose_batch(player, NEO, [("aisha-myriad", "strength", "3"), ("commander-garoo", "strength", "5")],
                          URL, set_code=SET)
    ids = [p.id for p in batch_proposals(batch.id)]
    review_batch(batch.id, curator, {ids[0]: "approve", ids[1]: "reject"}, "unreadable", {ids[0]: "matches my copy"})
    assert [(p.status, p.reason) for p in batch_proposals(batch.id)] == [("approved", "matches my copy"),
                                                                         ("rejected", "unreadable")]


def test_a_curators_own_proposal_needs_another_curator(people):
    curator, _ = people
    second = create_user("marie", "a long password", curator=True)
    own = propose_facts(curator, NEO, "aisha-myriad", {"strength": "3"}, URL)
    with pytest.raises(NotAllowed, match="another curator"):
        approve(own.id, curator)
    batch = propose_batch(curator, NEO, [("commander-garoo", "strength", "5"), ("the-ensorcellator", "magic", "2")],
                          URL, set_code=SET)
    ids = [p.id for p in batch_proposals(batch.id)]
    with pytest.raises(NotAllowed, match="another curator"):
        review_batch(batch.id, curator, {ids[0]: "approve"})
    assert review_batch(batch.id, curator, {ids[1]: "reject"}, "I misread it")["rejected"] == [ids[1]]  # withdrawing is fine
    assert approve(own.id, second).self_approved is False
    assert review_batch(batch.id, second, {ids[0]: "approve"})["approved"] == [ids[0]]
    assert get_catalogue(NEO).get("aisha-myriad").attrs["strength"] == 3


def test_the_only_curator_may_approve_their_own_proposal_which_is_marked_self_approved(people):
    curator, player = people
    own = propose_facts(curator, NEO, "aisha-myriad", {"strength": "3"}, URL)
    done = approve(own.id, curator)
    assert done.status == "approved" and done.self_approved
    batch = propose_batch(curator, NEO, [("commander-garoo", "strength", "5")], URL, set_code=SET)
    review_batch(batch.id, curator, {p.id: "approve" for p in batch_proposals(batch.id)})
    assert [p.self_approved for p in batch_proposals(batch.id)] == [True]
    theirs = propose_facts(player, NEO, "the-ensorcellator", {"magic": "2"}, URL)
    assert approve(theirs.id, curator).self_approved is False


def test_every_proposal_form_offers_the_source_of_the_players_last_proposal_in_that_game(people):
    from deckhub.services.community.fields import PRINTED
    from deckhub.services.community.proposing import last_source
    _, player = people
    assert last_source(player, NEO) is None
    propose_batch(player, NEO, [("aisha-myriad", "strength", "3")], URL, set_code=SET)
    assert last_source(player, NEO) == URL
    propose_facts(player, NEO, "commander-garoo", {"strength": "5"}, PRINTED)
    assert last_source(player, NEO) == PRINTED
    assert last_source(player, "kaijudo") is None

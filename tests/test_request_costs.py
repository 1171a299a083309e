"""What one request may cost the server: a facts CSV dry run of many unknown cards, scans decoded only
after the proposal's own checks pass (and within a daily byte budget), waiting collection uploads
stored compactly under a per-account byte cap."""
from __future__ import annotations

import io

import pytest

from deckhub.services import facts
from deckhub.store.db import database
from tests.conftest import AuthActions

NEO = "neopets-tcg"
URL = "https://example.org/neopets-tcg/checklist"


def unknown_rows(n: int) -> bytes:
    lines = ["game,name,type,source"] + [f"{NEO},Nosuchcard {i} Zorblax,Item,{URL}" for i in range(n)]
    return "\n".join(lines).encode()


# --------------------------------------------------------------------------- facts CSV dry runs

def test_a_dry_run_of_many_unknown_cards_suggests_for_a_bounded_number(app, monkeypatch):
    """Fuzzy "did you mean" matching is what a file of unknown names multiplied: only the first
    MAX_SUGGESTED unknown names get it, the rest are still reported as unknown."""
    from deckhub.core.cards import Catalogue
    calls = []
    real = Catalogue.suggest
    monkeypatch.setattr(Catalogue, "suggest", lambda self, name, *a, **k: calls.append(name) or real(self, name, *a, **k))
    with app.app_context(), database.connection_context():
        preview = facts.preview_import(unknown_rows(3_000))
    assert len(preview.problem_rows) == 3_000
    assert all(p.kind == "unknown-card" for r in preview.rows for p in r.problems)
    from deckhub.importers.collection_csv import MAX_SUGGESTED
    assert len(calls) == MAX_SUGGESTED


def test_the_web_dry_run_refuses_a_file_over_its_row_cap_naming_the_command(app):
    """The check runs as a job (at once in the tests); past WEB_MAX_ROWS rows it fails naming the command
    line, and a file of exactly that many rows is checked whole (a repeated unknown name costs one lookup)."""
    client = app.test_client()
    assert AuthActions(client).signup("pat").status_code == 302

    def rows(n: int) -> bytes:
        return "\n".join(["game,name,type"] + [f"{NEO},Nosuchcard {i % 100} Zorblax,Item" for i in range(n)]).encode()

    response = client.post("/facts/import", data={"file": (io.BytesIO(rows(facts.WEB_MAX_ROWS + 1)), "big.csv")},
                           content_type="multipart/form-data", follow_redirects=True)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert f"more than {facts.WEB_MAX_ROWS:,} rows" in page and "deckhub facts import" in page
    response = client.post("/facts/import", data={"file": (io.BytesIO(rows(facts.WEB_MAX_ROWS)), "ok.csv")},
                           content_type="multipart/form-data", follow_redirects=True)
    assert response.status_code == 400 and f"{facts.WEB_MAX_ROWS:,} problems" in response.get_data(as_text=True)


# --------------------------------------------------------------------------- scans

def picture(size=(60, 84)) -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 40)).save(out, "PNG")
    return out.getvalue()


def bomb() -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.new("1", (8000, 8000)).save(out, "PNG")  # 64 million pixels in a few kilobytes
    return out.getvalue()


PICTURE, BOMB = picture(), bomb()  # made before any test spies on decoding


@pytest.fixture
def player(app):
    from deckhub.services.accounts import create_user
    with app.app_context(), database.connection_context():
        create_user("curie", "a long password")  # the first account is a curator
        yield create_user("pat", "a long password")


@pytest.fixture
def decoded(monkeypatch):
    """Every scan decoded (scans.clean_image), and every pixel load: the costly part a refusal must skip."""
    from PIL import Image

    from deckhub.services import scans
    calls = []
    real_clean, real_load = scans.clean_image, Image.Image.load
    monkeypatch.setattr(scans, "clean_image", lambda data: calls.append("clean") or real_clean(data))
    monkeypatch.setattr(Image.Image, "load", lambda self: calls.append("load") or real_load(self))
    return calls


def test_a_scan_on_a_proposal_refused_anyway_is_never_decoded(player, decoded):
    from deckhub.services.community.errors import ProposalInvalid, RateLimited
    from deckhub.services.community.proposing import propose_batch, propose_card, propose_facts
    with pytest.raises(ProposalInvalid) as refused:
        propose_facts(player, NEO, "commander-garoo", {"strength": "lots"}, "not a source", scan=PICTURE)
    assert "scan" not in refused.value.errors
    with pytest.raises(ProposalInvalid):
        propose_card(player, NEO, {"name": ""}, {}, URL, scan=PICTURE)
    with pytest.raises(ProposalInvalid):
        propose_batch(player, NEO, [("commander-garoo", "strength", "lots")], URL,
                      scans={"commander-garoo": PICTURE})
    propose_facts(player, NEO, "commander-garoo", {"strength": 2}, URL, rate_limit=1)
    with pytest.raises(RateLimited):  # over the rate limit: refused before the decoding too
        propose_facts(player, NEO, "commander-garoo", {"strength": 3}, URL, scan=PICTURE, rate_limit=1)
    assert decoded == []
    proposal = propose_facts(player, NEO, "aisha-myriad", {}, URL, scan=PICTURE)
    assert decoded[0] == "clean" and "load" in decoded and proposal.scans.count() == 1


def test_scans_count_against_a_daily_byte_budget(player, decoded, monkeypatch):
    from deckhub.services import scans
    from deckhub.services.community.errors import RateLimited
    from deckhub.services.community.proposing import propose_batch, propose_facts
    from deckhub.store import models
    one = PICTURE
    monkeypatch.setattr(scans, "DAILY_BYTES", 2 * len(one) + 10)
    propose_facts(player, NEO, "aisha-myriad", {}, URL, scan=one)
    propose_batch(player, NEO, [], URL, scans={"commander-garoo": one})
    with pytest.raises(RateLimited, match="as many as one player may send in a day"):
        propose_facts(player, NEO, "blue-skeith", {}, URL, scan=one)
    assert decoded.count("clean") == 2 and models.Scan.select().count() == 2
    propose_facts(player, NEO, "blue-skeith", {"strength": 2}, URL)  # without a scan it is no cost
    models.RateLimitHit.update(created_at=models.utcnow() - scans.BUDGET_WINDOW).where(
        models.RateLimitHit.bucket == f"scan-bytes:{player.id}").execute()
    propose_facts(player, NEO, "blue-skeith", {}, URL, scan=one)  # a day later it has room again
    assert models.Scan.select().count() == 3


def test_a_decompression_bomb_is_refused_from_its_header_with_a_400(app, decoded):
    client = app.test_client()
    assert AuthActions(client).signup("pat").status_code == 302
    form = client.get(f"/games/{NEO}/propose/card/aisha-myriad")
    assert form.status_code == 200
    response = client.post(f"/games/{NEO}/propose/card/aisha-myriad", content_type="multipart/form-data", data={
        "source_kind": "url", "source_url": URL, "scan": (io.BytesIO(BOMB), "bomb.png")})
    assert response.status_code == 400 and "million" in response.get_data(as_text=True)
    assert "clean" not in decoded and "load" not in decoded


# --------------------------------------------------------------------------- waiting collection uploads

def kaijudo_rows(n: int, unknown_every: int = 0) -> bytes:
    """n rows over every Kaijudo printing (repeating), every `unknown_every`-th a misspelt name."""
    from deckhub.services import collection as col
    index = col.game_index("kaijudo")
    printings = list(index.printings.values())
    lines = []
    for i in range(n):
        r = printings[i % len(printings)]
        name = index.catalogue.cards[r.card_key].name
        if unknown_every and i % unknown_every == 0:
            name += f" Zorblax {i}"
        lines.append(f"kaijudo,{r.set_code},{r.number},\"{name}\",{i % 4 + 1}")
    return ("game,set,number,name,quantity\n" + "\n".join(lines)).encode()


def test_a_waiting_upload_is_stored_compactly_and_pages_read_back(app, player):
    from deckhub.services import collection_imports as uploads
    data = kaijudo_rows(5_000, unknown_every=50)
    upload = uploads.create(player, data, "big.csv", None)
    assert upload.state == "ready" and upload.summary["rows"] == 5_000 and upload.summary["problems"] == 100
    stored = uploads.stored_bytes(upload.id)
    assert stored < 60 * 5_000, f"{stored / 5_000:.1f} bytes a row"  # a database row each took ~500 bytes and two index entries
    rows, total = uploads.preview_rows(upload, "problems", 2, 30)
    assert total == 100 and [r["line"] for r in rows] == [2 + 50 * i for i in range(30, 60)]
    assert all(r["kind"] == "problem" and r["problems"] for r in rows)
    rows, total = uploads.preview_rows(upload, "all", 3, 200)
    assert total == 5_000 and [r["line"] for r in rows] == list(range(402, 602))
    assert rows[1]["problems"] == [] and rows[1]["fixed"] is False and rows[1]["card"]
    assert uploads.preview_rows(upload, "all", 26, 200) == ([], 5_000)


def test_a_file_over_the_size_cap_and_waiting_bytes_over_the_account_cap_are_refused(app, player, monkeypatch):
    from deckhub.services import collection_imports as uploads
    from deckhub.store import models
    with pytest.raises(uploads.UploadError, match="at most 4 MB"):
        uploads.create(player, b"game,name,quantity\n" + b"x" * uploads.MAX_UPLOAD_BYTES, "huge.csv", None)
    a, b = kaijudo_rows(300, unknown_every=7), kaijudo_rows(300)
    monkeypatch.setattr(uploads, "MAX_WAITING_BYTES", len(a) + len(b) + 10)
    first = uploads.create(player, a, "a.csv", None)
    uploads.create(player, b, "b.csv", None)
    with pytest.raises(uploads.UploadLimit, match="may wait at once"):
        uploads.create(player, kaijudo_rows(300), "c.csv", None)
    assert models.CollectionUpload.select().count() == 2
    assert uploads.discard(player, first.token) is True  # discarding one makes room, its pages go with it
    assert models.CollectionUploadPage.select().where(models.CollectionUploadPage.upload == first.id).count() == 0
    uploads.create(player, kaijudo_rows(300), "c.csv", None)

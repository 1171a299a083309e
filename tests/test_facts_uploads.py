"""Facts CSV dry runs as jobs: the request only stores the file and queues its check; a worker checks
it; the page shows the progress, then the preview and the button that proposes. Limits per user hold
under concurrent submits, nobody sees another's file, lost checks are sent again, old files expire.

Values proposed here are made up for the tests, not facts about the cards."""
from __future__ import annotations

import datetime as dt
import io
import threading

import pytest

from deckhub.services import facts, facts_uploads, jobs
from deckhub.store import models
from deckhub.store.db import database
from tests.conftest import AuthActions
from tests.conftest import visible_text as text

NEO = "neopets-tcg"
URL = "https://example.org/neopets-tcg/checklist"


def unknown_rows(n: int, distinct: int) -> bytes:
    """n rows naming `distinct` different unknown cards (each name's suggestions are looked up once)."""
    return "\n".join(["game,name,type,source"] + [f"{NEO},Nosuchcard {i % distinct} Zorblax,Item,{URL}"
                                                  for i in range(n)]).encode()


def send(client, body: bytes, **kwargs):
    return client.post("/facts/import", data={"file": (io.BytesIO(body), "facts.csv")},
                       content_type="multipart/form-data", **kwargs)


@pytest.fixture
def held_queue(tmp_path):
    """A queue whose messages wait (no worker runs them): the request's own work can be seen alone."""
    jobs.configure(f"sqlite:///{tmp_path / 'queue.sqlite3'}", "facts-held")
    yield
    jobs.configure("immediate")


def _swept() -> None:
    """A worker takes what waited: the queue runs jobs at once again and the sweep finds the lost ones."""
    jobs.configure("immediate")
    with database.connection_context():
        models.FactsUpload.update(updated_at=models.utcnow() - jobs.LOST_AFTER - dt.timedelta(seconds=5)).execute()
    jobs.recover()


def test_a_20000_row_dry_run_is_only_stored_and_queued_by_the_request(app, held_queue, monkeypatch):
    client = app.test_client()
    assert AuthActions(client).signup("pat").status_code == 302
    checked = []
    real = facts.plan
    monkeypatch.setattr(facts, "plan", lambda *a, **k: checked.append(1) or real(*a, **k))
    sent = send(client, unknown_rows(20_000, 300))
    assert sent.status_code == 303 and checked == []  # nothing of the file is read inside the request
    with database.connection_context():
        upload = models.FactsUpload.get()
        assert upload.state == "queued" and len(upload.data) > 1_000_000
        from deckhub.services import job_board
        assert [(j.kind, j.owner, j.subject) for j in job_board.board()["queued"]] == [("Facts file check", "pat", "facts.csv")]
    waiting = client.get(sent.location)
    assert waiting.status_code == 200 and "Checking the file" in text(waiting) and "Waiting for a worker" in text(waiting)
    assert '<meta http-equiv="refresh" content="1">' in waiting.get_data(as_text=True)

    _swept()
    assert checked == [1]
    page = client.get(sent.location)
    assert page.status_code == 400
    shown = text(page)
    assert "20,000 problems" in shown and "20,000 rows" in shown and "Page 1 of 100" in shown
    assert "has no card 'Nosuchcard 0 Zorblax'" in shown and "got no “did you mean”" not in shown
    last = text(client.get(sent.location + "?page=100"))
    assert "Nosuchcard 199 Zorblax" in last and "20001" in last  # the last row, 19,999 % 300
    assert "/propose" not in page.get_data(as_text=True)
    with database.connection_context():
        upload = models.FactsUpload.get()
        assert upload.data is None and len(upload.preview) < 200_000  # the file is dropped, the preview compact


def test_each_distinct_unknown_name_is_suggested_for_once_up_to_the_bound(app, monkeypatch):
    """The job gives suggestions to far more names than the command line's default (a name repeated
    is looked up once), and never to more than MAX_SUGGESTED different names."""
    from deckhub.core.cards import Catalogue
    calls = []
    real = Catalogue.suggest
    monkeypatch.setattr(Catalogue, "suggest", lambda self, name, *a, **k: calls.append(name) or real(self, name, *a, **k))
    client = app.test_client()
    assert AuthActions(client).signup("pat").status_code == 302
    assert "600 problems" in text(send(client, unknown_rows(600, 300), follow_redirects=True))
    assert sorted(calls) == sorted(f"Nosuchcard {i} Zorblax" for i in range(300))  # beyond the 200 of a CLI dry run
    calls.clear()
    monkeypatch.setattr(facts_uploads, "MAX_SUGGESTED", 40)
    page = text(send(client, unknown_rows(600, 300), follow_redirects=True))
    assert len(calls) == 40 and "got no “did you mean” suggestions" in page


def test_the_per_user_limit_holds_under_concurrent_submits(app, held_queue):
    with database.connection_context():
        from deckhub.services.accounts import create_user
        pat = create_user("pat", "correct horse")
    body = unknown_rows(3, 3)
    results, errors = [], []
    barrier = threading.Barrier(8)

    def submit():
        try:
            database.connect(reuse_if_open=True)
            barrier.wait()
            results.append(facts_uploads.create(pat, body, "facts.csv").state)
        except facts_uploads.UploadLimit:
            results.append("refused")
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            database.close()

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(results) == ["queued"] * facts_uploads.MAX_CHECKING + ["refused"] * (8 - facts_uploads.MAX_CHECKING)
    with database.connection_context():
        assert models.FactsUpload.select().count() == facts_uploads.MAX_CHECKING
    client = app.test_client()
    assert AuthActions(client).login("pat", "correct horse").status_code == 302
    refused = send(client, body)
    assert refused.status_code == 429 and "at most 3 at once" in text(refused)


def test_nobody_else_sees_proposes_or_discards_a_file(app):
    alice, bob = app.test_client(), app.test_client()
    assert AuthActions(alice).signup("alice").status_code == 302
    assert AuthActions(bob).signup("bob").status_code == 302
    with database.connection_context():
        from deckhub.services.catalogue_store import get_catalogue
        card = next(c for c in get_catalogue(NEO) if not c.type)
    sent = send(alice, f"game,name,type,source\n{NEO},\"{card.name}\",Item,{URL}\n".encode())
    assert alice.get(sent.location).status_code == 200
    for answer in (bob.get(sent.location), bob.post(sent.location + "/propose"), bob.post(sent.location + "/discard")):
        assert answer.status_code == 404 and "Item" not in text(answer)
    with database.connection_context():
        assert models.FactsUpload.get().state == "ready" and not models.Proposal.select().exists()
    assert alice.post(sent.location + "/propose").status_code == 303
    again = alice.post(sent.location + "/propose")  # proposed once only
    assert again.status_code == 400
    with database.connection_context():
        assert [p.values for p in models.Proposal.select()] == [{"type": "Item"}]


def test_a_check_left_by_a_dead_worker_is_run_again_and_old_files_expire(app):
    client = app.test_client()
    assert AuthActions(client).signup("pat").status_code == 302
    sent = send(client, unknown_rows(5, 5))
    with database.connection_context():  # as a worker killed in the middle of the check leaves it
        models.FactsUpload.update(state="checking", worker=f"{jobs.worker_id().rpartition(':')[0]}:999999999",
                                  summary=None, preview=None, data=unknown_rows(5, 5)).execute()
    assert "Checking the file" in text(client.get(sent.location))
    jobs.recover()
    assert "5 problems" in text(client.get(sent.location))
    with database.connection_context():
        models.FactsUpload.update(created_at=models.utcnow() - facts_uploads.MAX_AGE - dt.timedelta(minutes=1)).execute()
        assert facts_uploads.expire() == 1 and not models.FactsUpload.select().exists()
    assert client.get(sent.location).status_code == 404


def test_a_file_over_the_byte_cap_is_refused_and_nothing_is_stored(app):
    client = app.test_client()
    assert AuthActions(client).signup("pat").status_code == 302
    refused = send(client, b"game,name\n" + b"x" * facts_uploads.MAX_UPLOAD_BYTES)
    assert refused.status_code == 400 and "larger than 4 MB" in text(refused) and "deckhub facts import" in text(refused)
    with database.connection_context():
        assert not models.FactsUpload.select().exists()


def test_a_rate_limited_proposal_writes_nothing_and_the_file_still_waits(app):
    client = app.test_client()
    assert AuthActions(client).signup("pat").status_code == 302
    with database.connection_context():
        from deckhub.services.catalogue_store import get_catalogue
        card = next(c for c in get_catalogue(NEO) if not c.type)
    sent = send(client, f"game,name,type,source\n{NEO},\"{card.name}\",Item,{URL}\n".encode())
    app.config["PROPOSAL_RATE_LIMIT"] = 0
    refused = client.post(sent.location + "/propose")
    assert refused.status_code == 429 and "Nothing was proposed" in text(refused)
    with database.connection_context():  # the proposals and the file's new state were one transaction
        assert models.FactsUpload.get().state == "ready" and not models.Proposal.select().exists()
    app.config["PROPOSAL_RATE_LIMIT"] = 30
    assert client.post(sent.location + "/propose").status_code == 303
    with database.connection_context():
        assert models.FactsUpload.get().state == "proposed" and models.Proposal.select().count() == 1


def test_a_check_that_breaks_says_so_instead_of_checking_for_ever(app, monkeypatch):
    monkeypatch.setattr(facts, "plan", lambda *a, **k: 1 / 0)
    client = app.test_client()
    assert AuthActions(client).signup("pat").status_code == 302
    page = send(client, unknown_rows(2, 2), follow_redirects=True)
    assert page.status_code == 400 and "The check failed (ZeroDivisionError)" in text(page)
    with database.connection_context():
        assert models.FactsUpload.get().state == "failed" and models.FactsUpload.get().data is None

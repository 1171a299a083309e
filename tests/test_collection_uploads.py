"""Collection uploads as jobs: the per-user limit, a commit that crashes half way, expiry."""
from __future__ import annotations

import datetime as dt
import io

import pytest

from deckhub.services import collection as col
from deckhub.services import collection_imports, jobs
from deckhub.store import models
from deckhub.store.db import database
from tests.conftest import page_html as text

GAME = "kaijudo"
GOOD = b"game,set,number,name,quantity,foil_quantity\nkaijudo,Evo Fury,1,,3,1\nkaijudo,evo-fury,2,Cloudwalker Drone,2,\n"


def upload(client, data: bytes = GOOD):
    return client.post("/collection/import", data={"file": (io.BytesIO(data), "mine.csv"), "game": ""},
                       content_type="multipart/form-data")


def _owned_total(username: str) -> int:
    with database.connection_context():
        user = models.User.get(models.User.username == username)
        return sum(o.total for o in col.snapshot(user).values())


def _every_kaijudo_printing() -> bytes:
    with database.connection_context():
        index = col.game_index(GAME)
        lines = [f"kaijudo,{r.set_code},{r.number},\"{index.catalogue.cards[r.card_key].name}\",1"
                 for r in index.printings.values()]
    return ("game,set,number,name,quantity\n" + "\n".join(lines)).encode()


def test_at_most_five_uploads_wait_per_user(client, auth):
    auth.signup()
    links = [upload(client).headers["Location"] for _ in range(5)]
    refused = upload(client)
    assert refused.status_code == 429
    assert "You already have 5 uploads waiting (at most 5)" in text(refused)
    client.post(links[0] + "/discard")
    assert upload(client).status_code == 303
    client.post(links[1] + "/commit")  # an imported upload no longer waits
    assert upload(client).status_code == 303
    assert upload(client).status_code == 429
    auth.logout()
    auth.signup("bob")  # the limit is per user
    assert upload(client).status_code == 303


def test_a_commit_that_crashes_half_way_writes_nothing_and_can_be_committed_again_at_once(client, auth, monkeypatch):
    auth.signup()
    preview_url = upload(client, _every_kaijudo_printing()).headers["Location"]
    real_upsert, calls = col._upsert, []

    def crash_on_the_second_chunk(*args):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the worker died")
        return real_upsert(*args)
    monkeypatch.setattr(col, "_upsert", crash_on_the_second_chunk)
    monkeypatch.setattr(col, "CHUNK", 100)  # several chunks on every database
    page = text(client.post(preview_url + "/commit", follow_redirects=True))
    assert len(calls) == 2  # the first chunk of printings was written inside the transaction...
    assert _owned_total("alice") == 0  # ...and rolled back with it
    assert "Nothing was imported" in page and "nothing was written (RuntimeError); commit it again" in page
    monkeypatch.setattr(col, "_upsert", real_upsert)
    page = text(client.post(preview_url + "/commit", follow_redirects=True))
    assert "Imported" in page and "1293 printings set" in page
    assert _owned_total("alice") == 1293


def test_a_commit_left_by_a_dead_worker_is_committed_again_at_once(client, auth):
    auth.signup()
    preview_url = upload(client).headers["Location"]
    with database.connection_context():
        models.CollectionUpload.update(state="committing", worker=f"{jobs.worker_id().rpartition(':')[0]}:999999999") \
            .execute()  # as a worker killed in the middle of the transaction leaves it
    page = text(client.get(preview_url, follow_redirects=True))
    assert "Importing…" in page and "Commit it again" in page and '<meta http-equiv="refresh" content="1">' in page
    page = text(client.post(preview_url + "/commit", follow_redirects=True))
    assert "Imported" in page and "<strong>2</strong> changed" in page
    # and the worker's periodic sweep does the same without anyone clicking
    again = upload(client, GOOD.replace(b",3,1", b",4,1")).headers["Location"]
    with database.connection_context():
        models.CollectionUpload.update(state="committing", worker=f"{jobs.worker_id().rpartition(':')[0]}:999999999") \
            .where(models.CollectionUpload.state == "ready").execute()
    jobs.recover()
    assert "<strong>1</strong> changed" in text(client.get(again + "/progress"))


def test_old_uploads_are_expired_by_the_periodic_task(client, auth):
    auth.signup()
    old, fresh = upload(client).headers["Location"], upload(client).headers["Location"]
    with database.connection_context():
        first = models.CollectionUpload.get_by_id(1)
        models.CollectionUpload.update(created_at=models.utcnow() - dt.timedelta(hours=3)) \
            .where(models.CollectionUpload.id == first.id).execute()
    assert client.get(old).status_code == 404  # expired links are gone at once...
    collection_imports.expire_uploads()
    with database.connection_context():  # ...and the sweep removes them with their stored plans
        assert [u.id for u in models.CollectionUpload.select()] == [2]
        assert models.CollectionUploadPage.select().where(models.CollectionUploadPage.upload == 1).count() == 0
    assert client.get(fresh).status_code == 200


@pytest.mark.parametrize("token", ["x" * 65, "", "../../secret_key"])
def test_odd_tokens_are_404(client, auth, token):
    auth.signup()
    assert client.get(f"/collection/import/{token}").status_code == 404

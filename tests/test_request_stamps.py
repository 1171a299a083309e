"""A web request reads each game's catalogue stamp once, and again after it bumps it itself."""
from __future__ import annotations

from deckhub.services import catalogue_store
from deckhub.services.catalogue_store import begin_request, bump_stamp, end_request, get_catalogue
from deckhub.store.db import database


def test_a_request_reads_a_stamp_once_and_again_after_its_own_bump(app):
    with app.app_context(), database.connection_context():
        before = get_catalogue("kaijudo")
        begin_request()
        try:
            assert get_catalogue("kaijudo") is before
            # another worker's change: not seen until the next request
            database.execute_sql('UPDATE "catalogue_stamp" SET version = version + 1 WHERE game = %s'
                                 .replace("%s", database.obj.param), ("kaijudo",))
            assert get_catalogue("kaijudo") is before
            bump_stamp("kaijudo")  # this request's own change is seen at once
            after = get_catalogue("kaijudo")
            assert after is not before and after.stamp == before.stamp + 2
        finally:
            end_request()
        assert catalogue_store._request_stamps.get() is None
        bump_stamp("kaijudo")
        assert get_catalogue("kaijudo").stamp == after.stamp + 1  # outside a request: every read asks


def test_a_signed_in_request_brings_the_stamps_with_its_user_and_sees_other_workers_changes_next(
        app, client, auth, monkeypatch):
    """The signed-in user's statement carries every catalogue's stamp (`sessions.load`): a page that
    reads cards sends no statement of its own for them, and a change another worker made since the
    last request is what the next request reads."""
    from deckhub.services import sessions
    auth.signup()  # (signed in)
    sent, brought = [], []
    original = database.obj.execute_sql

    def counting(sql, params=None, *args, **kwargs):
        sent.append(sql)
        return original(sql, params, *args, **kwargs)
    database.obj.execute_sql = counting
    monkeypatch.setattr(sessions, "seed_request_stamps",
                        lambda text: brought.append(text) or catalogue_store.seed_request_stamps(text))
    try:
        assert client.get("/cards?game=kaijudo&q=dragon").status_code == 200
    finally:
        del database.obj.execute_sql
    stamps = [sql for sql in sent if 'FROM "catalogue_stamp"' in sql]
    assert len(stamps) == 1 and '"username"' in stamps[0]  # the user's statement only
    with app.app_context(), database.connection_context():
        before = get_catalogue("kaijudo").stamp
        database.execute_sql('UPDATE "catalogue_stamp" SET version = version + 1 WHERE game = %s'
                             .replace("%s", database.obj.param), ("kaijudo",))  # another worker's change
    assert f"kaijudo={before}" in brought[-1].split(",")
    assert client.get("/cards?game=kaijudo&q=dragon").status_code == 200
    assert f"kaijudo={before + 1}" in brought[-1].split(",")

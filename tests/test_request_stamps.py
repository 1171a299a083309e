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

"""What a site says while its database or its queue cannot be reached: 503 with a clear page, never
a 500, and never a run written behind an error."""
from __future__ import annotations

import datetime as dt
import io
import os
import socket

import pytest

from conftest import POSTGRES_URL, _pg_admin, make_app
from deckhub.services import jobs
from deckhub.store import models
from deckhub.store.db import database, make_database
from deckhub.web import DATABASE_UNREACHABLE

from test_job_queue import _signed_in
from test_tunings_job import _signed_in as _with_candidates


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens once the probe is closed


def _unreachable_databases(tmp_path):
    (tmp_path / "a-directory").mkdir()
    yield "sqlite", f"sqlite:///{tmp_path / 'a-directory'}"  # SQLite cannot open a directory as its file
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return
    yield "postgresql", f"postgresql://deckhub@127.0.0.1:{_closed_port()}/deckhub"


def _check_unreachable(client) -> None:
    page = client.get("/")
    assert page.status_code == 503 and page.headers["Retry-After"]
    assert "cannot reach its database just now" in page.get_data(as_text=True)
    api = client.get("/api/games")
    assert api.status_code == 503 and api.get_json() == {"error": DATABASE_UNREACHABLE, "status": 503}
    form = client.post("/login", data={"username": "alice", "password": "correct horse"})
    assert form.status_code == 503


def test_a_database_that_cannot_be_reached_answers_503_not_500(app, tmp_path):
    client = app.test_client()
    working = database.obj
    working.close_all()
    try:
        for _kind, url in _unreachable_databases(tmp_path):
            database.initialize(make_database(url))
            _check_unreachable(client)
    finally:
        database.initialize(working)
    assert client.get("/").status_code == 200


@pytest.mark.skipif(not POSTGRES_URL, reason="a server that drops its connections: PostgreSQL")
def test_a_connection_lost_mid_request_answers_503(app):
    @app.route("/lose-the-connection")
    def lose_the_connection():
        """A request whose connection the server ends half way (a restart or a failover does that)."""
        (pid,) = database.execute_sql("SELECT pg_backend_pid()").fetchone()
        _pg_admin(f"SELECT pg_terminate_backend({pid})")
        database.execute_sql("SELECT 1")
        return "the connection survived"

    client = app.test_client()
    page = client.get("/lose-the-connection")
    assert page.status_code == 503 and "cannot reach its database" in page.get_data(as_text=True)
    assert client.get("/").status_code == 200  # the broken connection is not used again


@pytest.mark.skipif(not POSTGRES_URL, reason="the pool's check of an idle connection: PostgreSQL")
def test_a_connection_given_back_just_now_is_reused_unasked_and_one_that_idled_is_checked(app, monkeypatch):
    """The pool asks the server whether a connection lives only when it idled a while: a request that
    follows another within `CHECKED_WITHIN` sends no `SELECT 1`, and a connection the server ended while
    it idled longer is replaced before any request uses it."""
    @app.route("/backend-pid")
    def backend_pid():
        return str(database.execute_sql("SELECT pg_backend_pid()").fetchone()[0])

    adapter = database.obj._adapter
    asked = []
    check = adapter.is_connection_closed
    monkeypatch.setattr(adapter, "is_connection_closed", lambda conn: asked.append(conn) or check(conn))
    client = app.test_client()
    pid = client.get("/backend-pid").get_data(as_text=True)
    asked.clear()
    assert client.get("/backend-pid").get_data(as_text=True) == pid and asked == []

    monkeypatch.setattr(type(database.obj), "CHECKED_WITHIN", 0.0)  # every idle connection has idled long
    _pg_admin(f"SELECT pg_terminate_backend({pid})")
    page = client.get("/backend-pid")
    assert page.status_code == 200 and page.get_data(as_text=True) != pid and asked


@pytest.fixture
def queue_down(databases):
    """A site whose Redis queue is down (nothing listens on its port)."""
    url = databases.with_catalogues()
    app = make_app(url, WTF_CSRF_ENABLED=False, QUEUE_URL=f"redis://127.0.0.1:{_closed_port()}/0",
                   QUEUE_NAME=f"deckhub-down-{os.getpid()}")
    yield app
    jobs.configure("immediate")
    databases.drop(url)


def _back_and_swept() -> None:
    """The queue is back (run at once here) and a worker's sweep finds what waited past LOST_AFTER."""
    jobs.configure("immediate")
    earlier = models.utcnow() - jobs.LOST_AFTER - dt.timedelta(seconds=5)
    with database.connection_context():
        for model in (models.SimulationChunk, models.TuningChunk, models.CollectionUpload, models.FactsUpload):
            model.update(updated_at=earlier).execute()
    jobs.recover()


def test_a_run_started_while_the_queue_is_down_is_kept_and_says_it_waits(queue_down):
    pytest.importorskip("redis")
    client, deck_id, headers = _with_candidates(queue_down)
    page = client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "40", "seed": "2"}, follow_redirects=True)
    assert page.status_code == 200 and "could not be reached" in page.get_data(as_text=True)
    started = client.post(f"/api/decks/{deck_id}/simulations", json={"games": 30, "seed": 1}, headers=headers)
    assert started.status_code == 202 and started.get_json()["error"] == jobs.WAITING_FOR_QUEUE
    tuned = client.post(f"/api/decks/{deck_id}/tunings", json={"budget": 300, "seed": 4}, headers=headers)
    assert tuned.status_code == 202 and tuned.get_json()["error"] == jobs.WAITING_FOR_QUEUE, tuned.get_json()
    with database.connection_context():
        assert [(r.status, r.error) for r in models.SimulationRun.select()] == [("queued", jobs.WAITING_FOR_QUEUE)] * 2

    _back_and_swept()
    with database.connection_context():
        assert [(r.status, r.error) for r in models.SimulationRun.select()] == [("done", None)] * 2
        assert models.TuningRun.get().status == "done"


def test_a_collection_import_while_the_queue_is_down_waits_and_a_commit_goes_back_to_its_check(queue_down):
    pytest.importorskip("redis")
    client, _deck = _signed_in(queue_down)
    sent = client.post("/collection/import", data={"file": (io.BytesIO(b"game,name,quantity\nkaijudo,Blade Seer,2\n"),
                                                            "mine.csv"), "game": ""}, follow_redirects=True)
    assert sent.status_code == 200 and "Waiting for the job queue to come back" in sent.get_data(as_text=True)
    _back_and_swept()
    with database.connection_context():
        upload = models.CollectionUpload.get()
        assert upload.state == "ready" and upload.error is None
    jobs.configure(queue_down.config["QUEUE_URL"], queue_down.config["QUEUE_NAME"])
    page = client.post(f"/collection/import/{upload.token}/commit", follow_redirects=True)
    assert page.status_code == 200 and "nothing was imported" in page.get_data(as_text=True)
    with database.connection_context():
        assert models.CollectionUpload.get().state == "ready" and not models.OwnedCard.select().exists()


def test_a_facts_file_sent_while_the_queue_is_down_waits_and_is_checked_by_the_sweep(queue_down):
    pytest.importorskip("redis")
    client, _deck = _signed_in(queue_down)
    body = b"game,name,type,source\nneopets-tcg,Nosuchcard Zorblax,Item,https://example.org/facts\n"
    sent = client.post("/facts/import", data={"file": (io.BytesIO(body), "facts.csv")})
    assert sent.status_code == 303
    page = client.get(sent.location)
    assert page.status_code == 200 and "Waiting for the job queue to come back" in page.get_data(as_text=True)
    with database.connection_context():
        assert [(u.state, u.error) for u in models.FactsUpload.select()] == [("queued", jobs.WAITING_FOR_QUEUE)]
    _back_and_swept()
    with database.connection_context():
        upload = models.FactsUpload.get()
        assert upload.state == "ready" and upload.error is None and upload.summary["problems"] == 1
    assert "has no card &#39;Nosuchcard Zorblax&#39;" in client.get(sent.location).get_data(as_text=True)


def test_what_waited_for_a_stopped_queue_is_played_once_by_a_worker_when_it_returns(databases, tmp_path):
    """The issue's scenario end to end: with Redis stopped a form simulation, an API simulation, an API
    tuning run and a CSV upload answer that they wait; once Redis is back, a real worker's sweep sends
    them, and each is played exactly once (every game counted once, the tuning result the same as
    in one process) and the upload is planned."""
    pytest.importorskip("redis")
    from deckhub.services import simulations
    from queue_workers import Worker, queue_config, redis_available, wait_for
    from test_tunings_job import _reference as _tuning_reference

    if not redis_available():
        pytest.skip("no Redis server on DECKHUB_TEST_REDIS_URL")
    url = databases.with_catalogues()
    queue = queue_config("redis", tmp_path)
    app = make_app(url, WTF_CSRF_ENABLED=False, QUEUE_URL=f"redis://127.0.0.1:{_closed_port()}/0",
                   QUEUE_NAME=queue["QUEUE_NAME"])
    simulations.set_chunk_games(100)
    worker = None
    try:
        client, deck_id, headers = _with_candidates(app)
        page = client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "400", "seed": "2"}, follow_redirects=True)
        assert page.status_code == 200 and "could not be reached" in page.get_data(as_text=True)
        api = client.post(f"/api/decks/{deck_id}/simulations", json={"games": 250, "seed": 1}, headers=headers)
        assert api.status_code == 202 and api.get_json()["error"] == jobs.WAITING_FOR_QUEUE
        tuned = client.post(f"/api/decks/{deck_id}/tunings", json={"budget": 300, "seed": 4}, headers=headers)
        assert tuned.status_code == 202 and tuned.get_json()["error"] == jobs.WAITING_FOR_QUEUE
        sent = client.post("/collection/import", data={"file": (io.BytesIO(b"game,name,quantity\nkaijudo,Blade Seer,2\n"),
                                                                "mine.csv"), "game": ""}, follow_redirects=True)
        assert sent.status_code == 200 and "Waiting for the job queue to come back" in sent.get_data(as_text=True)

        earlier = models.utcnow() - jobs.LOST_AFTER - dt.timedelta(seconds=5)  # they waited past the sweep's wait
        with database.connection_context():
            for model in (models.SimulationChunk, models.TuningChunk, models.CollectionUpload):
                model.update(updated_at=earlier).execute()
        worker = Worker(url, queue, 1, log=tmp_path / "worker.log")  # its start-up sweep sends them

        def everything_is_through():
            with database.connection_context():
                return (all(r.status == "done" for r in models.SimulationRun.select())
                        and models.TuningRun.get().status == "done" and models.CollectionUpload.get().state == "ready")
        wait_for(everything_is_through, timeout=240, interval=0.2)
        with database.connection_context():
            runs = {r.games: r for r in models.SimulationRun.select()}
            C = models.SimulationChunk
            chunks = [(c.run_id, c.start, c.stop) for c in C.select().where(C.state == "done").order_by(C.run, C.number)]
            upload = models.CollectionUpload.get()
        assert sorted(runs) == [250, 400] and all(r.done == g == r.result["games"] and r.error is None for g, r in runs.items())
        assert len(chunks) == 7 and len(set(chunks)) == 7
        assert upload.error is None and upload.total == 1
        body = client.get(f"/api/tunings/{tuned.get_json()['id']}", headers=headers).get_json()
        reference = _tuning_reference(300, 4)
        assert body["result"]["suggestions"] == reference["suggestions"] and body["done"] == reference["games_played"]
    finally:
        if worker is not None:
            worker.stop()
        simulations.set_chunk_games(simulations.CHUNK_GAMES)
        jobs.configure(queue["QUEUE_URL"], queue["QUEUE_NAME"])
        jobs.huey.storage.flush_queue()
        jobs.configure("immediate")
        databases.drop(url)

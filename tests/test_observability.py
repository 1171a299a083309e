"""What an operator sees: /healthz, /readyz, /metrics, request ids in the logs, the JSON log format,
connection errors logged once a run, a lost worker's chunk queued again, and the curators' Jobs page."""
from __future__ import annotations

import datetime as dt
import io
import json
import logging
import threading
from pathlib import Path

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from deckhub.services import heartbeats, jobs, simulations
from deckhub import logs
from deckhub.store import models
from deckhub.store.db import database, init_database

from conftest import make_app

DECK = (Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks" / "[2ED]Bull_Rush.o8d").read_text(encoding="utf-8-sig")


@pytest.fixture(autouse=True)
def _logging_restored():
    yield
    logs.configure()


def _signed_in(client, name="alice", deck=True):
    client.post("/signup", data={"username": name, "password": "correct horse", "confirm": "correct horse"})
    if not deck:
        return None
    made = client.post("/decks/import", data={"name": "Bull Rush", "game": "kaijudo", "format": "", "decklist": DECK})
    return int(made.location.rsplit("/", 1)[1])


def _samples(text: str) -> dict[tuple, float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


# ---------------------------------------------------------------------------------- health and readiness

def test_healthz_answers_without_touching_anything(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}
    assert "Set-Cookie" not in response.headers and response.headers["Cache-Control"] == "no-store"


def test_readyz_passes_when_database_queue_and_schema_answer(client):
    response = client.get("/readyz")
    body = response.get_json()
    assert response.status_code == 200 and body["status"] == "ok"
    assert set(body["checks"]) == {"database", "queue", "schema"}
    assert all(check["ok"] for check in body["checks"].values())
    assert "Set-Cookie" not in response.headers


def test_readyz_names_the_database_when_it_cannot_be_reached(app):
    client = app.test_client()
    url = app.config["DATABASE_URL"]
    init_database("postgresql://deckhub@127.0.0.1:1/nowhere")  # nothing listens on port 1
    try:
        response = client.get("/readyz")
        health = client.get("/healthz")
    finally:
        init_database(url)
    body = response.get_json()
    assert response.status_code == 503 and body["status"] == "unavailable"
    assert body["checks"]["database"]["ok"] is False and body["checks"]["database"]["detail"]
    assert body["checks"]["queue"]["ok"] is True
    assert health.status_code == 200  # the process is up all the same


def test_readyz_names_the_queue_when_redis_cannot_be_reached(databases):
    url = databases.with_catalogues()
    app = make_app(url, QUEUE_URL="redis://127.0.0.1:1/0", QUEUE_NAME="nowhere")
    try:
        response = app.test_client().get("/readyz")
        body = response.get_json()
        assert response.status_code == 503 and body["status"] == "unavailable"
        assert body["checks"]["queue"]["ok"] is False and "Connection" in body["checks"]["queue"]["detail"]
        assert body["checks"]["database"]["ok"] is True and body["checks"]["schema"]["ok"] is True
        scraped = _samples(app.test_client().get("/metrics").get_data(as_text=True))
        assert scraped[("deckhub_queue_up", ())] == 0
    finally:
        jobs.configure("immediate")
        databases.drop(url)


# ---------------------------------------------------------------------------------- metrics

def test_metrics_count_requests_by_endpoint_and_read_jobs_from_the_database(client):
    key = ("deckhub_http_requests_total", (("endpoint", "catalog.index"), ("method", "GET"), ("status", "200")))
    before = _samples(client.get("/metrics").get_data(as_text=True)).get(key, 0)
    for _ in range(3):
        assert client.get("/").status_code == 200
    client.get("/decks/987654")  # a path with an id is counted under its endpoint, not its path
    deck_id = _signed_in(client)
    started = client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "20", "seed": "4"})
    assert started.status_code == 302
    response = client.get("/metrics")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    scraped = _samples(text)
    assert scraped[key] == before + 3
    assert "/decks/987654" not in text and 'endpoint="decks.show"' in text
    assert scraped[("deckhub_jobs", (("kind", "simulation"), ("status", "done")))] == 1
    assert scraped[("deckhub_job_duration_seconds_count", (("kind", "simulation"), ("status", "done")))] == 1
    assert ("deckhub_http_request_duration_seconds_count",
            (("endpoint", "catalog.index"), ("method", "GET"), ("status", "200"))) in scraped
    assert scraped[("deckhub_database_up", ())] == 1 and scraped[("deckhub_queue_depth", ())] == 0
    # played inside the request (the immediate queue): the web process is no queue worker
    assert scraped[("deckhub_workers", (("state", "alive"),))] == 0


def test_metrics_are_for_this_machine_or_the_metrics_token(client, monkeypatch):
    outside = {"REMOTE_ADDR": "203.0.113.9"}
    assert client.get("/metrics", environ_base=outside).status_code == 403
    monkeypatch.setenv("DECKHUB_METRICS_TOKEN", "s3cret-scraper-token")
    assert client.get("/metrics", environ_base=outside, headers={"Authorization": "Bearer wrong"}).status_code == 403
    allowed = client.get("/metrics", environ_base=outside, headers={"Authorization": "Bearer s3cret-scraper-token"})
    assert allowed.status_code == 200 and b"deckhub_http_requests_total" in allowed.data
    assert client.get("/metrics", environ_base={"REMOTE_ADDR": "::1"}).status_code == 200


# ---------------------------------------------------------------------------------- request ids and logs

def test_a_request_id_is_echoed_and_on_the_log_line_of_a_failed_request(databases, caplog):
    url = databases.with_catalogues()
    app = make_app(url)
    stream = io.StringIO()
    logs.configure(stream=stream)

    def boom():
        raise RuntimeError("kaboom")
    app.add_url_rule("/boom", "boom", boom)
    client = app.test_client()
    try:
        ok = client.get("/", headers={"X-Request-ID": "edge-42.a_b"})
        assert ok.headers["X-Request-ID"] == "edge-42.a_b"
        odd = client.get("/", headers={"X-Request-ID": "not sane\x7f" + "x" * 80})
        assert len(odd.headers["X-Request-ID"]) == 32 and odd.headers["X-Request-ID"].isalnum()
        made = client.get("/").headers["X-Request-ID"]
        assert made != odd.headers["X-Request-ID"]
        with caplog.at_level(logging.ERROR):
            failed = client.get("/boom", headers={"X-Request-ID": "req-7"})
    finally:
        databases.drop(url)
    assert failed.status_code == 500 and failed.headers["X-Request-ID"] == "req-7"
    record = next(r for r in caplog.records if "unhandled error" in r.getMessage())
    assert record.request_id == "req-7" and record.getMessage() == "unhandled error in GET /boom (request req-7)"
    line = next(line for line in stream.getvalue().splitlines() if "unhandled error" in line)
    assert " ERROR " in line and "[req-7]" in line and line[:4].isdigit()  # timestamp, level, request id


def test_json_log_lines_parse_and_carry_the_request_id(databases, monkeypatch):
    monkeypatch.setenv("DECKHUB_LOG_FORMAT", "json")
    monkeypatch.setenv("DECKHUB_LOG_LEVEL", "debug")
    url = databases.with_catalogues()
    app = make_app(url)
    stream = io.StringIO()
    logs.configure(stream=stream)
    app.add_url_rule("/talk", "talk", lambda: (app.logger.info("said %s", "hello"), "ok")[1])
    try:
        assert app.test_client().get("/talk", headers={"X-Request-ID": "json-1"}).status_code == 200
    finally:
        databases.drop(url)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    said = next(line for line in lines if line["message"] == "said hello")
    assert said["request_id"] == "json-1" and said["level"] == "INFO" and said["logger"] == app.logger.name
    assert dt.datetime.fromisoformat(said["time"]).tzinfo is not None
    assert logging.getLogger().level == logging.DEBUG


def test_a_run_of_connection_errors_while_polling_is_logged_twice_not_once_a_poll(caplog):
    """Huey's worker loop, as `deckhub worker` runs it, with Redis refusing 200 polls in a row."""
    worker_class, _ = jobs._consumer_classes()
    failures = {"left": 200}

    class Storage:
        blocking = True

    class FakeHuey:
        _startup: dict = {}
        storage = Storage()

        def dequeue(self):
            if failures["left"]:
                failures["left"] -= 1
                raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
            return None

    worker = worker_class(FakeHuey(), threading.Event(), default_delay=0, max_delay=0, backoff=1)
    try:
        with caplog.at_level(logging.INFO, logger="huey"):
            worker.initialize()
            for _ in range(205):
                worker.loop()
            worker._logger.exception("Error reading from queue", exc_info=ValueError("a bug, not an outage"))
    finally:
        worker._logger.filters.clear()
    lines = [r for r in caplog.records if r.name == "huey.consumer.Worker"]
    assert [r.levelname for r in lines] == ["ERROR", "WARNING", "ERROR"]
    assert "the queue unreachable: ConnectionError" in lines[0].getMessage() and lines[0].exc_info is None
    assert "reachable again after 200 failed attempts" in lines[1].getMessage()
    assert lines[2].exc_info and isinstance(lines[2].exc_info[1], ValueError)  # other errors pass unchanged


# ---------------------------------------------------------------------------------- lost workers

def test_a_chunk_held_by_a_worker_that_stopped_answering_is_queued_again_and_the_page_says_so(databases, tmp_path):
    url = databases.with_catalogues()
    app = make_app(url, WTF_CSRF_ENABLED=False, QUEUE_URL=f"sqlite:///{tmp_path / 'queue.sqlite3'}", QUEUE_NAME="lost")
    simulations.set_chunk_games(10)
    try:
        client = app.test_client()
        deck_id = _signed_in(client)
        client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "30", "seed": "9"})  # no worker: queued
        C, H = models.SimulationChunk, models.WorkerHeartbeat
        silent = models.utcnow() - dt.timedelta(minutes=3)
        with database.connection_context():
            run = models.SimulationRun.get()
            first = C.select().where(C.run == run.id).order_by(C.number).first()
            # a worker on another machine took chunk 0 a moment ago, then went silent (kill -9, power cut)
            C.update(state="running", worker="elsewhere:4242", updated_at=models.utcnow()).where(C.id == first.id).execute()
            models.SimulationRun.update(status="running").where(models.SimulationRun.id == run.id).execute()
            H.create(worker="elsewhere:4242", started_at=silent, last_seen=silent, holding_kind="simulation",
                     holding_id=first.id)
        status = client.get(f"/decks/{deck_id}/stats/simulations/{run.id}.json").get_json()
        expected = (f"waiting: the worker playing part of this run stopped answering at {silent:%H:%M} UTC; "
                    "it will be played again by the next free worker")
        assert status["waiting"] == expected
        assert expected in client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
        with database.connection_context():
            assert heartbeats.sweep() == 1  # what a live worker's heartbeat does every few seconds
            again = C.get_by_id(first.id)
            assert (again.state, again.worker) == ("queued", None)
            assert heartbeats.sweep() == 0  # the reset happened once
            assert simulations.job_status(models.SimulationRun.get_by_id(run.id)).waiting == expected
            for (chunk_id,) in C.select(C.id).where(C.run == run.id).order_by(C.number).tuples():
                simulations.play_chunk.task.call_local(chunk_id)  # the next free worker plays every chunk once
            done = models.SimulationRun.get_by_id(run.id)
        assert done.status == "done" and done.done == 30
        assert client.get(f"/decks/{deck_id}/stats/simulations/{run.id}.json").get_json()["waiting"] is None
    finally:
        simulations.set_chunk_games(simulations.CHUNK_GAMES)
        jobs.configure("immediate")
        databases.drop(url)


# ---------------------------------------------------------------------------------- the Jobs page

def _board_rows(owner_id: int, deck_id: int) -> None:
    R, C, H = models.SimulationRun, models.SimulationChunk, models.WorkerHeartbeat
    common = {"deck": deck_id, "version": 1, "owner": owner_id, "game": "kaijudo", "seed": 1}
    R.create(games=5000, status="queued", **common)
    running = R.create(games=4000, status="running", done=1000, **common)
    C.create(run=running, number=0, start=0, stop=1000, state="done")
    C.create(run=running, number=1, start=1000, stop=2000, state="running", worker="box-a:311")
    R.create(games=300, status="failed", error="the engine stopped: a card without text", **common)
    H.create(worker="box-a:311", holding_kind="simulation", holding_id=2)
    old = models.utcnow() - dt.timedelta(hours=2)
    H.create(worker="box-b:99", started_at=old, last_seen=old)


def test_the_jobs_page_lists_jobs_and_workers_for_curators(client):
    deck_id = _signed_in(client, "carol")
    with database.connection_context():
        carol = models.User.get(username="carol")
        models.User.update(is_curator=True).where(models.User.id == carol.id).execute()
    empty = client.get("/curate/jobs").get_data(as_text=True)
    assert "No job is running." in empty and "No job has failed." in empty and "No worker has sent a heartbeat" in empty
    with database.connection_context():
        _board_rows(carol.id, deck_id)
    response = client.get("/curate/jobs")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "<script" not in page
    assert 'href="/curate/jobs"' in page  # in the curator navigation
    assert "queued: waiting for a worker" in page and "running: 1,000 of 4,000 games" in page
    assert "box-a:311" in page and "simulation chunk #2" in page and "<strong>lost</strong>" in page
    assert "the engine stopped: a card without text" in page and "carol" in page
    assert "Bull Rush" not in page and f"a private deck <small class=\"muted\">(deck #{deck_id})" in page
    with database.connection_context():
        models.Deck.update(is_public=True).where(models.Deck.id == deck_id).execute()
    assert "Bull Rush" in client.get("/curate/jobs").get_data(as_text=True)


def test_the_jobs_page_is_for_curators_only(client, app):
    assert client.get("/curate/jobs").status_code == 302  # to the login page
    _signed_in(app.test_client(), "first", deck=False)  # a new site's first account is its curator
    _signed_in(client, "dave", deck=False)
    refused = client.get("/curate/jobs")
    assert refused.status_code == 403
    assert 'href="/curate/jobs"' not in client.get("/").get_data(as_text=True)

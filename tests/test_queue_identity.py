"""The embedded queue belongs to its database, and a job runs only on a worker of the database that queued it."""
from __future__ import annotations

import logging
from pathlib import Path

from deckhub.app import create_app
from deckhub.services import jobs, simulations
from deckhub.store import models
from deckhub.store.db import database
from deckhub.services.jobs import huey
from deckhub.store import schema

from test_job_queue import _signed_in


def _site(tmp_path: Path, name: str, monkeypatch):
    """A site started as an operator would, with no queue named: the default queue is chosen."""
    monkeypatch.delenv("DECKHUB_QUEUE_URL", raising=False)
    db_file = tmp_path / name / "deckhub.sqlite3"
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{db_file}"})
    with database.connection_context():
        schema.upgrade(database.obj)  # what `deckhub db upgrade` (or serve) does before a site's first request
        return db_file, app.config["QUEUE_URL"], jobs.site_id()


def test_two_sites_of_one_checkout_get_their_own_queue_and_identity(tmp_path, monkeypatch):
    try:
        a_db, a_queue, a_site = _site(tmp_path, "a", monkeypatch)
        b_db, b_queue, b_site = _site(tmp_path, "b", monkeypatch)
    finally:
        jobs.configure("immediate")
    assert a_queue == f"sqlite:///{a_db.parent / 'deckhub.queue.sqlite3'}"
    assert b_queue == f"sqlite:///{b_db.parent / 'deckhub.queue.sqlite3'}"
    assert a_site != b_site and len(a_site) == 32


def test_a_postgresql_database_names_its_queue_in_the_instance_folder():
    one = jobs.default_url("/srv/i", "postgresql://deckhub:pw@db.example:5433/community")
    assert one.startswith("sqlite:////srv/i/queue-db-example-5433-community-") and one.endswith(".sqlite3")
    assert jobs.default_url("/srv/i", "postgresql://other:pw2@db.example:5433/community") == one  # same database
    others = {jobs.default_url("/srv/i", url) for url in (
        "postgresql://deckhub@db.example:5433/test", "postgresql://deckhub@db.example/community",
        "postgresql://deckhub@db-example:5433/community")}
    assert one not in others and len(others) == 3


def _queued_chunk(app) -> tuple[int, int]:
    """A simulation run of one chunk, written as `start` writes it but not sent to any queue."""
    _signed_in(app)
    with database.connection_context():
        deck = models.Deck.get()
        user = deck.owner
        run = models.SimulationRun.create(deck=deck, version=1, owner=user, game=deck.game, games=20, seed=3, options={})
        chunk = models.SimulationChunk.create(run=run, number=0, start=0, stop=20)
        return run.id, chunk.id


def _states(run_id: int, chunk_id: int) -> tuple[str, str]:
    with database.connection_context():
        return models.SimulationRun.get_by_id(run_id).status, models.SimulationChunk.get_by_id(chunk_id).state


def test_a_worker_of_another_database_does_not_run_the_job_and_puts_it_back(app, caplog):
    run_id, chunk_id = _queued_chunk(app)
    huey.storage.flush_schedule()
    with database.connection_context():
        mine = jobs.site_id()
    caplog.set_level(logging.WARNING, logger="deckhub.services.jobs")
    simulations.play_chunk.task.call_local(chunk_id, site="f" * 32)
    assert _states(run_id, chunk_id) == ("queued", "queued")  # nothing of this database was touched
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "f" * 32 in warnings[0] and mine in warnings[0] and "put back" in warnings[0]
    (again,) = huey.scheduled()
    assert again.args == (chunk_id,) and again.kwargs == {"site": "f" * 32, "bounced": 1}

    caplog.clear()
    huey.storage.flush_schedule()
    simulations.play_chunk.task.call_local(chunk_id, site="f" * 32, bounced=jobs.MAX_BOUNCES)
    assert "dropped" in caplog.records[0].getMessage() and huey.scheduled() == []
    assert _states(run_id, chunk_id) == ("queued", "queued")

    simulations.play_chunk.task.call_local(chunk_id, site=mine)  # its own worker runs it
    assert _states(run_id, chunk_id) == ("done", "done")


def test_a_message_queued_by_an_older_deckhub_still_runs(app):
    run_id, chunk_id = _queued_chunk(app)
    simulations.play_chunk.task.call_local(chunk_id)
    assert _states(run_id, chunk_id) == ("done", "done")

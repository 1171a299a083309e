"""A worker killed with SIGKILL while it holds a chunk, with another worker alive: the live worker's
heartbeat finds the silent one and its chunk is played again within seconds (not after the
ten-minute lease, nor at the next minute's sweep), and the run counts every game once."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from deckhub.store import models
from deckhub.services import simulations
from deckhub.store.db import database

from conftest import make_app
from queue_workers import Worker, queue_config, wait_for

DECK = (Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks" / "[2ED]Bull_Rush.o8d").read_text(encoding="utf-8-sig")
LOST_AFTER = 3  # seconds of silence after which a worker is lost (30 on a site)
GAMES, CHUNK = 6000, 500


def _chunks(run_id: int) -> list[models.SimulationChunk]:
    with database.connection_context():
        C = models.SimulationChunk
        return list(C.select().where(C.run == run_id).order_by(C.number))


def _run(run_id: int) -> models.SimulationRun:
    with database.connection_context():
        return models.SimulationRun.get_by_id(run_id)


def test_a_killed_workers_chunk_is_played_again_by_a_live_worker_within_seconds(databases, tmp_path, monkeypatch):
    monkeypatch.setenv("DECKHUB_HEARTBEAT_SECONDS", "0.5")
    monkeypatch.setenv("DECKHUB_WORKER_LOST_AFTER", str(LOST_AFTER))
    url = databases.with_catalogues()
    queue = queue_config("sqlite", tmp_path)
    app = make_app(url, WTF_CSRF_ENABLED=False, **queue)
    simulations.set_chunk_games(CHUNK)
    log = tmp_path / "workers.log"
    workers: list[Worker] = []
    try:
        client = app.test_client()
        client.post("/signup", data={"username": "alice", "password": "correct horse", "confirm": "correct horse"})
        deck = client.post("/decks/import", data={"name": "Bull Rush", "game": "kaijudo", "format": "", "decklist": DECK})
        deck_id = int(deck.location.rsplit("/", 1)[1])
        client.post(f"/decks/{deck_id}/stats/simulations", data={"games": str(GAMES), "seed": "21"})
        doomed = Worker(url, queue, 1, log=log)
        workers.append(doomed)
        wait_for(lambda: sum(c.state == "done" for c in _chunks(1)) >= 2, timeout=180, interval=0.05)
        survivor = Worker(url, queue, 1, log=log)
        workers.append(survivor)
        with database.connection_context():
            wait_for(lambda: models.WorkerHeartbeat.select().count() == 2, timeout=60)
        doomed_id = next(c.worker for c in _chunks(1) if c.worker)  # the first chunks were all the first worker's

        def the_first_worker_holds_a_chunk():
            return any(c.state == "running" and c.worker == doomed_id for c in _chunks(1))
        wait_for(the_first_worker_holds_a_chunk, timeout=60, interval=0.01)
        os.killpg(doomed.process.pid, signal.SIGSTOP)  # frozen while we look: the chunk it holds stays its
        held = next(c for c in _chunks(1) if c.state == "running" and c.worker == doomed_id)
        doomed.kill9()
        killed_at = time.monotonic()

        def queued_again_or_taken_by_the_survivor():
            return next(c for c in _chunks(1) if c.id == held.id).worker != doomed_id
        wait_for(queued_again_or_taken_by_the_survivor, timeout=LOST_AFTER + 10, interval=0.05)
        run = wait_for(lambda: (r := _run(1)).status not in ("queued", "running") and r, timeout=60)
        assert run.status == "done", (run.error, log.read_text(errors="replace")[-3000:])
        assert run.done == GAMES and time.monotonic() - killed_at < 60
        chunks = _chunks(1)
        assert all(c.state == "done" for c in chunks) and sum(c.stop - c.start for c in chunks) == GAMES
        text = log.read_text(errors="replace")
        assert f"simulation chunk {held.id}: its worker {held.worker} stopped or went silent; queued again" in text
        assert "job started: simulation:" in text and "job finished: simulation:" in text
        assert f"played games 0-{CHUNK - 1} of run 1" in text
    finally:
        for w in workers:
            w.stop()
        simulations.set_chunk_games(simulations.CHUNK_GAMES)
        databases.drop(url)

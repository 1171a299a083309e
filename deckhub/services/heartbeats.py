"""Queue workers' heartbeats: who is alive, what each holds, and what a lost one left behind.

Every worker process writes its row of `worker_heartbeat` every few seconds from a thread of its
own (`DECKHUB_HEARTBEAT_SECONDS`, 5 by default). A worker silent for longer than
`DECKHUB_WORKER_LOST_AFTER` seconds (30 by default) is lost: the chunk it held is queued again by
the next heartbeat of any live worker, or by the next task any worker starts, instead of waiting
for the chunk's ten-minute lease. Chunks are claimed and finished with conditional updates, so a
chunk played again still counts once, and a worker that was only slow loses nothing but its work.
"""
from __future__ import annotations

import datetime as dt
import logging
import os
import threading

from deckhub.logs import RepeatedErrors
from deckhub.services import jobs
from deckhub.services.jobs import huey
from deckhub.store import models
from deckhub.store.db import database

log = logging.getLogger(__name__)

KEEP_LOST = dt.timedelta(days=1)  # a lost worker's row is shown this long, then dropped
_holding: dict[str, object] = {"kind": None, "id": None}
_thread: dict[str, object] = {"stop": None}


def _seconds(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


def interval() -> float:
    return _seconds("DECKHUB_HEARTBEAT_SECONDS", 5.0)


def lost_after() -> dt.timedelta:
    return dt.timedelta(seconds=_seconds("DECKHUB_WORKER_LOST_AFTER", 30.0))


def cutoff() -> dt.datetime:
    """Workers last seen before this are lost."""
    return models.utcnow() - lost_after()


def hold(kind: str | None, ident: int | None) -> None:
    """What this process is playing now (None, None: nothing); written with the next beat."""
    _holding.update(kind=kind, id=ident)


def beat() -> None:
    """Write this process's heartbeat: it is alive, and what it holds."""
    H = models.WorkerHeartbeat
    now = models.utcnow()
    values = {"last_seen": now, "holding_kind": _holding["kind"], "holding_id": _holding["id"]}
    (H.insert(worker=jobs.worker_id(), started_at=now, **values)
     .on_conflict(conflict_target=[H.worker], update=values).execute())


def forget() -> None:
    """A worker stopping cleanly holds nothing: its row goes."""
    models.WorkerHeartbeat.delete().where(models.WorkerHeartbeat.worker == jobs.worker_id()).execute()


def lost_workers() -> set[str]:
    H = models.WorkerHeartbeat
    return {w for (w,) in H.select(H.worker).where(H.last_seen < cutoff()).tuples()}


def alive_count() -> int:
    """Worker processes heard from within the lost-after time."""
    H = models.WorkerHeartbeat
    return H.select().where(H.last_seen >= cutoff()).count()


def sweep() -> int:
    """Queue again the chunks held by lost workers (through every job kind's recoverer); drop rows
    of workers lost for a day. Returns how many chunks (and uploads) lost workers held."""
    H = models.WorkerHeartbeat
    H.delete().where(H.last_seen < models.utcnow() - KEEP_LOST).execute()
    lost = lost_workers()
    if not lost:
        return 0
    U = models.CollectionUpload
    held = sum(C.select().where((C.state == "running") & C.worker.in_(lost)).count()
               for C in (models.SimulationChunk, models.TuningChunk))
    held += U.select().where(U.state.in_(("planning", "committing")) & U.worker.in_(lost)).count()
    if held:
        jobs.recover()
    return held


def waiting_since(kind: str, chunk_model, run_id: int) -> dt.datetime | None:
    """When the worker playing part of run `run_id` was last heard of, while that part waits on it
    (still marked as its, or queued again and not yet taken by another worker); None otherwise."""
    H, C = models.WorkerHeartbeat, chunk_model
    return (H.select(H.last_seen).join(C, on=(C.id == H.holding_id))
            .where((H.holding_kind == kind) & (C.run == run_id) & (H.last_seen < cutoff())
                   & ((C.state == "queued") | ((C.state == "running") & (C.worker == H.worker))))
            .order_by(H.last_seen).scalar())


def waiting_note(kind: str, chunk_model, run_id: int) -> str | None:
    since = waiting_since(kind, chunk_model, run_id)
    if since is None:
        return None
    return (f"waiting: the worker playing part of this run stopped answering at {since:%H:%M} UTC; "
            "it will be played again by the next free worker")


def workers() -> list[dict]:
    """Every worker seen (lost ones for a day), newest heartbeat first, with whether it is alive."""
    H = models.WorkerHeartbeat
    limit = cutoff()
    return [{"worker": h.worker, "started_at": h.started_at, "last_seen": h.last_seen, "alive": h.last_seen >= limit,
             "holding_kind": h.holding_kind, "holding_id": h.holding_id}
            for h in H.select().order_by(H.last_seen.desc())]


def _run(stop: threading.Event) -> None:
    errors = RepeatedErrors(log, "the database (heartbeat)")
    while not stop.wait(interval()):
        try:
            with database.connection_context():
                beat()
                sweep()
        except Exception as exc:  # noqa: BLE001 — the thread must outlive an outage; counted, not logged each time
            errors.failed(exc)
        else:
            errors.recovered()


@huey.on_startup("heartbeat")
def start() -> None:
    """In a worker process (after the queue's own start-up: its fresh connections): the first beat
    now, before it takes any task, then a beat every interval."""
    with database.connection_context():
        beat()
    stop = threading.Event()
    _thread["stop"] = stop
    threading.Thread(target=_run, args=(stop,), name="deckhub-heartbeat", daemon=True).start()


@huey.on_shutdown("heartbeat")
def stop() -> None:
    event = _thread["stop"]
    if event is not None:
        event.set()
    with database.connection_context():
        forget()


@huey.pre_execute()
def _hold_the_job(task) -> None:
    """A worker taking a job notes that it holds it, and queues again what lost workers left (a
    claim is a good moment: this worker is surely alive)."""
    name, ident = jobs.job_of(task)
    if name and not huey.immediate:
        hold(name, ident)
        try:
            with database.connection_context():
                beat()
                sweep()
        except Exception as exc:  # noqa: BLE001 — the heartbeat thread keeps trying; the task still runs
            log.warning("heartbeat before %s:%s failed: %s", name, ident, exc)


@huey.post_execute()
def _release_the_job(task, value, exc) -> None:
    if not huey.immediate:
        hold(None, None)

"""The life of a job on the queue, written once for every kind: runs played as chunks (simulations,
tunings) and jobs of one row (collection and facts uploads).

A run's chunks are stored *waiting*; `feed` sends them to the queue a window at a time per owner.
A worker claims a chunk with a conditional update (queued -> running, by this worker), plays it,
and finishes it with another (running by this worker -> done), so a chunk played twice (its worker
was killed and the sweep sent it again) counts once; the run's progress is the games of its
finished chunks. A chunk that breaks fails its run, dropping the chunks not yet started. The sweep
(`jobs.recover`) queues again what a lost worker held (`requeue_lost`) and lets each kind settle its
runs. A kind (`ChunkRuns`) supplies only what it does with a chunk: play it, count its games, and
settle a run whose chunks are done (merge it, or write the next round).
"""
from __future__ import annotations

import datetime as dt
import logging
import threading
from abc import ABC, abstractmethod
from typing import Any

from deckhub.services import heartbeats, jobs
from deckhub.store import models
from deckhub.store.db import database

log = logging.getLogger(__name__)

LEASE = dt.timedelta(minutes=10)  # a running chunk older than this is run again (its worker is gone)
UNSTARTED = ("waiting", "queued")  # chunk states a cancel (or a failure) drops: waiting their owner's turn, or sent
MIN_WINDOW = 2  # chunks of one owner's runs on the queue or playing at once, with fewer live workers than this
FEED_KEY = 18_002  # the exclusive transaction in which an owner's chunks are counted and promoted
_windowed: list[tuple] = []  # (chunk model, run model, send) of every kind of run played as chunks
_feeding = threading.local()


def gone(worker: str | None, lost: set[str]) -> bool:
    """Whether `worker` will never finish what it holds: its process on this host is dead, or its
    heartbeat stopped (`lost`, from `heartbeats.lost_workers()`)."""
    return worker in lost or jobs.is_dead_local(worker)


def claim(model, row_id: int, state: str, **values) -> bool:
    """Take a queued row (a chunk, an upload) for this worker: queued -> `state`, conditionally, so
    of two workers given the same message (one sent again by the sweep) only one plays it."""
    return bool(model.update(state=state, worker=jobs.worker_id(), updated_at=models.utcnow(), **values)
                .where((model.id == row_id) & (model.state == "queued")).execute())


def lost_jobs(model, working: tuple[str, ...], *, run_model=None, lease=None,
              queued: bool = True) -> list[tuple[int, str, str | None]]:
    """Rows of `model` (chunks, or one-row jobs) to send again, as (id, state, worker): in a `working`
    state on a worker that is gone (or silent past `lease`), and, with `queued`, queued so long while
    the queue is empty that their message was lost. Chunks count only while their run (`run_model`)
    is active. Every model has `state`, `worker` and `updated_at`."""
    M = model
    now = models.utcnow()

    def select(*fields):
        query = M.select(*fields)
        return query.join(run_model).where(run_model.status.in_(jobs.ACTIVE)) if run_model else query

    held = list(select(M.id, M.state, M.worker, M.updated_at).where(M.state.in_(working)))
    lost = heartbeats.lost_workers() if held else set()
    again = [(r.id, r.state, r.worker) for r in held
             if gone(r.worker, lost) or (lease is not None and now - r.updated_at > lease)]
    if queued and jobs.pending() == 0:
        again += [(row_id, "queued", None) for (row_id,) in select(M.id).where(
            (M.state == "queued") & (M.updated_at < now - jobs.LOST_AFTER)).tuples()]
    return again


def requeue_lost(model, send, what: str, *, working: tuple[str, ...] = ("running",), run_model=None,
                 lease=None) -> None:
    """Queue again (and `send`, the kind's task) every row `lost_jobs` finds. The reset is conditional
    on the row still being held by the worker found, so two workers sweeping at once reset it once,
    and a row another worker took meanwhile is left to it. `what` names a row in the log."""
    M = model
    for row_id, state, worker in lost_jobs(model, working, run_model=run_model, lease=lease):
        held = (M.state == state) & (M.worker == worker) if worker else (M.state == "queued")
        if M.update(state="queued", worker=None, updated_at=models.utcnow()).where((M.id == row_id) & held).execute():
            if worker:
                log.warning("%s %s: its worker %s stopped or went silent; queued again", what, row_id, worker)
            send(row_id)


def window() -> int:
    """Chunks one owner may have queued or running: one per live worker (each worker can be kept
    busy by a lone player), and at least MIN_WINDOW so the next chunk waits on the queue."""
    return max(MIN_WINDOW, heartbeats.alive_count())


def feed(owner_id: int) -> bool:
    """Send the owner's next waiting chunks (oldest run first, every kind together) until the owner
    has `window()` chunks queued or running; called when a run starts, a chunk ends, a run is
    cancelled, and by the sweep. A chunk is marked *queued* before it is sent, so a send that fails
    (the queue is down) leaves a queued chunk whose message is lost, which `requeue_lost` sends
    again; its run, and the owner's runs waiting behind such a run, then say they wait for the queue.
    Returns False when a send failed.

    In immediate mode a chunk sent here is played inline and its end calls `feed` again: that inner
    call returns at once and this loop goes on, so a run of any size never recurses."""
    if getattr(_feeding, "on", False):
        return True
    _feeding.on = True
    sent = True
    try:
        while sent and (batch := _promote(owner_id)):
            for run_model, run_id, chunk_id, send in batch:
                if not send(chunk_id):
                    sent = False
                    jobs.wait_for_queue(run_model, run_id)
        if not sent or any(R.select().where((R.owner == owner_id) & (R.status == "queued")
                                            & (R.error == jobs.WAITING_FOR_QUEUE)).exists() for _C, R, _s in _windowed):
            for C, R, _send in _windowed:  # behind chunks the queue did not take
                for (run_id,) in R.select(R.id).join(C, on=(C.run == R.id)).where(
                        (R.owner == owner_id) & (R.status == "queued") & (C.state == "waiting")).distinct().tuples():
                    jobs.wait_for_queue(R, run_id)
    finally:
        _feeding.on = False
    return sent


def _promote(owner_id: int) -> list[tuple]:
    """Mark queued the owner's oldest waiting chunks that fit in the window (counted and written in
    one exclusive transaction, so two workers finishing chunks at once do not both fill it)."""
    with jobs.exclusive(FEED_KEY):
        free = window()
        for C, R, _send in _windowed:
            free -= C.select().join(R).where((R.owner == owner_id) & R.status.in_(jobs.ACTIVE)
                                             & C.state.in_(("queued", "running"))).count()
        if free <= 0:
            return []
        waiting = []
        for C, R, send in _windowed:
            waiting += [(created, run_id, chunk_id, C, R, send) for chunk_id, run_id, created in
                        C.select(C.id, R.id, R.created_at).join(R)
                        .where((R.owner == owner_id) & R.status.in_(jobs.ACTIVE) & (C.state == "waiting"))
                        .order_by(R.created_at, R.id, C.id).limit(free).tuples()]
        batch = []
        for _created, run_id, chunk_id, C, R, send in sorted(waiting, key=lambda w: w[:3])[:free]:
            if C.update(state="queued", updated_at=models.utcnow()).where(
                    (C.id == chunk_id) & (C.state == "waiting")).execute():
                batch.append((R, run_id, chunk_id, send))
        return batch


def feed_all() -> None:
    """Feed every owner with waiting chunks (the sweep: a worker killed between finishing a chunk
    and feeding its owner leaves chunks waiting with nothing in flight)."""
    owners: set[int] = set()
    for C, R, _send in _windowed:
        owners.update(o for (o,) in R.select(R.owner).join(C, on=(C.run == R.id))
                      .where(R.status.in_(jobs.ACTIVE) & (C.state == "waiting")).distinct().tuples())
    for owner in sorted(owners):
        feed(owner)


jobs.recoverer(feed_all, last=True)  # after every kind has queued again what its lost workers held


class ChunkRuns(ABC):
    """One kind of run played as chunks whose runs have an `owner`: the lifecycle every kind shares.

    A kind gives its job name (`kind`, as `jobs.kind`), how the log names a run (`label`), its chunk
    and run models, and what it does with a chunk: `play` (the chunk's result, stored on it),
    `progress` (the games of the run's finished chunks), `settle` (once its chunks are done: merge the
    run, or write its next round; conditional, so it happens once) and `played` (the log line)."""

    kind: str
    label: str
    chunk_model: Any
    run_model: Any

    task: Any = None  # the kind's queue task, given by `register`

    @abstractmethod
    def play(self, run, chunk) -> Any:
        """Play the chunk's games; what is returned is stored as the chunk's result."""

    @abstractmethod
    def progress(self, run_id: int) -> int:
        """The games of the run's finished chunks (never a chunk's own count twice)."""

    @abstractmethod
    def settle(self, run_id: int) -> bool:
        """Once the run's chunks are all done: its summary, or its next round (once)."""

    @abstractmethod
    def played(self, run, chunk, counted: bool) -> str:
        """The worker's log line for a chunk played (`counted`: not queued again meanwhile)."""

    # the shared lifecycle
    def register(self, task) -> None:
        """`task` (the kind's `jobs.task`) plays one chunk by id. The kind's chunks are stored waiting
        and `feed` sends them to it a window at a time per owner, so the queue, first in first out,
        serves owners in turn instead of playing one owner's whole backlog first; the sweep sends it
        again what lost workers held."""
        self.task = task
        _windowed.append((self.chunk_model, self.run_model, task))
        jobs.recoverer(self.recover)

    def run_chunk(self, chunk_id: int) -> str:
        """Claim, play and finish one chunk; returns what happened, for the worker's log."""
        C, R = self.chunk_model, self.run_model
        chunk = C.get_or_none(C.id == chunk_id)
        if chunk is None:
            return "skipped: the run was deleted with its deck"
        run = R.get_by_id(chunk.run_id)
        if run.status not in jobs.ACTIVE:
            return f"skipped: {self.label} {run.id} is {run.status}"
        if not claim(C, chunk_id, "running"):
            return f"skipped: another worker has this chunk of {self.label} {run.id}, or it is done"  # a duplicate message
        R.update(status="running", error=None, updated_at=models.utcnow()).where(
            (R.id == run.id) & (R.status == "queued")).execute()
        try:
            result = self.play(run, chunk)
        except Exception as exc:  # a failed run says why on its page; the site keeps going
            self.fail(run.id, str(exc)[:2000] or type(exc).__name__)
            feed(run.owner_id)
            return f"failed: {self.label} {run.id}: {type(exc).__name__}: {exc}"
        with database.atomic():
            finished = C.update(state="done", result=result, updated_at=models.utcnow()).where(
                (C.id == chunk_id) & (C.state == "running") & (C.worker == jobs.worker_id())).execute()
            if finished:
                R.update(done=self.progress(run.id), updated_at=models.utcnow()).where(
                    (R.id == run.id) & R.status.in_(jobs.ACTIVE)).execute()
        if finished:
            self.settle(run.id)
            feed(run.owner_id)
        return self.played(run, chunk, bool(finished))

    def fail(self, run_id: int, reason: str) -> None:
        """The run failed (its page says why); its chunks not yet started are dropped."""
        C, R = self.chunk_model, self.run_model
        with database.atomic():
            R.update(status="failed", error=reason, updated_at=models.utcnow()).where(
                (R.id == run_id) & R.status.in_(jobs.ACTIVE)).execute()
            C.update(state="cancelled").where((C.run == run_id) & C.state.in_(UNSTARTED)).execute()

    def own(self, owner_id: int, run_id: int, deck_id: int | None = None):
        """The owner's run with that id (of that deck, when `deck_id` is given), or None: another
        user's run is as absent as one that never was."""
        R = self.run_model
        run = R.get_or_none((R.id == run_id) & (R.owner == owner_id))
        return None if run is None or (deck_id is not None and run.deck_id != deck_id) else run

    def cancel(self, owner_id: int, run_id: int, deck_id: int | None = None):
        """Stop a queued or running run of the owner's (chunks not yet started are dropped).

        Returns the run (also when it had already ended: cancelling twice is harmless), or None when
        the owner has no such run (of that deck, when `deck_id` is given)."""
        C, R = self.chunk_model, self.run_model
        if self.own(owner_id, run_id, deck_id) is None:
            return None
        with database.atomic():
            changed = R.update(status="cancelled", updated_at=models.utcnow()).where(
                (R.id == run_id) & R.status.in_(jobs.ACTIVE)).execute()
            if changed:
                C.update(state="cancelled", updated_at=models.utcnow()).where(
                    (C.run == run_id) & C.state.in_(UNSTARTED)).execute()
        if changed:
            feed(owner_id)  # the owner's other runs take the window this one leaves
        return R.get_by_id(run_id)

    def recover(self) -> None:
        """Queue again the chunks whose worker died (on this host, or silent past the lease), and
        queued chunks whose message was lost; settle runs whose last chunk's worker died before it."""
        R = self.run_model
        requeue_lost(self.chunk_model, self.task, f"{self.kind} chunk", run_model=R, lease=LEASE)
        for (run_id,) in R.select(R.id).where(R.status.in_(jobs.ACTIVE)).tuples():
            self.settle(run_id)

    def job_status(self, run, total: int) -> jobs.JobStatus:
        """The run as the owner sees every job: its state, the games played so far, why it failed, and
        whether part of it waits on a worker that stopped answering."""
        waiting = (heartbeats.waiting_note(self.kind, self.chunk_model, run.id)
                   if run.status in jobs.ACTIVE else None)
        return jobs.JobStatus(run.status, run.done, total, run.error, "games", waiting)

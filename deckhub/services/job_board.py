"""The curators' view of the job queue: every job queued or running, recent failures, workers seen.

Read from the database (job rows, their chunks, worker heartbeats), so it is the same whichever
web process answers and whatever happened to the queue's messages.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from deckhub.services import collection_imports, facts_uploads, heartbeats, jobs, simulations, tunings
from deckhub.store import models

FAILED_SHOWN = 50  # most recent failures listed
ACTIVE_SHOWN = 200  # per kind (the site allows 50 active runs; uploads are few)
UPLOAD_ACTIVE = ("queued", "planning", "committing")


@dataclass
class Job:
    kind: str  # "Simulation", "Tuning run", "Card impact run", "Comparison", "Collection import", "Facts file check"
    id: int
    owner: str
    subject: str  # the deck's name, or the uploaded file's
    deck_id: int | None
    status: jobs.JobStatus
    created_at: dt.datetime
    updated_at: dt.datetime
    workers: list[str] = field(default_factory=list)  # the workers holding a part of it now


def _holders(chunk_model, run_ids: list[int]) -> dict[int, list[str]]:
    C = chunk_model
    held: dict[int, list[str]] = {}
    if run_ids:
        for run_id, worker in (C.select(C.run, C.worker).where((C.state == "running") & C.run.in_(run_ids))
                               .distinct().order_by(C.worker).tuples()):
            held.setdefault(run_id, []).append(worker)
    return held


def _runs(model, chunk_model, kind: str, status_of, where, order, limit: int) -> list[Job]:
    R, U, D = model, models.User, models.Deck
    rows = list(R.select(R, U.username, D.id, D.name, D.is_public).join(U, on=(R.owner == U.id)).switch(R)
                .join(D, on=(R.deck == D.id)).where(where).order_by(order).limit(limit))
    held = _holders(chunk_model, [r.id for r in rows if r.status == "running"])
    return [Job(_PAIRED_KINDS.get(getattr(r, "candidate_source", None), kind), r.id, r.owner.username,
                _deck_name(r.deck), r.deck_id, status_of(r), r.created_at, r.updated_at, held.get(r.id, []))
            for r in rows]


# paired runs other than tunings, stored as tuning runs are: the board names them as their owners do
_PAIRED_KINDS = {tunings.IMPACT: "Card impact run", tunings.COMPARISON: "Comparison"}


def _deck_name(deck: models.Deck) -> str:
    """A public deck's name; a private deck's stays its owner's (curators run the site, not its decks)."""
    return deck.name if deck.is_public else "a private deck"


_UPLOADS = {  # model -> (the board's name for it, its job status, the states in which a worker holds it)
    models.CollectionUpload: ("Collection import", collection_imports.job_status, ("planning", "committing")),
    models.FactsUpload: ("Facts file check", facts_uploads.job_status, ("checking",)),
}
_UPLOAD_COLUMNS = ("id", "owner", "filename", "state", "phase", "done", "total", "error", "worker", "created_at",
                   "updated_at")  # never the file or the stored preview


def _uploads(U, where, order, limit: int) -> list[Job]:
    kind, status_of, working = _UPLOADS[U]
    P = models.User
    columns = [U._meta.fields[name] for name in _UPLOAD_COLUMNS if name in U._meta.fields]
    rows = U.select(*columns, P.username).join(P, on=(U.owner == P.id)).where(where).order_by(order).limit(limit)
    return [Job(kind, u.id, u.owner.username, u.filename, None, status_of(u), u.created_at, u.updated_at,
                [u.worker] if u.worker and u.state in working else [])
            for u in rows]


def board() -> dict:
    """{"queued": [Job], "running": [Job], "failed": [Job], "workers": [...heartbeats.workers()]}."""
    S, T, U, F = models.SimulationRun, models.TuningRun, models.CollectionUpload, models.FactsUpload
    active = (_runs(S, models.SimulationChunk, "Simulation", simulations.job_status, S.status.in_(jobs.ACTIVE),
                    S.created_at, ACTIVE_SHOWN)
              + _runs(T, models.TuningChunk, "Tuning run", tunings.job_status, T.status.in_(jobs.ACTIVE),
                      T.created_at, ACTIVE_SHOWN)
              + _uploads(U, U.state.in_(UPLOAD_ACTIVE), U.created_at, ACTIVE_SHOWN)
              + _uploads(F, F.state.in_(facts_uploads.CHECKING), F.created_at, ACTIVE_SHOWN))
    failed = (_runs(S, models.SimulationChunk, "Simulation", simulations.job_status, S.status == "failed",
                    S.updated_at.desc(), FAILED_SHOWN)
              + _runs(T, models.TuningChunk, "Tuning run", tunings.job_status, T.status == "failed",
                      T.updated_at.desc(), FAILED_SHOWN)
              + _uploads(U, U.state == "failed", U.updated_at.desc(), FAILED_SHOWN)
              + _uploads(F, F.state == "failed", F.updated_at.desc(), FAILED_SHOWN))
    active.sort(key=lambda j: j.created_at)
    failed.sort(key=lambda j: j.updated_at, reverse=True)
    return {"queued": [j for j in active if j.status.state == "queued"],
            "running": [j for j in active if j.status.state == "running"],
            "failed": failed[:FAILED_SHOWN], "workers": heartbeats.workers(), "now": models.utcnow(),
            "lost_after": heartbeats.lost_after()}

"""Collection CSV uploads as jobs: planned once by a task, reviewed page by page, committed by a task.

An upload is a `CollectionUpload` row (the file, until it is planned). The plan task parses the
file and resolves every row once, and stores the result in the database: the rows as the preview
shows them, in compressed pages (`CollectionUploadPage`, one read a page) and the printings' target
quantities. The
commit task writes the stored targets in one transaction that also marks the upload done, so a
commit killed half way leaves nothing written and the upload still committable, at once.

Limits live here for every front end: a file of at most `MAX_UPLOAD_BYTES`; at most `MAX_PENDING`
uploads of a user wait at once, holding at most `MAX_WAITING_BYTES` of files between them; uploads
older than `MAX_AGE` are expired by a periodic task. A file is dropped as soon as it is no longer
needed (planned without problems, imported, failed or discarded).
"""
from __future__ import annotations

import datetime as dt
import json
import logging
import secrets
import time
import zlib

from huey import crontab
from peewee import IntegrityError, fn

from deckhub.services import chunks, jobs
from deckhub.store import models
from deckhub.services.collection import (NOTHING, CollectionFileError, _current, _plan, _uid, within_owned,
                                        write_targets)
from deckhub.store.db import database
from deckhub.importers.collection_csv import QTY_COLUMNS, QTY_LABELS, fix_options
from deckhub.services.jobs import huey  # the periodic expiry task

MAX_PENDING = 5
MAX_UPLOAD_BYTES = 4 * 1024 * 1024    # one file: a whole collection of every printing is about 1 MB
MAX_WAITING_BYTES = 8 * 1024 * 1024   # the files of one account's waiting uploads together
MAX_AGE = dt.timedelta(hours=2)
PAGE_ROWS = 200  # rows a stored page holds (the preview's page size, so a page is one read)
STREAMS = {"all": "all", "problems": "problem", "changes": "changed"}  # what a preview shows -> stored stream
PENDING = ("queued", "planning", "ready", "committing")
log = logging.getLogger(__name__)
_LOCK_KEY = 18_004
_COMMIT_LOCKS = 1 << 40  # + the upload's id: one commit of an upload at a time (PostgreSQL advisory lock)


class UploadError(ValueError):
    status = 400


class UploadLimit(UploadError):
    status = 429


def create(user, data: bytes, filename: str, default_game: str | None) -> models.CollectionUpload:
    """Keep an upload and queue its plan; refused when the file is over MAX_UPLOAD_BYTES, or the user
    already has MAX_PENDING waiting, or their waiting files and this one come to over MAX_WAITING_BYTES."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError(f"The file is {len(data) / 1048576:.1f} MB; a collection CSV may be at most "
                          f"{MAX_UPLOAD_BYTES // 1048576} MB. Split it (one game a file works well).")
    uid = _uid(user)
    U = models.CollectionUpload
    with jobs.exclusive(_LOCK_KEY):
        mine = U.select(fn.COUNT(U.id), fn.COALESCE(fn.SUM(U.size), 0)).where(
            (U.owner == uid) & U.state.in_(PENDING) & (U.created_at > models.utcnow() - MAX_AGE))
        waiting, held = mine.tuples().get()
        if waiting >= MAX_PENDING:
            raise UploadLimit(f"You already have {waiting} uploads waiting (at most {MAX_PENDING}): import or "
                              "discard one of them first.")
        if held + len(data) > MAX_WAITING_BYTES:
            raise UploadLimit(f"Your waiting uploads hold {held / 1048576:.1f} MB of files and this one is "
                              f"{len(data) / 1048576:.1f} MB; at most {MAX_WAITING_BYTES // 1048576} MB may wait at "
                              "once: import or discard one of them first.")
        upload = U.create(token=secrets.token_urlsafe(24), owner=uid, filename=(filename or "upload.csv")[:200],
                          default_game=default_game, size=len(data), data=data)
    if not plan_upload(upload.id):
        jobs.wait_for_queue(U, upload.id)
    return U.get_by_id(upload.id)


def get(user, token: str) -> models.CollectionUpload | None:
    """The user's upload with that token, if it has not expired (the same None for anyone else's)."""
    U = models.CollectionUpload
    if not token or len(token) > 64:
        return None
    return U.get_or_none((U.token == token) & (U.owner == _uid(user)) & (U.created_at > models.utcnow() - MAX_AGE))


def _set(upload_id: int, **values) -> int:
    values["updated_at"] = models.utcnow()
    return models.CollectionUpload.update(**values).where(models.CollectionUpload.id == upload_id).execute()


@jobs.task
@jobs.kind("collection_upload")
def plan_upload(upload_id: int) -> None:
    U = models.CollectionUpload
    if not chunks.claim(U, upload_id, "planning", phase="reading", error=None):
        return
    upload = U.get_by_id(upload_id)
    try:
        fixes = {int(line): fix for line, fix in (upload.fixes or {}).items()}
        plan, indexes = _plan(bytes(upload.data), upload.default_game,
                              lambda phase, done, total: _set(upload_id, phase=phase, done=done, total=total), fixes)
        current = _current(upload.owner_id, plan.targets)
    except CollectionFileError as exc:
        _set(upload_id, state="failed", error=str(exc), data=None)
        return
    rows, changed, new, capped = [], 0, 0, 0
    for r in plan.rows:
        change = None
        if r.printing and r.first_line is None and r.ok:
            before = current.get(r.printing.id, NOTHING)
            target = plan.targets[r.printing.id]
            after = within_owned(before._replace(**target))
            capped += after.trade_quantity < target.get("trade_quantity", 0)
            if before != after:
                change = ", ".join(f"{QTY_LABELS[c]} {getattr(before, c)} → {getattr(after, c)}"
                                   for c in QTY_COLUMNS if getattr(before, c) != getattr(after, c))
                changed += 1
                new += before.empty and not after.empty
        kind = "problem" if r.problems else ("changed" if change else "same")
        rows.append(_compact({"line": r.row.line, "kind": kind, "text": r.row.describe(), "game": r.row.game,
                              "quantities": r.row.quantities,
                              "card": indexes[r.game].describe(r.printing) if r.printing and r.game else "",
                              "problems": [{"kind": p.kind, "message": p.message, "suggestions": list(p.suggestions),
                                            **({"printings": [list(x) for x in p.printings]} if p.printings else {})}
                                           for p in r.problems],
                              "fixed": r.row.line in fixes, "first_line": r.first_line,
                              "change": change or ("no change" if kind == "same" and r.ok and r.first_line is None else None)}))
    summary = {"rows": len(plan.rows), "problems": len(plan.problem_rows), "printings": len(plan.targets),
               "changed": changed, "new": new, "trade_capped": capped, "warnings": list(plan.warnings)}
    with database.atomic():
        for stream, kinds in (("all", None), ("problem", "problem"), ("changed", "changed")):
            chosen = rows if kinds is None else [r for r in rows if r["kind"] == kinds]
            pages = [{"upload": upload_id, "stream": stream, "number": n // PAGE_ROWS,
                      "rows": len(chosen[n:n + PAGE_ROWS]), "data": _pack(chosen[n:n + PAGE_ROWS])}
                     for n in range(0, len(chosen), PAGE_ROWS)]
            for start in range(0, len(pages), 50):
                models.CollectionUploadPage.insert_many(pages[start:start + 50]).execute()
        # the file is kept only while rows have problems: a player's picks run its dry run again
        U.update(state="ready", phase="", summary=summary, targets={str(k): v for k, v in plan.targets.items()},
                 data=upload.data if plan.problem_rows else None, updated_at=models.utcnow()).where((U.id == upload_id) & (U.state == "planning")).execute()


_ROW_DEFAULTS = {"game": None, "quantities": {}, "card": "", "problems": [], "fixed": False, "first_line": None,
                 "change": None}


def _compact(row: dict) -> dict:
    """A preview row without the keys that hold their default (most rows have no problem, no pick)."""
    return {k: v for k, v in row.items() if k not in _ROW_DEFAULTS or v != _ROW_DEFAULTS[k]}


def _pack(rows: list[dict]) -> bytes:
    return zlib.compress(json.dumps(rows, separators=(",", ":"), ensure_ascii=False).encode("utf-8"), 6)


def _unpack(data: bytes) -> list[dict]:
    return [{**_ROW_DEFAULTS, **r} for r in json.loads(zlib.decompress(bytes(data)))]


def _stream_total(upload: models.CollectionUpload, stream: str) -> int:
    summary = upload.summary or {}
    return {"all": summary.get("rows", 0), "problem": summary.get("problems", 0), "changed": summary.get("changed", 0)}[stream]


def preview_rows(upload: models.CollectionUpload, show: str, page: int, per_page: int) -> tuple[list[dict], int]:
    """One page of the stored plan ("all", "problems" or "changes") and the number of its rows: only
    the stored pages that hold it are read and unpacked."""
    stream = STREAMS.get(show, "all")
    total = _stream_total(upload, stream)
    start = (page - 1) * per_page
    if start >= total:
        return [], total
    P = models.CollectionUploadPage
    first, last = start // PAGE_ROWS, (start + per_page - 1) // PAGE_ROWS
    rows = [r for p in P.select(P.data).where((P.upload == upload.id) & (P.stream == stream)
                                              & P.number.between(first, last)).order_by(P.number)
            for r in _unpack(p.data)]
    return rows[start - first * PAGE_ROWS:][:per_page], total


def stored_bytes(upload_id: int) -> int:
    """What an upload's stored preview takes in the database (its pages' compressed rows)."""
    P = models.CollectionUploadPage
    return P.select(fn.COALESCE(fn.SUM(fn.LENGTH(P.data)), 0)).where(P.upload == upload_id).scalar()


def row_picks(row: dict) -> list[tuple[str, dict]]:
    """What a stored problem row offers to pick (label, fix): its first problem that has suggestions."""
    return next((o for o in map(fix_options, row.get("problems") or ()) if o), [])


def choose(user, token: str, picks: dict[int, int]) -> models.CollectionUpload | None:
    """Apply the player's picks ({line: index of the suggestion picked}) to a checked upload's problem
    rows and queue its dry run again with them (and the earlier picks); nothing is written to the
    collection. None: no such upload of the user's; UploadError: a pick that is not offered, or an
    upload that is not waiting at its dry run (nothing changes then)."""
    upload = get(user, token)
    if upload is None:
        return None
    if upload.state != "ready":
        raise UploadError("This import is not waiting at its dry run any more (it is being checked or written, "
                          "or it was imported); nothing was changed.")
    if upload.data is None:
        raise UploadError("This upload no longer keeps its file; upload the file again to pick suggestions.")
    if not picks:
        raise UploadError("Pick a suggestion for at least one row; nothing was changed.")
    P = models.CollectionUploadPage
    rows = {r["line"]: r for p in P.select(P.data).where((P.upload == upload.id) & (P.stream == "problem"))
            for r in _unpack(p.data) if r["line"] in picks}
    fixes = dict(upload.fixes or {})
    for line, choice in sorted(picks.items()):
        if line not in rows:
            raise UploadError(f"Line {line} has no problem to fix in this import; nothing was changed.")
        options = row_picks(rows[line])
        if not 0 <= choice < len(options):
            raise UploadError(f"Line {line} offers no suggestion number {choice + 1}; nothing was changed.")
        fixes[str(line)] = {**fixes.get(str(line), {}), **options[choice][1]}
    U = models.CollectionUpload
    with database.atomic():
        claimed = (U.update(state="queued", phase="", summary=None, targets=None, done=0, total=0, error=None,
                            fixes=fixes, updated_at=models.utcnow())
                   .where((U.id == upload.id) & (U.state == "ready")).execute())
        if not claimed:
            raise UploadError("This import changed while you picked (it is being checked or written); nothing was changed.")
        P.delete().where(P.upload == upload.id).execute()
    if not plan_upload(upload.id):
        jobs.wait_for_queue(U, upload.id)
    return U.get_by_id(upload.id)


def commit(user, token: str) -> models.CollectionUpload | None:
    """Queue the commit of a checked upload. A commit already under way is queued again: if its
    worker died, this one writes it at once; if not, the second finds it done and does nothing."""
    upload = get(user, token)
    if upload is None:
        return None
    if upload.state == "ready" and upload.summary and upload.summary["problems"]:
        raise UploadError(f"{upload.summary['problems']} rows have problems; nothing was imported. "
                          "Pick a suggestion for them, or fix the file and upload it again.")
    U = models.CollectionUpload
    if upload.state in ("ready", "committing"):
        (U.update(state="committing", phase="writing", error=None, done=0, total=len(upload.targets or {}),
                  updated_at=models.utcnow())
         .where((U.id == upload.id) & U.state.in_(("ready", "committing"))).execute())
        if not commit_upload(upload.id):  # nothing is written: it waits at its dry run to be committed again
            _set(upload.id, state="ready", phase="", error="The job queue could not be reached, so nothing was "
                                                            "imported; commit it again in a moment.")
    return U.get_by_id(upload.id)


@jobs.task
@jobs.kind("collection_upload")
def commit_upload(upload_id: int) -> None:
    U = models.CollectionUpload
    if not U.update(worker=jobs.worker_id()).where((U.id == upload_id) & (U.state == "committing")).execute():
        return
    started = time.perf_counter()
    upload = U.get_by_id(upload_id)
    targets = {int(k): v for k, v in (upload.targets or {}).items()}
    try:
        with jobs.exclusive(_COMMIT_LOCKS + upload_id):
            # the state is read again inside the transaction: a second commit of the same upload
            # waits here for the first and then finds it done
            if U.select(U.state).where(U.id == upload_id).scalar() != "committing":
                return
            changed, capped = write_targets(upload.owner_id, targets)
            result = {"rows": upload.summary["rows"], "printings": len(targets), "changed": changed,
                      "trade_capped": capped,
                      "seconds": round(time.perf_counter() - started, 2)}
            U.update(state="done", phase="", done=len(targets), result=result, targets=None, data=None, fixes=None,
                     updated_at=models.utcnow()).where(U.id == upload_id).execute()
        models.CollectionUploadPage.delete().where(models.CollectionUploadPage.upload == upload_id).execute()
    except IntegrityError:
        _set(upload_id, state="ready", error="A printing disappeared from the catalogue while the import was "
                                              "written; nothing was changed. Upload the file again.")
    except Exception as exc:  # noqa: BLE001 — the transaction rolled back: nothing was written
        log.exception("collection upload %s: commit failed", upload_id)
        _set(upload_id, state="ready", error=f"The import failed and nothing was written ({type(exc).__name__}); "
                                             "commit it again.")


def discard(user, token: str) -> bool | None:
    """Drop an upload (None: no such upload; False: it is being written and cannot be dropped)."""
    upload = get(user, token)
    if upload is None:
        return None
    if upload.state == "committing":
        return False
    models.CollectionUpload.delete().where(models.CollectionUpload.id == upload.id).execute()
    return True


def job_status(upload: models.CollectionUpload) -> jobs.JobStatus:
    """The upload as one job: queued, running (planning or writing), done (checked or imported), failed."""
    state = {"queued": "queued", "planning": "running", "committing": "running", "ready": "done",
             "done": "done", "failed": "failed"}.get(upload.state, upload.state)
    what = "printings written" if upload.state == "committing" else "rows checked"
    return jobs.JobStatus(state, upload.done, upload.total, upload.error, what)


@huey.periodic_task(crontab(minute="*/5"))
def expire_uploads() -> None:
    """Remove uploads older than MAX_AGE (not one being written) with their stored plans."""
    with database.connection_context():
        expire()


def expire() -> int:
    U = models.CollectionUpload
    return U.delete().where((U.created_at < models.utcnow() - MAX_AGE) & (U.state != "committing")).execute()


@jobs.recoverer
def recover_uploads() -> None:
    """Queue again the plans whose worker process died on this host or stopped answering, and those
    whose message was lost (queued long ago while the queue is empty, or never sent); send again the
    commits whose worker died (a commit claims nothing: it is written once, under its lock)."""
    U = models.CollectionUpload
    chunks.requeue_lost(U, plan_upload, "collection_upload", working=("planning",))
    for upload_id, _state, _worker in chunks.lost_jobs(U, ("committing",), queued=False):
        commit_upload(upload_id)

"""Facts CSV uploads through the web as jobs: the request stores the file and queues its dry run; a
worker checks it (`facts.plan`) and stores what the preview shows; the owner proposes it.

An upload is a `FactsUpload` row. The check task reads the file once, stores the preview rows (the
rows with a problem or a change, zlib-compressed JSON) and the proposals the file makes, and drops
the file. Proposing writes those proposals and marks the upload proposed in one transaction, counted
once against the proposer's rate limit; each stored proposal is checked again against the catalogue
as it is then (a value that became the catalogue's is left out).

Limits live here for every front end: a file of at most `MAX_UPLOAD_BYTES` and `facts.WEB_MAX_ROWS`
rows; at most `MAX_CHECKING` uploads of a user wait for or are in their check at once, and at most
`MAX_KEPT` are kept (checked ones waiting for the owner count too); uploads older than `MAX_AGE` are
removed by a periodic task. A lost check (its worker died, or its message never reached the queue)
is sent again by the sweep.
"""
from __future__ import annotations

import datetime as dt
import json
import logging
import secrets
import zlib
from typing import Any

from huey import crontab
from peewee import fn

from deckhub.services import chunks, facts, jobs
from deckhub.services.community.fields import current_value
from deckhub.services.community.rate_limits import RATE_LIMIT, RATE_WINDOW
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.store.db import database, write_transaction
from deckhub.services.jobs import huey  # the periodic expiry task

MAX_UPLOAD_BYTES = 4 * 1024 * 1024  # a whole game's facts are a few hundred kilobytes
MAX_CHECKING = 3  # a user's uploads queued or being checked at once
MAX_KEPT = 10  # a user's uploads kept at once (queued, being checked, or checked and not yet proposed)
MAX_AGE = dt.timedelta(hours=2)
# distinct unknown names given "did you mean" suggestions in one check: fuzzy matching costs about
# 1.5 ms a name, so at most about half a minute of one worker a file
MAX_SUGGESTED = 20_000
PAGE_ROWS = 200  # preview rows a page shows
CHECKING = ("queued", "checking")
KEPT = ("queued", "checking", "ready")
_LOCK_KEY = 18_005  # the exclusive transaction in which a user's uploads are counted and stored
log = logging.getLogger(__name__)


class UploadError(ValueError):
    status = 400


class UploadLimit(UploadError):
    status = 429


def create(user: models.User, data: bytes, filename: str) -> models.FactsUpload:
    """Store a facts file and queue its check; refused (nothing stored) when the file is over
    MAX_UPLOAD_BYTES, or the user has MAX_CHECKING uploads waiting for their check or MAX_KEPT kept."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError(f"The file is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB; split it (one set a "
                          "file works well), or propose it from the command line with `deckhub facts import`.")
    if not data.strip():
        raise UploadError("The file is empty.")
    U = models.FactsUpload
    with jobs.exclusive(_LOCK_KEY):
        mine = (U.select(U.state, fn.COUNT(U.id)).where((U.owner == user.id) & U.state.in_(KEPT) & _fresh())
                .group_by(U.state).tuples())
        counts = dict(mine)
        checking = sum(counts.get(s, 0) for s in CHECKING)
        if checking >= MAX_CHECKING:
            raise UploadLimit(f"You already have {checking} facts files being checked (at most {MAX_CHECKING} at "
                              "once): wait for one of them to finish.")
        if sum(counts.values()) >= MAX_KEPT:
            raise UploadLimit(f"You already have {MAX_KEPT} checked facts files waiting: propose or discard one "
                              "of them first.")
        upload = U.create(token=secrets.token_urlsafe(24), owner=user.id, filename=(filename or "facts.csv")[:200],
                          size=len(data), data=data)
    if not check_upload(upload.id):
        jobs.wait_for_queue(U, upload.id)
    return U.get_by_id(upload.id)


def _fresh():
    return models.FactsUpload.created_at > models.utcnow() - MAX_AGE


def get(user: models.User, token: str) -> models.FactsUpload | None:
    """The user's upload with that token, if it has not expired (the same None for anyone else's)."""
    U = models.FactsUpload
    if not token or len(token) > 64:
        return None
    return U.get_or_none((U.token == token) & (U.owner == user.id) & _fresh())


def _set(upload_id: int, **values) -> int:
    values["updated_at"] = models.utcnow()
    return models.FactsUpload.update(**values).where(models.FactsUpload.id == upload_id).execute()


@jobs.task
@jobs.kind("facts_check")
def check_upload(upload_id: int) -> None:
    """The dry run of a stored file: what the preview shows and the proposals it makes are stored."""
    U = models.FactsUpload
    if not chunks.claim(U, upload_id, "checking", error=None, done=0, total=0):
        return
    data = bytes(U.get_by_id(upload_id).data)
    try:
        preview = facts.plan(data, facts.WEB_MAX_ROWS, MAX_SUGGESTED,
                             lambda done, total: _set(upload_id, done=done, total=total))
    except facts.FactsFileError as exc:
        _set(upload_id, state="failed", error=str(exc), data=None)
        return
    except Exception as exc:  # noqa: BLE001 — said on the page rather than left "checking" for ever
        log.exception("facts upload %s: check failed", upload_id)
        _set(upload_id, state="failed", error=f"The check failed ({type(exc).__name__}); nothing was proposed. "
                                               "Upload the file again.", data=None)
        return
    shown = sorted(preview.problem_rows + preview.changed_rows, key=lambda r: r.row.line)
    unsuggested = sum(1 for r in preview.rows for p in r.problems
                      if p.kind in ("unknown-card", "unknown-set") and not p.suggestions)
    summary = {"rows": len(preview.rows), "problems": preview.problem_count, "changed": len(preview.changed_rows),
               "changes": preview.change_count, "errors": list(preview.errors), "shown": len(shown),
               "same": len(preview.rows) - len(preview.changed_rows) - len(preview.problem_rows),
               "unsuggested": unsuggested}
    items = ([[r.game, r.card.key, {c.key: c.new for c in r.changes}, r.source] for r in preview.changed_rows]
             if preview.ok else [])
    (U.update(state="ready", summary=summary, items=items, preview=_pack([_row(r) for r in shown]), data=None,
              done=len(preview.rows), total=len(preview.rows), updated_at=models.utcnow())
     .where((U.id == upload_id) & (U.state == "checking")).execute())


def _row(r: facts.PlannedFacts) -> dict[str, Any]:
    return {"line": r.row.line, "label": r.label, "game": r.game, "key": r.card.key if r.card else None,
            "problems": [{"kind": p.kind, "message": p.message, "suggestions": list(p.suggestions)} for p in r.problems],
            "changes": [c.describe() for c in r.changes], "source": r.source}


def _pack(rows: list[dict]) -> bytes:
    return zlib.compress(json.dumps(rows, separators=(",", ":"), ensure_ascii=False).encode("utf-8"), 6)


def preview_rows(upload: models.FactsUpload, page: int) -> tuple[list[dict], int, int]:
    """One page of the checked rows (problems and changes, in file order), its number (the last page
    when `page` is past it) and the number of pages."""
    rows = json.loads(zlib.decompress(bytes(upload.preview))) if upload.preview else []
    pages = max(1, -(-len(rows) // PAGE_ROWS))
    page = min(max(page, 1), pages)
    return rows[(page - 1) * PAGE_ROWS:page * PAGE_ROWS], page, pages


def propose(user: models.User, token: str, *, rate_limit: int = RATE_LIMIT,
            window: dt.timedelta = RATE_WINDOW) -> list[models.Proposal] | None:
    """Propose a checked file: its proposals and the upload's new state in one transaction, counted
    once against the rate limit (RateLimited: nothing written). Each is checked against the
    catalogue as it is now; [] when every value is the catalogue's already. None: no such upload."""
    upload = get(user, token)
    if upload is None:
        return None
    if upload.state != "ready":
        raise UploadError("This file is not waiting to be proposed (it is being checked, or it was proposed "
                          "already); nothing was proposed.")
    if upload.summary["problems"]:
        raise UploadError(f"{upload.summary['problems']} rows have problems; nothing was proposed. "
                          "Correct them and upload the file again.")
    items = [item for item in map(_still_new, upload.items or ()) if item]
    U = models.FactsUpload
    with write_transaction():
        claimed = (U.update(state="proposed", preview=None, items=None, updated_at=models.utcnow())
                   .where((U.id == upload.id) & (U.state == "ready")).execute())
        if not claimed:
            raise UploadError("This file was proposed already; nothing more was proposed.")
        return facts.write_proposals(user, items, rate_limit=rate_limit, window=window) if items else []


def _still_new(item: list) -> tuple[str, str, dict, str] | None:
    """A stored proposal without the values the catalogue has now (None: the card is gone, or nothing is new)."""
    game, key, values, source = item
    card = get_catalogue(game).get(key)
    if card is None:
        return None
    values = {k: v for k, v in values.items() if current_value(card, k) != v}
    return (game, key, values, source) if values else None


def discard(user: models.User, token: str) -> bool:
    """Drop an upload of the user's (False: no such upload)."""
    upload = get(user, token)
    if upload is None:
        return False
    return bool(models.FactsUpload.delete().where(models.FactsUpload.id == upload.id).execute())


def job_status(upload: models.FactsUpload) -> jobs.JobStatus:
    """The upload's check as one job: queued, running, done (checked or proposed), failed."""
    state = {"queued": "queued", "checking": "running", "ready": "done", "proposed": "done"}.get(upload.state, "failed")
    return jobs.JobStatus(state, upload.done, upload.total, upload.error, "rows checked")


@huey.periodic_task(crontab(minute="*/5"))
def expire_uploads() -> None:
    """Remove uploads older than MAX_AGE."""
    with database.connection_context():
        expire()


def expire() -> int:
    U = models.FactsUpload
    return U.delete().where(U.created_at < models.utcnow() - MAX_AGE).execute()


@jobs.recoverer
def recover_uploads() -> None:
    """Queue again the checks whose worker died on this host or stopped answering, and those whose
    message was lost (queued long ago while the queue is empty, or never sent)."""
    chunks.requeue_lost(models.FactsUpload, check_upload, "facts_check", working=("checking",))

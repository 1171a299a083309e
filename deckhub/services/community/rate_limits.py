"""How many proposals a player may send: a number per hour, and a number waiting for review.

A batch counts once, however many cards it holds. The hits are `RateLimitHit` rows
(`deckhub.services.ratelimit`), shared by every worker.
"""
from __future__ import annotations

import datetime as dt

from peewee import fn

from deckhub.services import ratelimit
from deckhub.services.community.errors import RateLimited
from deckhub.store import models
from deckhub.store.db import lock

RATE_LIMIT = 30                      # proposals per user per RATE_WINDOW
RATE_WINDOW = dt.timedelta(hours=1)  # deckhub.services.ratelimit sweeps rows older than 4 windows of any bucket
MAX_PENDING = 100                    # proposals of one user waiting for review at once


def _pending_submissions(user: models.User) -> int:
    """How many of a user's submissions wait for review: a batch counts once, like its rate-limit hit."""
    mine = (models.Proposal.proposer == user.id) & (models.Proposal.status == "pending")
    singles = models.Proposal.select().where(mine & models.Proposal.batch_id.is_null()).count()
    batches = (models.Proposal.select(fn.COUNT(fn.DISTINCT(models.Proposal.batch_id)))
               .where(mine & models.Proposal.batch_id.is_null(False)).scalar()) or 0
    return singles + batches


def take_rate(user: models.User, limit: int, window: dt.timedelta) -> None:
    """Count one submission against the user's limits, atomically; RateLimited (and no hit) if over.

    Must run inside the write transaction that stores the submission: the user's proposal lock
    (db.lock) makes two requests of one user count one after the other, so they cannot both slip
    under the limit."""
    lock(f"proposals:{user.id}")
    ratelimit.hit([f"proposal:{user.id}"], window)
    check_rate(user, limit, window, taken=1)


def check_rate(user: models.User, limit: int, window: dt.timedelta, taken: int = 0) -> None:
    """RateLimited if the user may not send a submission now (`taken`: this one is counted already).
    Without the lock it is only a first look, made before costly work such as decoding a scan."""
    if ratelimit.recent(f"proposal:{user.id}", window) + 1 - taken > limit:
        minutes = int(window.total_seconds() // 60)
        raise RateLimited(f"You have sent {limit} proposals in the last {minutes} minutes; "
                          "please wait a while before sending more.")
    waiting = _pending_submissions(user)
    if waiting >= MAX_PENDING:
        raise RateLimited(f"{waiting} of your proposals are waiting for a curator; "
                          "please wait until some are reviewed before sending more.")

"""Rate limits shared by every worker: attempts are rows, counted over a sliding window.

Used for failed log-ins (per account name and per client address), sign-ups per address and
community proposals; old rows are swept as new ones arrive, so the table stays small. `take`
counts and records in one locked transaction, so simultaneous requests cannot all pass a check
that each of them alone would fail.
"""
from __future__ import annotations

import datetime as dt

from peewee import fn

from deckhub.store import models
from deckhub.store.db import lock, write_transaction


def _bucket(name: str) -> str:
    return name[:200]


def recent(bucket: str, window: dt.timedelta) -> int:
    since = models.utcnow() - window
    return (models.RateLimitHit.select()
            .where((models.RateLimitHit.bucket == _bucket(bucket)) & (models.RateLimitHit.created_at >= since)).count())


def is_limited(buckets: list[str], limit: int, window: dt.timedelta) -> bool:
    return any(recent(b, window) >= limit for b in buckets)


def hit(buckets: list[str], window: dt.timedelta) -> None:
    now = models.utcnow()
    models.RateLimitHit.insert_many([{"bucket": _bucket(b), "created_at": now} for b in buckets]).execute()
    # weighted hits (byte budgets) have windows of their own: `take_weighted` sweeps them
    models.RateLimitHit.delete().where((models.RateLimitHit.created_at < now - 4 * window)
                                       & (models.RateLimitHit.weight == 1)).execute()


def take(buckets: list[str], limit: int, window: dt.timedelta) -> bool:
    """Record one attempt in every bucket if none of them is at `limit`; False (nothing recorded) if one is."""
    with write_transaction():
        lock(*(f"ratelimit:{_bucket(b)}" for b in buckets))
        if is_limited(buckets, limit, window):
            return False
        hit(buckets, window)
    return True


def take_weighted(bucket: str, weight: int, limit: int, window: dt.timedelta) -> bool:
    """Record one attempt that counts `weight` (bytes, say) if the bucket's weights in the window and
    it stay within `limit`; False (nothing recorded) otherwise. Atomic like `take`."""
    with write_transaction():
        lock(f"ratelimit:{_bucket(bucket)}")
        since = models.utcnow() - window
        H = models.RateLimitHit
        spent = H.select(fn.COALESCE(fn.SUM(H.weight), 0)).where((H.bucket == _bucket(bucket)) & (H.created_at >= since)).scalar()
        if spent + weight > limit:
            return False
        now = models.utcnow()
        H.insert(bucket=_bucket(bucket), weight=weight, created_at=now).execute()
        H.delete().where((H.bucket == _bucket(bucket)) & (H.created_at < now - window) & (H.weight != 1)).execute()
    return True


def give_back(buckets: list[str]) -> None:
    """Undo one `take` (the newest attempt of each bucket): the attempt turned out not to count."""
    for b in buckets:
        newest = (models.RateLimitHit.select(models.RateLimitHit.id).where(models.RateLimitHit.bucket == _bucket(b))
                  .order_by(models.RateLimitHit.id.desc()).limit(1))
        models.RateLimitHit.delete().where(models.RateLimitHit.id.in_(newest)).execute()


def clear(buckets: list[str]) -> None:
    models.RateLimitHit.delete().where(models.RateLimitHit.bucket.in_([_bucket(b) for b in buckets])).execute()

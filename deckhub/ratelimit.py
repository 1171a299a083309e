"""Rate limits shared by every worker: attempts are rows, counted over a sliding window.

Used for failed log-ins (per account name and per client address) and for community
proposals; old rows are swept as new ones arrive, so the table stays small.
"""
from __future__ import annotations

import datetime as dt

from deckhub import models


def recent(bucket: str, window: dt.timedelta) -> int:
    since = models.utcnow() - window
    return (models.RateLimitHit.select()
            .where((models.RateLimitHit.bucket == bucket) & (models.RateLimitHit.created_at >= since)).count())


def is_limited(buckets: list[str], limit: int, window: dt.timedelta) -> bool:
    return any(recent(b, window) >= limit for b in buckets)


def hit(buckets: list[str], window: dt.timedelta) -> None:
    now = models.utcnow()
    models.RateLimitHit.insert_many([{"bucket": b[:200], "created_at": now} for b in buckets]).execute()
    models.RateLimitHit.delete().where(models.RateLimitHit.created_at < now - 4 * window).execute()


def clear(buckets: list[str]) -> None:
    models.RateLimitHit.delete().where(models.RateLimitHit.bucket.in_([b[:200] for b in buckets])).execute()

"""What the community catalogue settles with time alone, on the job queue's schedule.

A disputed field whose leading value has held a clear majority for a week settles although no new
vote arrived (`agreement.settle_due`): every hour, on whichever worker runs the schedule (`deckhub
worker`, or the one `deckhub serve` starts). A site without workers runs `deckhub settle-facts`
from cron instead.
"""
from __future__ import annotations

from huey import crontab

from deckhub.services.community import agreement
from deckhub.services.jobs import huey
from deckhub.store.db import database

SETTLE_MINUTE = "23"  # once an hour, away from the minute other periodic jobs start on


@huey.periodic_task(crontab(minute=SETTLE_MINUTE))
def settle_disputes() -> str:
    """Settle the disputes whose majority has held long enough (each logged with its rule)."""
    with database.connection_context():
        settled = agreement.settle_due()
    return f"{len(settled)} disputed field{'s' if len(settled) != 1 else ''} settled"

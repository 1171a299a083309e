"""Whether this process can serve: the database answers, the queue answers, the schema is current.

`/readyz` asks these (a load balancer takes a site out of rotation while one fails); `/healthz`
asks nothing (the process is up). Each check returns (ok, detail) and never raises.
"""
from __future__ import annotations

import sqlite3
from functools import lru_cache

from deckhub.services import jobs
from deckhub.store.db import database
from deckhub.store import schema

TIMEOUT = 2  # seconds a check may wait for Redis


def check_database() -> tuple[bool, str]:
    try:
        with database.connection_context():
            database.execute_sql("SELECT 1").fetchone()
    except Exception as exc:  # noqa: BLE001 — any failure is "not ready", named in the answer
        return False, f"{type(exc).__name__}: {str(exc).strip()[:300]}"
    return True, "SELECT 1 answered"


@lru_cache(maxsize=8)
def _redis(url: str):
    import redis
    return redis.Redis.from_url(url, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT)


def check_queue() -> tuple[bool, str]:
    """The configured Huey storage: Redis answers a ping, the SQLite queue file opens for writing;
    `immediate` (tasks run inside the request) always passes."""
    url = jobs.queue_url()
    try:
        if url == "immediate":
            return True, "immediate: tasks run inside the request"
        if url.startswith("sqlite:///"):
            path = url[len("sqlite:///"):]
            conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=TIMEOUT)
            try:
                conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
            finally:
                conn.close()
            return True, "the queue file opens"
        _redis(url).ping()
        return True, "Redis answered a ping"
    except Exception as exc:  # noqa: BLE001
        return False, f"{type(exc).__name__}: {str(exc).strip()[:300]}"


def check_schema() -> tuple[bool, str]:
    """The database's schema against the steps this code knows."""
    try:
        with database.connection_context():
            steps = schema.pending(database.obj)
    except Exception as exc:  # noqa: BLE001
        return False, f"{type(exc).__name__}: {str(exc).strip()[:300]}"
    if steps:
        return False, f"{len(steps)} schema step{'s' if len(steps) != 1 else ''} pending ({', '.join(steps)}): run `deckhub db upgrade`"
    return True, "the schema is current"


CHECKS = {"database": check_database, "queue": check_queue, "schema": check_schema}


def readiness() -> tuple[bool, dict]:
    """(all passed, {"status": ..., "checks": {name: {"ok", "detail"}}})."""
    checks = {}
    for name, check in CHECKS.items():
        if name == "schema" and not checks["database"]["ok"]:
            ok, detail = False, "not checked: the database did not answer"
        else:
            ok, detail = check()
        checks[name] = {"ok": ok, "detail": detail}
    ready = all(c["ok"] for c in checks.values())
    return ready, {"status": "ok" if ready else "unavailable", "checks": checks}

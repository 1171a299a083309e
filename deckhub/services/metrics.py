"""Prometheus metrics: requests counted and timed in the web processes, jobs read from the database.

Requests are labelled by Flask endpoint (not the raw path: a label per deck id would grow without
bound), method and status. Under gunicorn's pre-forked workers each process counts its own
requests; with `PROMETHEUS_MULTIPROC_DIR` set, prometheus_client keeps them in files in that
folder and a scrape adds up every process's (`deckhub serve --workers N` sets it to
`instance/prometheus/`, emptied at each start, unless the operator set it). The variable must be set
before prometheus_client is imported, which is why this module is imported only by the web layer.

Jobs, the queue and the workers are not counted by the processes that run them: a collector reads
the database (job rows, worker heartbeats) and the queue's pending count at scrape time, so every
web process answers the same figures and nothing is lost when a worker dies.
"""
from __future__ import annotations

import os

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily

from deckhub.services import heartbeats, jobs
from deckhub.store import models
from deckhub.store.db import database, is_sqlite

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
JOB_BUCKETS = (1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200)
# kind -> (table, status column); a job's duration runs from its creation to its last update
JOB_TABLES = {"simulation": (models.SimulationRun, "status"), "tuning": (models.TuningRun, "status"),
              "collection_upload": (models.CollectionUpload, "state"), "facts_check": (models.FactsUpload, "state")}
FINISHED = {"done", "failed", "cancelled", "ready", "proposed"}  # an upload is "ready" once planned or checked

_own = CollectorRegistry()
REQUESTS = Counter("deckhub_http_requests", "HTTP requests answered, by Flask endpoint, method and status.",
                   ["endpoint", "method", "status"], registry=_own)
LATENCY = Histogram("deckhub_http_request_duration_seconds", "Time to answer an HTTP request, by Flask endpoint, "
                    "method and status.", ["endpoint", "method", "status"], buckets=REQUEST_BUCKETS, registry=_own)


# decided once, as prometheus_client decided how to keep values when it was imported (just above)
MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def observe(endpoint: str | None, method: str, status: int, seconds: float) -> None:
    labels = (endpoint or "unmatched", method if method in METHODS else "other", str(status))
    REQUESTS.labels(*labels).inc()
    LATENCY.labels(*labels).observe(seconds)


def _seconds_sql(table: str) -> str:
    if is_sqlite():
        return f'(julianday("{table}"."updated_at") - julianday("{table}"."created_at")) * 86400.0'
    return f'EXTRACT(EPOCH FROM ("{table}"."updated_at" - "{table}"."created_at"))'


class JobCollector:
    """Jobs by kind and status with their durations, queue depth and workers seen, read at scrape time."""

    def collect(self):
        up = GaugeMetricFamily("deckhub_database_up", "1 if the database answered this scrape.")
        try:
            with database.connection_context():
                families = self._from_database()
        except Exception:  # noqa: BLE001 — the scrape still answers, saying the database did not
            up.add_metric([], 0)
            families = []
        else:
            up.add_metric([], 1)
        yield up
        yield from families
        yield from self._queue()

    def _from_database(self):
        count = GaugeMetricFamily("deckhub_jobs", "Jobs in the database, by kind and status.", labels=["kind", "status"])
        duration = HistogramMetricFamily("deckhub_job_duration_seconds", "Finished jobs, from creation to their "
                                         "end, by kind and status.", labels=["kind", "status"])
        cases = ", ".join(f"SUM(CASE WHEN d <= {b} THEN 1 ELSE 0 END)" for b in JOB_BUCKETS)
        for kind, (model, column) in JOB_TABLES.items():
            table = model._meta.table_name
            sql = (f'SELECT s, COUNT(*), COALESCE(SUM(d), 0), {cases} FROM (SELECT "{table}"."{column}" AS s, '
                   f'{_seconds_sql(table)} AS d FROM "{table}") AS jobs GROUP BY s')
            for status, n, total, *cumulative in database.execute_sql(sql).fetchall():
                count.add_metric([kind, status], n)
                if status in FINISHED:
                    buckets = [(str(float(b)), int(c or 0)) for b, c in zip(JOB_BUCKETS, cumulative)]
                    duration.add_metric([kind, status], buckets + [("+Inf", n)], float(total))
        workers = GaugeMetricFamily("deckhub_workers", "Queue worker processes seen in the last day, alive or "
                                    "lost (heartbeat older than the lost-after time).", labels=["state"])
        seen = heartbeats.workers()
        alive = sum(1 for w in seen if w["alive"])
        workers.add_metric(["alive"], alive)
        workers.add_metric(["lost"], len(seen) - alive)
        return [count, duration, workers]

    def _queue(self):
        up = GaugeMetricFamily("deckhub_queue_up", "1 if the job queue answered this scrape.")
        try:
            depth = jobs.pending()
        except Exception:  # noqa: BLE001
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        pending = GaugeMetricFamily("deckhub_queue_depth", "Tasks waiting in the job queue.")
        pending.add_metric([], depth)
        yield pending


_scrape: dict[str, CollectorRegistry] = {}


def _registry() -> CollectorRegistry:
    """What a scrape reads: this process's request metrics (or every process's, in multiprocess
    mode) and the database's job figures."""
    if "registry" not in _scrape:
        if MULTIPROCESS:
            from prometheus_client import multiprocess as mp
            registry = CollectorRegistry()
            mp.MultiProcessCollector(registry)
        else:
            registry = _own
        registry.register(JobCollector())
        _scrape["registry"] = registry
    return _scrape["registry"]


def exposition() -> tuple[bytes, str]:
    return generate_latest(_registry()), CONTENT_TYPE_LATEST


def worker_exited(pid: int) -> None:
    """gunicorn's child_exit hook: a dead worker's files stop counting as a live process's."""
    if MULTIPROCESS:
        from prometheus_client import multiprocess as mp
        mp.mark_process_dead(pid)

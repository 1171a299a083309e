"""One logging configuration for the web processes and the queue workers.

Every line carries a timestamp, its level, its logger and the request or job it belongs to (a
request id in the web, `kind:id` of the job a worker plays), so an operator can follow one request
or one job through interleaved lines of many processes. `DECKHUB_LOG_FORMAT=json` writes each line
as one JSON object (for a log collector); `DECKHUB_LOG_LEVEL` sets the level (INFO by default).

The JSON formatter is written with the standard library's `json`: a line has a fixed handful of
fields, which is fewer lines of code than configuring a formatter library, and one dependency less.
"""
from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import os
import re
import sys
import time
import uuid

REQUEST_ID = contextvars.ContextVar("deckhub_request_id", default=None)
JOB_ID = contextvars.ContextVar("deckhub_job_id", default=None)
_SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(context)s] %(message)s"
_HANDLER_NAME = "deckhub"


def request_id_from(header: str | None) -> str:
    """The caller's X-Request-ID when it is short and plain (≤ 64 of [A-Za-z0-9._-]), else a new id:
    an id copied into every log line must not carry spaces, quotes or control characters."""
    if header and _SANE_ID.fullmatch(header):
        return header
    return uuid.uuid4().hex


def context() -> str:
    """What a line belongs to: the request id, the job id, or "-" (start-up, background threads)."""
    return REQUEST_ID.get() or JOB_ID.get() or "-"


def _install_record_factory() -> None:
    """Every record gets `request_id`, `job_id` and `context` when it is made, so any handler (the
    site's, a test's capture) sees which request or job logged it."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, "deckhub", False):
        return

    def factory(*args, **kwargs):
        record = previous(*args, **kwargs)
        record.request_id = REQUEST_ID.get()
        record.job_id = JOB_ID.get()
        record.context = record.request_id or record.job_id or "-"
        return record
    factory.deckhub = True
    logging.setLogRecordFactory(factory)


class JSONFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, request_id, job_id,
    and the traceback as `exception` when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line = {"time": dt.datetime.fromtimestamp(record.created, dt.timezone.utc).isoformat(timespec="milliseconds"),
                "level": record.levelname, "logger": record.name, "message": record.getMessage(),
                "request_id": getattr(record, "request_id", None), "job_id": getattr(record, "job_id", None),
                "process": record.process}
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def formatter(fmt: str | None = None) -> logging.Formatter:
    if (fmt or os.environ.get("DECKHUB_LOG_FORMAT", "text")).lower() == "json":
        return JSONFormatter()
    return logging.Formatter(TEXT_FORMAT)


def _level(level: str | None = None) -> int:
    value = logging.getLevelName((level or os.environ.get("DECKHUB_LOG_LEVEL") or "INFO").upper())
    return value if isinstance(value, int) else logging.INFO


def make_handler(stream=None, fmt: str | None = None) -> logging.Handler:
    """The one handler every line goes through (standard error, in the configured format)."""
    _install_record_factory()
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(formatter(fmt))
    return handler


def configure(level: str | None = None, fmt: str | None = None, stream=None) -> logging.Handler:
    """Send every logger's lines (DeckHub's, Flask's, Huey's consumer's) to one handler on the root
    logger, in the configured format and level; calling it again replaces that handler."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
    handler = make_handler(stream, fmt)
    root.addHandler(handler)
    root.setLevel(_level(level))
    # the schema runner logs each table it creates; `deckhub db upgrade` says what it applied itself
    logging.getLogger("peewee_migrate").setLevel(max(logging.WARNING, root.level))
    return handler


def gunicorn_logconfig() -> dict:
    """gunicorn's logging set-up (it replaces the root logger's handlers when it starts): the same
    handler on the root, and gunicorn's own loggers (worker boot, access lines) passed on to it."""
    return {"version": 1, "disable_existing_loggers": False,
            "root": {"level": _level(), "handlers": [_HANDLER_NAME]},
            "handlers": {_HANDLER_NAME: {"()": "deckhub.logs.make_handler"}},
            "loggers": {name: {"level": "INFO", "handlers": [], "propagate": True}
                        for name in ("gunicorn.error", "gunicorn.access")}}


class RepeatedErrors:
    """A run of the same failure (Redis or the database down while a worker polls) logged as two
    lines: the first error when it starts, and one line with the count when it stops."""

    def __init__(self, logger: logging.Logger, what: str, clock=time.monotonic):
        self.logger, self.what, self.clock = logger, what, clock
        self.failures = 0
        self.since = 0.0

    def failed(self, exc: BaseException) -> None:
        self.failures += 1
        if self.failures == 1:
            self.since = self.clock()
            self.logger.error("%s unreachable: %s: %s (further failures are counted, not logged)", self.what,
                              type(exc).__name__, str(exc).strip() or "no detail", extra={"repeated_errors": True})

    def recovered(self) -> None:
        if self.failures:
            self.logger.warning("%s reachable again after %d failed attempt%s over %.0f s", self.what, self.failures,
                                "s" if self.failures != 1 else "", self.clock() - self.since,
                                extra={"repeated_errors": True})
            self.failures = 0


def connection_errors() -> tuple[type[BaseException], ...]:
    """Errors that mean a service did not answer (as opposed to a bug): Redis, SQLite, PostgreSQL, sockets."""
    import sqlite3

    import peewee
    kinds: list[type[BaseException]] = [OSError, sqlite3.OperationalError, peewee.OperationalError,
                                        peewee.InterfaceError]
    try:
        import redis
        kinds += [redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, redis.exceptions.BusyLoadingError]
    except ImportError:  # pragma: no cover — redis is a dependency
        pass
    return tuple(kinds)


class RepeatedErrorFilter(logging.Filter):
    """On a logger that reports every failed poll with its traceback (Huey's consumer does), turns
    connection errors into a `RepeatedErrors` run; `recovered()` is called after a poll that failed
    no more. Other lines pass unchanged."""

    def __init__(self, errors: RepeatedErrors):
        super().__init__()
        self.errors = errors
        self._kinds = connection_errors()

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "repeated_errors", False) or not record.exc_info:
            return True
        exc = record.exc_info[1]
        if not isinstance(exc, self._kinds):
            return True
        self.errors.failed(exc)
        return False

"""Background work on Huey: the one queue every job goes through, and the status owners see.

The queue belongs to its database: by default an SQLite file beside an SQLite database, or in
`instance/` named after a PostgreSQL server and database (no extra service); in Redis when
`DECKHUB_QUEUE_URL=redis://HOST:6379/0` (workers on several machines), or it runs tasks at once in
the calling thread with `immediate` (for tests and debugging). `deckhub worker` runs consumers.
Every job carries its database's identity (`site_id`), so a worker never runs another database's
job, even when two sites are pointed at one queue.

The database, not the queue, is the record of every job: a task only says "do chunk 7 of run 3",
and what was done is written in the database, so a message lost with a killed worker is found
again by `recover()` and run once more without anything being counted twice.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import logging
import os
import re
import signal
import socket
import threading
import time
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from huey import Huey, crontab
from huey.storage import RedisStorage, SqliteStorage
from peewee import SqliteDatabase

from deckhub.store.db import database

log = logging.getLogger(__name__)

huey = Huey("deckhub", results=False, utc=True, immediate=True)
_configured = {"url": "immediate", "name": "deckhub"}

STATES = ("queued", "running", "done", "failed", "cancelled")
ACTIVE = ("queued", "running")


class QueueConfigError(ValueError):
    pass


def default_url(instance_path: str | os.PathLike, database_url: str) -> str:
    """The embedded queue of one database: `NAME.queue.sqlite3` beside an SQLite file, or in the
    instance folder a file named after a PostgreSQL server and database (a readable slug and a
    short hash of host, port and name), so two sites never share a queue by accident."""
    parsed = urlparse(database_url)
    if parsed.scheme == "sqlite":
        path = unquote(database_url[len("sqlite:///"):]) if database_url.startswith("sqlite:///") else unquote(parsed.path)
        if path and path != ":memory:":
            db_file = Path(path)
            return f"sqlite:///{db_file.with_name(db_file.stem + '.queue.sqlite3')}"
        return f"sqlite:///{Path(instance_path) / 'queue-memory.sqlite3'}"
    where = f"{parsed.hostname or 'localhost'}:{parsed.port or 5432}/{unquote(parsed.path.lstrip('/'))}"
    slug = re.sub(r"[^a-z0-9]+", "-", where.lower()).strip("-")[:60]
    digest = hashlib.sha256(where.encode("utf-8")).hexdigest()[:8]
    return f"sqlite:///{Path(instance_path) / f'queue-{slug}-{digest}.sqlite3'}"


def configure(url: str, name: str = "deckhub") -> None:
    """Point the queue at `url`: sqlite:///PATH, redis://HOST:PORT/DB, or immediate.

    `name` (DECKHUB_QUEUE_NAME) keeps several sites apart on one Redis server."""
    if (url, name) == (_configured["url"], _configured["name"]) and (url == "immediate") == huey.immediate:
        return
    if url == "immediate":
        huey.immediate = True
    elif url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///"):])
        path.parent.mkdir(parents=True, exist_ok=True)
        huey._immediate = False
        huey.storage = SqliteStorage(name=name, filename=str(path))
    elif url.startswith(("redis://", "rediss://", "unix://")):
        huey._immediate = False
        huey.storage = RedisStorage(name=name, url=url)
    else:
        raise QueueConfigError(f"DECKHUB_QUEUE_URL {url!r}: use sqlite:///PATH, redis://HOST:6379/0 or immediate")
    _configured.update(url=url, name=name)


def queue_url() -> str:
    return _configured["url"]


def pending() -> int:
    """Messages waiting in the queue (0 in immediate mode)."""
    return 0 if huey.immediate else huey.pending_count()


_site: dict = {"db": None, "id": None}
SITE_KEY = 18_003  # the exclusive transaction in which a lost site identity is made again


def site_id() -> str:
    """This database's identity (a random id kept in `site_identity`), read once per process and
    database; needs an open connection. A database that lost its row gets a new one, made in an
    exclusive transaction so processes starting together agree on one."""
    if _site["db"] is not database.obj:
        from deckhub.store.models import SiteIdentity

        def first():
            return SiteIdentity.select(SiteIdentity.site).order_by(SiteIdentity.id).first()
        row = first()
        if row is None:
            with exclusive(SITE_KEY):
                row = first() or SiteIdentity.create(site=SiteIdentity.new_id())
        _site.update(db=database.obj, id=row.site)
    return _site["id"]


BOUNCE_DELAY = 5  # seconds before a job taken by another database's worker is offered again
MAX_BOUNCES = 120  # then it is dropped: its own site's sweep finds the queued row again
WAITING_FOR_QUEUE = "the job queue could not be reached; it starts on its own once the queue is back"
_QUEUE_ERRORS: tuple[type[BaseException], ...] = (OSError, sqlite3.Error)
try:
    from redis.exceptions import RedisError
    _QUEUE_ERRORS += (RedisError,)
except ImportError:  # Redis is optional: without the package there is no Redis queue to fail
    pass


def task(fn):
    """A queue task that carries its database's identity and runs with a connection open.

    Calling the result queues `fn(*args)` (in immediate mode: runs it) and returns True, or False
    (logged) when the queue cannot be reached; the row the job stands for is then still queued in
    the database and the owner's sweep sends it again once the queue is back. A worker of another
    database that takes the job does not run it: it warns, naming both databases, and puts it back
    for the right workers (a message without an identity was queued by an older DeckHub: it runs)."""
    @functools.wraps(fn)
    def run(*args, site=None, bounced=0):
        with database.connection_context():
            mine = site_id()
            if site is None or site == mine:
                return fn(*args)
        _pass_on(queued, args, site, mine, bounced)

    # Huey names a message's task by module and function. The name stays the one the previous release
    # gave it (`deckhub.<module>.<function>`, before the modules moved into deckhub.services), so jobs
    # queued before an upgrade still run after it.
    run.__module__ = "deckhub." + fn.__module__.rsplit(".", 1)[-1]
    queued = huey.task()(run)

    @functools.wraps(fn)
    def send(*args) -> bool:
        try:
            queued(*args, site=site_id())
        except _QUEUE_ERRORS as exc:
            log.warning("%s%s not queued: %s; the sweep queues it again when the queue is back", fn.__name__, args, exc)
            return False
        return True

    send.task = queued
    return send


def wait_for_queue(model, row_id: int) -> None:
    """Say on a queued run or upload whose job could not be sent that it waits for the queue (the
    sweep sends it again; its first worker clears the note)."""
    state = model.status if hasattr(model, "status") else model.state
    model.update(error=WAITING_FOR_QUEUE).where((model.id == row_id) & (state == "queued")).execute()


def _pass_on(queued, args, site: str, mine: str, bounced: int) -> None:
    name = f"{queued.task_class.__name__}{args}"
    again = bounced < MAX_BOUNCES
    log.warning("job %s belongs to database %s, not to this worker's database %s (two sites share the queue "
                "%s named %r): not run, %s", name, site, mine, queue_url(), _configured["name"],
                "put back on the queue for its own workers" if again else "dropped after being put back "
                f"{bounced} times (its own site finds it again)")
    if again:
        try:
            queued.schedule(args=args, kwargs={"site": site, "bounced": bounced + 1}, delay=BOUNCE_DELAY)
        except _QUEUE_ERRORS as exc:
            log.warning("job %s of database %s dropped: the queue could not take it back (%s)", name, site, exc)


def worker_id() -> str:
    """Who is running a task: host and process, so a restarted worker can tell its dead ones."""
    return f"{socket.gethostname()}:{os.getpid()}"


def is_dead_local(worker: str | None) -> bool:
    """True if `worker` ran on this host and its process no longer exists."""
    host, _, pid = (worker or "").rpartition(":")
    if host != socket.gethostname() or not pid.isdecimal():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


LOST_AFTER = dt.timedelta(minutes=1)  # a queued job this old while the queue is empty was lost


@contextlib.contextmanager
def exclusive(key: int):
    """A write transaction that only one caller holds at a time, on every worker and host.

    Limits are counted and their rows written inside it, so concurrent requests cannot both pass
    a check-then-act: SQLite takes its write lock at BEGIN; PostgreSQL takes an advisory lock."""
    if isinstance(database.obj, SqliteDatabase):
        with database.atomic("IMMEDIATE"):
            yield
        return
    with database.atomic():
        database.execute_sql("SELECT pg_advisory_xact_lock(%s)", (key,))
        yield


@dataclass(frozen=True)
class JobStatus:
    """What the owner of any job sees: its state, progress so far, and why it failed."""

    state: str  # one of STATES
    done: int = 0
    total: int = 0
    reason: str | None = None
    what: str = "games"
    waiting: str | None = None  # part of the job waits on a worker that stopped answering (heartbeats.waiting_note)

    @property
    def active(self) -> bool:
        return self.state in ACTIVE

    def describe(self) -> str:
        if self.state == "queued":
            return self.waiting or f"queued: {self.reason or 'waiting for a worker'}"
        if self.state == "running":
            text = f"running: {self.done:,} of {self.total:,} {self.what}" if self.total else "running"
            return f"{text} — {self.waiting}" if self.waiting else text
        if self.state == "failed":
            return f"failed: {self.reason}" if self.reason else "failed"
        return self.state


@huey.on_startup()
def _die_with_the_consumer() -> None:
    """A worker process ends when the consumer that forked it dies without stopping it (SIGKILL, a
    crash of `deckhub worker` or of the `deckhub serve` above it): on Linux the kernel kills it, and
    its chunk is played again by a live worker (heartbeats). Elsewhere nothing changes."""
    import ctypes
    import multiprocessing
    consumer = multiprocessing.parent_process()
    if consumer is None:  # thread workers, or tasks run in this process: nothing was forked
        return
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return
    prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != consumer.pid:  # the consumer died before the line above took effect
        os._exit(0)


@huey.on_startup()
def _fresh_connections() -> None:
    """A forked worker process opens its own database and queue connections."""
    if database.obj is not None and hasattr(database.obj, "close_all"):
        database.obj.close_all()
    if isinstance(huey.storage, SqliteStorage):
        huey.storage._conn = None  # the parent's connection must not be shared across fork


_kinds: dict[str, str] = {}  # task name -> job kind (simulation, tuning, collection_upload)
_running = threading.local()  # this thread's jobs, innermost last (in immediate mode a task may start another)


def kind(name: str):
    """Mark a task as playing one job of kind `name` whose id is its first argument: its start and
    end are logged, its lines carry `name:id`, and the worker's heartbeat says it holds it."""
    def mark(fn):
        _kinds[fn.__name__] = name
        return fn
    return mark


def job_of(task) -> tuple[str | None, object]:
    """(kind, id) of the job a queue task plays (None, None for a task that plays no job)."""
    name = _kinds.get(task.name)
    return name, (task.args[0] if name and task.args else None)


@huey.pre_execute()
def _job_started(task) -> None:
    """Log the start and tag every line until the end with the job."""
    from deckhub import logs
    name, ident = job_of(task)
    job = f"{name}:{ident}" if name else f"task:{task.id}"
    stack = _running.__dict__.setdefault("jobs", [])
    stack.append((logs.JOB_ID.set(job), time.monotonic(), job))
    log.info("job started: %s", job)


@huey.post_execute()
def _job_finished(task, value, exc) -> None:
    from deckhub import logs
    stack = _running.__dict__.get("jobs") or []
    if not stack:
        return
    token, started, job = stack.pop()
    outcome = f"error: {type(exc).__name__}: {exc}" if exc is not None else (value or "done")
    (log.warning if exc is not None else log.info)("job finished: %s in %.2f s: %s", job,
                                                   time.monotonic() - started, outcome)
    logs.JOB_ID.reset(token)


def before_fork() -> None:
    """Close this process's database and queue connections before it forks workers: an SQLite
    connection must never be used on both sides of a fork. Each process opens its own later."""
    if database.obj is not None and hasattr(database.obj, "close_all"):
        database.obj.close_all()
    if isinstance(huey.storage, SqliteStorage):
        huey.storage.close()


def recover() -> None:
    """Run again what died with a worker: every job kind registers how (`recoverer`)."""
    for fn in (*_recoverers, *_last):
        try:
            with database.connection_context():
                fn()
        except Exception:  # noqa: BLE001 — one failing kind must not stop the others
            log.exception("recovery by %s failed", fn.__name__)


_recoverers: list = []
_last: list = []  # run after every kind's own (the chunks' feeding sends what the others queued again)


def recoverer(fn, *, last: bool = False):
    """Register `fn` to run on every sweep (and when a consumer starts)."""
    (_last if last else _recoverers).append(fn)
    return fn


@huey.periodic_task(crontab(minute="*"))
def sweep() -> None:
    """Every minute: run again what a dead worker left (uploads expire on their own schedule)."""
    recover()


def _consumer_classes():
    """Huey's worker and scheduler, whose failed polls (Redis or the queue file unreachable) are
    logged when they start and counted until they stop, instead of a traceback a poll."""
    from huey.consumer import Scheduler, Worker

    from deckhub.logs import RepeatedErrorFilter, RepeatedErrors

    class CountsFailedPolls:
        what = "the queue"

        def initialize(self):  # in the process's own process, after the fork
            self._errors = RepeatedErrors(self._logger, self.what)
            self._logger.addFilter(RepeatedErrorFilter(self._errors))
            super().initialize()

        def loop(self, now=None):
            before = self._errors.failures
            super().loop(now)
            if self._errors.failures == before:
                self._errors.recovered()

    class QuietWorker(CountsFailedPolls, Worker):
        pass

    class QuietScheduler(CountsFailedPolls, Scheduler):
        what = "the queue's schedule"

    return QuietWorker, QuietScheduler


def run_consumer(workers: int = 1) -> None:
    """Run a Huey consumer with `workers` processes (each plays its chunks on its own core). The
    tasks it knows are those registered before (`deckhub.services.tasks`)."""
    from huey.consumer import Consumer
    recover()
    before_fork()
    worker_class, scheduler_class = _consumer_classes()
    consumer = type("DeckHubConsumer", (Consumer,), {"worker_class": worker_class, "scheduler_class": scheduler_class})(
        huey, workers=workers, worker_type="process", periodic=True, initial_delay=0.05, max_delay=1.0, backoff=1.5)
    consumer.run()

"""Real `deckhub worker` processes for tests: the embedded SQLite queue or a Redis server.

Each test gets its own queue (a file, or its own name on Redis), so runs on SQLite and on
PostgreSQL, or two engineers' runs, never take each other's tasks.
"""
from __future__ import annotations

import atexit
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REDIS_URL = os.environ.get("DECKHUB_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
_names = itertools.count(1)


def _ping(url: str) -> bool:
    try:
        import redis
        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
        return True
    except Exception:  # noqa: BLE001 — any failure means "no server here"
        return False


def _own_redis() -> str | None:
    """Start a throw-away Debian `redis-server` on a free loopback port for this test run (stopped at
    exit), so the Redis job tests run on any machine with the package, not only in CI."""
    binary = shutil.which("redis-server") or ("/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None)
    if binary is None:
        return None
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    atexit.register(server.terminate)
    url = f"redis://127.0.0.1:{port}/15"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if _ping(url):
            return url
        time.sleep(0.05)
    server.terminate()
    return None


if not _ping(REDIS_URL):
    REDIS_URL = _own_redis() or REDIS_URL


def redis_available() -> bool:
    return _ping(REDIS_URL)


def queue_config(kind: str, tmp_path: Path) -> dict:
    """App config for a fresh queue of `kind` ("sqlite" or "redis")."""
    name = f"deckhub-test-{os.getpid()}-{next(_names)}"
    if kind == "sqlite":
        return {"QUEUE_URL": f"sqlite:///{tmp_path / (name + '.sqlite3')}", "QUEUE_NAME": name}
    return {"QUEUE_URL": REDIS_URL, "QUEUE_NAME": name}


class Worker:
    """`deckhub worker --workers N` in its own process group (so kill -9 takes all its processes)."""

    def __init__(self, database_url: str, queue: dict, workers: int = 1, log: Path | None = None):
        env = {**os.environ, "DATABASE_URL": database_url, "DECKHUB_QUEUE_URL": queue["QUEUE_URL"],
               "DECKHUB_QUEUE_NAME": queue["QUEUE_NAME"], "DECKHUB_SECRET_KEY": "worker-under-test",
               "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.log = open(log, "ab") if log else subprocess.DEVNULL
        self.process = subprocess.Popen([sys.executable, "-m", "deckhub.cli", "worker", "--workers", str(workers)],
                                        env=env, cwd=ROOT, stdout=self.log, stderr=self.log, start_new_session=True)

    def kill9(self) -> None:
        """SIGKILL the worker and every process it started, as a crash or the OOM killer would."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                self.kill9()
        if self.log is not subprocess.DEVNULL:
            self.log.close()


def wait_for(predicate, timeout: float = 120, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {predicate.__doc__ or predicate}")

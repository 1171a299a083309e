"""`deckhub serve` takes its queue worker down with it: on SIGTERM as on Ctrl+C, and when it is killed."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from queue_workers import ROOT, wait_for

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


def _children() -> dict[int, list[int]]:
    """Every live process's children, from /proc (a zombie counts as gone)."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdecimal():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, ppid = stat.rpartition(")")[2].split()[:2]
        if state != "Z":
            tree.setdefault(int(ppid), []).append(int(entry.name))
    return tree


def _descendants(pid: int) -> set[int]:
    tree, found, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def served(databases, tmp_path):
    """`deckhub serve` on a database of the backend under test, with its worker up (its own process
    group, so a failed test cannot leave it behind)."""
    url = databases.with_catalogues()
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": url, "DECKHUB_QUEUE_URL": f"sqlite:///{tmp_path / 'queue.sqlite3'}",
           "DECKHUB_SECRET_KEY": "serve-under-test", "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("DECKHUB_ENV", None)
    log = open(tmp_path / "serve.log", "wb")
    serve = subprocess.Popen([sys.executable, "-m", "deckhub.cli", "serve", "--port", str(port)], env=env, cwd=ROOT,
                             stdout=log, stderr=log, start_new_session=True)

    def up():
        """the site to answer and its worker (with its consumer process) to start"""
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
        except OSError:
            return False
        return len(_descendants(serve.pid)) >= 2
    serve.log_path = tmp_path / "serve.log"
    try:
        wait_for(up, timeout=120, interval=0.2)
        yield serve
    finally:
        try:
            os.killpg(serve.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        serve.wait(10)
        log.close()
        databases.drop(url)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_serve_stops_its_worker_on_sigterm_as_on_ctrl_c(served, stop):
    family = _descendants(served.pid)
    served.send_signal(stop)
    # serve gives its worker 10 s to finish the task at hand, then 5 s after SIGTERM and 5 after
    # SIGKILL: 60 s leaves room for a loaded CI machine, and a serve that never stops still fails
    try:
        code = served.wait(60)
    except subprocess.TimeoutExpired:
        pytest.fail("serve did not stop within 60 s; its log:\n" + served.log_path.read_text(errors="replace")[-4000:])
    assert code == 0
    time.sleep(0.2)
    assert not [pid for pid in family if _alive(pid)]


def test_a_killed_serve_takes_its_worker_with_it(served):
    family = _descendants(served.pid)
    os.kill(served.pid, signal.SIGKILL)
    served.wait(10)

    def gone():
        """every process serve started to end"""
        return not [pid for pid in family if _alive(pid)]
    wait_for(gone, timeout=30)

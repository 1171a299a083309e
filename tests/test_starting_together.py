"""Many processes started at once on one database: every one starts, the schema is made once, the
catalogues are loaded once, and the site has one identity (on SQLite and on PostgreSQL).

A service manager, a container orchestrator or gunicorn start workers together; before, one of 24
failed on SQLite ("database is locked") and 9 on PostgreSQL (a duplicate key creating tables).
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import POSTGRES_URL, make_app
from deckhub.app import _secret_key
from deckhub.store import models
from deckhub.store.db import database

ROOT = Path(__file__).resolve().parents[1]
PROCESSES = 12  # enough to show the race on a 2-core machine (without the lock most of them fail); 24 cost minutes
LOADED = "Loaded the catalogues of"
# `serve`'s start-up up to listening, then the identity its jobs will carry
SERVE = ("from deckhub.commands.serve import ready_to_serve\nfrom deckhub.services import jobs\nfrom deckhub.store.db import database\n"
         "ready_to_serve()\nwith database.connection_context():\n    print('site', jobs.site_id())\n")


def _together(args: list[str], url: str, tmp_path: Path, **env) -> list[subprocess.CompletedProcess]:
    """Start PROCESSES copies of `python args` at once on one database and queue; wait for all."""
    env = {**os.environ, "DATABASE_URL": url, "DECKHUB_SECRET_KEY": "k" * 40,
           "DECKHUB_QUEUE_URL": f"sqlite:///{tmp_path / 'queue.sqlite3'}",
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **env}
    started = [subprocess.Popen([sys.executable, *args], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True) for _ in range(PROCESSES)]
    return [subprocess.CompletedProcess(p.args, p.wait(300), p.stdout.read()) for p in started]


def _all_started(results) -> list[str]:
    failed = [r.stdout[-2000:] for r in results if r.returncode != 0]
    assert not failed, f"{len(failed)} of {PROCESSES} failed; the first said:\n{failed[0]}"
    return [r.stdout for r in results]


def _counts(url: str) -> tuple[int, int, int]:
    app = make_app(url)
    with app.app_context(), database.connection_context():
        return models.Card.select().count(), models.CatalogueStamp.select().count(), models.SiteIdentity.select().count()


def test_upgrades_started_together_on_a_fresh_database_all_succeed(databases, tmp_path):
    url = databases.fresh()
    outputs = _all_started(_together(["-m", "deckhub.cli", "db", "upgrade"], url, tmp_path))
    assert sum("Applied" in out for out in outputs) == 1  # the others waited, then found it current
    assert _counts(url) == _counts(databases.with_catalogues())[:2] + (1,)


@pytest.mark.parametrize("mode", ["development", "production"])
def test_sites_started_together_load_the_catalogues_once_and_agree_on_one_identity(databases, tmp_path, mode):
    """On a current schema without catalogues or identity (a database restored without that row):
    development mode on SQLite runs the upgrade path, production mode (and PostgreSQL) the path that
    only checks the schema; both write the catalogues under the upgrade lock."""
    if mode == "development" and POSTGRES_URL:
        pytest.skip("on PostgreSQL both modes take the same path")
    url = databases.with_schema()
    app = make_app(url)
    with app.app_context(), database.connection_context():
        models.SiteIdentity.delete().execute()
    database.obj.close_all()
    outputs = _all_started(_together(["-c", SERVE], url, tmp_path, DECKHUB_ENV=mode))
    assert sum(LOADED in out for out in outputs) == 1
    sites = {line for out in outputs for line in out.splitlines() if line.startswith("site ")}
    assert len(sites) == 1
    assert _counts(url) == _counts(databases.with_catalogues())[:2] + (1,)


def test_a_secret_key_made_by_many_at_once_is_one_whole_key(tmp_path, monkeypatch):
    for name in ("DECKHUB_SECRET_KEY", "DECKHUB_SECRET_KEY_FILE"):
        monkeypatch.delenv(name, raising=False)
    barrier = threading.Barrier(PROCESSES)
    keys: list[str] = []

    def start():
        barrier.wait()
        keys.append(_secret_key(str(tmp_path / "instance"), production=False))
    threads = [threading.Thread(target=start) for _ in range(PROCESSES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(keys) == PROCESSES and len(set(keys)) == 1 and len(keys[0]) == 64
    assert [p.name for p in (tmp_path / "instance").iterdir()] == ["secret_key"]
    assert (tmp_path / "instance" / "secret_key").stat().st_mode & 0o777 == 0o600

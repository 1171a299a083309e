"""Fixtures in the manner of Flask's flaskr: `app`, `client`, `runner` over a throw-away database.

By default every test gets its own SQLite file, copied from a template into which the four
catalogues were loaded once per session. With DECKHUB_TEST_DATABASE_URL=postgresql://user@host:port/db
the same tests run on PostgreSQL: the template is a PostgreSQL database and each test gets
`CREATE DATABASE ... TEMPLATE` of it (`.ci/run` runs the suite both ways).
"""
from __future__ import annotations

import itertools
import os
import re
import shutil
from urllib.parse import urlparse, urlunparse

import pytest

from deckhub import create_app
from deckhub.catalogue_store import clear_cache
from deckhub.db import database

POSTGRES_URL = os.environ.get("DECKHUB_TEST_DATABASE_URL", "")
_numbers = itertools.count(1)


def _pg_admin(sql: str) -> None:
    import psycopg
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(sql)


def _pg_url(name: str) -> str:
    return urlunparse(urlparse(POSTGRES_URL)._replace(path=f"/{name}"))


def _close_database() -> None:
    """Close this thread's connection and every pooled one (PostgreSQL copies a template only when
    nobody is connected to it)."""
    if database.obj is None:
        return
    if not database.is_closed():
        database.close()
    if hasattr(database.obj, "close_all"):
        database.obj.close_all()


class DatabaseFactory:
    """Makes empty or catalogue-loaded databases of the backend under test, and removes them."""

    def __init__(self, tmp_path_factory):
        self._tmp = tmp_path_factory
        self._made: list[str] = []
        self.template: str | None = None

    def fresh(self) -> str:
        """A database with nothing in it."""
        n = next(_numbers)
        if POSTGRES_URL:
            name = f"deckhub_test_{os.getpid()}_{n}"
            _pg_admin(f"DROP DATABASE IF EXISTS {name}")
            _pg_admin(f"CREATE DATABASE {name}")
            self._made.append(name)
            return _pg_url(name)
        return f"sqlite:///{self._tmp.mktemp('db') / 'deckhub.sqlite3'}"

    def with_catalogues(self) -> str:
        """A copy of the session's template database (schema + the four catalogues)."""
        _close_database()
        if POSTGRES_URL:
            name = f"deckhub_test_{os.getpid()}_{next(_numbers)}"
            _pg_admin(f"CREATE DATABASE {name} TEMPLATE {self.template}")
            self._made.append(name)
            return _pg_url(name)
        path = self._tmp.mktemp("db") / "deckhub.sqlite3"
        shutil.copy(self.template, path)
        return f"sqlite:///{path}"

    def drop(self, url: str) -> None:
        """Remove one database now (PostgreSQL): dropping hundreds at the end of a run took a minute
        after the last test; dropped as each test ends, they go while the other workers test."""
        _close_database()
        name = urlparse(url).path.lstrip("/")
        if POSTGRES_URL and name in self._made:
            _pg_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            self._made.remove(name)

    def drop_all(self) -> None:
        _close_database()
        for name in self._made:
            _pg_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self._made.clear()


@pytest.fixture(scope="session")
def databases(tmp_path_factory):
    from deckhub.cli import _load_games
    from deckhub.games import game_slugs

    factory = DatabaseFactory(tmp_path_factory)
    if POSTGRES_URL:
        factory.template = f"deckhub_template_{os.getpid()}"
        _pg_admin(f"DROP DATABASE IF EXISTS {factory.template}")
        _pg_admin(f"CREATE DATABASE {factory.template}")
        url = _pg_url(factory.template)
    else:
        factory.template = tmp_path_factory.mktemp("template") / "deckhub.sqlite3"
        url = f"sqlite:///{factory.template}"
    create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url, "QUEUE_URL": "immediate"})
    with database.connection_context():
        assert _load_games(game_slugs(), echo=lambda *_: None) == 0
        if not POSTGRES_URL:
            database.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    _close_database()
    yield factory
    factory.drop_all()
    if POSTGRES_URL:
        _pg_admin(f"DROP DATABASE IF EXISTS {factory.template} WITH (FORCE)")


def make_app(url: str, **config):
    clear_cache()
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url, "QUEUE_URL": "immediate", **config})


@pytest.fixture
def app(databases):
    url = databases.with_catalogues()
    yield make_app(url, WTF_CSRF_ENABLED=False)
    databases.drop(url)


@pytest.fixture
def csrf_app(databases):
    """An app with CSRF protection on, as in production."""
    url = databases.with_catalogues()
    yield make_app(url)
    databases.drop(url)


@pytest.fixture
def fresh_database_url(databases):
    """An empty database of the backend under test (for commands run as on a new machine)."""
    return databases.fresh()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


class AuthActions:
    def __init__(self, client):
        self._client = client

    def signup(self, username="alice", password="correct horse"):
        return self._client.post("/signup", data={"username": username, "password": password, "confirm": password})

    def login(self, username="alice", password="correct horse"):
        return self._client.post("/login", data={"username": username, "password": password})

    def logout(self):
        return self._client.post("/logout")


@pytest.fixture
def auth(client):
    return AuthActions(client)


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
    assert match, "no CSRF token in the page"
    return match.group(1)

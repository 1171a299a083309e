"""Fixtures in the manner of Flask's flaskr: `app`, `client`, `runner` over a throw-away database.

By default every test gets its own SQLite file, copied from a template that got its schema from
the schema steps (`deckhub.store.schema.upgrade`, as `deckhub db upgrade` does) and the four
catalogues once per session. With DECKHUB_TEST_DATABASE_URL=postgresql://user@host:port/db the same
tests run on PostgreSQL: the templates are PostgreSQL databases and each test gets
`CREATE DATABASE ... TEMPLATE` of one (`.ci/run` runs the suite both ways).
"""
from __future__ import annotations

import itertools
import os
import re
from html import unescape
import shutil
import threading
from urllib.parse import urlparse, urlunparse

import pytest

from deckhub.app import create_app
from deckhub.services.catalogue_store import clear_cache
from deckhub.store.db import database
from deckhub.core.engine import engines, get_engine
from deckhub.store import schema

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
    """Makes empty, schema-only or catalogue-loaded databases of the backend under test, and removes them."""

    def __init__(self, tmp_path_factory):
        self._tmp = tmp_path_factory
        self._made: list[str] = []
        self.template: str | None = None  # schema and the four catalogues
        self.schema_template: str | None = None  # the schema alone

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
        return self._copy(self.template)

    def with_schema(self) -> str:
        """A database with today's schema and nothing in it (a site after `deckhub db upgrade`, before its catalogues)."""
        return self._copy(self.schema_template)

    def _copy(self, template) -> str:
        _close_database()
        if POSTGRES_URL:
            name = f"deckhub_test_{os.getpid()}_{next(_numbers)}"
            _pg_admin(f"CREATE DATABASE {name} TEMPLATE {template}")
            self._made.append(name)
            return _pg_url(name)
        path = self._tmp.mktemp("db") / "deckhub.sqlite3"
        shutil.copy(template, path)
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
    from deckhub.services.catalogue_loading import load_games
    from deckhub.games import game_slugs

    factory = DatabaseFactory(tmp_path_factory)
    if POSTGRES_URL:
        factory.schema_template = f"deckhub_schema_template_{os.getpid()}"
        _pg_admin(f"DROP DATABASE IF EXISTS {factory.schema_template}")
        _pg_admin(f"CREATE DATABASE {factory.schema_template}")
        url = _pg_url(factory.schema_template)
    else:
        factory.schema_template = tmp_path_factory.mktemp("template") / "schema.sqlite3"
        url = f"sqlite:///{factory.schema_template}"
    create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url, "QUEUE_URL": "immediate"})
    schema.upgrade(database.obj)
    _settle(database)
    if POSTGRES_URL:
        factory.template = f"deckhub_template_{os.getpid()}"
        _pg_admin(f"DROP DATABASE IF EXISTS {factory.template}")
        _pg_admin(f"CREATE DATABASE {factory.template} TEMPLATE {factory.schema_template}")
        url = _pg_url(factory.template)
    else:
        factory.template = tmp_path_factory.mktemp("template") / "deckhub.sqlite3"
        shutil.copy(factory.schema_template, factory.template)
        url = f"sqlite:///{factory.template}"
    create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url, "QUEUE_URL": "immediate"})
    with database.connection_context():
        assert load_games(game_slugs(), echo=lambda *_: None) == 0
    _settle(database)
    yield factory
    factory.drop_all()
    if POSTGRES_URL:
        for name in (factory.template, factory.schema_template):
            _pg_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _settle(db) -> None:
    """Close every connection, with an SQLite template's WAL folded into its file (copies take the file alone)."""
    if not POSTGRES_URL:
        with db.connection_context():
            db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    _close_database()


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
def schema_database_url(databases):
    """A database of the backend under test with today's schema and no catalogues."""
    return databases.with_schema()


def legacy_database(url: str, steps: list[str], version: int):
    """A database as DeckHub's first schema runner left it: the tables of `steps` (from the frozen
    step files) and a `schema_version` table holding only `version`, the highest step it recorded.
    Returns the database, initialised as the site's."""
    from peewee_migrate import Migrator

    from deckhub.store.db import init_database
    db = init_database(url)
    with db.connection_context():
        router = schema.StepRouter(db)
        for name in steps:
            migrate, _ = router.read(name)
            with db.atomic():
                migrator = Migrator(db)
                migrate(migrator, db, fake=False)
                migrator()
        db.execute_sql('CREATE TABLE "schema_version" ("id" INTEGER NOT NULL PRIMARY KEY, "version" INTEGER NOT NULL)')
        db.execute_sql(f'INSERT INTO "schema_version" ("id", "version") VALUES (1, {int(version)})')
    return db


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


# --- the toy game (tests/toygame): a fifth game that exists only while a test registers it ---------

TOY = "toy"


@pytest.fixture
def toy_game():
    """The toy game registered for this test alone (`deckhub.games.extra_game`): the registry, its
    engine and its data folder know it until the test ends, then forget it."""
    from toygame import DATA

    from deckhub.games import extra_game

    with extra_game("toygame", DATA) as spec:
        yield spec


@pytest.fixture
def toy_site(app, toy_game):
    """`app` with the toy game registered and its catalogue loaded, as `deckhub load-cards` would
    (only this test's database has it)."""
    from deckhub.services.catalogue_store import store_catalogue
    from deckhub.games import read_game_catalogue

    with database.connection_context():
        store_catalogue(read_game_catalogue(toy_game.slug))
    return app


def with_toy(games) -> list:
    """A generic test's games, then the toy game's slug, which the test registers for itself
    (`request.getfixturevalue("toy_game")`, or "toy_site" for a test of the site)."""
    return [*games, TOY]


@pytest.fixture(params=with_toy(e.game for e in engines()))
def engine(request):
    """Each registered game's goldfish engine in turn, then the toy game's (registered for the test):
    what the generic engine tests play."""
    if request.param == TOY:
        request.getfixturevalue("toy_game")
    return get_engine(request.param)


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html)
    assert match, "no CSRF token in the page"
    return match.group(1)


def page_html(response) -> str:
    """A response's HTML with its whitespace collapsed, for tests that look for markup."""
    return re.sub(r"\s+", " ", response.get_data(as_text=True))


def visible_text(response) -> str:
    """The page's visible text: scripts, styles and tags removed, entities read, whitespace collapsed."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def in_threads(count: int, work) -> list[Exception]:
    """Run `work(n)` in `count` threads, each on a connection of its own, all released at once;
    returns what they raised."""
    start, errors = threading.Barrier(count), []

    def run(n: int) -> None:
        try:
            database.connect(reuse_if_open=True)
            start.wait()
            work(n)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            database.close()

    pool = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return errors

"""Fixtures in the manner of Flask's flaskr: `app`, `client`, `runner` over a temp-file database.

The four catalogues are loaded once per test session into a template SQLite file; each test gets
its own copy of that file, so tests never see each other's writes.
"""
from __future__ import annotations

import os
import re
import shutil

import pytest

from deckhub import create_app
from deckhub.catalogue_store import clear_cache


@pytest.fixture(scope="session")
def catalogue_template(tmp_path_factory):
    from deckhub.cli import _load_games
    from deckhub.db import database
    from deckhub.games import game_slugs

    path = tmp_path_factory.mktemp("template") / "deckhub.sqlite3"
    create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{path}"})
    with database.connection_context():
        assert _load_games(game_slugs(), echo=lambda *_: None) == 0
        database.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture
def app(catalogue_template, tmp_path):
    path = tmp_path / "deckhub.sqlite3"
    shutil.copy(catalogue_template, path)
    clear_cache()
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{path}",
                      "WTF_CSRF_ENABLED": False})
    yield app


@pytest.fixture
def csrf_app(catalogue_template, tmp_path):
    """An app with CSRF protection on, as in production."""
    path = tmp_path / "deckhub.sqlite3"
    shutil.copy(catalogue_template, path)
    clear_cache()
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{path}"})


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

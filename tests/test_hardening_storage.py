"""Issue 19, finding 7: when the storage refuses writes (a read-only database; a full disk answers
the same way) every write is a 503 saying nothing changed, and reads keep working.

Issue 30: with the disk full, every write route of the authorization matrix is a 503 too (a full
disk made SQLite cancel the transaction, and the failed ROLLBACK after it answered 500)."""
from __future__ import annotations

import re
import sqlite3
from urllib.parse import urlparse

import peewee

from conftest import POSTGRES_URL, _close_database, _pg_admin
from deckhub.store import models
from deckhub.store.db import database
from test_authorization_matrix import MATRIX, _clients, _fingerprint, _world, matrix_app  # noqa: F401  (the fixture)


def _make_read_only(app) -> None:
    """New connections can read but not write: SQLite's query_only, PostgreSQL's read-only default."""
    _close_database()
    if POSTGRES_URL:
        name = urlparse(app.config["DATABASE_URL"]).path.lstrip("/")
        _pg_admin(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    else:
        database.obj._pragmas = [*database.obj._pragmas, ("query_only", 1)]


def test_refused_writes_are_503_and_reads_keep_working(app, client, auth):
    auth.signup("alice")
    client.post("/decks/new", data={"name": "Kept", "game": "kaijudo"})
    with database.connection_context():
        deck = models.Deck.get(models.Deck.name == "Kept")
        before = (models.Deck.select().count(), models.DeckVersion.select().count())
    _make_read_only(app)

    for response in (client.post("/decks/new", data={"name": "Lost", "game": "kaijudo"}),
                     client.post(f"/decks/{deck.id}/cards", data={"section": "Deck", "card": "argus-vigilant-seer",
                                                                   "delta": "1"})):
        assert response.status_code == 503
        assert "DeckHub could not save this just now; nothing was changed" in response.get_data(as_text=True)
        assert response.headers["Retry-After"]
    api = client.post("/api/decks", json={"name": "Lost", "game": "kaijudo"})
    assert api.status_code in (400, 503)  # a session write without its CSRF header may be refused first
    assert client.get("/decks/").status_code == 200
    assert client.get(f"/decks/{deck.id}").status_code == 200
    assert client.get("/api/cards?game=kaijudo&q=argus").status_code == 200
    _close_database()
    if POSTGRES_URL:
        _pg_admin(f"ALTER DATABASE {urlparse(app.config['DATABASE_URL']).path.lstrip('/')} "
                  "SET default_transaction_read_only = off")
    else:
        database.obj._pragmas = [p for p in database.obj._pragmas if p[0] != "query_only"]
    with database.connection_context():
        assert (models.Deck.select().count(), models.DeckVersion.select().count()) == before


def test_an_api_write_refused_by_storage_is_a_json_503(app, client, auth):
    from deckhub.services import accounts, api_tokens
    with database.connection_context():
        user = accounts.create_user("alice", "correct horse")
        _, token = api_tokens.create(user, "script")
    _make_read_only(app)
    response = client.post("/api/decks", json={"name": "Lost", "game": "kaijudo"},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 503
    assert response.get_json()["error"].startswith("DeckHub could not save this just now; nothing was changed")
    assert client.get("/api/decks", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    _close_database()
    if POSTGRES_URL:
        _pg_admin(f"ALTER DATABASE {urlparse(app.config['DATABASE_URL']).path.lstrip('/')} "
                  "SET default_transaction_read_only = off")
    else:
        database.obj._pragmas = [p for p in database.obj._pragmas if p[0] != "query_only"]


class FullDisk:
    """The storage refusing every write as a full disk does, for the database under test.

    SQLite on a full disk cancels the whole transaction and reports SQLITE_FULL: each INSERT,
    UPDATE or DELETE here rolls the transaction back and raises what sqlite3 raises then. PostgreSQL
    reports SQLSTATE 53100 (disk_full) and aborts the transaction: each write runs a statement
    that makes the server raise exactly that instead. `tried` counts the refused writes."""

    WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.I)

    def __init__(self, monkeypatch):
        self.tried = 0
        db = database.obj
        real = db.execute_sql

        def execute_sql(sql, params=None, *args, **kwargs):
            if not self.WRITE.match(sql):
                return real(sql, params, *args, **kwargs)
            self.tried += 1
            if POSTGRES_URL:
                return real("DO $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' "
                            "USING ERRCODE = 'disk_full'; END $$")
            connection = db.connection()
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise peewee.OperationalError("database or disk is full") from sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(db, "execute_sql", execute_sql)


def _row_counts() -> dict:
    with database.connection_context():
        return {m.__name__: m.select().count() for m in models.ALL_MODELS}


def test_every_write_route_with_the_disk_full_is_a_503_that_stores_nothing(matrix_app, monkeypatch):
    """Every write route of the authorization matrix, sent by the user it is for, with the disk full:
    a request that tried to write answers 503 saying nothing changed (JSON under /api/), never a
    500, and nothing is stored; the site's pages still answer."""
    app = matrix_app
    w = _world(app)
    clients = _clients(app, w)
    sends = []
    for row in MATRIX:
        if row.method == "GET":
            continue
        role = "curator" if row.expect.get("owner") == 403 else "owner"  # a curator's tool: sent by the curator
        if row.url(w).startswith("/api/"):
            role = "owner_token"
        sends.append((row, role, row.url(w), row.data(w) if callable(row.data) else row.data))
    for client in clients.values():  # each client's first request notes when its session or token was used
        client, token = client if isinstance(client, tuple) else (client, None)
        client.get("/decks/" if token is None else "/api/decks", headers={"Authorization": f"Bearer {token}"} if token else {})
    before = (_row_counts(), _fingerprint(w))
    full = FullDisk(monkeypatch)
    failures = []
    for row, role, url, data in sends:
        client, token = clients[role] if isinstance(clients[role], tuple) else (clients[role], None)
        tried = full.tried
        response = client.open(url, method=row.method, data=data, json=row.json,
                               headers={"Authorization": f"Bearer {token}"} if token else {})
        where = f"{row.method} {url} as {role}"
        if response.status_code >= 500 and response.status_code != 503:
            failures.append(f"{where}: {response.status_code}")
        elif full.tried > tried:
            text = response.get_json()["error"] if response.is_json else response.get_data(as_text=True)
            if response.status_code != 503 or "DeckHub could not save this just now; nothing was changed" not in text:
                failures.append(f"{where}: a write was refused, yet it answered {response.status_code}")
    monkeypatch.undo()
    assert not failures, "\n".join(failures)
    assert (_row_counts(), _fingerprint(w)) == before
    assert clients["owner"].get("/decks/").status_code == 200

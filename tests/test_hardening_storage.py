"""Issue 19, finding 7: when the storage refuses writes (a read-only database; a full disk answers
the same way) every write is a 503 saying nothing changed, and reads keep working."""
from __future__ import annotations

from urllib.parse import urlparse

from conftest import POSTGRES_URL, _close_database, _pg_admin
from deckhub import models
from deckhub.db import database


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
    from deckhub import accounts, api_tokens
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

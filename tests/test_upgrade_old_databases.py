"""Databases made by earlier DeckHub commits (tests/fixtures/old_databases) upgrade to today's schema
with every old row kept, and their user's pages and API calls answer afterwards.

Each fixture is restored on the backend under test (SQLite, or PostgreSQL with
DECKHUB_TEST_DATABASE_URL, as in conftest.py), upgraded with `deckhub.store.schema.upgrade`, and
compared row by row on the old columns (an upgrade may add columns, never lose a value).
"""
from __future__ import annotations

import json

import pytest

from deckhub.services import collection_imports
from deckhub.store import models
from deckhub.store.db import database, make_database
from tests.conftest import POSTGRES_URL, csrf_token, make_app
from tests.fixtures.old_databases import loader

BACKEND = "postgresql" if POSTGRES_URL else "sqlite"
FIXTURES = loader.fixtures()
# Not user data: the legacy runner's own record of its last step (the new runner reads it), and the
# row-by-row preview of a collection upload waiting for its owner's confirmation, which step 018 keeps
# in compressed pages instead and makes again from the upload's file (the upload itself is kept).
BOOKKEEPING = {"schema_version", "collection_upload_row"}


def _close() -> None:
    if database.obj is not None and not database.is_closed():
        database.close()
    if hasattr(database.obj, "close_all"):
        database.obj.close_all()


@pytest.fixture
def restore(tmp_path):
    """restore(entry) -> the URL of a fresh copy of that fixture's database on the backend under test."""
    made: list[str] = []

    def restore(entry: dict) -> str:
        if POSTGRES_URL:
            url = loader.restore_postgresql(entry, POSTGRES_URL)
            made.append(url)
            return url
        return f"sqlite:///{loader.restore_sqlite(entry, tmp_path)}"

    yield restore
    _close()
    for url in made:
        loader.drop_postgresql(url, POSTGRES_URL)


def _upgrade(url: str) -> tuple[dict, dict]:
    """Upgrade the database at `url`; the rows before and after."""
    from deckhub.store import schema
    db = make_database(url)
    try:
        before = loader.snapshot(db)
        schema.upgrade(db)
        assert schema.pending(db) == []
        return before, loader.snapshot(db)
    finally:
        db.close()


def _columns(db, table: str) -> set[str]:
    return {c.name for c in db.get_columns(table)}


@pytest.mark.parametrize("entry", FIXTURES, ids=[f["name"] for f in FIXTURES])
def test_an_old_database_upgrades_keeping_every_row_and_its_pages_answer(entry, restore):
    url = restore(entry)
    before, after = _upgrade(url)
    counts = entry.get("postgresql_rows", entry["rows"]) if POSTGRES_URL else entry["rows"]
    assert {t: n for t, n in counts.items() if n} == {t: len(r) for t, r in before.items() if r}
    lost = loader.missing_rows({t: r for t, r in before.items() if t not in BOOKKEEPING}, after)
    assert lost == {}, f"rows lost by the upgrade of {entry['name']}: " + ", ".join(
        f"{t}: {len(r)}" for t, r in lost.items())

    app = make_app(url)
    client = app.test_client()
    login_page = client.get("/login").get_data(as_text=True)
    user = entry["user"]
    signed_in = client.post("/login", data={"username": user["name"], "password": user["password"],
                                            "csrf_token": csrf_token(login_page)})
    assert signed_in.status_code == 302, signed_in.get_data(as_text=True)[:2000]
    with app.app_context(), database.connection_context():
        me = models.User.get(models.User.username == user["name"])
        decks = [d.id for d in models.Deck.select().where(models.Deck.owner == me)]
        games = [g.id for g in models.GoldfishSession.select().where(models.GoldfishSession.owner == me)]
        runs = [(r.deck_id, r.id) for r in models.SimulationRun.select().where(models.SimulationRun.owner == me)]
        U = models.CollectionUpload
        uploads = [u.token for u in U.select(U.token).where((U.owner == me) & (U.state == "ready"))]
    assert len(decks) == sum(1 for r in before["deck"] if dict(r)["owner_id"] == me.id)
    pages = ["/", "/decks/", "/collection/", *(f"/goldfish/{g}" for g in games),
             *(page for d in decks for page in (f"/decks/{d}", f"/decks/{d}/stats/")),
             *(f"/decks/{d}/stats/simulations/{r}.json" for d, r in runs)]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, (page, response.get_data(as_text=True)[:2000])
    # an import waiting for its owner's confirmation keeps its preview rows (moved into pages), in order
    waiting: dict[int, list[dict]] = {}
    for row in sorted((dict(r) for r in before.get("collection_upload_row", ())), key=lambda r: r["position"]):
        waiting.setdefault(row["upload_id"], []).append({"line": row["line"], "kind": row["kind"], **json.loads(row["data"])})
    with app.app_context(), database.connection_context():
        for upload_id, rows in waiting.items():
            upload = models.CollectionUpload.get_by_id(upload_id)
            shown, total = collection_imports.preview_rows(upload, "all", 1, len(rows))
            assert total == len(rows) and [(r["line"], r["kind"], r["text"]) for r in shown] == [
                (r["line"], r["kind"], r["text"]) for r in rows]
        if uploads:
            assert client.get(f"/collection/import/{uploads[0]}").status_code == 200

    token = loader.api_token(entry, BACKEND)
    if token:
        api = app.test_client().get("/api/decks", headers={"Authorization": f"Bearer {token}"})
        assert api.status_code == 200, api.get_data(as_text=True)[:2000]
        assert sorted(d["id"] for d in api.get_json()["decks"]) == sorted(decks)


@pytest.mark.parametrize("commit, tables, columns", [
    ("1ef515d", {"user_card_value"}, {("simulation_run", "unknown")}),  # made before step 4 was merged
    ("9470aa2", {"deck_copy", "public_lists"}, set()),                  # made before step 13 was merged
])
def test_steps_merged_after_a_database_was_made_still_run(commit, tables, columns, restore):
    url = restore(loader.by_commit(commit))
    _upgrade(url)
    db = make_database(url)
    try:
        assert tables <= set(db.get_tables())
        for table, column in columns:
            assert column in _columns(db, table)
    finally:
        db.close()


@pytest.mark.parametrize("commit", ["6fe46f9", "cbba934", "1ef515d", "9470aa2"])
def test_upgrading_twice_changes_nothing_the_second_time(commit, restore):
    url = restore(loader.by_commit(commit))
    _, first = _upgrade(url)
    db = make_database(url)
    try:
        tables = {t: _columns(db, t) for t in db.get_tables()}
    finally:
        db.close()
    again, second = _upgrade(url)
    assert again == first == second
    db = make_database(url)
    try:
        assert {t: _columns(db, t) for t in db.get_tables()} == tables
    finally:
        db.close()

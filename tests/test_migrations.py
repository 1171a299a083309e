"""Schema steps: a new database gets exactly today's schema, and a database made by DeckHub's first
schema runner (recorded only as the highest step in `schema_version`) upgrades without losing a row.

The old databases here are built from the frozen step files, as the first runner's steps made
them; databases made by real older commits are in tests/fixtures/old_databases."""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from conftest import POSTGRES_URL, _close_database, legacy_database
from deckhub.store import models
from deckhub.cli import main
from deckhub.services.upgrades import UpgradeError, upgrade_before_serving
from deckhub.store.db import database, init_database
from deckhub.store import schema

ROOT = Path(__file__).resolve().parents[1]
STEPS = schema.step_names()
LEGACY = ["001_initial", "002_simulation_runs", "003_community_and_api", "004_user_card_values",
          "005_batches_and_scans", "006_accounts_and_sessions", "007_job_queue", "012_tuning_runs",
          "013_community_lists", "014_edit_sessions_and_upload_fixes"]
sqlite_only = pytest.mark.skipif(bool(POSTGRES_URL), reason="an SQLite file's bytes and backups")


def describe(db) -> dict:
    """Every table's columns (type, null, default, primary key), indexes and foreign keys (with ON DELETE)."""
    tables = {}
    with db.connection_context():
        for table in db.get_tables():
            if table == "migratehistory":
                continue
            columns = {c.name: (c.data_type.lower(), c.null, c.default, c.primary_key) for c in db.get_columns(table)}
            indexes = {(i.name, tuple(i.columns), i.unique) for i in db.get_indexes(table)}
            tables[table] = {"columns": columns, "indexes": indexes, "foreign_keys": _foreign_keys(db, table)}
    return tables


def _foreign_keys(db, table) -> set:
    if schema.backend(db) == "sqlite":
        rows = db.execute_sql(f'PRAGMA foreign_key_list("{table}")').fetchall()
        return {(r[3], r[2], r[4], r[6]) for r in rows}
    rows = db.execute_sql(
        "SELECT kcu.column_name, ccu.table_name, ccu.column_name, rc.delete_rule "
        "FROM information_schema.referential_constraints rc "
        "JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = rc.constraint_name "
        "JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = rc.constraint_name "
        "WHERE kcu.table_name = %s", (table,)).fetchall()
    return set(rows)


def _rows(db) -> dict[str, int]:
    with db.connection_context():
        return {t: db.execute_sql(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in sorted(db.get_tables())}


def _file_state(url: str) -> tuple[bytes, str]:
    path = Path(url[len("sqlite:///"):])
    data = path.read_bytes()
    return data, hashlib.sha256(data).hexdigest()


def _fill_step_3(db) -> None:
    """What a community had at step 3: users, a card, decks with versions, a collection, games,
    a simulation and an API token, every row hanging off a user."""
    rows = [
        'INSERT INTO "user" (id, username, password_hash, is_curator, created_at) VALUES '
        "(1, 'ann', '-', false, '2025-01-01 00:00:00'), (2, 'ben', '-', true, '2025-01-02 00:00:00')",
        "INSERT INTO card_set (id, game, code, name, position) VALUES (1, 'kaijudo', 'DM01', 'Base', 0)",
        "INSERT INTO card (id, game, key, name, norm_name, data) VALUES (1, 'kaijudo', 'k', 'K', 'k', '{}')",
        "INSERT INTO printing (id, card_id, card_set_id, number_sort, position) VALUES (1, 1, 1, 0, 0)",
        "INSERT INTO deck (id, owner_id, game, format, name, description, is_public, share_token, created_at, updated_at)"
        " VALUES (1, 1, 'kaijudo', 'standard', 'One', '', false, 't1', '2025-01-01', '2025-01-01'),"
        " (2, 2, 'kaijudo', 'standard', 'Two', '', true, 't2', '2025-01-01', '2025-01-01')",
        "INSERT INTO deck_version (id, deck_id, number, created_at, data, note) VALUES"
        " (1, 1, 1, '2025-01-01', '{}', ''), (2, 1, 2, '2025-01-01', '{}', ''), (3, 2, 1, '2025-01-01', '{}', '')",
        "INSERT INTO owned_card (id, owner_id, printing_id, quantity, foil_quantity, want_quantity, trade_quantity)"
        " VALUES (1, 1, 1, 3, 0, 1, 0), (2, 2, 1, 1, 1, 0, 0)",
        "INSERT INTO goldfish_session (id, owner_id, deck_id, game, deck_data, seed, options, actions, share_token,"
        " created_at, updated_at) VALUES (1, 1, 1, 'kaijudo', '{}', 7, '{}', '[]', 'g1', '2025-01-01', '2025-01-01'),"
        " (2, 2, NULL, 'kaijudo', '{}', 8, '{}', '[]', 'g2', '2025-01-01', '2025-01-01')",
        "INSERT INTO simulation_run (id, deck_id, version, owner_id, game, games, seed, options, status, done,"
        " created_at, updated_at) VALUES (1, 1, 2, 1, 'kaijudo', 100, 1, '{}', 'done', 100, '2025-01-01', '2025-01-01')",
        "INSERT INTO api_token (id, user_id, name, token_hash, prefix, created_at) VALUES (1, 1, 'cli', 'h', 'p', '2025-01-01')",
        "INSERT INTO proposal (id, game, card_key, \"values\", source, proposer_id, status, reason, created_at)"
        " VALUES (1, 'kaijudo', 'k', '{}', 's', 2, 'pending', '', '2025-01-01')",
    ]
    with db.connection_context():
        for sql in rows:
            db.execute_sql(sql)
        if schema.backend(db) == "postgresql":  # explicit ids: move the sequences past them
            for table in ("user", "card_set", "card", "printing", "deck", "deck_version", "owned_card",
                          "goldfish_session", "simulation_run", "api_token", "proposal"):
                db.execute_sql(f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), 10)")


def test_a_new_database_gets_exactly_the_schema_the_models_describe(fresh_database_url, databases, tmp_path):
    db = init_database(fresh_database_url)
    assert schema.pending(db) == STEPS and schema.applied(db) == []
    report = schema.upgrade(db, backup_dir=tmp_path)
    assert report.applied == STEPS and report.backup is None  # nothing to back up in a new database
    assert schema.pending(db) == [] and schema.applied(db) == STEPS
    stepped = describe(db)
    _close_database()
    reference = init_database(databases.fresh())
    with reference.connection_context():
        reference.create_tables(models.ALL_MODELS)
    assert stepped == describe(reference)
    assert set(stepped) == {m._meta.table_name for m in models.ALL_MODELS}
    _close_database()


def test_steps_merged_out_of_order_run_on_a_database_that_recorded_a_later_step(fresh_database_url, databases,
                                                                                 tmp_path):
    """Step 4 was merged after 12 and step 13 after 14: the first runner never ran them there."""
    without_4 = legacy_database(fresh_database_url, [s for s in LEGACY if s <= "012" and s != "004_user_card_values"], 12)
    assert schema.legacy_version(without_4) == 12 and schema.pending(without_4) == STEPS
    with without_4.connection_context():
        assert not without_4.table_exists("user_card_value")
    schema.upgrade(without_4, backup_dir=tmp_path)
    with without_4.connection_context():
        assert without_4.table_exists("user_card_value")
        assert "unknown" in {c.name for c in without_4.get_columns("simulation_run")}
        assert without_4.table_exists("deck_copy") and without_4.table_exists("public_lists")
    assert schema.applied(without_4) == STEPS and schema.legacy_version(without_4) is None
    _close_database()

    without_13 = legacy_database(databases.fresh(), [s for s in LEGACY if s != "013_community_lists"], 14)
    user_id = _one_user(without_13)
    schema.upgrade(without_13, backup_dir=tmp_path)
    with without_13.connection_context():
        models.PublicLists.create(user=user_id)
        deck = models.Deck.create(owner=user_id, game="kaijudo", format="standard", name="Kept", is_public=True)
        models.DeckCopy.create(source=deck, copy=None)
        assert models.PublicLists.get().user.username == "old" and models.DeckCopy.get().source.name == "Kept"
    assert schema.pending(without_13) == []
    _close_database()


def _one_user(db) -> int:
    with db.connection_context():
        db.execute_sql('INSERT INTO "user" (username, password_hash, is_curator, created_at, name_key, session_version)'
                       " VALUES ('old', '-', false, '2025-01-01', 'old', 1)")
        return db.execute_sql('SELECT id FROM "user"').fetchone()[0]


def test_step_6_rebuilding_the_user_table_keeps_every_row_that_refers_to_a_user(fresh_database_url, tmp_path):
    """The data loss of the first runner: on SQLite step 6 rebuilt `user` (create, copy, DROP,
    rename) with foreign keys on, and the DROP deleted every deck, version, collection row, game."""
    db = legacy_database(fresh_database_url, LEGACY[:3], 3)
    _fill_step_3(db)
    before = _rows(db)
    assert before["deck"] == 2 and before["owned_card"] == 2 and before["goldfish_session"] == 2
    schema.upgrade(db, backup_dir=tmp_path)
    after = _rows(db)
    assert {t: after[t] for t in before} == before
    with db.connection_context():
        assert [d.name for d in models.Deck.select().order_by(models.Deck.id)] == ["One", "Two"]
        assert models.User.get_by_id(1).name_key == "ann" and models.User.get_by_id(2).session_version == 1
        assert models.GoldfishSession.get_by_id(1).deck.name == "One"
        if schema.backend(db) == "sqlite":  # the connection goes back to the pool enforcing foreign keys
            assert db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
            assert db.execute_sql("PRAGMA foreign_key_check").fetchall() == []
    _close_database()


@sqlite_only
def test_a_step_that_would_leave_broken_foreign_keys_is_rolled_back(fresh_database_url, tmp_path):
    db = legacy_database(fresh_database_url, LEGACY[:3], 3)
    _fill_step_3(db)
    with db.connection_context():
        db.execute_sql("PRAGMA foreign_keys=OFF")
        db.execute_sql("INSERT INTO deck (owner_id, game, format, name, description, is_public, share_token, created_at,"
                       " updated_at) VALUES (99, 'kaijudo', 'standard', 'Orphan', '', false, 't9', '2025-01-01', '2025-01-01')")
        db.execute_sql("PRAGMA foreign_keys=ON")
    with pytest.raises(schema.UpgradeFailed, match="001_initial.*rolled back"):
        schema.upgrade(db, backup_dir=tmp_path)
    assert schema.applied(db) == [] and schema.pending(db) == STEPS
    _close_database()


def test_a_dry_run_lists_the_steps_and_changes_nothing(fresh_database_url, tmp_path):
    db = legacy_database(fresh_database_url, LEGACY[:3], 3)
    _fill_step_3(db)
    _close_database()
    shape, rows = describe(db), _rows(db)
    state = _file_state(fresh_database_url) if not POSTGRES_URL else None
    report = schema.upgrade(db, dry_run=True, backup_dir=tmp_path)
    assert report.dry_run and report.pending == STEPS and report.applied == [] and report.backup is None
    assert report.legacy_version == 3
    _close_database()
    assert describe(db) == shape and _rows(db) == rows and "migratehistory" not in rows
    assert list(tmp_path.iterdir()) == []
    if state:
        assert _file_state(fresh_database_url) == state


@sqlite_only
def test_an_sqlite_upgrade_writes_a_valid_backup_first(fresh_database_url):
    db = legacy_database(fresh_database_url, LEGACY[:3], 3)
    _fill_step_3(db)
    before = _rows(db)
    report = schema.upgrade(db)
    _close_database()
    path = Path(fresh_database_url[len("sqlite:///"):])
    assert report.backup.parent == path.parent
    assert report.backup.name.startswith("deckhub.sqlite3.before-upgrade-") and report.backup.suffix == ".sqlite3"
    copy = sqlite3.connect(report.backup)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert copy.execute("SELECT version FROM schema_version").fetchone()[0] == 3
        tables = [r[0] for r in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert {t: copy.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables} == before
    finally:
        copy.close()


UPGRADER = """
import json, sys
from deckhub.store.db import make_database
from deckhub.store import schema
report = schema.upgrade(make_database(sys.argv[1]), backup_dir=sys.argv[2])
print(json.dumps(report.applied))
"""


def test_two_processes_upgrading_one_old_database_at_once_both_succeed_and_each_step_runs_once(
        fresh_database_url, tmp_path):
    db = legacy_database(fresh_database_url, LEGACY[:3], 3)
    _fill_step_3(db)
    before = _rows(db)
    _close_database()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", UPGRADER, fresh_database_url, str(tmp_path)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outputs]
    applied = sorted((json.loads(out) for out, _ in outputs), key=len)
    assert applied == [[], STEPS]  # the second waited for the lock, then found nothing pending
    with db.connection_context():
        names = [r[0] for r in db.execute_sql("SELECT name FROM migratehistory ORDER BY id").fetchall()]
    assert names == STEPS
    assert {t: n for t, n in _rows(db).items() if t in before} == before
    _close_database()



def test_two_sites_starting_on_one_old_database_both_come_up_with_the_catalogues_loaded_once(
        fresh_database_url, tmp_path):
    """`deckhub db upgrade` (and `serve`, which upgrades the same way) run twice at once: the second
    waits until the first has applied the steps and written the catalogues, then finds both done."""
    db = legacy_database(fresh_database_url, LEGACY[:3], 3)
    _fill_step_3(db)
    before = _rows(db)
    kaijudo = "SELECT COUNT(*) FROM card WHERE game = 'kaijudo'"
    with db.connection_context():
        old_cards = db.execute_sql(kaijudo).fetchone()[0]
    _close_database()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": fresh_database_url,
           "DECKHUB_SECRET_KEY": "test", "DECKHUB_QUEUE_URL": "immediate"}
    command = [sys.executable, "-c", "from deckhub.cli import main; main()", "db", "upgrade"]
    procs = [subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in outputs]
    said = sorted(out for out, _ in outputs)
    assert "kaijudo: 1136 cards" in said[0] and "schema is current" in said[1]
    assert "cards" not in said[1]  # it found every catalogue in: nothing loaded twice
    catalogue = {"card_set", "card", "printing", "catalogue_stamp"}  # refreshed by the upgrade
    with db.connection_context():
        after = _rows(db)
        assert {t: after[t] for t in before if t not in catalogue} == {t: n for t, n in before.items() if t not in catalogue}
        assert all(after[t] >= before[t] for t in catalogue & set(before))
        assert db.execute_sql(kaijudo).fetchone()[0] == old_cards + 1136
    _close_database()

def _cli(url, *args):
    env = {"DATABASE_URL": url, "DECKHUB_SECRET_KEY": "test", "DECKHUB_QUEUE_URL": "immediate"}
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def test_db_status_and_upgrade_commands(fresh_database_url):
    legacy_database(fresh_database_url, LEGACY[:3], 3)
    _close_database()
    result = _cli(fresh_database_url, "db", "status", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"backend": "postgresql" if POSTGRES_URL else "sqlite", "current": False,
                                         "applied": [], "pending": STEPS, "legacy_version": 3}
    human = _cli(fresh_database_url, "db", "status")
    assert human.exit_code == 0 and f"{len(STEPS)} steps pending" in human.output and "pending: 001_initial" in human.output
    dry = _cli(fresh_database_url, "db", "upgrade", "--dry-run")
    assert dry.exit_code == 0 and f"Would apply {len(STEPS)} schema steps: 001_initial" in dry.output
    assert json.loads(_cli(fresh_database_url, "db", "status", "--json").output)["pending"] == STEPS
    done = _cli(fresh_database_url, "db", "upgrade")
    assert done.exit_code == 0, done.output
    assert f"Applied {len(STEPS)} schema steps" in done.output and "kaijudo: 1136 cards" in done.output
    assert ("Backed up the database to" in done.output) is not bool(POSTGRES_URL)
    after = json.loads(_cli(fresh_database_url, "db", "status", "--json").output)
    assert after == {"backend": after["backend"], "current": True, "applied": STEPS, "pending": [],
                     "legacy_version": None}
    again = _cli(fresh_database_url, "db", "upgrade")
    assert again.exit_code == 0 and "schema is current" in again.output
    _close_database()


def test_commands_on_a_pending_schema_stop_and_change_nothing(fresh_database_url, tmp_path):
    db = legacy_database(fresh_database_url, LEGACY[:3], 3)
    _fill_step_3(db)
    _close_database()
    shape, rows = describe(db), _rows(db)
    state = _file_state(fresh_database_url) if not POSTGRES_URL else None
    result = _cli(fresh_database_url, "export-user", "ann", str(tmp_path / "ann.json"))
    assert result.exit_code != 0 and "deckhub db upgrade" in result.output
    assert not (tmp_path / "ann.json").exists()
    _close_database()
    assert describe(db) == shape and _rows(db) == rows
    if state:
        assert _file_state(fresh_database_url) == state


def test_a_new_site_is_told_to_upgrade_before_adding_a_user(fresh_database_url):
    result = _cli(fresh_database_url, "user", "add", "carol", "--password-stdin")
    assert result.exit_code != 0
    assert "has no schema yet: run `deckhub db upgrade` first" in result.output
    assert ("`deckhub serve` does it too" in result.output) is not bool(POSTGRES_URL)
    _close_database()


@sqlite_only
def test_backup_of_an_old_database_leaves_it_byte_for_byte_unchanged(fresh_database_url, tmp_path):
    db = legacy_database(fresh_database_url, LEGACY[:3], 3)
    _fill_step_3(db)
    _close_database()
    path = Path(fresh_database_url[len("sqlite:///"):])
    data, digest = _file_state(fresh_database_url)
    mtime = path.stat().st_mtime_ns
    result = _cli(fresh_database_url, "backup", str(tmp_path / "copy.sqlite3"))
    assert result.exit_code == 0, result.output
    assert _file_state(fresh_database_url) == (data, digest) and path.stat().st_mtime_ns == mtime
    copy = sqlite3.connect(tmp_path / "copy.sqlite3")
    try:
        assert copy.execute("SELECT COUNT(*) FROM deck").fetchone()[0] == 2
        assert copy.execute("SELECT version FROM schema_version").fetchone()[0] == 3
    finally:
        copy.close()


def test_serve_refuses_a_pending_schema_in_production_and_upgrades_sqlite_in_development(fresh_database_url,
                                                                                         monkeypatch, capsys):
    from deckhub.app import create_app
    db = legacy_database(fresh_database_url, LEGACY[:3], 3)
    _fill_step_3(db)
    _close_database()
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "k" * 40)
    production = create_app({"DATABASE_URL": fresh_database_url, "PRODUCTION": True, "QUEUE_URL": "immediate"})
    with pytest.raises(UpgradeError, match="`deckhub db upgrade` first.*does not upgrade in production"):
        upgrade_before_serving(database.obj, production.config["PRODUCTION"], click.echo)
    assert schema.pending(database.obj) == STEPS
    development = create_app({"DATABASE_URL": fresh_database_url, "QUEUE_URL": "immediate"})
    if POSTGRES_URL:
        with pytest.raises(UpgradeError, match="does not upgrade on PostgreSQL"):
            upgrade_before_serving(database.obj, development.config["PRODUCTION"], click.echo)
        assert schema.pending(database.obj) == STEPS
    else:
        upgrade_before_serving(database.obj, development.config["PRODUCTION"], click.echo)
        out = capsys.readouterr().out
        assert "Backed up the database to" in out and "Loaded the catalogues of" in out
        assert schema.pending(database.obj) == []
    _close_database()

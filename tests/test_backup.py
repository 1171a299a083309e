"""Backup and restore: a user's data moves between installations (SQLite -> PostgreSQL in the PG run)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import make_app
from deckhub.services import backup, collection
from deckhub.store import models
from deckhub.cli import main
from deckhub.services.catalogue_loading import load_games
from deckhub.store.db import database
from deckhub.store.schema import upgrade

BULL_RUSH = (Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks" / "[2ED]Bull_Rush.o8d").read_text(encoding="utf-8-sig")


def _fill(app) -> dict:
    """A user with two deck versions, a collection row, a goldfish session; returns their export."""
    client = app.test_client()
    client.post("/signup", data={"username": "mover", "password": "correct horse", "confirm": "correct horse"})
    deck_id = int(client.post("/decks/import", data={"name": "Bull Rush", "game": "kaijudo", "format": "",
                                                     "decklist": BULL_RUSH}).location.rsplit("/", 1)[1])
    client.post(f"/decks/{deck_id}/cards", data={"section": "Deck", "card": "argus-vigilant-seer", "delta": "1"})
    board = client.post(f"/goldfish/decks/{deck_id}", data={"seed": "8", "opt_first": "on"}).location
    client.post(f"{board}/play-out", data={"step": "0"})
    with database.connection_context():
        user = models.User.get(models.User.username == "mover")
        printing = models.Printing.select().join(models.Card).where(models.Card.key == "blade-seer").first()
        collection.adjust(user, printing.id, "quantity", 3)
        collection.adjust(user, printing.id, "want_quantity", 1)
        return backup.export_user("mover")


def _comparable(doc: dict) -> dict:
    doc = json.loads(json.dumps(doc))
    doc["user"].pop("username")
    return doc


def test_a_user_moves_to_another_installation_losslessly(tmp_path, databases):
    source = tmp_path / "source.sqlite3"
    src_app = make_app(f"sqlite:///{source}", WTF_CSRF_ENABLED=False)
    upgrade(database.obj)
    with database.connection_context():
        assert load_games(["kaijudo"], echo=lambda *_: None) == 0
    exported = _fill(src_app)
    assert len(exported["decks"][0]["versions"]) == 2 and exported["goldfish_sessions"][0]["result"] == "win"
    assert exported["collection"][0]["quantity"] == 3

    make_app(databases.with_catalogues(), WTF_CSRF_ENABLED=False)  # the target: SQLite, or PostgreSQL in that run
    with database.connection_context():
        backup.import_user(json.loads(json.dumps(exported)), username="moved")
        again = backup.export_user("moved")
        assert _comparable(again) == _comparable(exported)
        with pytest.raises(backup.BackupError, match="already exists"):
            backup.import_user(exported, username="moved")


def test_a_broken_file_imports_nothing(app):
    exported = _fill(app)
    exported["collection"].append({"game": "kaijudo", "card": "no-such-card", "set": "x", "number": "1", "quantity": 1})
    with database.connection_context():
        users = models.User.select().count()
        with pytest.raises(backup.BackupError, match="collection row 2"):
            backup.import_user(exported, username="half")
        assert models.User.select().count() == users and not models.Deck.select().join(models.User).where(
            models.User.username == "half").exists()
        with pytest.raises(backup.BackupError):
            backup.import_user({"format": "something else"})


def test_commands_export_import_and_backup(app, tmp_path, monkeypatch):
    _fill(app)
    monkeypatch.setenv("DATABASE_URL", app.config["DATABASE_URL"])
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "test")
    runner = CliRunner()
    out = tmp_path / "mover.json"
    result = runner.invoke(main, ["export-user", "mover", str(out)])
    assert result.exit_code == 0 and "1 decks, 1 collection rows, 1 goldfish sessions" in result.output
    result = runner.invoke(main, ["import-user", str(out), "--as", "copy"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(main, ["import-user", str(out), "--as", "copy"]).exit_code == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert runner.invoke(main, ["import-user", str(bad)]).exit_code == 2
    if app.config["DATABASE_URL"].startswith("sqlite"):
        copy = tmp_path / "copy.sqlite3"
        result = runner.invoke(main, ["backup", str(copy)])
        assert result.exit_code == 0, result.output
        with sqlite3.connect(copy) as conn:
            assert conn.execute("select count(*) from deck").fetchone()[0] == 2
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    else:
        assert "pg_dump" in runner.invoke(main, ["backup", str(tmp_path / "x")]).output

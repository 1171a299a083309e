"""`deckhub collection import|export`: same checks as the web page; exit 0 ok, 1 rows rejected, 2 unreadable."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from deckhub.services import collection as col
from deckhub.store import models
from deckhub.commands.collection import collection
from deckhub.store.db import database

GOOD = "game,set,number,name,quantity,want_quantity\nkaijudo,Evo Fury,1,,3,\nkaijudo,evo-fury,2,,,2\n"


@pytest.fixture
def cli(databases, monkeypatch):
    url = databases.with_catalogues()
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "test")
    from deckhub.services.accounts import create_user
    from conftest import make_app
    make_app(url)
    with database.connection_context():
        create_user("alice", "correct horse")
        create_user("bob", "correct horse")
    runner = CliRunner()

    def run(*args, input=None):
        return runner.invoke(collection, list(args), input=input, catch_exceptions=False)
    yield run
    if not database.is_closed():
        database.close()


def snapshot(username):
    with database.connection_context():
        return col.snapshot(models.User.get(models.User.username == username))


def test_import_then_export_round_trips(cli, tmp_path):
    source = tmp_path / "in.csv"
    source.write_text(GOOD, encoding="utf-8")
    result = cli("import", "--user", "alice", str(source))
    assert result.exit_code == 0, result.output
    assert "2 rows, 2 printings, 2 changed" in result.output
    before = snapshot("alice")
    assert sorted(o for o in before.values()) == [col.Owned(0, 0, 2, 0), col.Owned(3, 0, 0, 0)]
    out = tmp_path / "out.csv"
    result = cli("export", "--user", "alice", str(out))
    assert result.exit_code == 0
    assert out.read_bytes().startswith(b"\xef\xbb\xbfgame,set,number,name,version,")
    assert cli("import", "--user", "bob", str(out)).exit_code == 0
    assert snapshot("bob") == before


def test_export_to_standard_output_and_by_game(cli, tmp_path):
    source = tmp_path / "in.csv"
    source.write_text(GOOD, encoding="utf-8")
    cli("import", "--user", "alice", str(source))
    result = cli("export", "--user", "alice", "-")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["game,set,number,name,version,quantity,foil_quantity,want_quantity,trade_quantity",
                                          "kaijudo,evo-fury,1,Chasm Entangler,,3,0,0,0",
                                          "kaijudo,evo-fury,2,Cloudwalker Drone,,0,0,2,0"]
    assert cli("export", "--user", "alice", "--game", "huntik", "-").stdout.count("\n") == 1


def test_dry_run_shows_changes_and_writes_nothing(cli, tmp_path):
    source = tmp_path / "in.csv"
    source.write_text(GOOD, encoding="utf-8")
    result = cli("import", "--user", "alice", "--dry-run", str(source))
    assert result.exit_code == 0
    assert f"{source}:2: Chasm Entangler (Evo Fury #1): quantity 0 → 3" in result.stdout
    assert "dry run: 2 rows, 2 printings, 2 to change (2 new); nothing was written" in result.stdout
    assert snapshot("alice") == {}


def test_rejected_rows_are_listed_and_nothing_is_written(cli, tmp_path):
    source = tmp_path / "in.csv"
    source.write_text(GOOD + "kaijudo,,,Cloudwalker Dronne,1,\nkaijudo,evo-fury,999,,1,\n", encoding="utf-8")
    result = cli("import", "--user", "alice", str(source))
    assert result.exit_code == 1
    assert f"{source}:4: unknown-card: Kaijudo has no card 'Cloudwalker Dronne' (did you mean Cloudwalker Drone" in result.stderr
    assert f"{source}:5: bad-number: Evo Fury has no card number '999'" in result.stderr
    assert "2 rows rejected; nothing was imported" in result.stderr
    assert snapshot("alice") == {}


def test_a_chosen_game_and_standard_input(cli):
    result = cli("import", "--user", "alice", "--game", "kaijudo", "-", input="name,set,number,quantity\n,evo-fury,3,2\n")
    assert result.exit_code == 0, result.output
    result = cli("import", "--user", "alice", "--game", "huntik", "-", input="game,name,quantity\nkaijudo,Hydro Spy,1\n")
    assert result.exit_code == 1 and "wrong-game" in result.stderr


@pytest.mark.parametrize("content", [b"name,quantity\nCaf\xe9,1\n", b"nothing useful here\n", b""])
def test_unreadable_files_exit_2(cli, tmp_path, content):
    source = tmp_path / "bad.csv"
    source.write_bytes(content)
    result = cli("import", "--user", "alice", str(source))
    assert result.exit_code == 2 and str(source) in result.stderr


def test_a_missing_file_or_user_exits_2(cli, tmp_path):
    assert cli("import", "--user", "alice", str(tmp_path / "nope.csv")).exit_code == 2
    source = tmp_path / "in.csv"
    source.write_text(GOOD, encoding="utf-8")
    result = cli("import", "--user", "nobody", str(source))
    assert result.exit_code == 2 and "no user named 'nobody'" in result.stderr
    assert cli("export", "--user", "alice", str(tmp_path / "no-such-dir" / "out.csv")).exit_code == 2


def test_import_warns_of_trade_quantities_capped_at_the_copies_owned(cli, tmp_path):
    source = tmp_path / "in.csv"
    source.write_text("game,set,number,name,quantity,trade_quantity\nkaijudo,evo-fury,1,,2,5\n", encoding="utf-8")
    result = cli("import", "--user", "alice", str(source))
    assert result.exit_code == 0, result.output
    assert "warning: 1 printing: the trade quantity was above the copies owned and is capped at them." in result.output
    assert [(o.quantity, o.trade_quantity) for o in snapshot("alice").values()] == [(2, 2)]

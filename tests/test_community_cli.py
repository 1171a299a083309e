"""`deckhub export-cards GAME DIR` and `deckhub load-cards` with community contributions."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckhub.services.community.proposing import propose_facts
from deckhub.services.community.reviewing import approve
from deckhub.store import models
from deckhub.services.accounts import create_user
from deckhub.cli import main
from deckhub.store.db import database

DATA = Path(__file__).resolve().parents[1] / "data"
URL = "https://example.org/neopets-tcg/checklist"


@pytest.fixture
def cli(databases, monkeypatch):
    """`deckhub ...` against a database of the backend under test; `cli.use(url)` switches database."""
    runner = CliRunner()
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "test")

    def run(*args, env=None):
        return runner.invoke(main, list(args), catch_exceptions=False, env=env)

    def use(url):
        monkeypatch.setenv("DATABASE_URL", url)
    run.use = use
    run.use(databases.with_schema())
    return run


def _contribute():
    """A player's bank value for The Thieves' Code, approved by the site's curator (made-up value)."""
    with database.connection_context():
        curator = create_user("curie", "a long password")
        player = create_user("pat", "a long password")
        p = propose_facts(player, "neopets-tcg", "the-thieves-code", {"bank_value": 2}, URL)
        approve(p.id, curator)


def _card(key):
    with database.connection_context():
        row = models.Card.get((models.Card.game == "neopets-tcg") & (models.Card.key == key))
        return row.data


def test_export_cards_writes_contributions_that_load_cards_reads_back_elsewhere(cli, databases, tmp_path):
    assert cli("load-cards", "neopets-tcg").exit_code == 0
    _contribute()
    result = cli("export-cards", "neopets-tcg", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "(1 cards with contributed facts) written to" in result.output
    doc = json.loads((tmp_path / "neopets-tcg" / "cards.json").read_text(encoding="utf-8"))
    card = next(c for c in doc["cards"] if c["key"] == "the-thieves-code")
    assert card["attrs"]["bank_value"] == 2 and card["provenance"]["bank_value"] == "contributed" and URL in card["sources"]
    # the same site reading its own export changes nothing
    again = cli("load-cards", "neopets-tcg", env={"DECKHUB_DATA_DIR": str(tmp_path)})
    assert again.exit_code == 0 and "0 cards added, 0 updated, 0 printings added" in again.output
    # another site loads it: every card and printing, the contribution with its provenance
    cli.use(databases.with_schema())
    other = cli("load-cards", "neopets-tcg", env={"DECKHUB_DATA_DIR": str(tmp_path)})
    assert other.exit_code == 0, other.output
    assert "1214 cards, 1410 printings, 11 sets (1214 cards added" in other.output
    data = _card("the-thieves-code")
    assert data["attrs"]["bank_value"] == 2 and data["provenance"]["bank_value"] == "contributed"


def test_an_untouched_catalogue_exports_as_the_shipped_file(cli, tmp_path):
    for game in ("neopets-tcg", "huntik", "neopets-battledome"):
        assert cli("load-cards", game).exit_code == 0
        assert cli("export-cards", game, str(tmp_path)).exit_code == 0
        shipped = json.loads((DATA / game / "cards.json").read_text(encoding="utf-8"))
        exported = json.loads((tmp_path / game / "cards.json").read_text(encoding="utf-8"))
        assert exported["cards"] == shipped["cards"], game
        assert exported["sets"] == shipped["sets"], game


def test_load_cards_keeps_contributed_facts(cli):
    assert cli("load-cards", "neopets-tcg").exit_code == 0
    _contribute()
    again = cli("load-cards", "neopets-tcg")
    assert again.exit_code == 0 and "0 cards added, 0 updated, 0 printings added" in again.output
    data = _card("the-thieves-code")
    assert data["attrs"]["bank_value"] == 2 and data["provenance"]["bank_value"] == "contributed"
    assert URL in data["sources"] and data["contributions"]["bank_value"]["by"] == "pat"


def test_export_cards_refuses_a_folder_whose_set_files_would_load_twice(cli):
    assert cli("load-cards", "kaijudo").exit_code == 0
    result = CliRunner().invoke(main, ["export-cards", "kaijudo", str(DATA)])
    assert result.exit_code != 0 and "sets/" in result.output and "cards twice" in result.output
    assert not (DATA / "kaijudo" / "cards.json").exists()
    assert cli("export-cards", "chess", "/tmp").exit_code == 2

"""The `deckhub` commands the README and the acceptance checks rely on."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from deckhub.store import models
from deckhub.cli import main
from deckhub.store.db import database

KAIJUDO_SETS = Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "sets"


@pytest.fixture
def cli(schema_database_url, monkeypatch):
    """Run `deckhub ...` against a new site's database (after `deckhub db upgrade`, before its catalogues)."""
    monkeypatch.setenv("DATABASE_URL", schema_database_url)
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "test")
    runner = CliRunner()

    def run(*args, input=None):
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)
    return run


def _counts():
    with database.connection_context():
        return (models.Card.select().count(), models.Printing.select().count(), models.CardSet.select().count())


def test_user_add_reads_the_password_from_stdin(cli):
    result = cli("user", "add", "carol", "--password-stdin", "--curator", input="a long password\n")
    assert result.exit_code == 0, result.output
    assert "curator" in result.output
    from deckhub.services.accounts import authenticate
    with database.connection_context():
        assert authenticate("carol", "a long password").is_curator
        assert authenticate("carol", "wrong password") is None


def test_user_add_refuses_a_taken_name_and_a_short_password(cli):
    assert cli("user", "add", "dave", "--password-stdin", input="long enough\n").exit_code == 0
    taken = cli("user", "add", "Dave", "--password-stdin", input="long enough\n")
    assert taken.exit_code != 0 and "taken" in taken.output
    short = cli("user", "add", "erin", "--password-stdin", input="short\n")
    assert short.exit_code != 0 and "at least 10" in short.output


def test_load_cards_twice_changes_nothing(cli):
    first = cli("load-cards", "kaijudo")
    assert first.exit_code == 0, first.output
    assert "1136 cards, 1293 printings, 14 sets" in first.output
    before = _counts()
    second = cli("load-cards", "kaijudo")
    assert second.exit_code == 0
    assert "0 cards added, 0 updated, 0 printings added" in second.output
    assert _counts() == before


def test_the_first_start_says_it_in_one_line_and_verbose_lists_the_notes_on_the_sources(cli):
    from deckhub.commands.site import open_app
    from deckhub.services.catalogue_loading import ensure_catalogues
    lines = []
    open_app()
    with database.connection_context():
        ensure_catalogues(echo=lines.append)
        assert models.Card.select().count() > 2000
        ensure_catalogues(echo=lines.append)  # a later start: nothing to load, nothing printed
    assert len(lines) == 1, lines
    assert lines[0].startswith("Loaded the catalogues of Huntik, Kaijudo, Neopets Battledome, Neopets TCG: ")
    assert "notes on how the source data was read" in lines[0] and "deckhub load-cards --verbose" in lines[0]
    assert "warning" not in lines[0].lower()

    quiet = cli("load-cards", "neopets-tcg")
    assert quiet.exit_code == 0 and "warning:" not in quiet.output
    assert quiet.output.splitlines()[-1].endswith("listed by `deckhub load-cards --verbose`")
    verbose = cli("load-cards", "neopets-tcg", "--verbose")
    assert verbose.exit_code == 0
    assert "warning: travels-in-neopia: number 104 is printed for 2 cards" in verbose.output
    assert "listed by" not in verbose.output


def test_a_bad_record_names_file_record_and_field_and_writes_nothing(cli, tmp_path):
    good = (KAIJUDO_SETS / "evo-fury.xml").read_text(encoding="utf-8")
    broken = tmp_path / "broken-set.xml"
    broken.write_text(good.replace('name="Level" value="1"', 'name="Level" value="one"', 1), encoding="utf-8")
    result = cli("load-cards", "--octgn", str(broken))
    assert result.exit_code == 1
    assert "broken-set.xml:card 1 (Chasm Entangler): Level: not a whole number: 'one'" in result.output
    assert _counts()[0] == 0


def test_malformed_xml_is_reported_not_raised(cli, tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<set name='x'><cards><card name='A'", encoding="utf-8")
    result = cli("load-cards", "--octgn", str(bad))
    assert result.exit_code == 1 and "bad.xml:-: xml: cannot be read" in result.output


def test_entity_expansion_is_refused(cli, tmp_path):
    bomb = tmp_path / "bomb.xml"
    bomb.write_text('<?xml version="1.0"?><!DOCTYPE set [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
                    '<set name="&b;"><cards/></set>', encoding="utf-8")
    result = cli("load-cards", "--octgn", str(bomb))
    assert result.exit_code == 1 and "bomb.xml" in result.output


def test_an_octgn_set_file_from_a_user_adds_its_printings(cli, tmp_path):
    assert cli("load-cards", "kaijudo").exit_code == 0
    own = tmp_path / "my-reprints.xml"
    text = (KAIJUDO_SETS / "evo-fury.xml").read_text(encoding="utf-8")
    own.write_text(text.replace('name="Evo Fury"', 'name="My Reprints"'), encoding="utf-8")
    result = cli("load-cards", "--octgn", str(own))
    assert result.exit_code == 0, result.output
    assert "0 cards and 60 printings added to kaijudo" in result.output
    with database.connection_context():
        assert models.CardSet.get(models.CardSet.code == "my-reprints").name == "My Reprints"


def test_check_reads_the_site_catalogue_when_there_is_one(cli):
    """Facts approved on the site (here: a type set in the database) reach `deckhub check` at once."""
    from deckhub.services.catalogue_store import bump_stamp
    assert cli("load-cards", "neopets-tcg").exit_code == 0
    deck = "Deck\n4 Chomp!\n"
    before = cli("check", "--game", "neopets-tcg", "--json", "-", input=deck)
    assert "Chomp!" in str([v["cards"] for v in __import__("json").loads(before.output)["violations"]
                            if v["severity"] == "unverified"])
    with database.connection_context():
        card = models.Card.get((models.Card.game == "neopets-tcg") & (models.Card.key == "chomp"))
        data = dict(card.data)
        data["provenance"] = {**data.get("provenance", {}), "type": "contributed"}
        models.Card.update(type="Something Has Happened!", data=data).where(models.Card.id == card.id).execute()
        bump_stamp("neopets-tcg")
    after = __import__("json").loads(cli("check", "--game", "neopets-tcg", "--json", "-", input=deck).output)
    assert not [v for v in after["violations"] if v["severity"] == "unverified" and "Chomp!" in v["cards"]]
    assert any(v["rule"] == "neopets-tcg.building.copies" for v in after["violations"])


@pytest.mark.parametrize("name", ["goldfish", "simulate", "tune"])
def test_the_commands_that_play_take_the_flags_each_game_declares(name):
    """A game declares its own flags (GameSpec.command_options: Huntik's --mission ...); every
    command that plays games takes them, each standing for an option of that game's engine."""
    from deckhub.core.engine import get_engine
    from deckhub.games import all_games

    declared = [(game, flag) for game in all_games() for flag in game.command_options]
    assert declared
    taken = {opt for param in main.commands[name].params for opt in param.opts}
    for game, flag in declared:
        assert flag.flag in taken, (name, flag.flag)
        assert get_engine(game.slug).option(flag.option) is not None, (game.slug, flag.option)

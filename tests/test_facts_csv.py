"""`deckhub facts import|export` and the facts CSV service: a spreadsheet round-trips, every row is
checked as a proposal is, one bad row writes nothing; exit 0 ok, 1 rows rejected, 2 unreadable.

Values proposed here (types, bank values, rules text) are made up for the tests, not facts about the cards.
"""
from __future__ import annotations

import csv

import pytest
from click.testing import CliRunner

from deckhub.services import facts
from deckhub.services.community.fields import PRINTED, proposable_fields
from deckhub.services.community.rate_limits import RATE_WINDOW
from deckhub.services.community.reviewing import approve
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.commands.facts import facts as facts_command
from deckhub.store.db import database
from deckhub.importers.facts_csv import FactsFileError, parse_facts_csv, write_facts_csv

NEO = "neopets-tcg"
URL = "https://example.org/neopets-tcg/checklist"


@pytest.fixture
def cli(databases, monkeypatch):
    url = databases.with_catalogues()
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "test")
    from conftest import make_app
    from deckhub.services.accounts import create_user
    make_app(url)
    with database.connection_context():
        create_user("curie", "correct horse")  # the first account is a curator
        create_user("alice", "correct horse")
    runner = CliRunner()

    def run(*args, input=None):
        return runner.invoke(facts_command, list(args), input=input, catch_exceptions=False)
    yield run
    if not database.is_closed():
        database.close()


def read_rows(path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def write_rows(path, rows: list[dict[str, str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def proposals() -> list[models.Proposal]:
    with database.connection_context():
        return list(models.Proposal.select().order_by(models.Proposal.id))


def unknown_cards(rows, field: str, n: int) -> list[dict[str, str]]:
    return [r for r in rows if not r[field] and not r["type"]][:n]


def test_export_writes_every_field_and_imports_back_unchanged(cli, tmp_path):
    out = tmp_path / "neo.csv"
    result = cli("export", NEO, str(out))
    assert result.exit_code == 0, result.output
    rows = read_rows(out)
    with database.connection_context():
        catalogue = get_catalogue(NEO)
        keys = [f.key for f in proposable_fields(NEO)]
    assert list(rows[0]) == ["game", "set", "number", "name", "version", *keys, "source"]
    assert len(rows) == len(catalogue)  # one row per card
    typed = next(c for c in catalogue if c.type)
    row = next(r for r in rows if r["name"] == typed.name and r["type"])
    assert row["type"] == typed.type and row["source"] == ""
    for args in (("--dry-run",), ()):
        result = cli("import", "--user", "alice", *args, str(out))
        assert result.exit_code == 0, result.output
        assert "0 cards to propose" in result.output
    assert proposals() == []


def test_edited_spreadsheet_becomes_proposals_and_round_trips_after_approval(cli, tmp_path):
    out = tmp_path / "neo.csv"
    cli("export", NEO, str(out))
    rows = read_rows(out)
    first, second = unknown_cards(rows, "bank_value", 2)
    first.update(type="Item", bank_value="3", source=URL)
    second.update(type="Equipment", text="=1+1 is not a formula here", source=PRINTED)
    write_rows(tmp_path / "edited.csv", rows)

    dry = cli("import", "--user", "alice", "--dry-run", str(tmp_path / "edited.csv"))
    assert dry.exit_code == 0, dry.output
    assert f"{first['name']}: Type: unknown → Item; Bank value: unknown → 3 (source: {URL})" in dry.output
    assert "2 cards to propose, 4 values" in dry.output
    assert proposals() == []

    result = cli("import", "--user", "alice", str(tmp_path / "edited.csv"))
    assert result.exit_code == 0, result.output
    made = proposals()
    assert [(p.values, p.source, p.status) for p in made] == [
        ({"type": "Item", "bank_value": 3}, URL, "pending"),
        ({"type": "Equipment", "text": "=1+1 is not a formula here"}, PRINTED, "pending")]
    assert all(p.proposer.username == "alice" for p in made)

    with database.connection_context():
        curator = models.User.get(username="curie")
        for p in made:
            approve(p.id, curator)
    again = tmp_path / "again.csv"
    cli("export", NEO, str(again))
    text = again.read_text(encoding="utf-8-sig")
    assert "'=1+1 is not a formula here" in text  # neutralised for spreadsheets
    exported = {r["name"]: r for r in read_rows(again)}
    assert exported[first["name"]]["bank_value"] == "3" and exported[first["name"]]["type"] == "Item"
    assert exported[second["name"]]["text"] == "'=1+1 is not a formula here"
    result = cli("import", "--user", "alice", str(again))
    assert result.exit_code == 0 and "nothing to propose" in result.output, result.output
    assert len(proposals()) == 2


def test_one_bad_row_writes_nothing_and_every_problem_is_listed(cli, tmp_path):
    out = tmp_path / "neo.csv"
    cli("export", NEO, str(out))
    rows = read_rows(out)
    good, too_big, no_source, misspelt = unknown_cards(rows, "bank_value", 4)
    good.update(type="Item", bank_value="2", source=URL)
    too_big.update(bank_value="120", source=URL)
    no_source.update(type="Hero")
    misspelt.update(name=misspelt["name"][:-1], set="", number="", type="Hero", source=URL)
    write_rows(tmp_path / "bad.csv", rows)
    line = {r["name"]: i + 2 for i, r in enumerate(rows)}
    for args in (("--dry-run",), ()):
        result = cli("import", "--user", "alice", *args, str(tmp_path / "bad.csv"))
        assert result.exit_code == 1, result.output
        assert f"bad.csv:{line[too_big['name']]}: bad-value: Bank value must be a whole number from 0 to 99, not 120" \
            in result.output
        assert f"bad.csv:{line[no_source['name']]}: no-source:" in result.output
        assert f"bad.csv:{line[misspelt['name']]}: unknown-card:" in result.output
        assert "did you mean" in result.output
        assert "3 rows rejected; nothing was proposed" in result.output
        listed = f"bad.csv:{line[good['name']]}: {good['name']}: Type: unknown → Item; Bank value: unknown → 2"
        assert (listed in result.output) == bool(args)  # the dry run lists the changes beside the problems
    assert proposals() == []


def test_unreadable_files_exit_2(cli, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"game,name,type,source\nneopets-tcg,\xff\xfe\xfa,Item,x\n")
    result = cli("import", "--user", "alice", str(bad))
    assert result.exit_code == 2 and "not UTF-8" in result.output
    bad.write_text("game,name,bank_vaule,source\n")
    result = cli("import", "--user", "alice", str(bad))
    assert result.exit_code == 2 and "did you mean 'bank_value'" in result.output
    result = cli("import", "--user", "nobody", str(bad))
    assert result.exit_code == 2 and "no user named" in result.output
    assert cli("import", "--user", "alice", str(tmp_path / "missing.csv")).exit_code == 2
    assert proposals() == []


def test_a_file_counts_once_against_the_rate_limit(app):
    with app.app_context(), database.connection_context():
        from deckhub.services.accounts import create_user
        create_user("curie", "correct horse")
        alice = create_user("alice", "correct horse")
        names = [c.name for c in get_catalogue(NEO) if not c.type and len(get_catalogue(NEO).lookup(c.name)) == 1][:3]
        body = "game,name,type,source\n" + "".join(f'{NEO},"{n}",Hero,{URL}\n' for n in names)
        made = facts.commit_import(alice, body, rate_limit=1, window=RATE_WINDOW)
        assert len(made) == 3
        with pytest.raises(facts.ImportRejected) as refused:
            facts.commit_import(alice, body.replace("Hero", "Villain"), rate_limit=1, window=RATE_WINDOW)
        assert refused.value.limited and "please wait" in str(refused.value)
        assert models.Proposal.select().count() == 3


def test_rows_name_cards_as_a_collection_csv_does(app):
    """Set + number alone, name + version, and a name several Huntik cards share (refused, with why)."""
    with app.app_context(), database.connection_context():
        card = get_catalogue("huntik").get("suit-mr-steel-venice-agent")
        body = ("game,set,number,name,version,type,source\n"
                f"huntik,SAS,95,,,{card.type},{URL}\n"
                "Huntik,,,Suit,\"Mr. Steel, Venice Agent\",,\n"
                "huntik,,,Suit,,,\n"
                "huntik,SAS,999,,,,\n")
        first, second, third, fourth = facts.preview_import(body).rows
        assert first.card.key == card.key and first.ok and not first.changes
        assert second.card.key == card.key and [p.kind for p in second.problems] == ["duplicate"]
        assert third.card is None and third.problems[0].kind == "ambiguous" and "give its version" in str(third.problems[0])
        assert fourth.problems[0].kind == "bad-number"


def test_parse_and_write_are_inverse_for_formula_cells():
    rows = [["neopets-tcg", "set", "7", "=Name", "", "-3", "@x, +y", ""]]
    text = write_facts_csv(["strength_bonus", "tags"], rows, bom=False)
    assert "'=Name" in text and "'-3" in text and "'@x, +y" in text
    parsed = parse_facts_csv(text, {"strength_bonus": "strength_bonus", "tags": "tags"})
    row = parsed.rows[0]
    assert row.card.name == "=Name" and row.values == {"strength_bonus": "-3", "tags": "@x, +y"}
    with pytest.raises(FactsFileError):
        parse_facts_csv("game,name,source\nneopets-tcg,x,y\n", {"type": "type"})  # no field column
    with pytest.raises(FactsFileError):
        parse_facts_csv('game,name,type\n"unclosed,x,Item\n', {"type": "type"})


def test_export_of_one_set(cli, tmp_path):
    out = tmp_path / "meridell.csv"
    result = cli("export", NEO, "--set", "battle-for-meridell", str(out))
    assert result.exit_code == 0, result.output
    rows = read_rows(out)
    with database.connection_context():
        in_set = [c for c in get_catalogue(NEO) if any(p.set_code == "battle-for-meridell" for p in c.printings)]
    assert len(rows) == len(in_set) and {r["set"] for r in rows} == {"battle-for-meridell"}
    assert [int(r["number"]) for r in rows if r["number"].isdigit()] == \
        sorted(int(r["number"]) for r in rows if r["number"].isdigit())
    assert cli("import", "--user", "alice", str(out)).exit_code == 0
    result = cli("export", NEO, "--set", "atlantis", str(tmp_path / "x.csv"))
    assert result.exit_code == 2 and "has no set 'atlantis'" in result.output

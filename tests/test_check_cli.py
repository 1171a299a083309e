"""`deckhub check` (issue 3): exit codes, the --json shape, and the real published decks.

The command is tested as the click command itself (deckhub/commands/check.py), which the `deckhub`
group adds; `check_text` is what POST /api/check calls and must answer the very same dict.
"""
from __future__ import annotations

import glob
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckhub.commands.check import check
from deckhub.services.checks import CheckError, check_text
from deckhub.games import load_catalogue
from test_legality import cat as fixture_cat

KAIJUDO_DECKS = sorted(glob.glob("data/kaijudo/decks/*.o8d"))
THEME_DECKS = ["data/neopets-tcg/decks/darigan-theme-deck.txt", "data/neopets-tcg/decks/meridell-theme-deck.txt"]
JSON_KEYS = ["game", "format", "legal", "verified", "counts", "violations", "errors"]


def run(*args, input=None):
    return CliRunner().invoke(check, list(args), input=input)


def test_there_are_published_decks():
    assert len(KAIJUDO_DECKS) == 10


@pytest.mark.parametrize("path", KAIJUDO_DECKS, ids=lambda p: Path(p).name)
def test_published_kaijudo_decks_are_legal(path):
    result = run("--game", "kaijudo", path)
    assert result.exit_code == 0, result.output + result.stderr
    assert "legal (Deck 40)" in result.stdout


@pytest.mark.parametrize("path", THEME_DECKS, ids=lambda p: Path(p).name)
def test_rulebook_theme_decks_are_legal(path):
    """The Battle for Meridell theme decks as printed: legal; unverified results (unknown types) allowed."""
    result = run("--game", "neopets-tcg", "--json", path)
    assert result.exit_code == 0, result.output + result.stderr
    doc = json.loads(result.stdout)
    assert doc["legal"] is True and doc["errors"] == []
    assert doc["counts"] == {"Neopet Stack": 10, "Deck": 40}
    assert {v["severity"] for v in doc["violations"]} <= {"warning", "unverified"}
    assert doc["verified"] is False  # most of their cards' types are unknown
    assert "read as" in result.stderr  # Jeran's Armor / Kass's Charm spelt as in the rulebook


def test_a_deck_checked_on_unknown_values_is_legal_so_far_not_legal():
    result = run("--game", "neopets-tcg", THEME_DECKS[0])
    assert result.exit_code == 0  # the exit code is unchanged: no error
    verdict = result.stdout.splitlines()[0]
    assert re.search(r": legal so far: \d+ cards unverified \(Neopet Stack 10, Deck 40\)$", verdict), verdict
    n = int(re.search(r"(\d+) cards unverified", verdict).group(1))
    doc = json.loads(run("--game", "neopets-tcg", "--json", THEME_DECKS[0]).stdout)
    named = {c for v in doc["violations"] if v["severity"] == "unverified" for c in v["cards"]}
    assert n == len(named) > 0


def test_stdin_and_o8d_recognised_by_content():
    data = Path(KAIJUDO_DECKS[0]).read_bytes()
    result = run("--game", "kaijudo", "-", input=data)
    assert result.exit_code == 0, result.stderr


def test_json_shape_exactly():
    result = run("--game", "kaijudo", "--json", KAIJUDO_DECKS[0])
    doc = json.loads(result.stdout)
    assert list(doc) == JSON_KEYS
    assert doc == {"game": "kaijudo", "format": "standard", "legal": True, "verified": True, "counts": {"Deck": 40},
                   "violations": [], "errors": []}


def test_illegal_deck_exits_1_with_every_violation():
    text = "Deck\n4 Hydro Spy\n4 Teleport\n"
    result = run("--game", "kaijudo", "--json", "-", input=text)
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["legal"] is False and doc["counts"] == {"Deck": 8} and doc["errors"] == []
    assert sorted(v["rule"] for v in doc["violations"]) == ["kaijudo.4.copies", "kaijudo.4.copies", "kaijudo.4.deck-size"]
    v = next(v for v in doc["violations"] if v["rule"] == "kaijudo.4.deck-size")
    assert list(v) == ["rule", "severity", "section", "message", "cards", "expected", "actual"]
    assert (v["severity"], v["section"], v["expected"], v["actual"]) == ("error", "Deck", {"min": 40}, 8)
    human = run("--game", "kaijudo", "-", input=text)
    assert human.exit_code == 1 and "error: kaijudo.4.copies [Deck]" in human.stdout


def test_unknown_card_exits_2_with_line_numbers_on_stderr():
    text = "3 Hydro Spy\n\n2 Zzyzx Qqqq Not A Card\n1 Sprout\n0 Teleport\n"
    result = run("--game", "kaijudo", "--json", "-", input=text)
    assert result.exit_code == 2
    assert "line 3: unknown Kaijudo card 'Zzyzx Qqqq Not A Card'" in result.stderr
    assert "line 5: quantity '0'" in result.stderr
    doc = json.loads(result.stdout)
    assert doc["legal"] is False and [e["line"] for e in doc["errors"]] == [3, 5]
    assert all(list(e) == ["line", "message", "suggestions"] for e in doc["errors"])


def test_card_of_another_game_exits_2_naming_the_game():
    result = run("--game", "kaijudo", "-", input="1 Cherit, Lok's Best Friend\n")
    assert result.exit_code == 2 and "is a Huntik card, not a Kaijudo card" in result.stderr


@pytest.mark.parametrize("args,needle", [
    (["--game", "chess"], "unknown game"),
    (["--game", "kaijudo", "--format", "vintage"], "unknown format"),
    (["--game", "huntik", "--format", "limited"], "--packs"),
    (["--game", "kaijudo", "--packs", "3"], "not played with packs"),
    (["--game", "huntik", "--packs", "0"], "positive"),
])
def test_bad_requests_exit_2(args, needle):
    result = run(*args, "-", input="1 Sprout\n")
    assert result.exit_code == 2 and needle in result.stderr


def test_unreadable_file_exits_2(tmp_path):
    result = run("--game", "kaijudo", str(tmp_path / "missing.txt"))
    assert result.exit_code == 2
    binary = tmp_path / "deck.bin"
    binary.write_bytes(b"\x00\x01garbage")
    result = run("--game", "kaijudo", str(binary))
    assert result.exit_code == 2 and "line 1:" in result.stderr


def _huntik_deck(teams):
    cards = [c for c in load_catalogue("huntik") if c.attrs.get("team") in teams
             and c.type in ("major hero", "minor hero", "action")]
    chosen = [c for t in teams for c in [c for c in cards if c.attrs["team"] == t][:14]]
    return "Deck\n" + "".join(f"3 {c.display_name}\n" for c in chosen)


def test_huntik_constructed_and_limited_on_real_cards():
    good = _huntik_deck(["Good"])
    assert run("--game", "huntik", "-", input=good).exit_code == 0
    mixed = _huntik_deck(["Good", "Evil"])
    result = run("--game", "huntik", "--json", "-", input=mixed)
    assert result.exit_code == 1 and "huntik.100.teams" in {v["rule"] for v in json.loads(result.stdout)["violations"]}
    result = run("--game", "huntik", "--packs", "8", "--json", "-", input=mixed)  # Limited: teams may mix
    assert result.exit_code == 0 and json.loads(result.stdout)["format"] == "limited"
    result = run("--game", "huntik", "--format", "Limited", "--packs", "17", "-", input=mixed)
    assert result.exit_code == 1 and "huntik.100.limited-deck-size" in result.stdout


def test_check_text_is_the_same_dict_as_the_cli():
    text = Path(THEME_DECKS[1]).read_text(encoding="utf-8")
    cli = json.loads(run("--game", "neopets-tcg", "--json", "-", input=text).stdout)
    assert check_text("neopets-tcg", text) == cli
    assert list(check_text("kaijudo", "1 Sprout\n")) == JSON_KEYS
    with pytest.raises(CheckError):
        check_text("huntik", "1 Suit\n", format="limited")


def test_check_text_on_a_given_catalogue():
    text = ("Main Deck\n25 Mau\n24 Kacheek Stone\n2 Fire Faerie\nNeopet Deck\n1 Acara\n1 Starry Acara\n1 Kougra\n")
    doc = check_text("neopets-battledome", text, catalogue=fixture_cat("neopets-battledome"))
    assert doc["legal"] is False and doc["counts"] == {"Main Deck": 51, "Neopet Deck": 3, "Rainbow Pool": 0}
    assert {v["rule"] for v in doc["violations"]} == {"battledome.cr1.1.main-deck-size", "battledome.cr1.3.faerie",
                                                      "battledome.cr1.4.neopet-species"}
    doc = check_text("neopets-battledome", text, format="rb-1.4", catalogue=fixture_cat("neopets-battledome"))
    assert doc["format"] == "rb-1.4" and "battledome.rb1.4.one-copy" in {v["rule"] for v in doc["violations"]}


STARTER_DECKS = sorted(glob.glob("data/neopets-tcg/decks/starter-set-deck-*.txt"))


@pytest.mark.parametrize("path", STARTER_DECKS, ids=lambda p: Path(p).name)
def test_the_neopets_starter_decks_as_sold_are_legal_as_starter_set_and_only_there(path):
    assert len(STARTER_DECKS) == 2
    result = run("--game", "neopets-tcg", "--format", "starter", path)
    assert result.exit_code == 0, result.output + result.stderr
    assert "Starter Set (basic game): legal (Neopet Stack 0, Deck 30)" in result.stdout
    assert run("--game", "neopets-tcg", path).exit_code == 1  # the advanced rules build 40 + a 10-card stack


@pytest.mark.parametrize("path", THEME_DECKS, ids=lambda p: Path(p).name)
def test_a_theme_deck_is_not_a_starter_deck(path):
    result = run("--game", "neopets-tcg", "--format", "starter", path)
    assert result.exit_code == 1
    assert "neopets-tcg.starter.deck-size" in result.stdout and "neopets-tcg.starter.no-stack" in result.stdout

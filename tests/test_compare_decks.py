"""Two decks compared on the same seeds: the paired difference, exactly zero for a deck with itself."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckhub.commands.compare import compare as compare_command
from deckhub.core.compare import compare
from deckhub.core.engine import engines, get_engine
from deckhub.games import load_catalogue

DECKS = Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks"


@pytest.mark.parametrize("slug", [e.game for e in engines()])
def test_every_game_compares_a_deck_with_itself_to_exactly_zero(slug):
    """Every engine bounds its games (a limit option, or Huntik's seven rounds), so a lost game has a score."""
    engine = get_engine(slug)
    _, deck = engine.decks()[0]
    result = compare(slug, deck, deck, load_catalogue(slug), games=20, seed=5, options=dict(engine.sample_options))
    assert result["delta"] == 0 and result["ci"] == [0, 0] and result["cards"] == [], slug
    assert result["a"] == {**result["b"], "deck": result["a"]["deck"]}
    limit = engine.last_turn(engine.normalize_options(dict(engine.sample_options)))
    assert result["settings"]["score"] == f"winning turn; a game not won scores {limit + 1}"


def test_compare_command_pairs_two_decks_on_the_same_seeds():
    a, b = str(DECKS / "[2ED]Bull_Rush.o8d"), str(DECKS / "[3RIS]Rocket_Storm.o8d")
    args = ["--game", "kaijudo", a, b, "--games", "120", "--seed", "4", "--json"]
    data = json.loads(CliRunner().invoke(compare_command, args).output)
    assert {"a", "b", "delta", "ci", "games"} <= set(data) and data["games"] == 120
    assert data["ci"][0] <= data["delta"] <= data["ci"][1] and data["cards"]
    means = {side: sum(int(t) * n for t, n in data[side]["win_turn"]["histogram"].items()) for side in "ab"}
    assert set(data["a"]) == {"deck", "games", "wins", "win_rate", "win_turn"}
    if data["a"]["wins"] == data["b"]["wins"] == 120:  # every game won: the delta is the means' difference
        assert abs(data["delta"] - (means["b"] - means["a"]) / 120) < 1e-3
    swapped = json.loads(CliRunner().invoke(compare_command, ["--game", "kaijudo", b, a, "--games", "120", "--seed",
                                                              "4", "--json", "--workers", "2"]).output)
    assert swapped["delta"] == -data["delta"]
    itself = json.loads(CliRunner().invoke(compare_command, ["--game", "kaijudo", a, a, "--games", "50", "--json"]).output)
    assert itself["delta"] == 0 and itself["ci"] == [0, 0]

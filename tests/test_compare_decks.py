"""Two decks compared on the same seeds: the paired difference, exactly zero for a deck with itself."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckhub.commands.compare import compare as compare_command
from deckhub.core.compare import compare
from deckhub.core.engine import get_engine
from deckhub.core.tuning import TuningError
from deckhub.games import all_games, load_catalogue

DECKS = Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks"


def test_every_game_compares_a_deck_with_itself_to_exactly_zero():
    for spec in all_games():
        engine = get_engine(spec.slug)
        decks = engine.decks()
        if not decks:
            continue
        _, deck = decks[0]
        options = engine.normalize_options(dict(engine.sample_options))
        if not (options.get("turn_limit") or options.get("round_limit")):  # no bound to score a loss by
            with pytest.raises(TuningError, match="no turn or round limit"):
                compare(spec.slug, deck, deck, load_catalogue(spec.slug), games=20, seed=5)
            continue
        result = compare(spec.slug, deck, deck, load_catalogue(spec.slug), games=20, seed=5,
                         options=dict(engine.sample_options))
        assert result["delta"] == 0 and result["ci"] == [0, 0] and result["cards"] == [], spec.slug
        assert result["a"] == {**result["b"], "deck": result["a"]["deck"]}


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

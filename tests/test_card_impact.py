"""Causal card impact: one copy of each card replaced by the blank filler, paired on the deck's seeds."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from deckhub.commands.impact import impact as impact_command
from deckhub.commands.tune import tune as tune_command
from deckhub.core.cards import BLANK_KEY
from deckhub.core.decklist import Deck
from deckhub.core.engine import engines, get_engine, published_decks
from deckhub.core.impact import CardImpact, ImpactResult, impact
from deckhub.games import load_catalogue


def _with_dead_card(catalogue):
    """Choten's Army with one card swapped for the highest-level creature of a civilization the deck has none of."""
    name, deck = published_decks("kaijudo")[0]
    cards = deck.sections["Deck"]
    civs = {c for k in cards for c in catalogue.get(k).attrs.get("civilizations") or []}
    dead = max((c for c in catalogue if c.type and "Creature" in c.type and c.attrs.get("civilizations")
                and not set(c.attrs["civilizations"]) & civs), key=lambda c: (c.attrs.get("level") or 0, c.key))
    out = next(iter(cards))
    changed = {k: q - (k == out) for k, q in cards.items() if q - (k == out) > 0}
    changed[dead.key] = 1
    return Deck("kaijudo", {"Deck": changed}, name), dead


def test_a_dead_card_shows_no_positive_impact_and_a_key_creature_a_slower_deck():
    """Choten's Army's 3-of Bronze-Arm Renegade (its cheapest attacker) is worth a tenth of a turn or
    more; a card it cannot pay for plays exactly as the blank does (each is only a mana source)."""
    catalogue = load_catalogue("kaijudo")
    deck, dead = _with_dead_card(catalogue)
    result = impact("kaijudo", deck, catalogue, budget=1200, seed=1)
    data = result.to_json()
    assert {"game", "deck", "seed", "games_played", "budget", "cards"} <= set(data)
    assert data["games_played"] <= 1200 and data["budget"] == 1200
    assert {c["key"] for c in data["cards"]} <= set(deck.sections["Deck"]) and BLANK_KEY not in {c["key"] for c in data["cards"]}
    deltas = [c["delta"] for c in data["cards"]]
    assert deltas == sorted(deltas, reverse=True)
    for c in data["cards"]:
        assert c["ci"][0] <= c["delta"] <= c["ci"][1] and c["games"] >= 1
    row = next(c for c in result.cards if c.key == dead.key)
    assert not row.slower_without and row.delta <= 0  # a card the deck cannot pay for does nothing a blank does not
    key = next(c for c in result.cards if c.key == "bronze-arm-renegade")
    assert key.slower_without and key.ci[0] > 0
    assert "slower without" in result.verdict and "Bronze-Arm Renegade" in result.verdict


def test_the_verdict_says_plainly_when_nothing_beats_the_noise():
    unclear = [CardImpact("A", "a", 0.2, (-0.1, 0.5), 40), CardImpact("B", "b", -0.1, (-0.3, 0.1), 40)]
    result = ImpactResult("kaijudo", "deck", 1, 100, 100, unclear, {})
    assert result.verdict.startswith("no card's effect beats the noise")
    clear = [CardImpact("A", "a", 0.4, (0.1, 0.7), 40), *unclear[1:]]
    assert ImpactResult("kaijudo", "deck", 1, 100, 100, clear, {}).verdict.startswith("the deck is slower without A")


def test_impact_command_prints_the_json_contract(tmp_path):
    catalogue = load_catalogue("kaijudo")
    deck, _dead = _with_dead_card(catalogue)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck.to_json()))
    result = CliRunner().invoke(impact_command, ["--game", "kaijudo", "--deck", str(path), "--budget", "200",
                                                 "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seed"] == 3 and data["budget"] == 200 and data["game"] == "kaijudo"
    assert set(data["cards"][0]) >= {"card", "delta", "ci", "games"}
    too_small = CliRunner().invoke(impact_command, ["--game", "kaijudo", "--deck", str(path), "--budget", "50"])
    assert too_small.exit_code == 2 and "at least" in too_small.output


def _files(engine, tmp_path) -> list[str]:
    """A game's first sample deck as a file, with the engine's sample options as the command's flags."""
    _name, deck = engine.decks()[0]
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck.to_json()))
    args = ["--game", engine.game, "--deck", str(path)]
    options = dict(engine.sample_options)
    if options.get("card_values"):
        values = tmp_path / "values.json"
        values.write_text(json.dumps(options.pop("card_values")))
        args += ["--values", str(values)]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    return args


@pytest.mark.parametrize("slug", [e.game for e in engines()])
def test_every_game_measures_card_impact_and_tunes_from_the_command_line(slug, tmp_path):
    """Every game scores a game it does not win (Huntik's at round 8: its rules end a game after round 7)."""
    engine = get_engine(slug)
    args = _files(engine, tmp_path)
    measured = CliRunner().invoke(impact_command, [*args, "--budget", "150", "--seed", "2", "--json", "--allow-unknown"])
    assert measured.exit_code == 0, measured.output
    data = json.loads(measured.output)
    limit = engine.last_turn(engine.normalize_options(dict(engine.sample_options)))
    assert data["game"] == slug and data["cards"] and data["settings"]["score"].endswith(f"scores {limit + 1}")
    tuned = CliRunner().invoke(tune_command, [*args, "--budget", "150", "--seed", "2", "--json", "--allow-unknown"])
    assert tuned.exit_code == 0 or "not legal" in tuned.output or "no candidate" in tuned.output, tuned.output
    assert "no turn or round limit" not in tuned.output

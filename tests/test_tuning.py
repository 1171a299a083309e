"""Deck tuning: paired swaps on common seeds, successive halving, and honest verdicts."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckhub.commands.tune import tune as tune_command
from deckhub.core.decklist import Deck
from deckhub.core.legality import check_deck
from deckhub.core.tuning import MIN_GAMES, Swap, Tuner, TuningError, affordable, schedule, swapped, tune
from deckhub.games import all_games, get_game, load_catalogue
from deckhub.importers.decklists import read_decklist

DATA = Path(__file__).resolve().parents[1] / "data"
ROCKET_STORM = str(DATA / "kaijudo" / "decks" / "[3RIS]Rocket_Storm.o8d")
DARIGAN = str(DATA / "neopets-tcg" / "decks" / "darigan-theme-deck.txt")

# Dead against a dummy with no creatures (Kaijudo 12's Skirmisher attacks only creatures; the spells
# need an enemy creature to act on): Sunshock, Return to the Soil, Jade Monitor, Sun-Stalk Seed.
WEAK_SPOT = """\
3 Sunshock
3 Return to the Soil
3 Drakon Weaponsmith
3 Razorhide
3 Vorg
3 Stonesaur
3 Jade Monitor
3 Karate Carrot
2 Sun-Stalk Seed
2 Rumbling Terrasaur
2 Draglide the Swiftest
2 Keeper of Clouds
2 Bolshack Dragon
2 Meteosaur
2 Brave Giant
2 Splinterclaw Wasp
"""
DEAD = {"Sunshock", "Return to the Soil", "Jade Monitor", "Sun-Stalk Seed"}


@pytest.fixture(scope="module")
def kaijudo():
    spec = get_game("kaijudo")
    catalogue = load_catalogue("kaijudo")
    fmt = spec.format(None)

    def deck_of(text: str) -> Deck:
        parsed = read_decklist(text, spec, catalogue, games=all_games())
        assert not parsed.errors, parsed.errors
        return parsed.deck

    def legal(deck: Deck) -> bool:
        return check_deck(deck, spec, fmt, catalogue).legal
    return spec, catalogue, deck_of, legal


def key(catalogue, name: str) -> str:
    return catalogue.lookup(name)[0].key


def test_a_swap_puts_the_new_card_where_the_old_copy_stood(kaijudo):
    _spec, catalogue, deck_of, _legal = kaijudo
    deck = deck_of(WEAK_SPOT)
    out, into = key(catalogue, "Sunshock"), key(catalogue, "Halo Hawk")
    variant = swapped(deck, Swap("Deck", out, into))
    assert variant.count("Deck") == deck.count("Deck") == 40
    assert list(variant.sections["Deck"])[:2] == [out, into]
    assert variant.sections["Deck"][out] == 2 and variant.sections["Deck"][into] == 1
    assert deck.sections["Deck"][out] == 3  # the original is untouched


def test_successive_halving_keeps_halving_and_stays_within_the_budget():
    plan = schedule(100, 20_000)
    arms = [left for left, _ in plan]
    assert arms[0] == 100 and arms[-1] == 1
    assert all(b == -(-a // 2) for a, b in zip(arms, arms[1:]))
    games = [target for _, target in plan]
    assert games == sorted(games) and games[0] >= 8
    prev = [0] + games
    assert sum((t - p) * (left + 1) for (left, t), p in zip(plan, prev)) <= 20_000


@pytest.mark.parametrize("variants,budget", [(1, 100), (100, 20_000), (7_201, 20_000), (7_201, 60_000),
                                             (4_999, 20_000), (24, 100), (300, 1_000), (2, 1_000_000)])
def test_no_plan_spends_more_than_its_budget_and_each_round_halves(variants, budget):
    """A run of thousands of swaps once played 64,825 games on a 60,000 budget, the deck itself 21 of
    them: eight games for every variant ate the budget before the halving began."""
    variants = min(variants, affordable(budget))
    plan = schedule(variants, budget)
    prev = [0] + [target for _, target in plan]
    assert sum((t - p) * (left + 1) for (left, t), p in zip(plan, prev)) <= budget
    assert plan[0][0] == variants and plan[-1][0] == 1
    assert all(b == -(-a // 2) or a == b == 1 for (a, _), (b, _) in zip(plan, plan[1:]))
    if budget // (len(plan) * (variants + 1)) >= MIN_GAMES:
        assert plan[0][1] >= MIN_GAMES
    assert plan[-1][1] >= min(100, budget // (2 * len(plan)))  # the last swaps standing get real games


def test_thousands_of_swaps_at_the_default_budget_are_drawn_not_refused(kaijudo):
    spec, catalogue, deck_of, legal = kaijudo
    deck = deck_of(WEAK_SPOT)
    candidates = [c.key for c in catalogue][:600]
    everything = lambda d: True  # noqa: E731  (every swap legal: as many variants as can be)
    tuner = Tuner(spec.slug, deck, catalogue, candidates, everything, budget=2_000, seed=3)
    assert tuner.swaps_found > affordable(2_000) == len(tuner.arms) - 1
    assert tuner.total <= 2_000
    again = Tuner(spec.slug, deck, catalogue, candidates, everything, budget=2_000, seed=3)
    assert [a.swap for a in again.arms] == [a.swap for a in tuner.arms]  # the draw is the seed's
    with pytest.raises(TuningError, match="at least 100 games"):
        Tuner(spec.slug, deck, catalogue, candidates, everything, budget=50)


def test_tuning_finds_the_swap_that_removes_a_dead_card(kaijudo):
    spec, catalogue, deck_of, legal = kaijudo
    result = tune(spec.slug, deck_of(WEAK_SPOT), catalogue, [key(catalogue, "Halo Hawk")], legal,
                  budget=3000, seed=7)
    best = result.suggestions[0]
    assert best.out_name in DEAD and best.in_name == "Halo Hawk"
    assert best.better and best.ci[1] < 0 < -best.ci[0]  # the interval excludes zero
    assert best.delta < 0
    assert "best swap" in result.verdict
    assert result.games_played <= 3000


def test_a_deck_with_no_better_swap_among_its_candidates_is_told_so(kaijudo):
    spec, catalogue, deck_of, legal = kaijudo
    deck = read_decklist(Path(ROCKET_STORM).read_bytes(), spec, catalogue, ROCKET_STORM, games=all_games()).deck
    result = tune(spec.slug, deck, catalogue, [key(catalogue, "Sunshock")], legal, budget=2500, seed=3)
    assert not any(s.better for s in result.suggestions)
    assert result.verdict.startswith("no swap beats the noise")


def test_the_same_seed_gives_the_same_suggestions_on_one_and_two_workers(kaijudo):
    spec, catalogue, deck_of, legal = kaijudo
    cands = [key(catalogue, "Halo Hawk"), key(catalogue, "Toolbot")]
    one = tune(spec.slug, deck_of(WEAK_SPOT), catalogue, cands, legal, budget=800, seed=11, workers=1).to_json()
    two = tune(spec.slug, deck_of(WEAK_SPOT), catalogue, cands, legal, budget=800, seed=11, workers=2).to_json()
    assert one == two


def test_variants_stay_legal_and_the_budget_must_cover_them(kaijudo):
    spec, catalogue, deck_of, legal = kaijudo
    deck = deck_of(WEAK_SPOT)
    # a fourth Jade Monitor would break Kaijudo 4's three-copy limit: no variant adds one
    with pytest.raises(TuningError, match="keep it legal"):
        tune(spec.slug, deck, catalogue, [key(catalogue, "Jade Monitor")], legal, budget=400)
    result = tune(spec.slug, deck, catalogue, [key(catalogue, "Sun-Stalk Seed")], legal, budget=400)
    assert result.suggestions and all(s.in_name == "Sun-Stalk Seed" for s in result.suggestions)
    assert result.variants == len(deck.sections["Deck"]) - 1
    with pytest.raises(TuningError, match="budget of at least"):
        tune(spec.slug, deck, catalogue, [key(catalogue, "Halo Hawk")], legal, budget=20)
    illegal = deck_of("3 Sunshock\n")
    with pytest.raises(TuningError, match="not legal"):
        tune(spec.slug, illegal, catalogue, [key(catalogue, "Halo Hawk")], legal, budget=400)


def test_tune_command_prints_the_json_contract(tmp_path):
    deck = tmp_path / "weak.txt"
    deck.write_text(WEAK_SPOT)
    cands = tmp_path / "candidates.txt"
    cands.write_text("1 Halo Hawk\n")
    result = CliRunner().invoke(tune_command, ["--game", "kaijudo", "--deck", str(deck), "--candidates", str(cands),
                                               "--budget", "1500", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"game", "deck", "seed", "baseline", "suggestions", "games_played"} <= set(data)
    assert set(data["baseline"]) >= {"win_rate", "mean_turn"}
    s = data["suggestions"][0]
    assert {"out", "in", "mean_turn", "delta", "ci", "games"} <= set(s)
    assert s["ci"][0] <= s["delta"] <= s["ci"][1]
    assert data["game"] == "kaijudo" and data["seed"] == 5 and data["games_played"] <= 1500


def test_a_candidates_file_may_be_a_plain_list_of_names(tmp_path):
    deck = tmp_path / "weak.txt"
    deck.write_text(WEAK_SPOT)
    cands = tmp_path / "candidates.txt"
    cands.write_text("Halo Hawk\nBlaze Belcher\n")
    result = CliRunner().invoke(tune_command, ["--game", "kaijudo", "--deck", str(deck), "--candidates", str(cands),
                                               "--budget", "600", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {s["in"] for s in data["suggestions"]} <= {"Halo Hawk", "Blaze Belcher"}
    assert data["settings"]["candidate_cards"] == 2 and data["games_played"] <= 600


def test_tune_refuses_a_deck_built_on_unknown_values_unless_told(tmp_path):
    runner = CliRunner()
    result = runner.invoke(tune_command, ["--game", "neopets-tcg", "--deck", DARIGAN, "--budget", "100"])
    assert result.exit_code == 2
    assert "lack values the engine needs" in result.output
    assert "unknown:" in result.output
    result = runner.invoke(tune_command, ["--game", "kaijudo", "--deck", ROCKET_STORM, "--candidates",
                                          str(tmp_path / "missing.txt")])
    assert result.exit_code == 2

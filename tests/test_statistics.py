"""Simulation summaries (reproducible whatever the workers) and exact draw odds (checked against scipy)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from scipy.stats import hypergeom

from deckhub.commands.simulate import simulate as simulate_command
from deckhub.core.engine import get_engine
from deckhub.core.odds import DrawModel, at_least, group_predicate, odds_table
from deckhub.core.simulate import Summary, game_seed, loss_reason, simulate
from deckhub.games import get_game, load_catalogue

ROCKET_STORM = str(Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks" / "[3RIS]Rocket_Storm.o8d")


@pytest.mark.parametrize("population", [1, 7, 40, 50, 60])
def test_hypergeometric_odds_match_scipy_to_1e_12(population):
    for successes in range(0, population + 1, max(1, population // 7)):
        for draws in range(0, population + 1, max(1, population // 9)):
            for k in range(0, min(successes, draws) + 2):
                exact = float(at_least(k, population, successes, draws))
                expected = hypergeom(population, successes, draws).sf(k - 1) if k > 0 else 1.0
                assert abs(exact - expected) <= 1e-12, (population, successes, draws, k)


def test_cards_seen_by_turn_follow_each_games_draw_rules():
    kaijudo = DrawModel.from_extras(get_game("kaijudo").extras)
    assert [kaijudo.seen_by(t, first=True) for t in (1, 2, 3)] == [5, 6, 7]  # first player skips turn 1's draw
    assert [kaijudo.seen_by(t, first=False) for t in (1, 2, 3)] == [6, 7, 8]
    huntik = DrawModel.from_extras(get_game("huntik").extras)
    assert [huntik.seen_by(r, first=True) for r in (1, 2, 3)] == [5, 7, 9]  # two a round from round 2
    battledome = DrawModel.from_extras(get_game("neopets-battledome").extras, hand=6)
    assert battledome.seen_by(1, first=True) == 7  # Battledome draws every turn, the first included


def test_odds_table_for_a_group_of_cards_in_a_published_deck():
    catalogue = load_catalogue("kaijudo")
    _, deck = get_engine("kaijudo").decks()[0]
    model = DrawModel.from_extras(get_game("kaijudo").extras)
    table = odds_table(deck, catalogue, model, group_predicate("type", "Spell"), at_least_k=1, turns=range(1, 4))
    spells = sum(q for k, q in deck.sections["Deck"].items() if catalogue.get(k).type == "Spell")
    assert table["population"] == 40 and table["successes"] == spells
    assert table["rows"][0]["chance"] == pytest.approx(hypergeom(40, spells, 5).sf(0), abs=1e-12)
    chances = [row["chance"] for row in table["rows"]]
    assert chances == sorted(chances)  # more cards seen, never a lower chance


def test_simulation_is_reproducible_and_independent_of_workers():
    catalogue = load_catalogue("kaijudo")
    _, deck = get_engine("kaijudo").decks()[0]
    one = simulate("kaijudo", deck, catalogue, games=300, seed=9, workers=1).to_json()
    two = simulate("kaijudo", deck, catalogue, games=300, seed=9, workers=2).to_json()
    one.pop("games_per_second"), two.pop("games_per_second")
    assert one == two
    assert one["wins"] + sum(one["losses"].values()) == 300
    assert sum(one["win_turn"]["histogram"].values()) == one["wins"]
    assert one["win_turn"]["p10"] <= one["win_turn"]["median"] <= one["win_turn"]["p90"]
    other = simulate("kaijudo", deck, catalogue, games=300, seed=10).to_json()
    assert other["win_turn"]["histogram"] != one["win_turn"]["histogram"]


def test_seeds_and_loss_reasons():
    assert game_seed(1, 5) == game_seed(1, 5) != game_seed(2, 5)
    assert loss_reason("had to draw from an empty deck (Kaijudo 7)") == "deck-out"
    assert loss_reason("no win within the turn limit of 40 turns") == "turn limit"
    assert loss_reason("the mission was not completed by the end of round 7: the defending player wins") == "round limit"


def test_summary_statistics_by_hand():
    s = Summary("kaijudo", 6, 0, wins=5)
    s.win_turns.update({4: 1, 5: 2, 6: 1, 9: 1})
    s.losses["deck-out"] = 1
    data = s.to_json()
    assert data["win_turn"] == {"mean": 5.8, "median": 5.0, "p10": 4, "p90": 9, "histogram": {"4": 1, "5": 2, "6": 1, "9": 1}}
    assert data["win_rate"] == pytest.approx(5 / 6, abs=1e-6)


def test_simulate_command_prints_the_json_contract():
    result = CliRunner().invoke(simulate_command, ["--game", "kaijudo", "--deck", ROCKET_STORM, "--games", "120",
                                                   "--seed", "3", "--workers", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"game", "games", "seed", "wins", "win_rate", "losses", "win_turn", "games_per_second",
                         "by_turn_order", "mulligans", "card_impact_turn", "card_impact"}
    assert set(data["win_turn"]) == {"mean", "median", "p10", "p90", "histogram"}
    assert set(data["by_turn_order"]["first"]) == {"games", "wins", "win_turn"}
    assert set(data["by_turn_order"]["first"]["win_turn"]) == set(data["win_turn"])
    row = data["card_impact"][0]
    assert {"card", "games_opening_hand", "mean_turn_opening_hand", "games_drawn_by", "mean_turn_drawn_by",
            "games_never_drawn", "mean_turn_never_drawn", "games_played", "mean_turn_played"} <= set(row)
    again = json.loads(CliRunner().invoke(simulate_command, ["--game", "kaijudo", "--deck", ROCKET_STORM, "--games",
                                                             "120", "--seed", "3", "--json"]).output)
    data.pop("games_per_second"), again.pop("games_per_second")
    assert data == again


def test_observed_card_impact_and_turn_order_add_up_and_ignore_the_workers():
    """Every game counts once per card (drawn by the end or never) and once per side of the turn
    order, the opening hand is drawn by any turn, and the tallies do not depend on the split."""
    catalogue = load_catalogue("kaijudo")
    _, deck = get_engine("kaijudo").decks()[0]
    one = simulate("kaijudo", deck, catalogue, games=300, seed=4, options={"turn_order": "random"}, workers=1)
    two = simulate("kaijudo", deck, catalogue, games=300, seed=4, options={"turn_order": "random"}, workers=2)
    a, b = one.to_json(catalogue), two.to_json(catalogue)
    a.pop("games_per_second"), b.pop("games_per_second")
    assert a == b
    sides = a["by_turn_order"]
    assert set(sides) == {"first", "second"} and 100 < sides["first"]["games"] < 200
    assert sides["first"]["games"] + sides["second"]["games"] == 300
    assert sides["first"]["wins"] + sides["second"]["wins"] == a["wins"]
    assert {card.display_name for card in map(catalogue.get, deck.sections["Deck"])} == {r["card"] for r in a["card_impact"]}
    last = max(int(t) for t in a["win_turn"]["histogram"]) + 1
    for row in one.to_json(catalogue, drawn_by=last)["card_impact"]:
        assert row["games_drawn_by"] + row["games_never_drawn"] <= 300
        assert row["games_opening_hand"] <= row["games_drawn_by"]
        assert row["games_played"] <= 300
    for row in one.to_json(catalogue, drawn_by=0)["card_impact"]:
        assert row["games_drawn_by"] == row["games_opening_hand"]
    fixed = simulate("kaijudo", deck, catalogue, games=50, seed=4, options={"first": False}).to_json()
    assert set(fixed["by_turn_order"]) == {"second"}


def test_simulate_command_refuses_bad_input_with_exit_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("4 Not A Card At All\n")
    result = CliRunner().invoke(simulate_command, ["--game", "kaijudo", "--deck", str(bad)])
    assert result.exit_code == 2 and "line 1" in result.output.lower()
    result = CliRunner().invoke(simulate_command, ["--game", "chess", "--deck", ROCKET_STORM])
    assert result.exit_code == 2


def test_combined_condition_odds_agree_with_brute_force_enumeration():
    """Every hand of a 10-card deck enumerated: A = 3 Spells (one of them also group B), B = 4 cards."""
    from itertools import combinations
    from fractions import Fraction
    from deckhub.core.odds import both_at_least

    kinds = ["a"] * 2 + ["ab"] + ["b"] * 3 + ["-"] * 4
    for draws in range(0, 11):
        for need_a, need_b in [(1, 1), (2, 1), (1, 2), (2, 2), (3, 4), (0, 1)]:
            hands = list(combinations(range(10), draws))
            good = sum(1 for h in hands if sum("a" in kinds[i] for i in h) >= need_a
                       and sum("b" in kinds[i] for i in h) >= need_b)
            assert both_at_least(need_a, need_b, 10, 2, 3, 1, draws) == Fraction(good, len(hands)), (draws, need_a, need_b)


def test_combined_odds_table_of_a_published_deck_is_exact_and_matches_its_shuffles():
    from deckhub.core.odds import combined_odds_table

    catalogue = load_catalogue("kaijudo")
    _, deck = get_engine("kaijudo").decks()[0]
    model = DrawModel.from_extras(get_game("kaijudo").extras)
    spell, creature = group_predicate("type", "Spell"), group_predicate("type", "Creature")
    table = combined_odds_table(deck, catalogue, model, spell, 1, creature, 1, range(1, 4), shuffles=4000, seed=3)
    single = odds_table(deck, catalogue, model, spell, 1, range(1, 4))
    for row, alone in zip(table["rows"], single["rows"]):
        assert row["chance"] <= alone["chance"] + 1e-12  # "and" never beats one of its parts
        assert abs(row["simulated"] - row["chance"]) < 0.03

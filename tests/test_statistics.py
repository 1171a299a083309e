"""Simulation summaries (reproducible whatever the workers) and exact draw odds (checked against scipy)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from scipy.stats import hypergeom

from deckhub.commands.simulate import simulate as simulate_command
from deckhub.core.decklist import Deck
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
    assert set(data) == {"game", "games", "seed", "wins", "win_rate", "losses", "win_turn", "games_per_second"}
    assert set(data["win_turn"]) == {"mean", "median", "p10", "p90", "histogram"}
    again = json.loads(CliRunner().invoke(simulate_command, ["--game", "kaijudo", "--deck", ROCKET_STORM, "--games",
                                                             "120", "--seed", "3", "--json"]).output)
    data.pop("games_per_second"), again.pop("games_per_second")
    assert data == again


def test_simulate_command_refuses_bad_input_with_exit_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("4 Not A Card At All\n")
    result = CliRunner().invoke(simulate_command, ["--game", "kaijudo", "--deck", str(bad)])
    assert result.exit_code == 2 and "line 1" in result.output.lower()
    result = CliRunner().invoke(simulate_command, ["--game", "chess", "--deck", ROCKET_STORM])
    assert result.exit_code == 2

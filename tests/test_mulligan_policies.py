"""Mulligan policies where the rules offer one (Huntik, Battledome), turn order, and policies compared."""
from __future__ import annotations

import pytest

from deckhub.core.cards import Card
from deckhub.core.compare import compare
from deckhub.core.engine import get_engine
from deckhub.core.mulligan import MulliganPolicy
from deckhub.core.simulate import mulligan_offered, simulate
from deckhub.core.state import EngineError
from deckhub.games import all_games, load_catalogue

POLICIES = {"huntik": "fewer:2:type=minor hero", "neopets-battledome": "without:type=Codestone"}


def _card(**attrs) -> Card:
    kind = attrs.pop("type", None)
    return Card(key="x", game="g", name="X", type=kind, attrs=attrs)


def test_policies_read_their_groups():
    without = MulliganPolicy.parse("without:type=Creature&level<=2")
    assert without.redraw([_card(type="Creature", level=5), _card(type="Spell", level=1)])
    assert not without.redraw([_card(type="creature", level=2)])
    assert not without.redraw([_card(type="Creature", level=None), _card(type="Creature", level=1)])
    fewer = MulliganPolicy.parse("fewer:2:civilizations=Fire")
    assert fewer.redraw([_card(civilizations=["Fire", "Water"])])
    assert not fewer.redraw([_card(civilizations=["Fire"]), _card(civilizations=["fire"])])
    assert not MulliganPolicy.parse("keep").redraw([])
    for bad in ("", "sometimes", "fewer:0:type=X", "fewer:two:type=X", "without:level<=high", "without:=3", "keep:x"):
        with pytest.raises(EngineError):
            MulliganPolicy.parse(bad)


def test_only_games_whose_rules_offer_a_mulligan_take_a_policy():
    offered = {spec.slug for spec in all_games() if mulligan_offered(get_engine(spec.slug))}
    assert offered == set(POLICIES)
    _, deck = get_engine("kaijudo").decks()[0]
    with pytest.raises(EngineError, match="offer no mulligan"):
        simulate("kaijudo", deck, load_catalogue("kaijudo"), 5, 0, {"mulligan_policy": "keep"})


@pytest.mark.parametrize("game", sorted(POLICIES))
def test_a_policy_sends_hands_back_the_same_whatever_the_workers(game):
    engine = get_engine(game)
    _, deck = engine.decks()[0]
    catalogue = load_catalogue(game)
    options = {**engine.sample_options, "mulligan_policy": POLICIES[game]}
    one = simulate(game, deck, catalogue, 300, 6, options, workers=1).to_json(catalogue)
    two = simulate(game, deck, catalogue, 300, 6, options, workers=2).to_json(catalogue)
    one.pop("games_per_second"), two.pop("games_per_second")
    assert one == two and 0 < one["mulligans"] < 300
    kept = simulate(game, deck, catalogue, 300, 6, {**engine.sample_options, "mulligan_policy": "keep"}).to_json()
    assert kept["mulligans"] == 0 and sum(side["games"] for side in kept["by_turn_order"].values()) == 300


@pytest.mark.parametrize("game", sorted(POLICIES))
def test_two_mulligan_policies_compared_on_the_same_seeds(game):
    engine = get_engine(game)
    _, deck = engine.decks()[0]
    catalogue = load_catalogue(game)
    keep = {**engine.sample_options, "mulligan_policy": "keep"}
    args = dict(games=120, seed=2, options=keep, options_b={"mulligan_policy": POLICIES[game]})
    one = compare(game, deck, deck, catalogue, workers=1, **args)
    two = compare(game, deck, deck, catalogue, workers=2, **args)
    assert one == two and one["ci"][0] <= one["delta"] <= one["ci"][1]
    assert one["settings"]["options_b"]["mulligan_policy"] == POLICIES[game] and one["cards"] == []
    same = compare(game, deck, deck, catalogue, games=60, seed=2, options=keep, options_b={"mulligan_policy": "keep"})
    assert same["delta"] == 0 and same["ci"] == [0, 0]

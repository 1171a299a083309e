"""The ops the games share (deckhub/core/ops.py), on a made-up game of a few cards: the deal plan,
the turn's draw, the shuffle op and the deck search with its hooks. The four real engines' games
are held to what they did before by `benchmarks/engine_fingerprint.py`."""
from __future__ import annotations

import random

import pytest

from deckhub.core.cards import Card, Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import Engine
from deckhub.core.options import OptionSpec, turn_order_option
from deckhub.core.ops import shuffle
from deckhub.core.state import EngineError, State, ZoneSpec

CARDS = [Card(key, "pile-game", key.title(), type=kind) for key, kind in
         (("ant", "bug"), ("bee", "bug"), ("cat", "pet"), ("dog", "pet"), ("elk", "beast"))]
CAT = Catalogue("pile-game", CARDS)


class PileState(State):
    ZONES = (ZoneSpec("deck", "Deck", hidden=True), ZoneSpec("hand", "Hand"), ZoneSpec("shields", "Shields", hidden=True),
             ZoneSpec("stack", "Stack"), ZoneSpec("discard", "Discard pile"))
    PHASES = ("main",)
    FIRST_DRAW_SKIPPED = "the first player skips the draw on turn 1"

    def setup(self, deck, catalogue):
        cards = deck.expand("Deck", catalogue)
        self.shuffle_items(cards)
        self.new_instances(cards, ["stack" if c.type == "beast" else "deck" for c in cards])
        self.deal(2, "shields")
        self.deal(self.options["hand"])
        self.first = self.draw_turn_order()
        self.turn, self.phase = 1, "main"

    def rule_actions(self):
        return []

    def apply_rule(self, action):
        pass

    def end_phase(self, manual):
        pass

    def search_finds(self, filt, iid, dest):
        return self.cards[iid].type == filt


ENGINE = Engine("pile-game", PileState, policy=lambda s: {"kind": "concede"}, coverage=lambda c: {},
                options=(turn_order_option("a coin"), OptionSpec("hand", "int", 3)))


def game(seed=0, copies=2, **options):
    deck = Deck("pile-game")
    for card in CARDS:
        deck.add("Deck", card.key, copies)
    return PileState(ENGINE, deck, CAT, seed, ENGINE.normalize_options(options))


def test_the_deal_numbers_the_shuffled_cards_and_deals_from_the_top_without_drawing():
    state = game(seed=4)
    cards = Deck("pile-game", {"Deck": {c.key: 2 for c in CARDS}}).expand("Deck", CAT)
    shuffle(random.Random(4), cards)
    assert state.cards == cards  # ids are given after the shuffle, in its order
    assert state.zones["stack"] == [i for i, c in enumerate(cards) if c.type == "beast"]
    deck = [i for i, c in enumerate(cards) if c.type != "beast"]
    assert state.zones["shields"] == deck[::-1][:2]  # the top card first
    assert state.zones["hand"] == deck[::-1][2:5]
    assert state.zones["deck"] == deck[:-5]
    assert state.check_invariants() == [] and state.log == []  # dealing is not drawing: no log line


def test_a_deal_stops_when_the_deck_runs_out():
    state = game(copies=1, hand=0)  # 4 deck cards, 2 of them dealt as shields
    assert state.deal(0) == 0 and state.zones["hand"] == []
    assert state.deal(5) == 2 and state.zones["deck"] == [] and len(state.zones["hand"]) == 2
    assert state.deal(1) == 0 and state.check_invariants() == []


@pytest.mark.parametrize("first", [True, False])
def test_the_turn_draw_is_skipped_on_turn_1_only_by_the_player_going_first(first):
    state = game(first=first)
    hand = len(state.zones["hand"])
    state.push([("turn_draw",)])
    state.run()
    assert len(state.zones["hand"]) == hand + (not first)
    assert (state.log[-1][2] == PileState.FIRST_DRAW_SKIPPED) is first
    state.turn = 2
    state.push([("turn_draw",), ("phase", "main")])
    state.run()
    assert len(state.zones["hand"]) == hand + 1 + (not first)


def test_a_search_offers_each_card_once_puts_the_choice_and_shuffles_the_deck():
    state = game(seed=1, copies=3, hand=0)
    bugs = [i for i in state.zones["deck"] if state.cards[i].type == "bug"]
    state.push([("search", "bug", "hand", False)], source=None)
    state.run()
    choice = state.pending
    assert not choice.optional
    first_of_each = list({state.cards[i].key: i for i in reversed(bugs)}.values())[::-1]
    assert sorted(v for v, _ in choice.options) == sorted(first_of_each)  # copies are offered once
    assert [label for _, label in choice.options] == [state.cards[i].display_name for i, _ in choice.options]
    picked = choice.options[0][0]
    twin = state.clone()
    state.apply_action({"kind": "choose", "option": picked})
    assert state.where[picked] == "hand" and state.log[-1][2] == "shuffled the deck"
    rest = [i for i in twin.zones["deck"] if i != picked]
    shuffle(twin.rng, rest)
    assert state.zones["deck"] == rest and state.rng.getstate() == twin.rng.getstate()


def test_a_search_that_finds_nothing_still_shuffles_and_a_game_may_let_every_search_be_declined():
    state = game(seed=2, hand=0)
    state.push([("search", "dragon", "hand", False)])
    state.run()
    assert state.pending is None and state.log[-1][2] == "shuffled the deck"

    class Lenient(PileState):
        SEARCH_MAY_DECLINE = True

    lenient = Lenient(ENGINE, Deck("pile-game", {"Deck": {"ant": 2, "cat": 2}}), CAT, 2, ENGINE.normalize_options({"hand": 0}))
    lenient.push([("search", "pet", "hand", False)])
    lenient.run()
    assert lenient.pending.optional
    lenient.apply_action({"kind": "decline"})
    assert lenient.zones["hand"] == [] and lenient.log[-1][2] == "shuffled the deck"


def test_who_goes_first_is_chosen_or_drawn_from_the_seed():
    assert [game(first=value).first for value in ("first", "second", True, "false")] == [True, False, True, False]
    assert {game(first="first").first_drawn, game(first="second").first_drawn} == {False}
    drawn = [game(seed=seed).first for seed in range(40)]  # the default: drawn, as the rules draw it
    assert set(drawn) == {True, False}
    assert all(game(seed=seed).first_drawn for seed in range(3))
    assert [game(seed=seed).first for seed in range(40)] == drawn  # a replay of a seed draws the same
    view = game(seed=1, first="second").view()
    assert view["turn_order"] == "you go second" and game(seed=1).view()["turn_order"].endswith("(drawn at random)")
    with pytest.raises(EngineError, match="option 'first' must be one of random, first, second"):
        game(first="third")

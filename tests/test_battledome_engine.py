"""Neopets Battledome goldfish rules, each test citing its source: "Turn: <phase>" is Upper Deck's
article on a turn (`../shared/rules/neopets-battledome-turn.md`, the authority for the battle
arithmetic), "notes §n" the sourced notes (`../shared/rules/neopets-battledome-notes.md`).

The real catalogue knows almost no card values, so most positions use TEST FIXTURE cards (keys
"fx-..."), built here and never written into data/. Positions are set up with the engine's own
manual moves, then played with rules actions.
"""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deckhub.core.cards import Card, Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import EngineError, IllegalAction, new_game, play_out, replay
from deckhub.core.session_values import missing_values
from deckhub.games.neopets_battledome import dice
from deckhub.games.neopets_battledome.effects import compile_card, read_sentence
from deckhub.games.neopets_battledome.engine import ENGINE, SAMPLE_CARD_VALUES
from deckhub.games import load_catalogue

GAME = "neopets-battledome"
CAT = load_catalogue(GAME)


# --- test fixture cards (not real cards) -------------------------------------------------------
def fx(key: str, type_: str, text: str | None = None, **attrs) -> Card:
    return Card(key=f"fx-{key}", game=GAME, name=f"Fixture {key}", type=type_, text=text, attrs=attrs)


FIXTURES = [
    fx("kougra", "Neopet", species="Kougra", hp=6, attack=4, defence=1, agility=5),
    fx("kacheek", "Neopet", species="Kacheek", hp=8, attack=2, defence=4, agility=3),
    fx("gelert", "Neopet", species="Gelert", hp=10, attack=3, defence=2, agility=4),
    fx("fire-kougra", "Rainbow Pool Neopet", species="Kougra", hp=9, attack=6, defence=2, agility=6),
    fx("atk-stone", "Codestone", attack_bonus=1),
    fx("agi-stone", "Codestone", agility_bonus=1),
    fx("sword", "Equipment", level_requirement=1, attack_bonus=2),
    fx("helm", "Equipment", level_requirement=2, defence_bonus=1),
    fx("scorch", "Equipment", level_requirement=1, damage_reduction=2),
    fx("faerie", "Faerie", level_requirement=1, agility_bonus=1),
    fx("hero", "Hero", level_requirement=1, attack_bonus=1),
    fx("potion", "Potion", "Your Neopet gets +3 Attack this turn.", level_requirement=1),
    fx("legend", "Legend", level_requirement=3, draw=2),
    fx("snack", "Food", level_requirement=0, heal=2),
    fx("big-snack", "Food", level_requirement=4, attack_bonus=1),
    fx("brush", "Paint Brush", level_requirement=1),
    fx("petpet", "Petpet", level_requirement=1, attack=7, defence=3, agility=9),
    fx("mystery", "Equipment"),  # level requirement unknown
]
FX = Catalogue(GAME, [*CAT, *FIXTURES])


def fixture_deck(main: dict[str, int], pets=("kougra",), pool=()) -> Deck:
    return Deck(GAME, {"Main Deck": {f"fx-{k}": n for k, n in main.items()},
                       "Neopet Deck": {f"fx-{k}": 1 for k in pets},
                       "Rainbow Pool": {f"fx-{k}": 1 for k in pool}})


FILLER = {"atk-stone": 20, "agi-stone": 5, "sword": 2, "helm": 2, "scorch": 2, "faerie": 1, "hero": 1, "potion": 2,
          "legend": 2, "snack": 4, "big-snack": 2, "brush": 2, "petpet": 1, "mystery": 2}


def game(main=None, pets=("kougra",), pool=(), seed=1, **options):
    options.setdefault("opening_hand", 0)
    options.setdefault("first", "first")  # the tests' positions are those of the player going first
    return new_game(GAME, fixture_deck(main or FILLER, pets, pool), FX, seed, options)


def step(state, kind: str, **fields) -> None:
    state.apply_action({"kind": kind, **fields})


def put(state, key: str, zone: str = "inventory") -> int:
    """Move one copy of fixture `key` into `zone` with a manual move (never one placed before)."""
    placed = state.__dict__.setdefault("_placed_by_test", set())
    for iid, card in enumerate(state.cards):
        if card.key == f"fx-{key}" and state.where[iid] != zone and iid not in placed:
            step(state, "manual.move", card=iid, to=zone)
            placed.add(iid)
            return iid
    raise AssertionError(f"no spare {key}")


def refused(state, action: dict) -> str:
    with pytest.raises(IllegalAction) as info:
        state.apply_action(action)
    return str(info.value)


def answer_rerolls(state) -> None:
    while state.pending is not None and state.pending.op[0] == "reroll":
        step(state, "choose", option="done")


def to_battle(state) -> None:
    while state.phase in ("train", "prep"):
        step(state, "next")


def answer_battle(state) -> None:
    """Keep the dice, take the damage; a choice of the next Neopet is left to the test."""
    while state.pending is not None and state.pending.op[0] in ("reroll", "cash_in"):
        if state.pending.op[0] == "reroll":
            step(state, "choose", option="done")
        else:
            step(state, "decline")


def play_turn(state) -> None:
    """Finish your turn: field the first Neopet offered if asked, skip Train and Prep, attack, keep
    the dice; on the dummy's turn, let it attack."""
    if state.pending is not None and state.pending.op == ("field",):
        step(state, "choose", option=state.pending.options[0][0])
    to_battle(state)
    step(state, "attack")
    answer_battle(state)
    while state.phase == "dummy" and state.outcome is None and state.pending is None:
        step(state, "next")
        answer_battle(state)


# --- the dice, pure (Turn: Battle) ------------------------------------------------------------
def test_the_articles_damage_example():
    """Turn: Battle, Calculate Damage: 6,4,4,3,1 against 5,3,2,2 is 1 critical + 2 successes - 1 block = 2."""
    result = dice.resolve([6, 4, 4, 3, 1], [5, 3, 2, 2])
    assert (result.criticals, result.successes, result.blocks, result.damage) == (1, 2, 1, 2)
    assert result.explain() == "1 critical + 2 successes - 1 block = 2 damage"


def test_the_articles_agility_example():
    """Turn: Battle, Compare Agility: Shoyru (Agility 7) attacking Acara (5) may reroll up to 2 dice."""
    assert dice.rerolls(7, 5) == ("attacker", 2)
    assert dice.rerolls(5, 7) == ("defender", 2)
    assert dice.rerolls(6, 6) == (None, 0)  # equal Agility: no one rerolls


def test_faces_pools_and_criticals():
    """Turn: Battle: 1-3 fail, 4-5 succeed, 6 critical; defence 4-6 blocks; at most 10 dice."""
    assert dice.count_attack([1, 2, 3, 4, 5, 6]) == (1, 2)
    assert dice.count_blocks([1, 2, 3, 4, 5, 6]) == 3
    assert dice.resolve([6, 6], [6, 6, 6, 6]).damage == 2  # a 6 is not blocked, even by a 6
    assert dice.resolve([5, 4], [6]).damage == 1
    assert dice.resolve([5], [4, 4, 4]).damage == 0  # spare blocks cancel nothing more
    assert dice.dice_pool(14) == 10 and dice.dice_pool(10) == 10 and dice.dice_pool(-2) == 0
    with pytest.raises(ValueError):
        dice.resolve([7], [])


def test_a_reroll_keeps_the_new_results_and_only_those_dice():
    rng = random.Random(5)
    before = [1, 2, 3, 4, 5]
    after = dice.reroll(rng, before, [0, 2])
    again = dice.reroll(random.Random(5), before, [2, 0, 0])  # each die once, order irrelevant
    assert after == again
    assert after[1] == 2 and after[3:] == [4, 5]
    with pytest.raises(ValueError):
        dice.reroll(rng, before, [9])


def test_greedy_rerolls_never_pick_a_die_that_can_only_lose():
    assert dice.greedy_rerolls("attacker", [1, 6, 5, 2], [1], 5) == [0, 3]
    # every success blocked anyway: rerolling them can only gain (a 6 lands)
    assert dice.greedy_rerolls("attacker", [5, 4], [6, 6, 5], 2) == [0, 1]
    assert dice.greedy_rerolls("defender", [1, 5, 2], [4, 4, 4], 1) == [0]
    assert dice.greedy_rerolls("defender", [1, 5], [1, 2], 2) == []  # nothing gets through


dice_lists = st.lists(st.integers(1, 6), max_size=10)


@settings(max_examples=300, deadline=None)
@given(dice_lists, dice_lists)
def test_damage_properties(attack, defence):
    """Damage is never negative, never more than the attack dice, and criticals always land."""
    result = dice.resolve(attack, defence)
    assert 0 <= result.damage <= len(attack)
    assert result.damage >= attack.count(6) == result.criticals
    assert result.damage == result.criticals + max(0, result.successes - result.blocks)
    more_defence = dice.resolve(attack, [*defence, 4])
    assert more_defence.damage >= result.criticals and more_defence.damage <= result.damage


@settings(max_examples=100, deadline=None)
@given(st.integers(-5, 30), st.integers(0, 20), st.integers(0, 20), st.integers(0, 2**31))
def test_rerolls_never_exceed_the_difference_or_the_pool(value, a_ag, d_ag, seed):
    n = dice.dice_pool(value)
    assert 0 <= n <= dice.MAX_DICE
    rng = random.Random(seed)
    own = dice.roll(rng, n)
    who, diff = dice.rerolls(a_ag, d_ag)
    assert diff == abs(a_ag - d_ag) and (who is None) == (a_ag == d_ag)
    picks = dice.greedy_rerolls("attacker", own, dice.roll(rng, 3), diff)
    assert len(picks) <= min(diff, n) and len(set(picks)) == len(picks)


# --- setup and the turn (notes §3; Turn: Draw) ---------------------------------------------------
def test_setup_sets_decks_aside_and_asks_for_the_first_neopet():
    state = game(pets=("kougra", "kacheek", "gelert"), pool=("fire-kougra",), opening_hand=5)
    assert state.pending is not None and state.pending.op == ("field",)
    assert len(state.zones["inventory"]) == 5 and len(state.zones["deck"]) == sum(FILLER.values()) - 5
    assert [state.cards[i].key for i in state.zones["rainbow_pool"]] == ["fx-fire-kougra"]
    kacheek = next(v for v, _ in state.pending.options if state.cards[v].key == "fx-kacheek")
    step(state, "choose", option=kacheek)
    assert state.active() == kacheek and state.turn == 1 and state.phase == "train"
    assert len(state.zones["inventory"]) == 6  # Turn: Draw: every turn, the first included


def test_opening_inventory_size_is_an_option_and_mulligan_is_offered_once():
    """notes §3.5-3.6: neither is in a readable source, so both are options with a shown default."""
    assert ENGINE.option("opening_hand").default == 5 and ENGINE.option("mulligan").default is False
    state = game(opening_hand=7, mulligan=True)
    assert state.pending.op == ("mulligan",)
    before = sorted(state.zones["inventory"])
    step(state, "choose", option="mulligan")
    assert len(state.zones["inventory"]) == 8 and state.mulliganed  # 7 new ones, then the turn's draw
    assert len(before) == 7 and state.phase == "train"
    assert "not_found" in state.view()["battledome"] and "opening_hand" in state.view()["battledome"]["not_found"]


# --- Train (Turn: Train) -------------------------------------------------------------------------
def test_one_codestone_per_turn_level_and_its_bonus():
    state = game()
    a, b = put(state, "atk-stone"), put(state, "agi-stone")
    step(state, "train", card=a)
    assert state.level() == 1 and state.stat("attack") == 5 and state.phase == "prep"  # the phase ends with it
    assert "once each turn" in refused(state, {"kind": "train", "card": b})
    play_turn(state)
    step(state, "train", card=b)
    assert state.level() == 2 and state.stat("agility") == 6


def test_at_most_five_codestones():
    state = game()
    for _ in range(5):
        put(state, "atk-stone", "codestones")
    assert state.level() == 5 and state.stat("attack") == 9
    stone = put(state, "atk-stone")
    assert "5 Codestones" in refused(state, {"kind": "train", "card": stone})
    assert {"kind": "train", "card": stone} not in state.legal_actions()


# --- Prep (Turn: Prep) ---------------------------------------------------------------------------
def test_one_prep_card_within_the_level_and_food_is_exempt():
    state = game()
    stone, sword, helm, faerie = put(state, "atk-stone"), put(state, "sword"), put(state, "helm"), put(state, "faerie")
    snacks = [put(state, "snack") for _ in range(3)]
    step(state, "manual.counter", counter="damage", delta=4)
    step(state, "play", card=snacks[0])  # Food at any time: in the Train phase too
    step(state, "train", card=stone)
    assert "needs level 2" in refused(state, {"kind": "play", "card": helm})
    step(state, "play", card=snacks[1])
    step(state, "play", card=sword)
    assert state.phase == "battle" and state.where[sword] == "equipment" and state.stat("attack") == 7
    assert "one card" in refused(state, {"kind": "play", "card": faerie})
    step(state, "play", card=snacks[2])  # Food does not count as the card played
    assert all(state.where[s] == "void" for s in snacks)  # Food goes to the Void (notes §8b)
    assert state.counters["damage"] == 0  # healed 2 + 2 + 2 from 4, never below 0


def test_food_keeps_its_level_requirement():
    """notes §4 Prep: level requirements still apply to Food [INFERRED]."""
    state = game()
    big = put(state, "big-snack")
    assert "needs level 4" in refused(state, {"kind": "play", "card": big})


def test_equipment_slots_and_the_shared_faerie_slot():
    """notes §2b: up to 3 Equipment (an option); Faeries, Heroes and Villains share one slot."""
    state = game()
    for _ in range(3):
        put(state, "atk-stone", "codestones")
    for key in ("sword", "sword", "helm"):
        put(state, key, "equipment")
    scorch, faerie, hero = put(state, "scorch"), put(state, "faerie"), put(state, "hero")
    step(state, "next")  # to the Prep phase
    assert "Equipment slots are full" in refused(state, {"kind": "play", "card": scorch})
    step(state, "play", card=faerie)
    play_turn(state)
    step(state, "next")
    assert "Faerie slot" in refused(state, {"kind": "play", "card": hero})

    replacing = game(full_slot="replace")
    for _ in range(3):
        put(replacing, "atk-stone", "codestones")
    first = put(replacing, "faerie", "faerie")
    hero = put(replacing, "hero")
    step(replacing, "next")
    step(replacing, "play", card=hero)
    assert replacing.where[first] == "void" and replacing.where[hero] == "faerie"


def test_potions_count_this_turn_only_and_legends_draw():
    state = game()
    for _ in range(3):
        put(state, "atk-stone", "codestones")
    potion = put(state, "potion")  # its bonus comes from its text: "+3 Attack this turn"
    step(state, "next")
    step(state, "play", card=potion)
    assert state.where[potion] == "discard" and state.stat("attack") == 4 + 3 + 3
    play_turn(state)
    assert state.stat("attack") == 7
    legend = put(state, "legend")
    hand = len(state.zones["inventory"])
    step(state, "next")
    step(state, "play", card=legend)
    assert len(state.zones["inventory"]) == hand - 1 + 2


def test_painting_covers_the_base_and_keeps_codestones_and_damage():
    state = game(pool=("fire-kougra",))
    put(state, "atk-stone", "codestones")
    step(state, "manual.counter", counter="damage", delta=2)
    brush = put(state, "brush")
    step(state, "next")
    step(state, "play", card=brush)
    assert state.pending.op[0] == "paint"
    step(state, "choose", option=state.pending.options[0][0])
    assert state.cards[state.active()].key == "fx-fire-kougra"
    assert state.stat("attack") == 7 and state.level() == 1 and state.counters["damage"] == 2


def test_a_petpet_lends_each_stat_once_a_round():
    state = game()
    put(state, "atk-stone", "codestones")
    pet = put(state, "petpet")
    step(state, "next")
    step(state, "play", card=pet)
    step(state, "borrow", stat="attack")
    assert state.stat("attack") == 7 + 1
    assert "already taken" in refused(state, {"kind": "borrow", "stat": "attack"})
    step(state, "attack")
    answer_rerolls(state)
    assert state.stat("attack") == 5  # for that battle only


# --- Battle (Turn: Battle) -------------------------------------------------------------------------
def test_dice_pools_are_capped_at_ten():
    state = game(dummy_defence=15, dummy_agility=5)
    step(state, "manual.counter", counter="attack_mod", delta=9)  # 4 + 9 = 13 Attack
    to_battle(state)
    step(state, "attack")
    battle = state.last_battle
    assert len(battle["rolled"]["attack"]) == 10 and len(battle["rolled"]["defence"]) == 10


def test_the_higher_agility_rerolls_up_to_the_difference_and_keeps_the_results():
    state = game(dummy_agility=2, seed=4)  # Kougra's Agility 5 against 2: up to 3 dice
    to_battle(state)
    step(state, "attack")
    assert state.pending.op == ("reroll",) and "up to 3" in state.pending.prompt
    rolled = list(state.fight["attack"])
    now = json.loads(json.dumps(state.view()))["battledome"]["battle_now"]  # the dice to choose from
    assert now["attack"] == rolled and now["reroll_limit"] == 3 and now["reroller"] == "you"
    for index in (0, 1, 2):
        step(state, "choose", option=index)  # the third mark rolls them
    battle = state.last_battle
    assert battle["rerolled"] == [0, 1, 2] and battle["final"]["attack"][3:] == rolled[3:]
    assert battle["damage"] == dice.damage(battle["final"]["attack"], battle["final"]["defence"])


def test_the_dummy_rerolls_failed_blocks_when_faster_and_equal_agility_rerolls_nothing():
    for seed in range(12):
        state = game(dummy_agility=9, dummy_defence=6, seed=seed)
        to_battle(state)
        step(state, "attack")
        b = state.last_battle
        assert b["reroller"] == "dummy" and b["reroll_limit"] == 4 and len(b["rerolled"]) <= 4
        assert all(b["rolled"]["defence"][i] <= 3 for i in b["rerolled"])
        still = [i for i in range(len(b["final"]["defence"])) if i not in b["rerolled"]]
        assert all(b["final"]["defence"][i] == b["rolled"]["defence"][i] for i in still)
    same = game(dummy_agility=5)
    to_battle(same)
    step(same, "attack")
    assert same.pending is None and same.last_battle["reroller"] is None


def test_criticals_always_land_and_damage_follows_the_article():
    for seed in range(25):
        state = game(dummy_defence=10, dummy_agility=5, dummy_hp=50, seed=seed)
        to_battle(state)
        step(state, "attack")
        b = state.last_battle
        assert b["damage"] >= b["final"]["attack"].count(6) == b["criticals"]
        assert b["damage"] == b["criticals"] + max(0, b["successes"] - b["blocks"])
        assert state.counters["dummy_damage"] == b["damage"]


def test_battle_is_not_skipped_and_attack_only_in_battle():
    state = game()
    assert "legal only in the battle phase (Turn: Battle)" in refused(state, {"kind": "attack"})
    to_battle(state)
    assert {"kind": "next"} not in state.legal_actions(manual=False)
    assert "not skipped" in refused(state, {"kind": "next"})


# --- knock-out, rounds, the match (Turn: End of Round) ---------------------------------------------
def test_knock_out_ends_the_round_and_the_next_neopet_comes_in():
    state = game(pets=("kougra", "kacheek", "gelert"), dummy_hp=3, dummy_defence=0, seed=2, opening_hand=3)
    step(state, "choose", option=next(v for v, _ in state.pending.options if state.cards[v].key == "fx-kougra"))
    kougra = state.active()
    stone = put(state, "atk-stone", "codestones")
    sword = put(state, "sword", "equipment")
    faerie = put(state, "faerie", "faerie")
    hand = set(state.zones["inventory"])
    step(state, "manual.counter", counter="dummy_damage", delta=2)
    while state.counters["rounds_won"] == 0:
        turn = state.turn
        play_turn(state)
    assert state.where[kougra] == "round_results" and kougra not in state.face_down  # the winner's face up
    assert state.where[stone] == "round_results"  # Codestones are part of the Neopet (notes §8b)
    assert state.where[sword] == "discard" and state.where[faerie] == "void"
    assert hand <= set(state.zones["inventory"])  # inventories are kept
    assert state.counters["dummy_damage"] == 0 and state.round == 2
    assert state.pending.op == ("field",) and len(state.pending.options) == 2
    step(state, "choose", option=state.pending.options[0][0])
    # the next player in turn order goes on: the (passive) dummy, then your next turn
    assert state.turn == turn + 1 and state.phase == "train" and state.counters["rounds_won"] == 1


def test_two_round_wins_win_the_match_on_the_turn_reported():
    state = game(pets=("kougra", "gelert"), dummy_hp=2, dummy_defence=0)
    while state.outcome is None:
        play_turn(state)
    assert state.outcome.result == "win" and state.counters["rounds_won"] == 2
    assert state.outcome.turn == state.turn and "Champion" in state.outcome.reason
    assert len(state.zones["round_results"]) == 2


def test_the_dummy_can_attack_back_and_knock_you_out():
    state = game(pets=("kougra", "gelert", "kacheek"), dummy_attacks=True, dummy_attack=10, dummy_hp=40, seed=3)
    step(state, "choose", option=next(v for v, _ in state.pending.options if state.cards[v].key == "fx-kougra"))
    kougra = state.active()
    while state.counters["dummy_rounds_won"] == 0:
        play_turn(state)
    assert state.where[kougra] == "round_results" and kougra in state.face_down  # the loser's face down
    assert state.view()["zones"]["round_results"]["cards"][0]["face_down"] is True


def test_cashing_in_a_damage_reduction_card():
    """Turn: Battle: Red Scorchstone's pattern, cashed in on the opponent's turn for less damage."""
    state = game(dummy_attacks=True, dummy_attack=10, dummy_hp=40, dummy_agility=0, seed=1)
    scorch = put(state, "scorch", "equipment")
    step(state, "manual.counter", counter="defence_mod", delta=-1)  # no defence dice: every hit lands
    to_battle(state)
    step(state, "attack")
    answer_rerolls(state)
    assert state.phase == "dummy"
    step(state, "next")
    answer_rerolls(state)
    assert state.pending is not None and state.pending.op == ("cash_in",)
    hits = state.fight["pending_damage"]
    step(state, "choose", option=scorch)
    assert state.where[scorch] == "discard" and state.counters["damage"] == max(0, hits - 2)


def test_going_second_starts_with_the_dummys_turn():
    state = game(first=False, dummy_attacks=True)
    assert state.turn == 0 and state.phase == "dummy"
    step(state, "next")
    answer_rerolls(state)
    assert state.turn == 1 and state.phase == "train"


@pytest.mark.parametrize("mode, check", [
    ("skip", lambda s: s.outcome is None and s.counters["damage"] == 0),
    ("damage", lambda s: s.counters["damage"] == 1),
    ("lose_match", lambda s: s.outcome is not None and s.outcome.result == "loss"),
])
def test_drawing_from_an_empty_deck_is_an_option(mode, check):
    """notes §7: no deck-out rule was found; the option says what happens (default: skip)."""
    state = game(main={"atk-stone": 1}, deck_out=mode, dummy_hp=40, dummy_defence=10)
    play_turn(state)
    assert check(state)


# --- card values (unknown facts: the player supplies them, the engine never guesses) ---------------
def test_unknown_values_are_listed_and_session_values_make_cards_playable():
    deck = Deck(GAME, {"Main Deck": {"mau": 40, "potato": 2, "hubert": 1},
                       "Neopet Deck": {"acara": 1, "fire-uni": 1}})
    assert missing_values(ENGINE, deck, CAT) == {"potato": ["level_requirement"], "hubert": ["type"],
                                                 "fire-uni": ["hp", "attack", "defence", "agility"]}
    state = new_game(GAME, deck, CAT, 1, {"opening_hand": 0})
    step(state, "choose", option=next(v for v, _ in state.pending.options if state.cards[v].key == "acara"))
    potato = next(i for i, c in enumerate(state.cards) if c.key == "potato")
    step(state, "manual.move", card=potato, to="inventory")
    assert "level requirement is unknown" in refused(state, {"kind": "play", "card": potato})
    assert state.card_view(potato)["unknown"] == ["level_requirement"]

    values = {"potato": {"level_requirement": 0, "heal": 1}, "fire-uni": {"hp": 9, "attack": 4, "defence": 2, "agility": 4}}
    known = new_game(GAME, deck, CAT, 1, {"opening_hand": 0, "card_values": json.dumps(values)})
    potato = next(i for i, c in enumerate(known.cards) if c.key == "potato")
    step(known, "choose", option=known.pending.options[0][0])
    step(known, "manual.move", card=potato, to="inventory")
    step(known, "play", card=potato)
    assert known.card_view(potato)["session_values"] == ["heal", "level_requirement"]
    assert CAT.get("potato").attrs.get("level_requirement") is None  # nothing written back


def test_a_neopet_with_unknown_stats_cannot_attack_but_the_game_goes_on():
    deck = Deck(GAME, {"Main Deck": {"mau": 10}, "Neopet Deck": {"fire-uni": 1}})
    state = new_game(GAME, deck, CAT, 1, {"opening_hand": 0})
    to_battle(state)
    assert "unknown" in refused(state, {"kind": "attack"})
    step(state, "next")
    assert state.turn == 2
    assert play_out(state).outcome.result == "loss"


def test_a_real_neopet_as_the_dummy():
    deck = fixture_deck(FILLER)
    state = new_game(GAME, deck, FX, 1, {"dummy_neopet": "Acara"})
    assert state.dummy["hp"] == 8 and state.dummy["defence"] == 2 and state.dummy["agility"] == 6
    with pytest.raises(EngineError, match="card_values"):
        new_game(GAME, deck, FX, 1, {"dummy_neopet": "fire-uni"})
    with pytest.raises(EngineError, match="not a Neopet"):
        new_game(GAME, deck, FX, 1, {"dummy_neopet": "mau"})
    ok = new_game(GAME, deck, FX, 1, {"dummy_neopet": "fire-uni", "card_values": {"fire-uni": {"hp": 9, "defence": 3, "agility": 4}}})
    assert ok.dummy["name"] == "Fire Uni" and ok.dummy["hp"] == 9


def test_text_patterns_and_compiled_values():
    assert read_sentence("+1 Attack and +1 Defence.") == [("bonus", ("attack", 1)), ("bonus", ("defence", 1))]
    assert read_sentence("Heal 2 damage from your Neopet.") == [("heal", 2)]
    assert read_sentence("Reduce the damage your Neopet would take by 2.") == [("ward", 2)]  # every hit (issue 17)
    assert read_sentence("Reduce the next damage your Neopet would take by 2.") == [("shield", 2)]  # once (issue 31)
    assert read_sentence("Draw two cards.") == [("draw", 2)]
    assert read_sentence("Search your deck for a Codestone.") is None
    mau = compile_card(CAT.get("mau"))
    assert mau.bonus == (("attack", 1),) and mau.automation == "full"
    assert compile_card(CAT.get("potato")).automation == "none"


def test_coverage_reports_the_catalogue_honestly():
    report = ENGINE.coverage(CAT)
    # 54 cards (the shared facts and the public rulings pages); only Acara (stats) and Mau (bonus)
    # are known well enough to automate: the rulings pages give names, a few types, one level
    assert report["cards"] == 54 and report["full"] == 2
    assert report["full"] + report["partial"] + report["none"] == 54
    assert report["missing_values"]["fields"]["level_requirement"] >= 17


# --- the engine's own contract ---------------------------------------------------------------------
def test_sample_decks_play_with_fixture_values_and_the_policy_wins():
    catalogue = load_catalogue(GAME)
    results = []
    for name, deck in ENGINE.decks():
        for seed in range(10):
            state = play_out(new_game(GAME, deck, catalogue, seed, dict(ENGINE.sample_options)))
            results.append(state.outcome.result)  # (replaying them: tests/test_engine_invariants.py)
    assert results.count("win") == len(results)
    assert all(set(v) <= {f.name for f in ENGINE.state_class.VALUE_FIELDS} for v in SAMPLE_CARD_VALUES.values())


def test_the_view_shows_the_neopet_the_dummy_and_the_last_dice():
    state = game()
    to_battle(state)
    step(state, "attack")
    answer_rerolls(state)
    view = json.loads(json.dumps(state.view()))
    bd = view["battledome"]
    assert bd["you"]["neopet"]["name"] == "Fixture kougra" and bd["you"]["hp"] == 6
    assert bd["dummy"]["hp"] == 8 and bd["dummy"]["defence"] == 2 and bd["dummy"]["attacks"] is False
    assert bd["last_battle"]["final"]["attack"] and bd["rounds_to_win"] == 2


def test_goldfish_command_line(tmp_path):
    from deckhub.commands.goldfish import goldfish

    path = tmp_path / "deck.txt"
    path.write_text("Main Deck\n44 Mau\n2 Potato\n2 Regulation Meridellian Lance\n2 Neovian Strength Potion\n\n"
                    "Neopet Deck\n1 Acara\n1 Starry Acara\n")
    values = json.dumps({"starry-acara": {"hp": 9, "attack": 4, "defence": 3, "agility": 7},
                         "potato": {"level_requirement": 0, "heal": 1},
                         "regulation-meridellian-lance": {"level_requirement": 1, "attack_bonus": 1},
                         "neovian-strength-potion": {"level_requirement": 2, "attack_bonus": 2}})
    runner = CliRunner()
    args = ["--game", GAME, "--deck", str(path), "--seed", "4", "--dummy-hp", "6", "--dummy-defence", "1",
            "--dummy-agility", "3", "--option", f"card_values={values}", "--json"]
    first = runner.invoke(goldfish, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert data["result"] == "win" and data["turn"] >= 1
    assert runner.invoke(goldfish, args).output == first.output
    bad = runner.invoke(goldfish, ["--game", GAME, "--deck", str(path), "--option", "dummy_neopet=mau"])
    assert bad.exit_code == 2 and "not a Neopet" in bad.output


def test_every_option_plays_to_an_end_with_random_and_manual_moves():
    """The NOT FOUND options and the dummy's options in random combinations: random games (some
    manual moves among them) keep every card in one zone and end within the turn limit."""
    rng = random.Random(11)
    for seed in range(24):
        options = {"dummy_attacks": rng.random() < 0.5, "first": rng.random() < 0.5, "mulligan": rng.random() < 0.3,
                   "deck_out": rng.choice(["skip", "damage", "lose_round", "lose_match"]),
                   "full_slot": rng.choice(["blocked", "replace"]), "painting": rng.choice(["same_species", "manual"]),
                   "equipment_slots": rng.randint(1, 4), "opening_hand": rng.randint(0, 8), "turn_limit": 25,
                   "dummy_hp": rng.randint(1, 12), "dummy_attack": rng.randint(0, 12),
                   "dummy_defence": rng.randint(0, 12), "dummy_agility": rng.randint(0, 9)}
        main = {"atk-stone": 6, "agi-stone": 2, "sword": 2, "scorch": 2, "faerie": 1, "hero": 1, "potion": 1,
                "legend": 1, "snack": 2, "brush": 2, "petpet": 1, "mystery": 1} if seed % 2 else FILLER
        state = game(main=main, pets=("kougra", "kacheek", "gelert"), pool=("fire-kougra",), seed=seed, **options)
        n = len(state.cards)
        while state.outcome is None:
            assert state.check_invariants() == [] and len(state.where) == n
            rules = state.legal_actions(manual=False)
            action = rng.choice(rules) if rules and rng.random() < 0.93 else rng.choice(state.legal_actions())
            state.apply_action(action)
            assert len(state.actions) < 3000
        assert state.outcome.turn <= 25
        again = replay(GAME, fixture_deck(main, ("kougra", "kacheek", "gelert"), ("fire-kougra",)), FX, seed,
                       options, state.actions)
        assert again.view() == state.view()

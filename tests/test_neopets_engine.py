"""Neopets TCG goldfish rules, each test citing the part of the Battle for Meridell rulebook it checks
(`../shared/rules/neopets-tcg-rulebook.md`), the contest arithmetic with the rulebook's two worked
examples, session card values, card-text patterns, the theme decks, the command line and coverage.

TEST FIXTURES: the catalogue knows almost no stats, types or bank values, so most tests use made-up
cards (keys starting "fx-") and made-up session values (FIXTURE_*). They are invented for these tests,
are not card facts, and are never written to data/. Positions are set up with the engine's own
manual moves, then played with rules actions.
"""
from __future__ import annotations

import json
import random

import pytest

from deckhub.core.cards import Card, Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.effects import AUTO, NO_EFFECT
from deckhub.core.engine import IllegalAction, get_engine, new_game, play_out, replay
from deckhub.core.session_values import apply_card_values, missing_values
from deckhub.games.neopets_tcg.contest import Side, contest_total, decide, resolve
from deckhub.games.neopets_tcg.effects import compile_card
from deckhub.games import load_catalogue

GAME = "neopets-tcg"
CAT = load_catalogue(GAME)
ENGINE = get_engine(GAME)


# --- TEST FIXTURES: invented cards, not real Neopets TCG cards ---------------------------------------
def _fx(key, type_, text=None, **attrs):
    return Card(key=key, game=GAME, name="Fixture " + key[3:].replace("-", " ").title(), type=type_, text=text, attrs=attrs)


FIXTURE_CARDS = [
    _fx("fx-red-blorb", "Basic Neopet", species="Blorb", faerie="Fire", strength=5, agility=4, magic=3, intelligence=2),
    _fx("fx-blue-blorb", "Basic Neopet", species="Blorb", faerie="Water", strength=4, agility=5, magic=3, intelligence=2),
    _fx("fx-green-glim", "Basic Neopet", species="Glim", faerie="Earth", strength=3, agility=3, magic=6, intelligence=6),
    _fx("fx-mystery-pet", "Basic Neopet", species="Glim"),  # stats unknown
    _fx("fx-blorb-knight", "Experienced Neopet", species="Blorb", strength=8, agility=6, magic=5, intelligence=4),
    _fx("fx-glim-sage", "Experienced Neopet", species="Glim", strength=2, agility=2, magic=9, intelligence=9),
    _fx("fx-hero", "Hero", strength=6, agility=6, magic=6, intelligence=6),
    _fx("fx-villain", "Villain", strength=9, agility=9, magic=9, intelligence=9),
    _fx("fx-sword", "Equipment", bank_value=2, tap_to_play="any", strength_bonus=3, agility_bonus=0, magic_bonus=0,
        intelligence_bonus=0),
    _fx("fx-fire-sword", "Equipment", bank_value=2, tap_to_play="Fire", strength_bonus=1, agility_bonus=0, magic_bonus=0,
        intelligence_bonus=0),
    _fx("fx-cape", "Equipment", "+1 to all stats.", bank_value=1),
    _fx("fx-book", "Equipment", "When you bank this card, draw a card.", bank_value=2),
    _fx("fx-boots", "Equipment", "Before your turn, draw a card.", bank_value=1),
    _fx("fx-apple", "Item", bank_value=3, strength_bonus=2, agility_bonus=2, magic_bonus=2, intelligence_bonus=2),
    _fx("fx-coin", "Item", bank_value=5),
    _fx("fx-gem", "Item", bank_value=7),
    _fx("fx-mystery-item", "Item"),  # bank value unknown
    _fx("fx-news", "Something Has Happened!", "Draw 2 cards."),
    _fx("fx-map", "Something Has Happened!", "Move 1 of your Neopets to another arena."),
    _fx("fx-rumour", "Something Has Happened!"),  # text unknown
    _fx("fx-castle", "Location"),
    _fx("fx-tower", "Location"),
    _fx("fx-unknown", None),  # type unknown
]
FX = Catalogue(GAME, FIXTURE_CARDS)


def game(stack=("fx-red-blorb",) * 3, deck=("fx-apple",) * 12, first=True, seed=1, catalogue=FX, **options):
    d = Deck(GAME)
    for key in stack:
        d.add("Neopet Stack", key)
    for key in deck:
        d.add("Deck", key)
    return new_game(GAME, d, catalogue, seed, {"first": first, **options})


def ids(state, key, zone=None):
    return [i for i, c in enumerate(state.cards) if c.key == key and (zone is None or state.where[i] == zone)]


def put(state, key, zone, tapped=False):
    """Move one copy of `key` (not already in `zone`) there with a manual move; returns its id."""
    iid = next(i for i in ids(state, key) if state.where[i] != zone and state.where[i] not in ("limbo",)
               and i not in state.__dict__.setdefault("_placed", set()))
    state._placed.add(iid)
    state.apply_action({"kind": "manual.move", "card": iid, "to": zone})
    if tapped:
        state.apply_action({"kind": "manual.tap", "card": iid})
    return iid


def in_hand(state, key):
    """A copy of `key` in the hand (moved there by hand if none was drawn)."""
    found = ids(state, key, "hand")
    return found[0] if found else put(state, key, "hand")


def clear_arenas(state):
    """Send the Neopets flipped so far back to the Neopet Stack (manual moves), for a position from scratch."""
    for pet in state.neopets():
        state.apply_action({"kind": "manual.move", "card": pet, "to": "stack"})


def choose(state, option):
    state.apply_action({"kind": "choose", "option": option})


def to_main(state, arena="strength"):
    """Answer the start-of-turn flip (if any) so the state is in the main phase."""
    while state.pending is not None and state.pending.op[0] == "flip_to":
        choose(state, arena)
    assert state.phase == "main"
    return state


def end_turn(state, arena="agility"):
    state.apply_action({"kind": "end_turn"})
    return to_main(state, arena) if state.outcome is None else state


class Dice:
    """Scripted dice for the contest tests (a stand-in for the state's seeded RNG)."""

    def __init__(self, *rolls):
        self.rolls = list(rolls)

    def randint(self, a, b):
        return self.rolls.pop(0)


def rules(state):
    return state.legal_actions(manual=False)


# --- the contest arithmetic (rulebook: Contests) ----------------------------------------------------

def test_worked_example_1_blue_mynci_loses_to_green_acara():
    """Example 1: Blue Mynci (agility 8) rolls 3 = 11; Green Acara (agility 7) rolls 5 = 12: the opponent wins.
    The two Neopets' agility is in the catalogue (from this example)."""
    mynci, acara = CAT.get("blue-mynci").attrs["agility"], CAT.get("green-acara").attrs["agility"]
    assert (mynci, acara) == (8, 7)
    assert contest_total([mynci], die=3) == 11 and contest_total([acara], die=5) == 12
    assert decide(3, 11, 5, 12) == "rival"
    dice = iter([3, 5])
    result = resolve(Side(stats=(mynci,)), Side(stats=(acara,)), lambda: next(dice))
    assert result.winner == "rival" and result.totals == (11, 12) and result.reason == "total"


def test_worked_example_2_two_neopets_warf_and_items_win_20_to_19():
    """Example 2: Green Acara 5 + Blue Scorchio 5 + Warf 2 + The Thieves' Code 4 + a roll of 4 = 20 beats
    Red Aisha 7 + Blue Mynci 5 + Beyond Neopia 5 + a roll of 2 = 19. Every number is the catalogue's."""
    g = lambda key, attr: CAT.get(key).attrs[attr]  # noqa: E731
    you = Side(stats=(g("green-acara", "intelligence"), g("blue-scorchio", "intelligence")),
               equipment=(g("warf", "intelligence_bonus"),), item=g("the-thieves-code", "intelligence_bonus"))
    rival = Side(stats=(g("red-aisha", "intelligence"), g("blue-mynci", "intelligence")),
                 item=g("beyond-neopia", "intelligence_bonus"))
    assert you.total(4) == 20 == 5 + 5 + 2 + 4 + 4 and rival.total(2) == 19 == 7 + 5 + 5 + 2
    dice = iter([4, 2])
    result = resolve(you, rival, lambda: next(dice))
    assert result.winner == "you" and result.totals == (20, 19)


def test_a_six_wins_outright_and_both_sixes_or_a_tie_reroll():
    """Contests: "If either of you rolls a 6, that player automatically wins. If you both roll a 6, roll
    again"; "If the totals are tied, you and your opponent reroll"."""
    assert decide(6, 7, 5, 30) == "you" and decide(2, 30, 6, 7) == "rival"
    assert decide(6, 10, 6, 10) == "reroll" and decide(3, 12, 4, 12) == "reroll"
    dice = iter([6, 6, 2, 3])  # both 6 -> reroll; then 1 + 2 = 3 against 20 + 3 = 23
    weak, strong = Side(stats=(1,)), Side(stats=(20,))
    result = resolve(weak, strong, lambda: next(dice))
    assert result.winner == "rival" and result.rolls == ((6, 6), (2, 3))
    dice = iter([4, 4, 6, 1])  # a tie rerolls; then a 6 wins against any total
    result = resolve(Side(stats=(5,)), Side(stats=(5,)), lambda: next(dice))
    assert result.winner == "you" and result.reason == "six" and len(result.rolls) == 2
    assert resolve(Side(stats=(1,)), None, lambda: 1 / 0).reason == "no rivals"  # no rivals: no dice at all


# --- the turn (rulebook: Setup, On Your Turn) ---------------------------------------------------------

def test_setup_draws_4_and_the_first_player_skips_the_first_draw():
    """Setup: draw 4. On Your Turn: "The person who plays first doesn't draw a card on his or her first turn"."""
    first = game(first=True)
    assert len(first.zones["hand"]) == 4 and first.turn == 1
    assert any("first player does not draw" in line for line in first.log_lines())
    second = game(first=False)
    assert len(second.zones["hand"]) == 5
    to_main(first)
    end_turn(first)
    assert first.turn == 2 and len(first.zones["hand"]) == 5  # turn 2 draws


def test_a_basic_neopet_is_flipped_tapped_each_turn_until_three_are_in_play():
    """On Your Turn / Basic Neopet: flip the top of the Neopet Stack into an arena, tapped, if you don't
    already have 3 Neopets in play; untap all your cards first."""
    state = game(stack=("fx-red-blorb",) * 5)
    assert state.pending is not None and state.pending.op[0] == "flip_to"
    flipped = state.pending.op[1]
    choose(state, "magic")
    assert state.where[flipped] == "magic" and state.tapped[flipped]
    end_turn(state, "agility")
    assert not state.tapped[flipped]  # untapped at the start of turn 2
    end_turn(state, "intelligence")
    assert len(state.neopets()) == 3
    state.apply_action({"kind": "end_turn"})
    assert state.pending is None and state.phase == "main"  # three in play: no flip on turn 4
    assert len(state.neopets()) == 3 and len(state.zones["stack"]) == 2


def test_move_taps_the_neopet_and_carries_its_equipment():
    """Move: tap an untapped Neopet and move it, with any Equipment attached, to another arena."""
    state = to_main(game(deck=("fx-sword",) * 12))
    pet = put(state, "fx-red-blorb", "strength")
    sword = ids(state, "fx-sword", "hand")[0]
    state.apply_action({"kind": "manual.attach", "card": sword, "to": pet})
    state.apply_action({"kind": "move", "card": pet, "arena": "magic"})
    assert state.where[pet] == "magic" and state.where[sword] == "magic" and state.tapped[pet]
    assert state.host[sword] == pet
    with pytest.raises(IllegalAction, match="tapped"):
        state.apply_action({"kind": "move", "card": pet, "arena": "agility"})


def test_trade_in_discards_equipment_returns_the_basic_and_flips_a_new_one_tapped():
    """Trade in: tap an untapped Neopet, discard its Equipment, return it to the bottom of the Neopet
    Stack (Basic) or discard it (Experienced), then flip a new one into any arena, tapped."""
    state = to_main(game(stack=("fx-red-blorb",) * 2 + ("fx-green-glim",) * 3, deck=("fx-sword",) * 12))
    pet = put(state, "fx-red-blorb", "strength")
    sword = ids(state, "fx-sword", "hand")[0]
    state.apply_action({"kind": "manual.attach", "card": sword, "to": pet})
    top = state.zones["stack"][-1]
    state.apply_action({"kind": "trade_in", "card": pet})
    assert state.where[sword] == "discard" and state.zones["stack"][0] == pet
    assert state.pending.op == ("flip_to", top)
    choose(state, "intelligence")
    assert state.where[top] == "intelligence" and state.tapped[top]
    # an Experienced Neopet traded in is discarded
    state = to_main(game(deck=("fx-blorb-knight",) * 12))
    knight = put(state, "fx-blorb-knight", "magic")
    state.apply_action({"kind": "trade_in", "card": knight})
    assert state.where[knight] == "discard" and state.pending.op[0] == "flip_to"


def test_experienced_neopet_replaces_one_of_its_species_keeping_equipment_and_tapped_state():
    """Experienced Neopet: replace a Neopet of the same species; it keeps the Equipment (even Equipment it
    could not attach) and is tapped if the old one was; the old Basic goes to the bottom of the Stack."""
    state = to_main(game(stack=("fx-red-blorb", "fx-green-glim", "fx-green-glim"),
                         deck=("fx-blorb-knight", "fx-glim-sage") + ("fx-sword",) * 10))
    clear_arenas(state)
    blorb = put(state, "fx-red-blorb", "strength", tapped=True)
    sword = in_hand(state, "fx-sword")
    state.apply_action({"kind": "manual.attach", "card": sword, "to": blorb})
    knight = in_hand(state, "fx-blorb-knight")
    legal = rules(state)
    assert {"kind": "replace", "card": knight, "onto": blorb} in legal
    glim = put(state, "fx-green-glim", "magic")
    assert {"kind": "replace", "card": knight, "onto": glim} not in legal
    with pytest.raises(IllegalAction, match="can only replace a Blorb"):
        state.apply_action({"kind": "replace", "card": knight, "onto": glim})
    state.apply_action({"kind": "replace", "card": knight, "onto": blorb})
    assert state.where[knight] == "strength" and state.tapped[knight]
    assert state.host[sword] == knight and state.attached[knight] == [sword]
    assert state.zones["stack"][0] == blorb and not state.tapped[blorb]
    # an Experienced one replaced in its turn is discarded, and an untapped one stays untapped
    sage = in_hand(state, "fx-glim-sage")
    assert not state.tapped[glim]
    state.apply_action({"kind": "replace", "card": sage, "onto": glim})
    assert not state.tapped[sage]


def test_hero_taps_a_neopet_enters_untapped_and_is_discarded_with_its_equipment_at_end_of_turn():
    """Hero: tap 1 of your untapped Neopets; the Hero goes untapped into that Neopet's arena, can contest,
    and at the end of your turn is discarded with any Equipment attached to it."""
    state = to_main(game(deck=("fx-hero",) * 2 + ("fx-cape",) * 10))
    pet = put(state, "fx-red-blorb", "agility")
    hero = in_hand(state, "fx-hero")
    state.apply_action({"kind": "hero", "card": hero, "tap": pet})
    assert state.where[hero] == "agility" and not state.tapped[hero] and state.tapped[pet]
    assert state.progs[hero].type == "Hero" and hero not in state.neopets()  # Heroes are not Neopets (FAQ)
    cape = in_hand(state, "fx-cape")
    state.apply_action({"kind": "equip", "card": cape, "to": hero})
    assert {"kind": "contest", "arena": "agility", "with": [hero]} in rules(state)
    state.apply_action({"kind": "end_turn"})
    assert state.where[hero] == "discard" and state.where[cape] == "discard"
    assert state.where[pet] == "agility"


def test_equipment_that_requires_tapping_needs_an_untapped_neopet_of_its_faerie_type():
    """Equipment: most require tapping 1 of your Neopets; give it to that or any other Neopet or Hero
    (FAQ: a Faerie-type tap need not match the Neopet it is given to)."""
    state = to_main(game(stack=("fx-red-blorb", "fx-blue-blorb", "fx-blue-blorb"),
                         deck=("fx-fire-sword",) * 6 + ("fx-sword",) * 6))
    clear_arenas(state)
    fire = put(state, "fx-red-blorb", "strength")
    water = put(state, "fx-blue-blorb", "agility")
    fire_sword = in_hand(state, "fx-fire-sword")
    legal = [a for a in rules(state) if a["kind"] == "equip" and a["card"] == fire_sword]
    assert legal and all(a["tap"] == fire for a in legal)  # only the Fire Neopet pays
    assert {"kind": "equip", "card": fire_sword, "to": water, "tap": fire} in legal
    with pytest.raises(IllegalAction, match="Fire Neopet"):
        state.apply_action({"kind": "equip", "card": fire_sword, "to": water})
    state.apply_action({"kind": "equip", "card": fire_sword, "to": water, "tap": fire})
    assert state.tapped[fire] and state.host[fire_sword] == water
    assert state.stat(water, "strength") == 4 + 1  # its bonus counts for the Neopet it is attached to


# --- contests against the dummy (rulebook: Contests, The End of a Contest) ---------------------------

def test_a_contest_against_empty_arenas_is_won_and_lets_you_bank_or_draw():
    """Contests: with no rival Neopets or Heroes in the arena you win automatically; The End of a Contest:
    bank 1 Item or Equipment from your hand (its coin's points) or draw a card."""
    state = to_main(game(deck=("fx-coin",) * 3 + ("fx-apple",) * 9))
    pet = put(state, "fx-red-blorb", "strength")
    state.apply_action({"kind": "contest", "arena": "strength", "with": [pet]})
    assert state.tapped[pet] and state.pending.op[0] == "bank_or_draw" and state.pending.optional
    options = dict(state.pending.options)
    assert "draw" in options and all(state.where[i] == "hand" for i in options if i != "draw")
    coin = ids(state, "fx-coin", "hand")[0] if ids(state, "fx-coin", "hand") else None
    pick = coin if coin in options else next(i for i in options if i != "draw")
    value = state.progs[pick].bank
    choose(state, pick)
    assert state.where[pick] == "bank" and state.counters["points"] == value


def test_only_one_regular_contest_per_arena_each_turn():
    """Contests / FAQ: you can start 1 contest in each arena you have untapped Neopets or Heroes in, each turn;
    tapping only 1 of 2 Neopets still uses the arena's contest."""
    state = to_main(game(stack=("fx-red-blorb",) * 5))
    a = put(state, "fx-red-blorb", "strength")
    b = put(state, "fx-red-blorb", "strength")
    c = put(state, "fx-red-blorb", "magic")
    state.apply_action({"kind": "contest", "arena": "strength", "with": [min(a, b)]})
    state.apply_action({"kind": "decline"})
    assert not any(x["kind"] == "contest" and x["arena"] == "strength" for x in rules(state))
    with pytest.raises(IllegalAction, match="already started a contest in the strength arena"):
        state.apply_action({"kind": "contest", "arena": "strength", "with": [max(a, b)]})
    assert {"kind": "contest", "arena": "magic", "with": [c]} in rules(state)  # another arena is fine
    end_turn(state)
    assert any(x["kind"] == "contest" and x["arena"] == "strength" for x in rules(state))  # a new turn


def test_items_are_played_only_in_contests_and_never_attached():
    """Item: you can play Items only during a contest; they cannot be given to Neopets or Heroes."""
    state = to_main(game())
    put(state, "fx-red-blorb", "strength")
    item = ids(state, "fx-apple", "hand")[0]
    assert not any(a.get("card") == item for a in rules(state))
    with pytest.raises(IllegalAction):
        state.apply_action({"kind": "manual.attach", "card": item, "to": state.neopets()[0]})


def test_villain_contest_rules():
    """Contests Against Villains: a Villain blocks regular contests in its arena until beaten; the other
    player neither rolls nor plays cards; a win discards the Villain without bank or draw; it does not
    count toward the one-contest-per-arena limit. Villain: one per arena."""
    state = to_main(game(stack=("fx-red-blorb",) * 5, deck=("fx-villain",) * 2 + ("fx-apple",) * 10))
    clear_arenas(state)
    villain = in_hand(state, "fx-villain")
    in_hand(state, "fx-apple")
    state.apply_action({"kind": "villain", "card": villain, "arena": "strength"})
    assert state.where[villain] == "strength" and not state.tapped[villain]
    other = in_hand(state, "fx-villain")
    assert {"kind": "villain", "card": other, "arena": "strength"} not in rules(state)  # one Villain an arena
    assert {"kind": "villain", "card": other, "arena": "magic"} in rules(state)
    a = put(state, "fx-red-blorb", "strength")
    b = put(state, "fx-red-blorb", "strength")
    # 5 (strength) + a roll of 2 = 7 loses to the Villain's 9; the Villain's owner does not roll
    # (the scripted dice would run out if it did)
    state.rng = Dice(2)
    state.apply_action({"kind": "contest", "arena": "strength", "with": [a]})
    assert state.pending.op[0] == "villain_item"  # you may play an Item
    state.apply_action({"kind": "decline"})
    assert state.where[villain] == "strength" and state.pending is None  # lost: no bank, no draw
    assert "strength" not in state.contested and state.tapped[a]
    # a second Villain contest in the same arena and turn is allowed; the Item adds its bonus to the total:
    # 5 + 2 (Item) + 2 = 9 ties the Villain's 9: reroll; 5 + 2 + 5 = 12 wins
    state.rng = Dice(2, 5)
    state.apply_action({"kind": "contest", "arena": "strength", "with": [b]})
    hand_before = len(state.zones["hand"])
    item = state.pending.options[0][0]
    choose(state, item)
    assert state.where[villain] == "discard" and state.where[item] == "discard"
    assert state.pending is None and len(state.zones["hand"]) == hand_before - 1  # no bank or draw
    assert any("won the Villain contest" in line and "reroll" in line for line in state.log_lines())
    # with the Villain gone, the arena's regular contest is still available this turn
    c = put(state, "fx-red-blorb", "strength")
    assert {"kind": "contest", "arena": "strength", "with": [c]} in rules(state)


def test_villain_rule_blocks_regular_contests_and_refuses_unknown_stats():
    """Villain: it must be defeated in a Villain contest before a regular contest can start in its arena.
    A Villain contest adds up stats, so with a stat unknown it is not offered (never guessed)."""
    state = to_main(game(stack=("fx-mystery-pet",) * 3, deck=("fx-villain",) * 12))
    clear_arenas(state)
    villain = ids(state, "fx-villain", "hand")[0]
    state.apply_action({"kind": "villain", "card": villain, "arena": "magic"})
    pet = put(state, "fx-mystery-pet", "magic")
    assert not any(a["kind"] == "contest" and a["arena"] == "magic" for a in rules(state))
    with pytest.raises(IllegalAction, match="unknown"):
        state.apply_action({"kind": "contest", "arena": "magic", "with": [pet]})
    view = {c["id"]: c for c in state.view()["zones"]["magic"]["cards"]}
    assert any(u["message"] == "magic unknown — set it for this game" for u in view[pet]["unknown"])
    # the player supplies the stat for the session: the Villain contest is offered
    valued = to_main(game(stack=("fx-mystery-pet",) * 3, deck=("fx-villain",) * 12,
                          card_values={"fx-mystery-pet": {"magic": 4}}))
    clear_arenas(valued)
    v = ids(valued, "fx-villain", "hand")[0]
    valued.apply_action({"kind": "villain", "card": v, "arena": "magic"})
    p = put(valued, "fx-mystery-pet", "magic")
    assert {"kind": "contest", "arena": "magic", "with": [p]} in rules(valued)


# --- banking and winning (rulebook: Object, The End of a Contest, Running Out of Cards) ---------------

def test_banking_reaches_21_points_and_wins():
    """Object / The End of a Contest: "If you have 21 or more points in your bank, you win!" """
    state = to_main(game(deck=("fx-gem",) * 12))
    clear_arenas(state)
    pets = [put(state, "fx-red-blorb", a) for a in ("strength", "agility", "magic")]
    for pet, arena in zip(pets, ("strength", "agility", "magic")):
        state.apply_action({"kind": "contest", "arena": arena, "with": [pet]})
        choose(state, next(i for i, _ in state.pending.options if i != "draw"))
    assert state.counters["points"] == 21 and state.outcome.result == "win"
    assert state.outcome.reason == "21 points in the bank" and state.outcome.turn == 1
    assert state.legal_actions() == []


def test_a_card_with_an_unknown_bank_value_is_not_bankable_until_it_is_set():
    """Never guess: an Item whose coin is unknown cannot be banked by the rules actions; the view flags it,
    manual moves still work, and a session value makes it bankable."""
    state = to_main(game(deck=("fx-mystery-item",) * 12))
    pet = put(state, "fx-red-blorb", "strength")
    state.apply_action({"kind": "contest", "arena": "strength", "with": [pet]})
    assert [v for v, _ in state.pending.options] == ["draw"]
    assert "not bankable until set for this game: Fixture Mystery Item (bank value unknown)" in state.pending.prompt
    tile = state.view()["zones"]["hand"]["cards"][0]
    assert {"field": "bank_value", "label": "bank value", "message": "bank value unknown — set it for this game"} in tile["unknown"]
    assert state.view()["neopets_tcg"]["missing_values"] == {"fx-mystery-item": ["bank_value"]}
    state.apply_action({"kind": "decline"})
    item = state.zones["hand"][0]
    state.apply_action({"kind": "manual.move", "card": item, "to": "bank"})  # the manual way on
    assert state.counters["points"] == 0 and "adjust the bank points by hand" in state.log_lines()[-1]
    state.apply_action({"kind": "manual.counter", "counter": "points", "delta": 4})
    valued = to_main(game(deck=("fx-mystery-item",) * 12, card_values={"fx-mystery-item": {"bank_value": 4}}))
    pet = put(valued, "fx-red-blorb", "strength")
    valued.apply_action({"kind": "contest", "arena": "strength", "with": [pet]})
    choose(valued, valued.pending.options[0][0])
    assert valued.counters["points"] == 4
    assert valued.cards[valued.zones["bank"][0]].provenance["bank_value"] == "session"


def test_must_draw_from_an_empty_deck_loses():
    """Running Out of Cards: if you have to draw a card and your deck is empty, you lose."""
    state = to_main(game(deck=("fx-apple",) * 5))
    assert len(state.zones["deck"]) == 1
    end_turn(state)
    assert state.zones["deck"] == []
    state.apply_action({"kind": "end_turn"})
    assert state.outcome.result == "loss" and state.outcome.turn == 3
    assert "draw from an empty deck" in state.outcome.reason


def test_every_game_ends_at_the_turn_limit():
    state = game(turn_limit=2)
    play_out(state, policy=lambda s: {"kind": "choose", "option": "strength"} if s.pending else {"kind": "end_turn"})
    assert state.outcome.result == "loss" and state.outcome.turn == 2 and "turn limit" in state.outcome.reason


# --- card text and session values ---------------------------------------------------------------------

def test_text_patterns_stat_bonus_draw_bank_and_movement():
    """Automated patterns: Equipment stat bonuses, draw effects on play, "when you bank this card",
    "before your turn", and movement; text supplied for a session is compiled the same way."""
    cape = compile_card(FX.get("fx-cape"))
    assert cape.bonus == {"strength": 1, "agility": 1, "magic": 1, "intelligence": 1} and cape.automation == "full"
    assert cape.tap == "none"  # known text with no tapping cost
    state = to_main(game(deck=("fx-news",) * 2 + ("fx-book",) * 2 + ("fx-boots",) * 2 + ("fx-map",) * 2 + ("fx-apple",) * 10))
    news = in_hand(state, "fx-news")
    hand = len(state.zones["hand"])
    state.apply_action({"kind": "happen", "card": news})
    assert state.where[news] == "discard" and len(state.zones["hand"]) == hand - 1 + 2
    pet = put(state, "fx-red-blorb", "strength")
    book = in_hand(state, "fx-book")
    state.apply_action({"kind": "contest", "arena": "strength", "with": [pet]})
    hand = len(state.zones["hand"])
    choose(state, book)
    assert state.where[book] == "bank" and len(state.zones["hand"]) == hand - 1 + 1  # banked, then drew
    boots = in_hand(state, "fx-boots")
    state.apply_action({"kind": "equip", "card": boots, "to": pet})
    hand = len(state.zones["hand"])
    end_turn(state)
    assert len(state.zones["hand"]) == hand + 2  # before your turn: draw 1, then the turn's draw
    before = [line for line in state.log_lines() if line.startswith(f"T{state.turn} before")]
    assert any("drew" in line for line in before)
    mapcard = in_hand(state, "fx-map")
    state.apply_action({"kind": "happen", "card": mapcard})
    assert state.pending.op[0] == "move_one"
    choose(state, [pet, "intelligence"])
    assert state.where[pet] == "intelligence" and state.tapped[pet]  # glossary "move": tapping an untapped Neopet
    assert compile_card(FX.get("fx-rumour")).automation == "none"  # text unknown
    supplied = {"fx-rumour": {"text": "Draw a card. Your opponent discards a card."}}  # TEST FIXTURE text
    compiled = compile_card(apply_card_values(ENGINE, FX, supplied).get("fx-rumour"))
    assert compiled.on_play == (("draw", 1),) and compiled.automation == "full"
    assert [s for _, s in compiled.abilities] == [AUTO, NO_EFFECT]


def test_text_the_engine_does_not_automate_is_flagged_and_left_to_manual_moves():
    state = to_main(game(deck=("fx-rumour",) * 12))
    rumour = state.zones["hand"][0]
    tile = state.card_view(rumour)
    assert tile["automated"] == "none" and any(u["field"] == "text" for u in tile["unknown"])
    state.apply_action({"kind": "happen", "card": rumour})
    assert state.where[rumour] == "discard"
    assert "do what it says with manual moves" in " ".join(state.log_lines()[-3:])


def test_missing_values_and_session_values_through_new_game_and_replay():
    """The generic mechanism (deckhub.core.session_values) on this engine: the theme deck's unknown values
    are listed per card; values supplied as the card_values option (here TEST FIXTURES) are used by
    new_game and replay alike, and bad ones are refused."""
    name, darigan = next((n, d) for n, d in ENGINE.decks() if n.startswith("darigan"))
    missing = missing_values(ENGINE, darigan, CAT)
    assert missing["tomatoes"] == ["type"] and missing["the-thieves-code"] == ["bank_value"]
    assert "blue-blumaroo" not in missing  # a Basic Neopet's species is known (derived from its name)
    assert "morguss" not in missing and "draik-skeleton" not in missing  # Villains: known type is enough
    values = {"tomatoes": {"type": "Item", "bank_value": 2}}
    state = new_game(GAME, darigan, CAT, 5, {"card_values": values})
    again = replay(GAME, darigan, CAT, 5, {"card_values": json.dumps(values)}, [])
    assert state.view() == again.view()
    tomato = ids(state, "tomatoes")[0]
    assert state.progs[tomato].bank == 2 and state.cards[tomato].provenance["type"] == "session"
    assert CAT.get("tomatoes").type is None  # the catalogue is untouched
    from deckhub.core.engine import EngineError
    with pytest.raises(EngineError, match="bank value must be a whole number"):
        new_game(GAME, darigan, CAT, 5, {"card_values": {"tomatoes": {"bank_value": "two"}}})
    with pytest.raises(EngineError, match="card type must be one of"):
        new_game(GAME, darigan, CAT, 5, {"card_values": {"tomatoes": {"type": "Fruit"}}})


# --- the theme decks and the built-in policy -------------------------------------------------------------

# TEST FIXTURE: invented session values for the Darigan theme deck (types and coins made up so the test
# can play to 21 points; the real cards' values are unknown). Villains keep their catalogue type.
def fixture_values(deck, catalogue=CAT):
    values = {}
    for key, fields in missing_values(ENGINE, deck, catalogue).items():
        entry = {}
        if "type" in fields:
            entry.update(type="Item", bank_value=2)
        if "bank_value" in fields and catalogue is CAT:  # (the fixture deck keeps its unknown-value card)
            entry["bank_value"] = 2
        if "tap_to_play" in fields:
            entry["tap_to_play"] = "any"
        if "species" in fields:
            entry["species"] = "Quiggle"
        if entry:
            values[key] = entry
    return values


@pytest.mark.parametrize("deck_name", ["darigan-theme-deck.txt", "meridell-theme-deck.txt"])
def test_theme_deck_plays_an_automated_game_to_its_end(deck_name):
    """A rulebook theme deck, played by the built-in policy. With only the catalogue's facts no card can be
    banked (no bank value is known), so the game ends on a deck-out, never by a guess; with the missing
    values supplied (TEST FIXTURES) it wins by banking 21 points."""
    deck = dict(ENGINE.decks())[deck_name]
    plain = play_out(new_game(GAME, deck, CAT, 7, {}))
    assert plain.outcome.result == "loss" and "empty deck" in plain.outcome.reason
    assert plain.counters["points"] == 0
    values = fixture_values(deck)
    assert missing_values(ENGINE, deck, apply_card_values(ENGINE, CAT, values)) == {}
    wins = []
    for seed in range(10):
        state = play_out(new_game(GAME, deck, CAT, seed, {"card_values": values}))
        assert state.outcome.result == "win", state.log_lines()[-5:]
        assert state.counters["points"] >= 21 and sum(state.progs[i].bank for i in state.zones["bank"]) == state.counters["points"]
        wins.append(state.outcome.turn)
    assert max(wins) <= 12


def test_starter_decks_split_into_stack_and_deck():
    """The starter decks are basic-game lists (one section, Neopets included): their Basic Neopets form the
    Neopet Stack."""
    deck = dict(ENGINE.decks())["starter-set-deck-a.txt"]
    state = new_game(GAME, deck, CAT, 0, {})
    pets = state.zones["stack"] + state.zones["limbo"]  # the turn-1 flip waits in limbo for its arena
    assert sorted(state.cards[i].key for i in pets) == ["blue-scorchio", "green-acara", "red-korbat"]
    assert all(state.progs[i].type != "Basic Neopet" for i in state.zones["deck"] + state.zones["hand"])
    assert len(state.zones["deck"]) + len(state.zones["hand"]) == 27


def test_random_play_with_session_values_keeps_the_books_right():
    """Like the generic invariant test, but with (TEST FIXTURE) session values so banking, Villain
    contests, Experienced Neopets and Equipment are all reached: every listed action is accepted, every
    card stays in one zone, the bank points match the bank, replay rebuilds the game."""
    fixture_deck = Deck(GAME, {"Neopet Stack": {"fx-red-blorb": 3, "fx-blue-blorb": 3, "fx-green-glim": 4},
                               "Deck": {"fx-villain": 3, "fx-apple": 4, "fx-sword": 3, "fx-fire-sword": 2, "fx-cape": 3,
                                        "fx-book": 3, "fx-boots": 2, "fx-news": 2, "fx-map": 2, "fx-hero": 2,
                                        "fx-blorb-knight": 2, "fx-glim-sage": 2, "fx-castle": 2, "fx-coin": 3,
                                        "fx-mystery-item": 2, "fx-rumour": 2}})
    decks = [(d, CAT) for _, d in ENGINE.decks()] + [(fixture_deck, FX)] * 4
    for seed in range(16):
        deck, catalogue = decks[seed % len(decks)]
        values = fixture_values(deck, catalogue)
        state = new_game(GAME, deck, catalogue, seed, {"card_values": values, "first": seed % 2 == 0})
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal and state.check_invariants() == []
            rule = state.legal_actions(manual=False)
            action = rng.choice(rule) if rule and rng.random() > 0.05 else rng.choice(legal)
            if rng.random() < 0.5 and rule:
                action = ENGINE.policy(state)
            state.apply_action(json.loads(json.dumps(action)))
            if not any(a["kind"].startswith("manual") for a in state.actions):
                assert state.counters["points"] == sum(state.progs[i].bank or 0 for i in state.zones["bank"])
        again = replay(GAME, deck, catalogue, seed, {"card_values": values, "first": seed % 2 == 0}, state.actions)
        assert again.view() == state.view()


# --- command line and coverage ----------------------------------------------------------------------------

def test_goldfish_command_refuses_unreadable_session_values(tmp_path):
    """(Determinism and replay of the command: tests/test_engine_invariants.py, for every game.)"""
    from click.testing import CliRunner

    from deckhub.commands.goldfish import goldfish

    path = "data/neopets-tcg/decks/meridell-theme-deck.txt"
    bad = CliRunner().invoke(goldfish, ["--game", GAME, "--deck", path, "--option", "card_values={nope"])
    assert bad.exit_code == 2 and "card_values" in bad.output


def test_coverage_command_reports_the_real_numbers():
    from click.testing import CliRunner

    from deckhub.commands.goldfish import coverage as coverage_command

    data = json.loads(CliRunner().invoke(coverage_command, ["--game", GAME, "--json"]).output)
    assert data["cards"] == 1214 and data["full"] + data["partial"] + data["none"] == 1214
    assert data["known"]["text"] == 0 and data["full"] == 0  # no rules text in the catalogue: nothing full
    assert data["known"]["type"] == 169
    # a card the engine cannot play at all for a value it lacks is none, and the notes say which value:
    # 13 Items and Equipment without a bank value, 4 Experienced Neopets without a species
    assert data["partial"] == 169 - 17 and data["none"] == 1214 - 169 + 17
    unplayable = {n.split(": ")[1]: int(n.split()[0]) for n in data["notes"] if "count as none" in n}
    assert unplayable == {"bank value unknown": 11, "bank value and tapping cost unknown": 2, "species unknown": 4}
    assert data["top_unautomated"][0] == {"phrase": "(rules text not in the catalogue)", "cards": 1214}

"""Huntik goldfish rules, each test citing the comprehensive-rules section it checks
(`../shared/rules/huntik-comprehensive-rules.md`), the rulebook's own examples (602 combat, 403
movement), the missions (each won by an automated game), the option, the coverage numbers and the
command line.

Positions are set up with the engine's manual moves (a card put where the test needs it), then
played with rules actions. The rulebook's examples have heroes on the defending side; a goldfish
defender has none, so those tests place them with `place_enemy_hero` (they never act, but block,
fight back and can be aimed at, as the examples need).
"""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from deckhub.core.decklist import Deck
from deckhub.core.engine import EngineError, IllegalAction, get_engine, new_game, play_out, published_decks, replay
from deckhub.games.huntik.effects import AUTO, MANUAL, NO_EFFECT, compile_card
from deckhub.games.huntik.missions import MISSIONS, find_mission
from deckhub.games import load_catalogue

CAT = load_catalogue("huntik")
ENGINE = get_engine("huntik")
DECKS = published_decks("huntik")
FILLER = {"springer-trapspringer": 3, "enderby-casterwill-tutor": 3, "bellona-lion-gladiator": 3,
          "ammit-heart-eater-rassimovs-pet": 3, "janus-knight-dark-charger": 3, "suit-ms-thorpe-venice-agent": 3}


def game(cards: dict[str, int], mission: str = "deliver-the-ring-of-art", seed: int = 1):
    """A game whose deck is `cards` plus vanilla filler (team mixing is fine for rule tests)."""
    entries = dict(FILLER)
    for key, qty in cards.items():
        entries[key] = entries.get(key, 0) + qty
    return new_game("huntik", Deck("huntik", {"Deck": entries}), CAT, seed, {"mission": mission})


def put(state, key: str, zone: str) -> int:
    """Move one copy of `key` into `zone` (never one an earlier `put` placed)."""
    placed = state.__dict__.setdefault("_placed_by_test", set())
    for where in (zone, "deck", "hand", "discard"):
        for iid in state.zones.get(where, ()):
            if state.cards[iid].key == key and iid not in placed:
                if where != zone:
                    state.apply_action({"kind": "manual.move", "card": iid, "to": zone})
                placed.add(iid)
                return iid
    raise AssertionError(f"no spare {key}")


def keep(state) -> None:
    """Keep the opening hand (Huntik 101), and round 1 starts."""
    state.apply_action({"kind": "mulligan"})


def act(state, kind: str, **fields) -> None:
    state.apply_action({"kind": kind, **fields})


def choose(state, value) -> None:
    state.apply_action({"kind": "choose", "option": value})


def legal(state, kind: str, **fields) -> bool:
    return {"kind": kind, **fields} in state.legal_actions(manual=False)


def feature(state, key: str) -> int:
    return state.features(key)[0]


# --- setup and the mulligan (Huntik 101, 305) ---------------------------------------------------

def test_setup_places_the_missions_features_and_deals_five_101_305():
    s = game({}, mission="defeat-ymir-frost-king-151")
    assert s.phase == "mulligan" and len(s.zones["hand"]) == 5 and s.round == 1
    assert [s.zone_of(f) for f in s.features("frost-minion")] == [4, 4]
    assert s.zone_of(feature(s, "ymir-frost-king")) == 4 and s.zone_of(feature(s, "ignatius-lava-lord")) == 1
    assert s.controller(feature(s, "ymir-frost-king")) == "defender"
    mine = game({}, mission="escape-the-haunted-mine")
    assert mine.where[feature(mine, "ghostly-shift")] == "removed"  # "to the side of the map"
    assert mine.zone_of(feature(mine, "ghostly-bear")) == 2


def test_one_mulligan_puts_cards_on_the_bottom_and_draws_back_to_five_101():
    s = game({})
    first, second, third = s.zones["hand"][:3]
    assert {a["kind"] for a in s.legal_actions(manual=False)} == {"mark", "mulligan"}
    for card in (first, second, third):
        act(s, "mark", card=card)
    act(s, "mark", card=third)  # changed my mind: unmarked
    assert s.card_view(first)["marked_for_mulligan"] and "marked_for_mulligan" not in s.card_view(third)
    act(s, "mulligan")
    assert len(s.zones["hand"]) == 5 and s.zones["deck"][:2] in ([first, second], [second, first])
    assert s.where[third] == "hand" and s.phase == "turn"
    assert not any(a["kind"] in ("mark", "mulligan") for a in s.legal_actions())
    with pytest.raises(IllegalAction, match="once a game"):
        act(s, "mulligan")


# --- rounds and turns (Huntik 500-502) ----------------------------------------------------------

def test_defender_goes_first_in_odd_rounds_and_the_round_ends_on_two_passes_500():
    s = game({"furoji-calm-center": 1})
    f = put(s, "furoji-calm-center", "hand")
    keep(s)
    assert "defending player takes the first turn and passes" in s.log[-1][2]
    act(s, "play", card=f)  # a turn; then the defender passes
    assert s.round == 1
    act(s, "pass")  # the defender's pass, then yours: two in a row
    assert s.round == 2 and "you take the first turn" in s.log[-1][2]  # the lead goes first in even rounds
    act(s, "pass")  # you pass first; the defender passes: the round ends
    assert s.round == 3


def test_start_of_round_unstuns_readies_and_draws_two_502():
    s = game({"springer-trapspringer": 2})
    a, b = put(s, "springer-trapspringer", "z1"), put(s, "springer-trapspringer", "z1")
    keep(s)
    act(s, "move", card=a, to=3)
    act(s, "manual.stun", card=b)
    assert s.exhausted[a] and s.stunned[b]
    hand, deck = len(s.zones["hand"]), len(s.zones["deck"])
    act(s, "pass")
    assert s.round == 2
    assert not s.exhausted[a] and not s.stunned[b] and not s.exhausted[b]
    assert len(s.zones["hand"]) == hand + 2 and len(s.zones["deck"]) == deck - 2


def test_the_defender_wins_at_the_end_of_round_7_501():
    s = game({})
    keep(s)
    for _ in range(7):
        act(s, "pass")
    assert s.outcome.result == "loss" and s.outcome.turn == 7 and "round 7" in s.outcome.reason
    assert s.legal_actions() == []


# --- heroes (Huntik 301) --------------------------------------------------------------------------

def test_heroes_enter_play_ready_in_zone_1_and_one_major_hero_a_round_301():
    s = game({"dante-vale-private-investigator": 1, "gybolg-force-of-nature": 1, "daktari-seeker": 1})
    dante = put(s, "dante-vale-private-investigator", "hand")
    gybolg = put(s, "gybolg-force-of-nature", "hand")
    daktari = put(s, "daktari-seeker", "hand")
    keep(s)
    act(s, "play", card=dante)
    assert s.where[dante] == "z1" and not s.exhausted[dante]
    assert not legal(s, "play", card=gybolg)
    with pytest.raises(IllegalAction, match="one a round"):
        act(s, "play", card=gybolg)
    act(s, "play", card=daktari)  # minor heroes have no limit
    assert s.where[daktari] == "z1"
    act(s, "pass")
    act(s, "play", card=gybolg)  # a new round, a new major hero
    assert s.where[gybolg] == "z1"


# --- movement (Huntik 403) -----------------------------------------------------------------------

def test_rulebook_movement_example_springer_403():
    """Springer is ready in zone 3, enemy heroes in zones 2 and 4: it can't move 2 forward (the
    enemy in zone 4 blocks movement past it), it can move 2 back (moving back is never blocked)."""
    s = game({"springer-trapspringer": 1, "enderby-casterwill-tutor": 2})
    springer = put(s, "springer-trapspringer", "z3")
    s.place_enemy_hero(put(s, "enderby-casterwill-tutor", "z1"), 2)
    s.place_enemy_hero(put(s, "enderby-casterwill-tutor", "z1"), 4)
    keep(s)
    moves = {a["to"] for a in s.legal_actions(manual=False) if a["kind"] == "move" and a["card"] == springer}
    assert moves == {4, 2, 1}
    with pytest.raises(IllegalAction, match="blocks.*Huntik 403"):
        act(s, "move", card=springer, to=5)
    act(s, "move", card=springer, to=1)
    assert s.zone_of(springer) == 1 and s.exhausted[springer]  # moving exhausts


def test_unblockable_ignores_blocking_403():
    s = game({"lindorm-raging-titan": 1, "enderby-casterwill-tutor": 1})
    lindorm = put(s, "lindorm-raging-titan", "z3")
    s.place_enemy_hero(put(s, "enderby-casterwill-tutor", "z1"), 4)
    keep(s)
    assert legal(s, "move", card=lindorm, to=5)


def test_an_obstacle_of_the_defender_blocks_and_fights_back_305_600():
    s = game({"dante-vale-private-investigator": 1}, mission="defeat-ymir-frost-king-151")
    dante = put(s, "dante-vale-private-investigator", "z1")
    ignatius = feature(s, "ignatius-lava-lord")
    keep(s)
    assert not legal(s, "move", card=dante, to=2)  # out of a zone with an enemy obstacle
    act(s, "fight", card=dante)  # move 0 zones, exhaust, start a combat (Huntik 600)
    assert s.phase == "combat" and s.exhausted[dante]
    act(s, "pass")
    assert s.where[ignatius] == "removed"  # 5 attacks against DEF 3: KO'd, removed from the map
    assert s.where[dante] == "z1"  # Ignatius's 2 attacks don't reach Dante's 4 DEF
    act(s, "pass")
    assert legal(s, "move", card=dante, to=3)  # nothing blocks zone 1 any more


def test_put_is_not_a_move_no_blocking_no_combat_403():
    s = game({"springer-trapspringer": 1, "sprint": 1}, mission="defeat-ymir-frost-king-151")
    springer = put(s, "springer-trapspringer", "z1")
    sprint = put(s, "sprint", "hand")
    keep(s)
    act(s, "play", card=sprint)
    choose(s, springer)
    choose(s, 2)
    assert s.zone_of(springer) == 2 and s.pending is None and not s.exhausted[springer]


def test_moving_into_an_enemy_zone_offers_a_combat_403():
    s = game({"springer-trapspringer": 1}, mission="take-the-bigfoot-captive")
    springer = put(s, "springer-trapspringer", "z4")
    keep(s)
    act(s, "move", card=springer, to=5)
    assert s.pending is not None and s.pending.optional and "start a combat" in s.pending.prompt
    s.apply_action({"kind": "decline"})
    assert s.phase == "turn" and s.zone_of(springer) == 5


# --- combat (Huntik 600-602, 407) -----------------------------------------------------------------

def test_rulebook_combat_example_king_basilisk_602():
    """King Basilisk (5/3) attacks Gareon (1/3) and Lok Lambert (3/3): 3 attacks at Lok, 2 at
    Gareon; the attacked player's 4 attacks all go at King Basilisk, the only enemy. Lok Lambert and
    King Basilisk are KO'd; Gareon is not."""
    s = game({"king-basilisk-strength-and-fury": 1, "gareon-invisible-scout": 1, "lok-lambert-courageous-novice": 1})
    king = put(s, "king-basilisk-strength-and-fury", "z3")
    gareon = put(s, "gareon-invisible-scout", "z1")
    lok = put(s, "lok-lambert-courageous-novice", "z1")
    s.place_enemy_hero(gareon, 3)
    s.place_enemy_hero(lok, 3)
    keep(s)
    act(s, "fight", card=king)
    act(s, "pass")
    assert s.combat["lead_total"] == 5 and s.combat["foe_total"] == 4
    choose(s, [lok, 3])
    choose(s, [gareon, 2])
    assert s.where[king] == "discard" and s.where[lok] == "discard"
    assert s.where[gareon] == "z3"
    assert s.combat is None and s.phase == "turn"


def test_obstacles_aim_to_ko_as_many_heroes_as_they_can_lowest_def_first_602():
    s = game({"daktari-seeker": 1, "springer-trapspringer": 1, "dante-vale-private-investigator": 1},
             mission="defeat-ymir-frost-king-145")
    daktari = put(s, "daktari-seeker", "z4")  # 3/2
    springer = put(s, "springer-trapspringer", "z4")  # 2/3
    dante = put(s, "dante-vale-private-investigator", "z4")  # 5/4
    keep(s)
    act(s, "fight", card=dante)
    act(s, "pass")
    # Ymir's 6 attacks: 2 KO Daktari, 3 KO Springer, the last one can't KO Dante (DEF 4)
    assert s.where[daktari] == "discard" and s.where[springer] == "discard" and s.where[dante] == "z4"
    assert s.outcome.result == "win" and "Ymir: Frost King was KO'd" in s.outcome.reason  # 10 attacks at DEF 5


def test_stunned_cards_take_no_part_in_combat_407():
    s = game({"janus-knight-dark-charger": 1, "springer-trapspringer": 1}, mission="take-the-bigfoot-captive")
    janus = put(s, "janus-knight-dark-charger", "z5")  # 6/3
    springer = put(s, "springer-trapspringer", "z5")
    keep(s)
    act(s, "manual.stun", card=springer)
    act(s, "fight", card=janus)
    assert s.totals() == (6, 3)  # the stunned Springer adds nothing
    assert s.aimable("lead") == [janus]  # and no attack can be aimed at it
    act(s, "pass")
    assert s.where[springer] == "z5" and s.where[janus] == "discard"


def test_frost_minions_shield_ymir_until_stunned_151():
    s = game({"janus-knight-dark-charger": 2}, mission="defeat-ymir-frost-king-151")
    a = put(s, "janus-knight-dark-charger", "z4")
    b = put(s, "janus-knight-dark-charger", "z3")
    keep(s)
    ymir = feature(s, "ymir-frost-king")
    act(s, "fight", card=a)
    act(s, "pass")
    assert ymir not in s.aimable("defender")  # attacks can't be aimed at Ymir while a Frost Minion is there
    choose(s, [s.features("frost-minion")[0], 2])
    choose(s, [s.features("frost-minion")[1], 4])
    assert all(s.stunned[m] for m in s.features("frost-minion"))  # "would be KO'd: stun it instead"
    act(s, "move", card=b, to=4)
    choose(s, "yes")
    act(s, "pass")
    assert s.outcome.result == "win"


# --- features (Huntik 305) ------------------------------------------------------------------------

def test_features_are_picked_up_carried_and_dropped_305():
    s = game({"springer-trapspringer": 2, "slitherfang-serpent-from-the-nile": 1})
    carrier = put(s, "springer-trapspringer", "z1")
    ring = feature(s, "ring-of-arc")
    keep(s)
    act(s, "power", card=carrier, power="pickup", feature=ring)
    assert s.carrier[ring] == carrier and s.atk(carrier) == 4 and s.def_(carrier) == 5  # +2/+2
    assert not any(a.get("feature") == ring for a in s.legal_actions(manual=False))  # one hero at a time
    act(s, "move", card=carrier, to=3)
    assert s.zone_of(ring) == 3  # it moves with its hero
    snake = put(s, "slitherfang-serpent-from-the-nile", "z3")
    act(s, "power", card=snake, power="squeeze")
    choose(s, carrier)
    assert s.stunned[carrier] and ring not in s.carrier and s.zone_of(ring) == 3  # dropped where it was
    other = put(s, "springer-trapspringer", "z3")
    act(s, "power", card=other, power="pickup", feature=ring)
    act(s, "move", card=other, to=4)
    assert s.outcome.result == "win" and s.outcome.turn == 1


def test_a_feature_is_dropped_when_its_hero_leaves_play_305():
    s = game({"peque-mayan-princess": 1, "springer-trapspringer": 1}, mission="retrieve-the-ring-of-arc")
    peque = put(s, "peque-mayan-princess", "z4")
    springer = put(s, "springer-trapspringer", "z4")
    ring = feature(s, "ring-of-arc")
    keep(s)
    act(s, "move", card=springer, to=3)
    act(s, "power", card=peque, power="pickup", feature=ring)
    act(s, "power", card=peque, power="healer")  # return me to my owner's hand to ready target hero
    choose(s, springer)
    assert s.where[peque] == "hand" and ring not in s.carrier and s.zone_of(ring) == 4
    assert not s.exhausted[springer]


def test_a_feature_is_dropped_when_its_hero_is_kod_305():
    s = game({"dante-vale-private-investigator": 1, "springer-trapspringer": 1})
    dante = put(s, "dante-vale-private-investigator", "z1")
    springer = put(s, "springer-trapspringer", "z1")
    ring = feature(s, "ring-of-arc")
    keep(s)
    act(s, "power", card=springer, power="pickup", feature=ring)
    act(s, "power", card=dante, power="megapunch")  # Exhaust Action: KO target hero in my zone
    choose(s, springer)
    assert s.where[springer] == "discard" and ring not in s.carrier and s.zone_of(ring) == 1


def test_an_obstacle_you_gain_control_of_moves_and_fights_like_a_hero_for_the_round_305():
    s = game({"janus-knight-dark-charger": 2}, mission="retrieve-vlads-amulets")
    ante = feature(s, "antedeluvian")
    put(s, "janus-knight-dark-charger", "hand")
    keep(s)
    assert s.controller(ante) is None and not s.enemies_in(3)  # "Either Player": nobody's yet, blocks nothing
    act(s, "power", card=ante, power="mercenary")  # discard a major hero card to control it this round
    choose(s, s.pending.options[0][0])
    assert s.controller(ante) == "lead" and ante in s.lead_units()
    act(s, "move", card=ante, to=1)
    assert s.zone_of(ante) == 1 and s.exhausted[ante]
    act(s, "pass")
    assert s.controller(ante) is None and not s.exhausted[ante]  # control lasted the round; features ready (502)


def test_face_down_rings_stay_secret_until_revealed_147():
    s = game({"springer-trapspringer": 3}, mission="escape-with-the-ring-of-arc")
    heroes = [put(s, "springer-trapspringer", "hand") for _ in range(3)]
    keep(s)
    for h in heroes:
        act(s, "play", card=h)
    rings = [f for f in s.carried_by(heroes[0]) + s.carried_by(heroes[1]) + s.carried_by(heroes[2])]
    assert len(rings) == 3 and all(r in s.face_down for r in rings)
    seen = json.dumps(s.view())
    assert "fake-ring-of-arc" not in seen and "Fake Ring" not in seen
    shown = {c["id"]: c for z in s.view()["zones"].values() for c in z["cards"] if isinstance(c, dict)}
    assert all(shown[r]["key"] is None and shown[r]["name"] == "Ring (face down)" for r in rings)
    assert all("face-down Ring" in s.name_of(r) for r in rings)


# --- card text -----------------------------------------------------------------------------------

def test_hyperstride_moves_draws_goes_again_and_dante_readies_302_707():
    s = game({"dante-vale-private-investigator": 1, "hyperstride": 1})
    dante = put(s, "dante-vale-private-investigator", "z1")
    card = put(s, "hyperstride", "hand")
    keep(s)
    hand = len(s.zones["hand"])
    act(s, "play", card=card, hero=dante)
    choose(s, 3)
    assert s.zone_of(dante) == 3 and not s.exhausted[dante]  # "whenever I play a Hyperstride card, ready me"
    assert len(s.zones["hand"]) == hand  # played one, drew one
    assert any("go again" in text for _, _, text, _ in s.log[-3:])
    assert s.where[card] == "discard"


def test_exhaust_actions_need_a_ready_hero_you_control_302():
    s = game({"springer-trapspringer": 1, "rapid-charge": 1})
    springer = put(s, "springer-trapspringer", "z1")
    card = put(s, "rapid-charge", "hand")
    keep(s)
    act(s, "move", card=springer, to=2)
    assert not any(a.get("card") == card for a in s.legal_actions(manual=False))
    with pytest.raises(IllegalAction, match="exhausted"):
        act(s, "play", card=card, hero=springer)
    with pytest.raises(IllegalAction, match="name the ready hero"):
        act(s, "play", card=card)
    for nowhere in (len(s.cards), -1, "x"):  # a "hero" naming no card is refused, not looked up
        with pytest.raises(IllegalAction, match=r"there is no card #.* \('hero' takes a card id"):
            act(s, "play", card=card, hero=nowhere)


def test_a_card_needing_an_enemy_hero_cannot_be_played_704():
    s = game({"springer-trapspringer": 1, "flashbulb": 1})
    put(s, "springer-trapspringer", "z1")
    card = put(s, "flashbulb", "hand")
    keep(s)
    assert not any(a.get("card") == card for a in s.legal_actions(manual=False))


def test_gybolg_berserker_and_strikemode_add_attacks_601():
    s = game({"gybolg-force-of-nature": 1, "strikemode": 1}, mission="defeat-ymir-frost-king-145")
    gybolg = put(s, "gybolg-force-of-nature", "z3")
    strike = put(s, "strikemode", "hand")
    keep(s)
    act(s, "move", card=gybolg, to=4)
    choose(s, "yes")
    assert s.totals()[0] == 8  # 4 ATK + Berserker's 4 attacks
    act(s, "play", card=strike)
    assert s.totals()[0] == 12
    act(s, "pass")
    assert s.outcome.result == "win"


def test_furoji_draws_when_played_and_caliban_asks_for_a_discard_each_round():
    s = game({"furoji-calm-center": 1, "caliban-dantes-titan": 1})
    furoji = put(s, "furoji-calm-center", "hand")
    caliban = put(s, "caliban-dantes-titan", "z1")
    keep(s)
    hand = len(s.zones["hand"])
    act(s, "play", card=furoji)
    assert len(s.zones["hand"]) == hand  # played one, drew one
    act(s, "pass")
    assert s.pending is not None and "discard a card" in s.pending.prompt
    s.apply_action({"kind": "decline"})
    assert s.where[caliban] == "discard"  # "or you must eliminate me"


def _stack_deck(s, *top_down: int) -> None:
    """Put these cards on top of the deck, the first one on top."""
    for iid in reversed(top_down):
        act(s, "manual.move", card=iid, to="deck")


def test_the_lead_player_orders_simultaneous_start_of_round_powers_702():
    """Sophie (zone 1) and Grier (zone 3) both reveal the top card at the start of a round. Their
    order is yours (Huntik 702), not the zones': Grier first puts the Suit into his zone, then
    Sophie takes the action card into your hand."""
    s = game({"sophie-casterwill-heir-to-the-casterwills": 1, "grier-loyal-to-the-core": 1, "strikemode": 1})
    sophie = put(s, "sophie-casterwill-heir-to-the-casterwills", "z1")
    grier = put(s, "grier-loyal-to-the-core", "z3")
    suit, strike = put(s, "suit-ms-thorpe-venice-agent", "discard"), put(s, "strikemode", "discard")
    keep(s)
    _stack_deck(s, *s.zones["hand"][:2], suit, strike)  # round 2 draws two, then the powers reveal
    act(s, "pass")
    assert s.round == 2 and s.pending.op[0] == "order_triggers" and "702" in s.pending.prompt
    labels = dict(s.pending.options)
    assert len(labels) == 2 and "in zone 3" in labels[1] and "reveal the top card" in labels[1]
    choose(s, 1)  # Grier's first
    assert s.where[suit] == "z3" and s.where[strike] == "hand" and s.pending is None


def test_the_built_in_player_reveals_before_caliban_discards_702():
    """Sophie's reveal before Caliban's "discard a card or eliminate me", though Caliban is in zone 1:
    an action card she reveals can pay Caliban's cost."""
    s = game({"sophie-casterwill-heir-to-the-casterwills": 1, "caliban-dantes-titan": 1})
    put(s, "caliban-dantes-titan", "z1")
    put(s, "sophie-casterwill-heir-to-the-casterwills", "z2")
    keep(s)
    act(s, "pass")
    assert s.pending.op[0] == "order_triggers"
    answer = ENGINE.policy(s)
    assert "Sophie" in dict(s.pending.options)[answer["option"]]


def test_copies_in_one_zone_are_not_put_in_order_but_copies_in_two_zones_are_702():
    s = game({"grier-loyal-to-the-core": 3})
    a, b = put(s, "grier-loyal-to-the-core", "z1"), put(s, "grier-loyal-to-the-core", "z1")
    keep(s)
    act(s, "pass")
    assert s.pending is None or s.pending.op[0] != "order_triggers"  # the same power twice, in the same zone
    act(s, "manual.move", card=b, to="z4")
    act(s, "pass")  # a Suit revealed goes into the zone of the Grier whose power reveals it: that order is yours
    assert s.pending.op[0] == "order_triggers" and len(s.pending.options) == 2


def test_venadek_triggers_only_if_other_minor_heroes_are_in_play_as_the_round_starts_702():
    """"At the start of each round, if you have other minor heroes in play, eliminate me" (the
    rulebook's own example of an if-condition, Huntik 702): read as the power triggers, so a Suit that
    Grier's power puts into play afterwards does not eliminate Venadek."""
    s = game({"venadek-scruffy-scrapper": 1, "grier-loyal-to-the-core": 1})
    grier = put(s, "grier-loyal-to-the-core", "z1")
    venadek = put(s, "venadek-scruffy-scrapper", "z2")
    suit = put(s, "suit-ms-thorpe-venice-agent", "discard")
    keep(s)
    _stack_deck(s, *s.zones["hand"][:2], suit)
    act(s, "pass")
    assert s.where[suit] == "z1" and s.where[venadek] == "z2"
    act(s, "pass")  # now a minor hero was in play as the round started: Venadek goes
    if s.pending is not None and s.pending.op[0] == "order_triggers":
        choose(s, next(v for v, label in s.pending.options if "Venadek" in label))
    assert s.where[venadek] == "discard" and s.where[grier] == "z1"


def test_sabriels_counter_stops_a_ko_by_combat_attacks_only_602():
    """Supertough: "If I would be KO'd from combat attacks" — the attacks aimed at the combat's
    conclusion (Huntik 602). Retaliation KOs her during a combat, which is not a KO by combat attacks."""
    s = game({"sabriel-sophies-titan": 2, "retaliation": 1}, mission="defeat-ymir-frost-king-145")
    sabriel = put(s, "sabriel-sophies-titan", "hand")
    keep(s)
    act(s, "play", card=sabriel)  # she comes into play with her Survival counter
    act(s, "manual.move", card=sabriel, to="z4")
    act(s, "fight", card=sabriel)
    act(s, "pass")  # Ymir's 6 attacks at her (DEF 3): the counter comes off instead; her 5 KO Ymir (DEF 5)
    assert s.where[sabriel] == "z4" and s.feature_counters[sabriel]["survival"] == 0
    assert s.outcome.result == "win"

    s = game({"sabriel-sophies-titan": 2, "retaliation": 1}, mission="defeat-ymir-frost-king-145")
    sabriel = put(s, "sabriel-sophies-titan", "hand")
    springer = put(s, "springer-trapspringer", "z4")
    retaliation = put(s, "retaliation", "hand")
    keep(s)
    act(s, "play", card=sabriel)
    act(s, "manual.move", card=sabriel, to="z4")
    act(s, "fight", card=springer)
    act(s, "play", card=retaliation)
    choose(s, springer)  # eliminate a friendly hero in this combat ...
    choose(s, sabriel)  # ... to KO another target hero in this combat
    assert s.where[springer] == "discard" and s.where[sabriel] == "discard"
    assert s.outcome is None and s.combat is None  # no hero of yours is left in the combat: it ends


def test_texts_naming_cards_find_them_rassimov_lok_lambert_200():
    """"a Freelancer card", "a card not named Rassimov": a name, or a part of one (Huntik 200)."""
    s = game({"rassimov-dangerous-mind": 1, "lok-lambert-courageous-novice": 1, "freelancer-knightly-titan": 1},
             mission="take-the-bigfoot-captive")
    rassimov = put(s, "rassimov-dangerous-mind", "discard")
    lok = put(s, "lok-lambert-courageous-novice", "z5")
    freelancer = put(s, "freelancer-knightly-titan", "hand")
    keep(s)
    act(s, "power", card=rassimov, power="survivor")  # from the discard pile: discard a card not named Rassimov
    assert rassimov not in {v for v, _ in s.pending.options}
    choose(s, next(v for v, _ in s.pending.options if v != freelancer))
    assert s.where[rassimov] == "hand"
    act(s, "fight", card=lok)
    act(s, "power", card=lok, power="call-freelancer")  # put a Freelancer card from your hand into my zone
    choose(s, freelancer)
    assert s.where[freelancer] == "z5" and s.totals()[0] == 3 + 3


def test_eliminate_me_to_ko_a_stunned_hero_in_my_zone_uses_the_zone_it_left_400():
    s = game({"jeweled-colossus-heart-of-stone": 1, "springer-trapspringer": 1})
    colossus = put(s, "jeweled-colossus-heart-of-stone", "z2")
    springer = put(s, "springer-trapspringer", "z2")
    keep(s)
    act(s, "manual.stun", card=springer)
    act(s, "power", card=colossus, power="finishing-move")
    choose(s, springer)
    assert s.where[colossus] == "discard" and s.where[springer] == "discard"


def test_avoidance_makes_your_heroes_unblockable_this_round_403():
    s = game({"springer-trapspringer": 2, "avoidance": 1}, mission="defeat-ymir-frost-king-151")
    a = put(s, "springer-trapspringer", "z1")
    b = put(s, "springer-trapspringer", "z1")
    card = put(s, "avoidance", "hand")
    keep(s)
    assert not legal(s, "move", card=b, to=3)
    act(s, "play", card=card, hero=a)
    assert legal(s, "move", card=b, to=3)
    act(s, "pass")
    assert not legal(s, "move", card=b, to=3)  # "this round" ended (Huntik 501)


# --- missions ----------------------------------------------------------------------------------

def test_mission_option_names_keys_and_the_two_ymirs():
    assert find_mission("Deliver the Ring of Arc").key == "deliver-the-ring-of-art"
    assert find_mission("Deliver the Ring of Art").key == "deliver-the-ring-of-art"  # the catalogue's spelling
    assert find_mission("defeat-ymir-frost-king-151").number == "151"
    assert find_mission("Defeat Ymir: Frost King (145)").number == "145"
    assert find_mission("defeat ymir frost king (SAS 151)").number == "151"
    with pytest.raises(EngineError, match=r"2 missions are called .*\(145\).*\(151\)"):
        find_mission("Defeat Ymir: Frost King")
    with pytest.raises(EngineError, match="Solo turn structure"):
        find_mission("Get the Hammer Mjolnir")
    with pytest.raises(EngineError, match="no mission"):
        find_mission("Catch the Dragon")
    spec = ENGINE.option("mission")
    assert spec.kind == "choice" and len(spec.choices) == len(MISSIONS) == 15
    assert ENGINE.normalize_options({"mission": "escape-the-mansion"}) == {"mission": "Escape the Mansion"}


def test_idols_score_at_the_end_of_each_round_and_win_at_round_7_157():
    s = game({"springer-trapspringer": 2}, mission="control-the-idols-of-omeed")
    a = put(s, "springer-trapspringer", "z5")
    put(s, "springer-trapspringer", "z3")
    idol = [f for f in s.features("golden-idol") if s.zone_of(f) == 5][0]
    keep(s)
    act(s, "power", card=a, power="pickup", feature=idol)
    act(s, "pass")
    assert s.counters["points"] == 3 * 2 + 1  # zone 5 with an Idol scores twice, zone 3 once
    for _ in range(6):
        act(s, "pass")
    assert s.outcome.result == "win" and s.outcome.turn == 7


def test_tomb_is_won_at_the_end_of_round_3_with_no_defending_hero_there_152():
    s = game({}, mission="draw-the-enemy-away-from-the-tomb")
    keep(s)
    act(s, "pass")
    act(s, "pass")
    assert s.outcome is None
    act(s, "pass")
    assert s.outcome.result == "win" and s.outcome.turn == 3


def test_bigfoot_escapes_once_then_is_captured_156():
    s = game({"janus-knight-dark-charger": 2}, mission="take-the-bigfoot-captive")
    a, b = put(s, "janus-knight-dark-charger", "z5"), put(s, "janus-knight-dark-charger", "z5")
    keep(s)
    bigfoot = feature(s, "bigfoot")
    hand = len(s.zones["hand"])
    act(s, "fight", card=a)
    act(s, "pass")
    assert s.where[bigfoot] == "z5" and s.feature_counters[bigfoot]["escape"] == 0 and len(s.zones["hand"]) == hand + 1
    act(s, "fight", card=b)
    act(s, "pass")
    assert s.outcome.result == "win"


@pytest.mark.parametrize("key", list(MISSIONS))
def test_every_encoded_mission_is_won_by_an_automated_game(key):
    for seed in range(8):
        for name, deck in DECKS:
            state = play_out(new_game("huntik", deck, CAT, seed, {"mission": key}), max_actions=4000)
            if state.outcome.result == "win":
                assert 1 <= state.outcome.turn <= 7
                assert MISSIONS[key].label in state.outcome.reason
                return
    pytest.fail(f"no automated win on {MISSIONS[key].label}")


def test_random_games_of_every_mission_keep_the_bookkeeping_and_replay():
    """The generic invariant test plays the default mission; this plays each one briefly."""
    for number, key in enumerate(MISSIONS):
        name, deck = DECKS[number % len(DECKS)]
        s = new_game("huntik", deck, CAT, number, {"mission": key})
        rng = random.Random(number)
        while not s.is_terminal():
            assert s.check_invariants() == []
            actions = s.legal_actions()
            rules = s.legal_actions(manual=False)
            action = rng.choice(rules) if rules and rng.random() > 0.1 else rng.choice(actions)
            s.apply_action(json.loads(json.dumps(action)))
            json.dumps(s.view())
            assert len(s.actions) < 3000
        again = replay("huntik", deck, CAT, number, {"mission": key}, s.actions)
        assert again.view() == s.view()


# --- decks, coverage, command line --------------------------------------------------------------

def test_sample_decks_are_legal_and_built_by_us():
    from deckhub.commands.check import check

    assert len(DECKS) >= 2
    for name, _ in DECKS:
        path = f"data/huntik/decks/{name}"
        assert "built by DeckHub" in open(path, encoding="utf-8").readline()
        result = CliRunner().invoke(check, ["--game", "huntik", path])
        assert result.exit_code == 0, result.output


def test_coverage_reports_real_numbers():
    report = ENGINE.coverage(CAT)
    assert report["cards"] == 184
    assert report["full"] + report["partial"] + report["none"] == 184
    assert report["none"] == 4  # Get the Hammer Mjolnir and the three features only it uses
    assert report["abilities"]["no_effect"] > 0 and report["abilities"]["manual"] > 0
    statuses = {s for c in CAT for _, s in compile_card(c).abilities}
    assert statuses <= {AUTO, NO_EFFECT, MANUAL}


def test_goldfish_command_takes_the_mission_and_reports_the_round():
    from deckhub.commands.goldfish import goldfish

    path = "data/huntik/decks/evil-organization.txt"
    runner = CliRunner()
    result = runner.invoke(goldfish, ["--game", "huntik", "--deck", path, "--mission", "Defeat Ymir: Frost King (145)",
                                      "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["result"] == "win" and 1 <= data["turn"] <= 7 and "Defeat Ymir: Frost King (145)" in data["reason"]
    again = replay("huntik", dict(DECKS)["evil-organization.txt"], CAT, 3, {"mission": "defeat-ymir-frost-king-145"},
                   data["actions"])
    assert again.outcome.turn == data["turn"]
    bad = runner.invoke(goldfish, ["--game", "huntik", "--deck", path, "--mission", "Defeat Ymir: Frost King"])
    assert bad.exit_code == 2 and "145" in bad.output and "151" in bad.output

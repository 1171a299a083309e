"""Kaijudo goldfish rules, each test citing the rulebook section it checks
(`../shared/rules/kaijudo-rulebook.md`), plus the published decks and the coverage numbers.

Positions are set up through the engine's own manual moves (a card put where the test needs it),
then played with rules actions.
"""
from __future__ import annotations

import pytest

from deckhub.core.cards import Card, Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import IllegalAction, get_engine, new_game, play_out
from deckhub.games.kaijudo.effects import STATICS, TABLES, compile_card, coverage, group_matcher
from deckhub.games import load_catalogue

CAT = load_catalogue("kaijudo")

# Test fixture, not a real card: a creature printed with both Breaker keywords (Kaijudo 10D says
# only the one that breaks the most applies). Kept out of the shipped catalogue.
FIXTURE_TWIN_BREAKER = Card(key="test-fixture-twin-breaker", game="kaijudo", name="Test Fixture Twin Breaker",
                            type="Creature", text="Fast Attack\nDouble Breaker\nTriple Breaker",
                            attrs={"level": 1, "civilizations": ["Fire"], "race": ["Berserker"], "power": "5000",
                                   "power_value": 5000})
FIXTURE_CAT = Catalogue("kaijudo", [*CAT, FIXTURE_TWIN_BREAKER])


def game(cards: dict[str, int], first: bool = True, seed: int = 1, catalogue: Catalogue = CAT, **options):
    deck = Deck("kaijudo", {"Deck": dict(cards)})
    return new_game("kaijudo", deck, catalogue, seed, {"first": first, **options})


def put(state, key: str, zone: str) -> int:
    """Move one copy of `key` into `zone` (never one an earlier `put` placed)."""
    placed = state.__dict__.setdefault("_placed_by_test", set())
    for where in ("deck", "shields", "hand", "discard", "mana"):
        for iid in state.zones[where]:
            if state.cards[iid].key == key and where != zone and iid not in placed:
                state.apply_action({"kind": "manual.move", "card": iid, "to": zone})
                placed.add(iid)
                return iid
    raise AssertionError(f"no spare {key}")


def mana(state, key: str, n: int) -> list[int]:
    ids = [put(state, key, "mana") for _ in range(n)]
    for iid in ids:
        if state.tapped[iid]:
            state.apply_action({"kind": "manual.tap", "card": iid})
    return ids


def step(state, kind: str, **fields) -> None:
    state.apply_action({"kind": kind, **fields})


def to_phase(state, phase: str) -> None:
    while state.phase != phase:
        step(state, "next")


def attacks(state) -> set[int]:
    return {a["card"] for a in state.legal_actions(manual=False) if a["kind"] == "attack"}


FILLER = {"toothed-grubling": 40}


# --- Kaijudo 3: starting the game ---------------------------------------------------------

def test_setup_five_shields_five_cards_and_first_player_skips_draw():
    """Kaijudo 3: 5 shields, 5-card hand; the player who plays first doesn't draw on turn 1."""
    first = game(FILLER, first=True)
    assert (first.turn, first.phase) == (1, "mana")
    assert len(first.zones["shields"]) == 5 and len(first.zones["hand"]) == 5 and len(first.zones["deck"]) == 30
    assert first.counters["dummy_shields"] == 5
    second = game(FILLER, first=False)
    assert len(second.zones["hand"]) == 6 and len(second.zones["deck"]) == 29
    to_phase(first, "attack")
    step(first, "next")  # turn 2: the first player draws from now on
    assert first.turn == 2 and len(first.zones["hand"]) == 6


def test_deck_out_loses_as_soon_as_the_deck_runs_out():
    """Kaijudo 7: you lose when you run out of cards in your deck (GUIDE §5: as soon as it does),
    not only when a draw is due: drawing the last card loses at once."""
    state = game({"toothed-grubling": 11}, first=True)  # 5 shields, 5 in hand, 1 left
    to_phase(state, "attack")
    step(state, "next")  # turn 2 draws the last card
    assert state.is_terminal()
    assert state.outcome.result == "loss" and state.outcome.turn == 2
    assert "empty deck" in state.outcome.reason and "Kaijudo 7" in state.outcome.reason
    assert len(state.zones["deck"]) == 0 and len(state.zones["hand"]) == 6


def test_deck_out_by_an_effect_loses_too():
    """Kaijudo 7: an effect that empties the deck (or a manual move) loses as well."""
    state = game({"toothed-grubling": 12}, first=True)  # 2 left in the deck
    for iid in list(state.zones["deck"]):
        if state.zones["deck"]:
            state.apply_action({"kind": "manual.move", "card": iid, "to": "mana"})
    assert state.outcome is not None and state.outcome.result == "loss" and state.outcome.turn == 1


# --- Kaijudo 5 and 10B: mana and civilizations --------------------------------------------------

def test_two_civilization_card_needs_both_civilizations_unlocked():
    """Kaijudo 5: a card of two civilizations needs each of them unlocked in the mana zone."""
    state = game({"skyvolt-mech": 3, "rain-cloud-kraken": 10, "aqua-seneschal": 10, "toothed-grubling": 17})
    mech = put(state, "skyvolt-mech", "hand")
    mana(state, "rain-cloud-kraken", 3)  # Light only
    to_phase(state, "main")
    assert {"kind": "summon", "card": mech} not in state.legal_actions()
    with pytest.raises(IllegalAction, match="Water"):
        step(state, "summon", card=mech)
    mana(state, "aqua-seneschal", 1)  # now Water too
    step(state, "summon", card=mech)
    assert state.where[mech] == "battle"


def test_a_civilization_locks_again_when_its_last_mana_card_leaves():
    """Kaijudo 5: what is unlocked follows the mana zone's cards now, after every move in or out."""
    state = game({"skyvolt-mech": 3, "rain-cloud-kraken": 10, "aqua-seneschal": 10, "toothed-grubling": 17})
    mech = put(state, "skyvolt-mech", "hand")
    mana(state, "rain-cloud-kraken", 3)
    water = mana(state, "aqua-seneschal", 1)[0]
    to_phase(state, "main")
    assert {"kind": "summon", "card": mech} in state.legal_actions()
    step(state, "manual.move", card=water, to="discard")
    assert state.view()["kaijudo"]["unlocked"] == ["Light"]
    assert state.clone().view()["kaijudo"]["unlocked"] == ["Light"]
    assert {"kind": "summon", "card": mech} not in state.legal_actions()
    with pytest.raises(IllegalAction, match="Water"):
        step(state, "summon", card=mech)


def test_charging_mana_once_and_two_civilization_cards_enter_tapped():
    """Kaijudo 10B: charge once a turn; the card's own text makes a two-civilization card enter tapped."""
    state = game({"skyvolt-mech": 3, "toothed-grubling": 37})
    mech = put(state, "skyvolt-mech", "hand")
    step(state, "charge", card=mech)
    assert state.where[mech] == "mana" and state.tapped[mech]
    assert state.view()["kaijudo"]["unlocked"] == ["Light", "Water"]
    other = state.zones["hand"][0]
    with pytest.raises(IllegalAction, match="once a turn"):
        step(state, "charge", card=other)


# --- Kaijudo 8 and 10D: summoning sickness, Fast Attack --------------------------------------

def test_summoning_sickness():
    """Kaijudo 8 / 10D: a creature can't attack on the turn it enters the battle zone."""
    state = game(FILLER)
    grub = put(state, "toothed-grubling", "hand")
    mana(state, "toothed-grubling", 3)
    to_phase(state, "main")
    step(state, "summon", card=grub)
    to_phase(state, "attack")
    assert grub not in attacks(state)
    with pytest.raises(IllegalAction, match="this turn"):
        step(state, "attack", card=grub)
    step(state, "next")
    to_phase(state, "attack")
    assert grub in attacks(state)


def test_fast_attack_attacks_the_turn_it_enters():
    """Kaijudo 12, Fast Attack: can attack on the turn it's put into the battle zone."""
    state = game({"draglide-the-swiftest": 8, "toothed-grubling": 32})
    fast = put(state, "draglide-the-swiftest", "hand")
    mana(state, "draglide-the-swiftest", 4)
    to_phase(state, "main")
    step(state, "summon", card=fast)
    to_phase(state, "attack")
    assert fast in attacks(state)
    step(state, "attack", card=fast)
    assert state.counters["dummy_shields"] == 4 and state.tapped[fast]


# --- Kaijudo 10D, 12: breakers, the last shield ---------------------------------------------------

def test_double_and_triple_breaker_breaks_three():
    """Kaijudo 10D / 12: with several Breaker abilities only the one that breaks the most applies."""
    state = game({"test-fixture-twin-breaker": 4, "toothed-grubling": 36}, catalogue=FIXTURE_CAT)
    twin = put(state, "test-fixture-twin-breaker", "hand")
    mana(state, "test-fixture-twin-breaker", 1)
    to_phase(state, "main")
    step(state, "summon", card=twin)
    to_phase(state, "attack")
    assert state.breaks(twin) == 3
    step(state, "attack", card=twin)
    assert state.counters["dummy_shields"] == 2


def test_triple_breaker_granted_double_breaker_still_breaks_three():
    """Kaijudo 10D with real cards: Magma Madness gives Supreme Dragon Bolshack (Triple Breaker) "Double Breaker"."""
    state = game({"supreme-dragon-bolshack": 6, "magma-madness": 6, "toothed-grubling": 28})
    dragon = put(state, "supreme-dragon-bolshack", "hand")
    spell = put(state, "magma-madness", "hand")
    mana(state, "supreme-dragon-bolshack", 3)
    mana(state, "magma-madness", 3)
    mana(state, "toothed-grubling", 6)
    to_phase(state, "main")
    step(state, "summon", card=dragon)
    step(state, "cast", card=spell)
    assert state.pending is not None  # choose the creature
    step(state, "choose", option=dragon)
    assert state.where[spell] == "discard"  # Kaijudo 9: the spell resolves, then goes to the discard pile
    to_phase(state, "attack")
    assert state.breaks(dragon) == 3
    step(state, "attack", card=dragon)
    assert state.counters["dummy_shields"] == 2


def test_breaking_the_last_shield_is_not_a_win_the_next_attack_is():
    """Kaijudo 3 / 10D: breaking the last shield doesn't win; attacking with no shields left does."""
    state = game(FILLER)
    grubs = [put(state, "toothed-grubling", "battle") for _ in range(2)]
    for _ in range(4):
        step(state, "manual.counter", counter="dummy_shields", delta=-1)
    to_phase(state, "attack")
    step(state, "next")  # end turn 1: the creatures are no longer new
    to_phase(state, "attack")
    step(state, "attack", card=grubs[0])
    assert state.counters["dummy_shields"] == 0 and not state.is_terminal()
    step(state, "attack", card=grubs[1])
    assert state.is_terminal()
    assert state.outcome.result == "win" and state.outcome.turn == 2


def test_a_breaker_breaks_no_more_shields_than_remain():
    """Kaijudo 10D: extra shield breaks beyond the shields left are ignored."""
    state = game({"test-fixture-twin-breaker": 4, "toothed-grubling": 36}, catalogue=FIXTURE_CAT)
    twin = put(state, "test-fixture-twin-breaker", "battle")
    for _ in range(3):
        step(state, "manual.counter", counter="dummy_shields", delta=-1)
    to_phase(state, "attack")
    step(state, "attack", card=twin)
    assert state.counters["dummy_shields"] == 0 and not state.is_terminal()


# --- Kaijudo 12: Guard, Skirmisher, Powerful Attack -----------------------------------------

def test_guard_cannot_attack():
    """Kaijudo 12, Guard: this creature can't attack."""
    state = game({"cyber-sprite": 4, "toothed-grubling": 36})
    sprite = put(state, "cyber-sprite", "battle")
    step(state, "next")
    to_phase(state, "attack")
    assert sprite not in attacks(state)
    with pytest.raises(IllegalAction, match="Guard"):
        step(state, "attack", card=sprite)


def test_skirmisher_cannot_attack_the_player():
    """Kaijudo 12, Skirmisher: attacks only creatures, and the dummy has none."""
    state = game({"rain-cloud-kraken": 4, "toothed-grubling": 36})
    kraken = put(state, "rain-cloud-kraken", "battle")
    step(state, "next")
    to_phase(state, "attack")
    assert kraken not in attacks(state)
    with pytest.raises(IllegalAction, match="Skirmisher"):
        step(state, "attack", card=kraken)


def test_powerful_attack_adds_power_only_while_attacking():
    """Kaijudo 12, Powerful Attack +N: +N power while attacking."""
    state = game({"pyro-trooper": 4, "toothed-grubling": 36})
    trooper = put(state, "pyro-trooper", "battle")
    assert state.power(trooper) == 3000
    state.attacking = trooper  # the engine sets this for the length of an attack
    assert state.power(trooper) == 3000 + compile_card(CAT.get("pyro-trooper")).powerful_attack > 3000
    state.attacking = None


# --- Kaijudo 8: evolution -----------------------------------------------------------------------

def test_evolution_goes_on_the_named_race_attacks_at_once_and_the_stack_leaves_together():
    """Kaijudo 8: evolves onto a creature of the race its Evolution ability names; can attack the
    turn it enters (even onto a creature that entered this turn); the cards beneath leave with it."""
    state = game({"emperor-axon": 3, "aqua-seneschal": 3, "piercing-judgment": 3, "toothed-grubling": 31})
    axon = put(state, "emperor-axon", "hand")
    lord = put(state, "aqua-seneschal", "hand")
    bounce = put(state, "piercing-judgment", "hand")
    mana(state, "aqua-seneschal", 2)
    mana(state, "piercing-judgment", 2)
    mana(state, "toothed-grubling", 7)
    to_phase(state, "main")
    with pytest.raises(IllegalAction, match="evolves onto"):
        step(state, "summon", card=axon)
    step(state, "summon", card=lord)
    assert {"kind": "summon", "card": axon, "onto": [lord]} in state.legal_actions()
    with pytest.raises(IllegalAction):
        step(state, "summon", card=axon)  # an evolution names its base
    step(state, "summon", card=axon, onto=[lord])
    assert state.creatures() == [axon] and state.under[axon] == [lord]
    battle = state.view()["zones"]["battle"]["cards"]
    assert [c["id"] for c in battle] == [axon] and battle[0]["under"][0]["id"] == lord
    to_phase(state, "attack")
    assert axon in attacks(state)
    step(state, "attack", card=axon)
    assert state.counters["dummy_shields"] == 3  # Double Breaker
    # next turn: Piercing Judgment returns the evolution creature; the creature beneath goes too
    step(state, "next")
    to_phase(state, "main")
    step(state, "cast", card=bounce)
    step(state, "choose", option=axon)
    assert state.where[axon] == "hand" and state.where[lord] == "hand"
    assert state.check_invariants() == []


def test_vortex_evolution_needs_two_creatures():
    """Kaijudo 8: a Vortex evolution creature goes on two creatures of the civilizations it names."""
    vortex = next(c for c in CAT if c.type == "Vortex Evolution Creature"
                  and compile_card(c).automation == "full" and compile_card(c).evolution[0] == 2)
    count, matchers = compile_card(vortex).evolution
    civ = next(m[1] for m in matchers if m[0] == "civ")
    base = next(c for c in CAT if c.type == "Creature" and c.attrs.get("civilizations") == [civ.title()]
                and compile_card(c).automation == "full")
    state = game({vortex.key: 3, base.key: 3, **{k: 12 for k in _mono(vortex.attrs["civilizations"])}, "toothed-grubling": 20})
    evo = put(state, vortex.key, "hand")
    first_base = put(state, base.key, "battle")
    for key in _mono(vortex.attrs["civilizations"]):
        mana(state, key, 5)
    to_phase(state, "main")
    assert not any(a.get("card") == evo for a in state.legal_actions(manual=False))
    second_base = put(state, base.key, "battle")
    summons = [a for a in state.legal_actions(manual=False) if a.get("card") == evo]
    assert summons == [{"kind": "summon", "card": evo, "onto": sorted([first_base, second_base])}]
    step(state, **summons[0])
    assert sorted(state.under[evo]) == sorted([first_base, second_base])


def _mono(civs: list[str]) -> list[str]:
    """One single-civilization creature key per civilization (to unlock it)."""
    return [next(c.key for c in CAT if c.type == "Creature" and c.attrs.get("civilizations") == [civ]) for civ in civs]


# --- Kaijudo 9: spells ----------------------------------------------------------------------------

def test_spell_resolves_then_goes_to_the_discard_pile():
    """Kaijudo 9: do what the spell says, then put it into the discard pile."""
    state = game({"logos-scan": 4, "toothed-grubling": 36})
    scan = put(state, "logos-scan", "hand")
    mana(state, "logos-scan", 3)
    to_phase(state, "main")
    hand = len(state.zones["hand"])
    step(state, "cast", card=scan)
    assert len(state.zones["hand"]) == hand - 1 + 2
    assert state.where[scan] == "discard"
    assert all(state.tapped[i] for i in state.zones["mana"])


# --- Kaijudo 13: the rulebook's worked examples ------------------------------------------------

def _tap(state, iid):
    step(state, "manual.tap", card=iid)
    assert state.tapped[iid]


def test_red_eye_scorpion_goes_to_the_mana_zone_and_is_never_banished():
    """Kaijudo 13, "Replacement effects" (Red-Eye Scorpion): when a creature would be banished and its
    own text puts it into the mana zone instead, it goes straight there, never through the discard
    pile, and it was not banished: "whenever one of your creatures is banished" does not trigger
    (Olgate, Knight of Shadow untaps then). A creature that is banished does trigger it."""
    state = game({"red-eye-scorpion": 4, "olgate-knight-of-shadow": 4, "toothed-grubling": 32})
    scorpion = put(state, "red-eye-scorpion", "battle")
    olgate = put(state, "olgate-knight-of-shadow", "battle")
    grub = put(state, "toothed-grubling", "battle")
    _tap(state, olgate)
    state.banish(scorpion)
    state.run()
    assert state.where[scorpion] == "mana" and scorpion not in state.zones["discard"]
    assert state.tapped[olgate]
    state.banish(grub)
    state.run()
    assert state.where[grub] == "discard" and not state.tapped[olgate]


def _summon_ripper_reaper(state) -> int:
    reaper = put(state, "ripper-reaper", "hand")
    mana(state, "ripper-reaper", 5)
    to_phase(state, "main")
    step(state, "summon", card=reaper)
    return reaper


def test_ripper_reaper_may_banish_aqua_knight_which_returns_to_the_hand():
    """Kaijudo 13, "Replacement effects and 'if you do'" (Ripper Reaper, Aqua Knight): you may choose one
    of your other creatures to banish; Aqua Knight's own text returns it to your hand instead, and it
    was not banished (Olgate stays tapped). The opponent's part banishes nothing: the dummy has no creatures."""
    state = game({"ripper-reaper": 8, "aqua-knight": 4, "olgate-knight-of-shadow": 4, "toothed-grubling": 24})
    knight = put(state, "aqua-knight", "battle")
    olgate = put(state, "olgate-knight-of-shadow", "battle")
    _tap(state, olgate)
    reaper = _summon_ripper_reaper(state)
    assert state.pending.op[0] == "sacrifice" and state.pending.optional
    assert {v for v, _ in state.pending.options} == {knight, olgate}  # "other": never Ripper Reaper itself
    step(state, "choose", option=knight)
    assert state.where[knight] == "hand" and state.tapped[olgate] and state.where[reaper] == "battle"
    assert state.pending is None


def test_ripper_reaper_can_be_summoned_without_paying():
    """Kaijudo 13: the banish is optional; declining it leaves every creature where it is."""
    state = game({"ripper-reaper": 8, "aqua-knight": 4, "toothed-grubling": 28})
    knight = put(state, "aqua-knight", "battle")
    _summon_ripper_reaper(state)
    step(state, "decline")
    assert state.where[knight] == "battle" and state.pending is None


def _attack_with_tactician(state, other_key):
    tactician = put(state, "nether-tactician", "battle")
    other = put(state, other_key, "battle")
    to_phase(state, "attack")
    step(state, "next")  # a new turn: both may attack
    to_phase(state, "attack")
    step(state, "attack", card=tactician)
    assert state.pending.op[0] == "sacrifice"
    return tactician, other


def test_if_you_do_cares_that_you_paid_not_what_became_of_the_card():
    """Kaijudo 13 (Ripper Reaper's example, played with Nether Tactician: "you may banish one of your
    other creatures. If you do, this creature breaks one of your opponent's shields"): Aqua Knight paid
    for it goes back to your hand, and the shield is broken all the same."""
    state = game({"nether-tactician": 4, "aqua-knight": 4, "toothed-grubling": 32})
    _, knight = _attack_with_tactician(state, "aqua-knight")
    step(state, "choose", option=knight)
    assert state.where[knight] == "hand"
    assert state.counters["dummy_shields"] == 5 - 1 - 1  # the ability's shield, then the attack's


def test_a_trigger_waits_for_the_effect_that_set_it_off():
    """Kaijudo 13, "Triggered abilities": an effect is carried out whole before the abilities it triggers.
    Ghost Spy banished to pay Nether Tactician's cost: the shield breaks first, then Ghost Spy's
    "when this creature is banished" offers its draw (its opponent's discard is no effect)."""
    state = game({"nether-tactician": 4, "ghost-spy": 4, "toothed-grubling": 32})
    _, spy = _attack_with_tactician(state, "ghost-spy")
    step(state, "choose", option=spy)
    assert state.where[spy] == "discard" and state.counters["dummy_shields"] == 4
    assert state.pending.op[0] == "may" and state.pending.source == spy
    hand = len(state.zones["hand"])
    step(state, "choose", option="yes")
    assert len(state.zones["hand"]) == hand + 1 and state.counters["dummy_shields"] == 3


def test_the_built_in_player_pays_with_a_creature_only_when_it_cannot_attack():
    """Trading a creature that could attack for one shield gains nothing; one that cannot attack this turn is worth it."""
    from deckhub.games.kaijudo.policy import policy

    state = game({"nether-tactician": 4, "ghost-spy": 4, "toothed-grubling": 32})
    _attack_with_tactician(state, "ghost-spy")
    assert policy(state) == {"kind": "decline"}  # Ghost Spy can still attack this turn
    state = game({"nether-tactician": 4, "ghost-spy": 4, "toothed-grubling": 32})
    _, spy = _attack_with_tactician(state, "ghost-spy")
    state.tapped[spy] = True
    assert policy(state) == {"kind": "choose", "option": spy}


# --- card text automation --------------------------------------------------------------------

def test_may_draw_then_discard_is_a_choice_resolved_in_order():
    """Tide Seer: "When this creature enters the battle zone, you may draw a card. If you do, discard a card." """
    state = game({"tide-seer": 6, "toothed-grubling": 34})
    seer = put(state, "tide-seer", "hand")
    mana(state, "tide-seer", 2)
    to_phase(state, "main")
    hand = len(state.zones["hand"])
    step(state, "summon", card=seer)
    assert state.pending.optional and state.view()["pending"]["options"] == [{"value": "yes", "label": "Yes"}]
    step(state, "choose", option="yes")
    assert len(state.zones["hand"]) == hand  # summoned one, drew one
    discard = state.pending.options[0][0]
    with pytest.raises(IllegalAction, match="must be answered"):
        step(state, "decline")
    step(state, "choose", option=discard)
    assert state.where[discard] == "discard" and state.pending is None


def test_search_and_look_effects_move_the_chosen_card():
    """Crystal Memory (search, then shuffle) and Search the Depths (top 4: one to hand, rest to the bottom)."""
    state = game({"crystal-memory": 4, "search-the-depths": 4, "logos-scan": 12, "toothed-grubling": 20})
    memory = put(state, "crystal-memory", "hand")
    depths = put(state, "search-the-depths", "hand")
    mana(state, "logos-scan", 4)
    mana(state, "toothed-grubling", 3)
    to_phase(state, "main")
    step(state, "cast", card=memory)
    labels = {label for _, label in state.pending.options}
    assert "Logos Scan" in labels and len(labels) == len(state.pending.options)  # one option per distinct card
    scan = next(v for v, label in state.pending.options if label == "Logos Scan")
    step(state, "choose", option=scan)
    assert state.where[scan] == "hand" and state.where[memory] == "discard"
    top4 = state.zones["deck"][-4:]
    step(state, "cast", card=depths)
    assert {v for v, _ in state.pending.options} == set(top4)
    chosen = top4[0]
    step(state, "choose", option=chosen)
    assert state.where[chosen] == "hand"
    assert set(state.zones["deck"][:3]) == set(top4[1:])  # the rest went to the bottom


def test_conditional_grant_gives_fast_attack():
    """Hyperspeed Dragon: while you have another Armored Dragon, all your Armored Dragons have Fast Attack."""
    state = game({"hyperspeed-dragon": 4, "moorna-gatling-dragon": 4, "toothed-grubling": 32})
    hyper = put(state, "hyperspeed-dragon", "hand")
    moorna = put(state, "moorna-gatling-dragon", "hand")
    mana(state, "hyperspeed-dragon", 3)
    mana(state, "toothed-grubling", 9)
    to_phase(state, "main")
    step(state, "summon", card=hyper)
    assert state.sick(hyper)  # alone: no other Armored Dragon yet
    step(state, "summon", card=moorna)
    assert not state.sick(hyper) and not state.sick(moorna)
    to_phase(state, "attack")
    assert attacks(state) == {hyper, moorna}


def test_unautomated_text_is_flagged_in_the_view():
    manual = next(c for c in CAT if c.type == "Creature" and compile_card(c).automation == "none")
    state = game({manual.key: 4, "toothed-grubling": 36})
    iid = put(state, manual.key, "hand")
    card = next(c for c in state.view()["zones"]["hand"]["cards"] if c["id"] == iid)
    assert card["automated"] == "none" and card["manual_text"]
    vanilla = next(c for c in state.view()["zones"]["hand"]["cards"] if c["key"] == "toothed-grubling")
    assert vanilla["automated"] == "full" and vanilla["manual_text"] == []


def test_coverage_counts_every_distinct_card():
    report = coverage(CAT)
    assert report["cards"] == len(CAT) == 1136
    assert report["full"] + report["partial"] + report["none"] == report["cards"]
    assert report["vanilla"] == sum(1 for c in CAT if not c.text)
    assert report["full"] >= 700  # measured: see the coverage command
    top = report["top_unautomated"]
    assert top and all(t["cards"] >= 1 and t["phrase"] for t in top)
    assert compile_card(CAT.get("logos-scan")).automation == "full"
    assert get_engine("kaijudo").coverage(CAT) == report


# Rows of the pattern tables that no shipped card text reads (kept for texts players supply): each
# is tested with an example of the text it is for.
ROW_EXAMPLES = {
    ("kaijudo sentences", "they get blocker"): 'they get "blocker" until the start of your next turn',
    ("kaijudo sentences", "shuffle your deck"): "then shuffle your deck",
}


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
def test_every_pattern_row_reads_a_catalogue_text_or_its_own_example(table):
    """The if-chains are a table: coverage counts what each row reads; a row no card reads must
    read its example (and no earlier row may take the example from it)."""
    counts = coverage(CAT)["patterns"][table.name]
    assert list(counts) == [row.name for row in table]
    for row in table:
        if counts[row.name] == 0:
            example = ROW_EXAMPLES[(table.name, row.name)]
            args = {"kaijudo static abilities": (compile_card(CAT.get("toothed-grubling")),),
                    "kaijudo triggers": (compile_card(CAT.get("toothed-grubling")), [])}.get(table.name, ())
            assert table.which(example, *args) == row.name
    assert sum(counts.values()) > len(table)


def test_an_evolution_row_fills_the_program_and_the_keyword_row_wins_first():
    prog = compile_card(CAT.get("toothed-grubling"))
    assert STATICS.which("double breaker", prog) == "keyword" and prog.breaker == 2
    assert STATICS.which("evolution - put on one of your dragons", prog) == "evolution"
    assert prog.evolution == (1, (group_matcher("dragons"),))
    assert STATICS.which("this creature wins every game", prog) is None


# --- the built-in policy and the published decks -----------------------------------------------

@pytest.mark.parametrize("name,deck", get_engine("kaijudo").decks(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_published_deck_wins_an_automated_goldfish(name, deck):
    for seed in range(5):
        state = play_out(new_game("kaijudo", deck, CAT, seed, {}))
        assert state.outcome.result == "win", (name, seed, state.outcome)
        assert state.outcome.turn <= 12


def test_bad_options_and_decks_are_refused_clearly():
    from deckhub.core.engine import EngineError

    with pytest.raises(EngineError, match="no option 'mission'"):
        game(FILLER, mission="Escape the Mansion")
    with pytest.raises(EngineError, match="not in the Kaijudo catalogue"):
        game({"no-such-card": 40})


# --- command line -----------------------------------------------------------------------------

def _published_path():
    from deckhub.importers.catalogue import data_root

    return str(sorted((data_root() / "kaijudo" / "decks").glob("*.o8d"))[0])


def test_goldfish_command_second_player():
    """(Determinism and replay of the command: tests/test_engine_invariants.py, for every game.)"""
    import json

    from click.testing import CliRunner

    from deckhub.commands.goldfish import goldfish

    path = _published_path()
    second = json.loads(CliRunner().invoke(goldfish, ["--game", "kaijudo", "--deck", path, "--seed", "11", "--second", "--json"]).output)
    assert second["log"][0].endswith("you go second")


def test_goldfish_command_text_and_refusals():
    from click.testing import CliRunner

    from deckhub.commands.goldfish import goldfish

    path = _published_path()
    runner = CliRunner()  # click 8.2+: `output` holds standard output and error together
    text = runner.invoke(goldfish, ["--game", "kaijudo", "--deck", path])
    assert text.exit_code == 0 and text.output.splitlines()[-1].startswith("Result: win on turn ")
    for args, message in ((["--mission", "Escape the Mansion"], "no option 'mission'"),
                          (["--option", "turn_limit=many"], "whole number"),
                          (["--option", "nonsense"], "KEY=VALUE")):
        bad = runner.invoke(goldfish, ["--game", "kaijudo", "--deck", path, *args])
        assert bad.exit_code == 2 and message in bad.output
    limited = runner.invoke(goldfish, ["--game", "kaijudo", "--deck", path, "--option", "turn_limit=2"])
    assert limited.exit_code == 0 and "Result: loss on turn 2" in limited.output
    missing = runner.invoke(goldfish, ["--game", "no-such-game", "--deck", path])
    assert missing.exit_code == 2


def test_goldfish_command_refuses_an_unreadable_deck(tmp_path):
    from click.testing import CliRunner

    from deckhub.commands.goldfish import goldfish

    deck = tmp_path / "bad.txt"
    deck.write_text("3 No Such Card Anywhere\n")
    result = CliRunner().invoke(goldfish, ["--game", "kaijudo", "--deck", str(deck)])
    assert result.exit_code == 2 and "line 1" in result.output


def test_coverage_command_reports_the_real_numbers():
    import json

    from click.testing import CliRunner

    from deckhub.commands.goldfish import coverage as coverage_command

    runner = CliRunner()
    data = json.loads(runner.invoke(coverage_command, ["--game", "kaijudo", "--json"]).output)
    assert data == json.loads(json.dumps(coverage(CAT)))
    text = runner.invoke(coverage_command, ["--game", "kaijudo"]).output
    assert f"fully automated: {data['full']}" in text and f"not automated: {data['none']}" in text
    assert "1136 distinct cards" in text



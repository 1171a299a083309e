"""Card text read right (issue 17): each error a rules audit found, with the rule or the card text
it breaks, and the class guards over whole catalogues. TEST FIXTURE cards are invented; the text
they carry is the wording the audit quoted."""
from __future__ import annotations

import re

import pytest

from deckhub.core.cards import Card, Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.effects import AUTO, MANUAL, NO_EFFECT
from deckhub.core.engine import new_game
from deckhub.games.neopets_tcg.contest import ARENAS
from deckhub.games.neopets_tcg.effects import PAID_TYPES, compile_card as neo_compile
from deckhub.games import load_catalogue
from test_neopets_engine import Dice, choose, clear_arenas, ids, to_main

NEO = "neopets-tcg"


def neo_card(key, type_, text=None, **attrs):
    """A TEST FIXTURE Neopets TCG card."""
    return Card(key=key, game=NEO, name="Fixture " + key, type=type_, text=text, attrs=attrs)


# --------------------------------------------------------------------------- Neopets TCG

def test_sentences_are_split_before_a_bonus_too():
    """'+2 strength. +2 agility.' is two bonuses, not one unread sentence worth +0/+0."""
    prog = neo_compile(neo_card("two", "Equipment", "+2 strength. +2 agility."))
    assert [s for _, s in prog.abilities] == [AUTO, AUTO]
    assert prog.bonus == {"strength": 2, "agility": 2, "magic": 0, "intelligence": 0}


def test_a_tapping_cost_before_a_bonus_keeps_both():
    """'Tap 1 of your Neopets to play this. +2 strength.': the cost is read, so the Equipment is not
    offered with every Neopet tapped, and the bonus is +2, not +0."""
    prog = neo_compile(neo_card("tapper", "Equipment", "Tap 1 of your Neopets to play this. +2 strength."))
    assert prog.tap == "any" and prog.bonus["strength"] == 2 and prog.automation == "full"


@pytest.mark.parametrize("text, arenas", [
    ("+2 strength for each Neopet you have in play.", {"strength"}),
    ("Your Neopet gets +1 to all stats while it is tapped.", set(ARENAS)),
    ("If you have a Fire Neopet, +3 magic.", {"magic"}),
])
def test_a_bonus_no_pattern_read_is_unknown_never_a_silent_zero(text, arenas):
    prog = neo_compile(neo_card("odd", "Equipment", text))
    assert prog.automation != "full"
    assert {a for a in ARENAS if prog.bonus[a] is None} == arenas
    assert all(prog.bonus[a] == 0 for a in ARENAS if a not in arenas)


@pytest.mark.parametrize("text", ["Tap 2 of your Neopets to play this.",
                                  "To play this, tap a Neopet that has an Equipment attached."])
def test_a_cost_no_pattern_read_is_unknown_never_no_cost(text):
    for type_ in ("Equipment", "Item", "Something Has Happened!"):
        prog = neo_compile(neo_card("cost", type_, text))
        assert prog.tap is None and prog.automation != "full"


def test_an_unread_cost_is_asked_for_like_any_unknown_value():
    from deckhub.games.neopets_tcg.state import NeopetsState

    for type_ in ("Item", "Something Has Happened!", "Location", "Equipment"):
        card = neo_card("cost", type_, "Tap 2 of your Neopets to play this.", bank_value=1)
        assert "tap_to_play" in NeopetsState.needed_values(card)
        read = neo_card("read", type_, "Tap 1 of your Neopets to play this.", bank_value=1)
        assert "tap_to_play" not in NeopetsState.needed_values(read)


def test_every_neopets_card_has_no_silent_bonus_or_cost():
    """The class guard over the whole catalogue (and each card with a bonus-like sentence added):
    a sentence no pattern read never leaves a 0 bonus or a 'none' cost behind."""
    for card in load_catalogue(NEO):
        for extra in (None, "+2 strength for each card in your hand.", "Tap 2 of your Neopets to play this."):
            text = card.text if extra is None else " ".join(t for t in (card.text, extra) if t)
            if text is None:
                continue
            attrs = {k: v for k, v in card.attrs.items() if k != "tap_to_play" and not k.endswith("_bonus")}
            prog = neo_compile(Card(card.key, NEO, card.name, type=card.type, text=text, attrs=attrs))
            for sentence, status in prog.abilities:
                if status is MANUAL and "strength" in sentence and card.type in ("Equipment", "Item"):
                    assert prog.bonus["strength"] is None, (card.key, sentence)
                if status is MANUAL and sentence.startswith("Tap 2") and card.type in PAID_TYPES:
                    assert prog.tap is None, (card.key, sentence)


def test_neopets_coverage_counts_the_bonuses_and_costs_no_pattern_read():
    from deckhub.games.neopets_tcg.effects import coverage

    cards = [neo_card("a", "Equipment", "+2 strength for each Neopet you have in play."),
             neo_card("b", "Item", "Tap 2 of your Neopets to play this."), neo_card("c", "Equipment", "+1 magic.")]
    assert coverage(cards)["self_checks"] == {"stat bonus no pattern read (unknown)": 1,
                                              "tapping cost no pattern read (unknown)": 1}


def test_you_and_your_opponent_each_draw_still_draws_you_two():
    prog = neo_compile(neo_card("both", "Something Has Happened!", "You and your opponent each draw 2 cards."))
    assert prog.on_play == (("draw", 2),) and prog.abilities[0][1] is AUTO


def _neo_game(cards, stack, deck, seed=1):
    cat = Catalogue(NEO, cards)
    d = Deck(NEO)
    for key in stack:
        d.add("Neopet Stack", key)
    for key in deck:
        d.add("Deck", key)
    return to_main(new_game(NEO, d, cat, seed, {"first": True}))


PETS = [neo_card("pet", "Basic Neopet", species="Blorb", faerie="Fire", strength=5, agility=4, magic=3, intelligence=2),
        neo_card("villain", "Villain", strength=9, agility=9, magic=9, intelligence=9),
        neo_card("taxing-item", "Item", "Tap 1 of your Neopets to play this. +4 strength.", bank_value=1),
        neo_card("filler", "Item", bank_value=1, strength_bonus=0, agility_bonus=0, magic_bonus=0, intelligence_bonus=0)]


def _move(state, iid, zone):
    state.apply_action({"kind": "manual.move", "card": iid, "to": zone})


def _take(state, key, zone):
    """A copy of `key`, put into `zone` by a manual move unless it is there already."""
    iid = ids(state, key)[0]
    if state.where[iid] != zone:
        _move(state, iid, zone)
    return iid


def test_an_items_tapping_cost_is_paid_in_a_villain_contest():
    """An Item that taps a Neopet to play is offered only with an untapped Neopet to tap, and taps it."""
    state = _neo_game(PETS, ["pet"] * 4, ["villain"] + ["taxing-item"] * 2 + ["filler"] * 10)
    clear_arenas(state)
    a, b = ids(state, "pet")[:2]
    _move(state, a, "strength")
    villain = ids(state, "villain")[0]
    _move(state, villain, "strength")
    item = ids(state, "taxing-item")[0]
    _move(state, item, "hand")
    # no other untapped Neopet: the Item cannot be played
    state.rng = Dice(1)
    state.apply_action({"kind": "contest", "arena": "strength", "with": [a]})
    assert state.pending.op[0] == "villain_item"  # the filler Items in hand may be played
    assert not [v for v, _ in state.pending.options if isinstance(v, list) or v == item]
    state.apply_action({"kind": "decline"})
    assert state.where[villain] == "strength"  # 5 + 1 loses to 9
    # with an untapped Neopet elsewhere, it is offered tapping that Neopet
    state.tapped[a] = False  # a new turn's untap, by hand
    _move(state, b, "magic")
    state.tapped[b] = False
    state.rng = Dice(6)
    state.apply_action({"kind": "contest", "arena": "strength", "with": [a]})
    assert state.pending.op[0] == "villain_item"
    assert [v for v, _ in state.pending.options if isinstance(v, list)] == [[i, b] for i in ids(state, "taxing-item", "hand")]
    choose(state, [item, b])
    assert state.tapped[b] and state.where[villain] == "discard"  # 5 + 4 + 6 beats 9


def test_move_one_of_your_neopets_taps_an_untapped_one():
    """Glossary, 'move': tap one of your untapped Neopets and put it in a new arena."""
    map_card = neo_card("map", "Something Has Happened!", "Move 1 of your Neopets to another arena.")
    state = _neo_game(PETS + [map_card], ["pet"] * 4, ["map"] * 2 + ["filler"] * 10)
    clear_arenas(state)
    a, b = ids(state, "pet")[:2]
    _move(state, a, "strength")
    _move(state, b, "magic")
    state.tapped[a], state.tapped[b] = True, False
    card = ids(state, "map")[0]
    _move(state, card, "hand")
    state.apply_action({"kind": "happen", "card": card})
    assert state.pending.op[0] == "move_one"
    assert {v[0] for v, _ in state.pending.options} == {b}  # the tapped Neopet cannot move
    choose(state, [b, "agility"])
    assert state.where[b] == "agility" and state.tapped[b]


# issue 31: text players type or propose, read clause by clause, with its costs and groups

@pytest.mark.parametrize("type_, prefix", [("Something Has Happened!", ""), ("Equipment", "When you play this card, ")])
def test_a_clause_about_the_opponent_is_no_effect_alone_and_yours_still_draws(type_, prefix):
    """'Draw 2 cards and your opponent discards a card.': the dummy has no hand, so only that clause
    is of no effect; your 2 cards are still drawn (never the whole sentence dropped)."""
    prog = neo_compile(neo_card("mixed", type_, prefix + "Draw 2 cards and your opponent discards a card.", bank_value=1))
    assert prog.on_play == (("draw", 2),) and prog.automation == "full"
    assert [s for _, s in prog.abilities] == [AUTO, NO_EFFECT]
    assert prog.abilities[0][0] == prefix + "Draw 2 cards"


def test_a_clause_of_yours_no_pattern_reads_stays_manual_on_its_own():
    prog = neo_compile(neo_card("part", "Something Has Happened!",
                                "Draw a card and shuffle your discard pile into your deck."))
    assert prog.on_play == (("draw", 1),)
    assert prog.abilities == [("Draw a card", AUTO), ("shuffle your discard pile into your deck", MANUAL)]
    assert prog.automation == "partial"
    # a "you may" covers every clause after it: one choice, never a draw that is not optional
    may = neo_compile(neo_card("may", "Something Has Happened!", "You may draw 2 cards and your opponent draws a card."))
    assert may.on_play == (("may", "draw 2 cards and your opponent draws a card", (("draw", 2),)),)
    doubtful = neo_compile(neo_card("may2", "Something Has Happened!", "You may draw a card and shuffle your hand into your deck."))
    assert doubtful.on_play == () and doubtful.automation == "none"


@pytest.mark.parametrize("text", ["Each player discards a card.", "You and your opponent each discard a card.",
                                  "Return a Neopet to their owner's hand."])
def test_a_clause_about_you_too_is_never_no_effect(text):
    assert neo_compile(neo_card("both", "Something Has Happened!", text)).abilities == [(text, MANUAL)]


def test_playing_a_mixed_card_draws_your_cards():
    mixed = neo_card("mixed", "Something Has Happened!", "Draw 2 cards and your opponent discards a card.")
    state = _neo_game(PETS + [mixed], ["pet"] * 4, ["mixed"] * 2 + ["filler"] * 10)
    card = ids(state, "mixed")[0]
    _move(state, card, "hand")
    hand = len(state.zones["hand"])
    state.apply_action({"kind": "happen", "card": card})
    assert len(state.zones["hand"]) == hand - 1 + 2 and state.where[card] == "discard"


COSTLY = [neo_card("costly-villain", "Villain", "Tap 1 of your Neopets to play this.", strength=9, agility=9, magic=9,
                   intelligence=9),
          neo_card("costly-pro", "Experienced Neopet", "Tap a Fire Neopet to play this.", species="Blorb", strength=8,
                   agility=8, magic=8, intelligence=8)]


def test_a_villains_and_an_experienced_neopets_tapping_cost_is_paid():
    """Every card kind played from the hand pays its own tapping cost, as Items and Equipment do."""
    state = _neo_game(PETS + COSTLY, ["pet"] * 4, ["costly-villain", "costly-pro"] + ["filler"] * 10)
    clear_arenas(state)
    a, b = ids(state, "pet")[:2]
    _move(state, a, "strength")
    _move(state, b, "magic")
    villain, pro = _take(state, "costly-villain", "hand"), _take(state, "costly-pro", "hand")
    state.tapped[a], state.tapped[b] = False, True
    offered = [x for x in state.legal_actions() if x["kind"] in ("villain", "replace")]
    assert offered and all(x.get("tap") == a for x in offered)  # only the untapped Neopet pays
    with pytest.raises(Exception):
        state.apply_action({"kind": "villain", "card": villain, "arena": "agility"})  # unpaid: refused
    state.apply_action({"kind": "villain", "card": villain, "arena": "agility", "tap": a})
    assert state.tapped[a] and state.where[villain] == "agility"
    assert not [x for x in state.legal_actions() if x["kind"] == "replace"]  # no untapped Fire Neopet left
    state.apply_action({"kind": "manual.tap", "card": b})  # untapped by hand
    state.apply_action({"kind": "replace", "card": pro, "onto": a, "tap": b})
    assert state.tapped[b] and state.where[pro] == "strength"
    unread = neo_card("odd-villain", "Villain", "Tap 2 of your Neopets to play this.")
    assert neo_compile(unread).tap is None  # a cost no pattern read is unknown, never "none"


HERO = neo_card("hero", "Hero", strength=6, agility=6, magic=6, intelligence=6)


@pytest.mark.parametrize("text, op, movers", [
    ("Move 1 of your Neopets or Heroes to another arena.", "move_one", {"pet", "hero"}),
    ("Move 1 of your Heroes to another arena without tapping it.", "move_free", {"hero"}),
    ("Untap 1 of your Neopets or Heroes.", "untap_one", {"pet", "hero"}),
])
def test_neopets_or_heroes_is_one_group_kept_whole(text, op, movers):
    card = neo_card("group", "Something Has Happened!", text)
    assert neo_compile(card).on_play[0][0] == op
    state = _neo_game(PETS + [HERO, card], ["pet"] * 4, ["group", "hero"] + ["filler"] * 10)
    clear_arenas(state)
    pet, hero, group = _take(state, "pet", "strength"), _take(state, "hero", "magic"), _take(state, "group", "hand")
    tapped = op == "untap_one"
    state.tapped[pet] = state.tapped[hero] = tapped
    state.apply_action({"kind": "happen", "card": group})
    assert state.pending.op[0] == op
    chosen = {v[0] if isinstance(v, list) else v for v, _ in state.pending.options}
    assert {state.cards[i].key for i in chosen} == movers
    choose(state, [hero, "agility"] if op != "untap_one" else hero)
    assert state.where[hero] == ("agility" if op != "untap_one" else "magic")
    assert state.tapped[hero] is (op == "move_one")


# --------------------------------------------------------------------------- Kaijudo

from deckhub.games.kaijudo.effects import compile_card as kai_compile  # noqa: E402
from test_kaijudo_engine import CAT as KCAT, attacks, game as kgame, mana as kmana, put as kput, step, to_phase  # noqa: E402


def kkey(name):
    (card,) = KCAT.lookup(name)
    return card.key


def kprog(name):
    return kai_compile(KCAT.get(kkey(name)))


def test_skeeter_swarmer_has_guard_and_cannot_attack():
    """Kaijudo 12, Guard. The card data runs 'Guard (This creature can't attack.)' into 'Angry Swarm'."""
    prog = kprog("Skeeter Swarmer")
    assert prog.guard and len(prog.abilities) == 3
    state = kgame({kkey("Skeeter Swarmer"): 4, "toothed-grubling": 36})
    skeeter = kput(state, kkey("Skeeter Swarmer"), "battle")
    step(state, "next")
    to_phase(state, "attack")
    assert skeeter not in attacks(state)


@pytest.mark.parametrize("name, looked", [("Reinforce", 3), ("Broodmother", 2), ("Veil Rift", 3)])
def test_any_number_of_creatures_is_not_a_race_called_of(name, looked):
    """'You may reveal any number of creatures from among them and put those creatures into your hand.'"""
    prog = kprog(name)
    ops = prog.spell or prog.triggers["etb"]
    (look,) = ops
    assert look[0] == "look" and look[1] == looked
    (dest, filt, count, optional), = look[2]
    assert dest == "hand" and ("creature", True) in filt and not any(k == "race" for k, _ in filt)
    assert count == looked and optional


def test_reinforce_puts_the_creatures_it_reveals_into_your_hand():
    state = kgame({"toothed-grubling": 39, kkey("Reinforce"): 1})
    spell = kput(state, kkey("Reinforce"), "hand")
    hand = len(state.zones["hand"])
    state.push(kprog("Reinforce").spell, spell)
    state.run()
    while state.pending is not None:  # every creature among the top 3 may go to the hand
        state.apply_action({"kind": "choose", "option": state.pending.options[0][0]})
    assert len(state.zones["hand"]) == hand + 3


def test_finbarrs_dreadnought_returns_your_other_banished_creatures():
    """'Each time one of your other creatures would be banished, return it to your hand instead.'"""
    state = kgame({kkey("Finbarr's Dreadnought"): 4, "toothed-grubling": 36})
    kput(state, kkey("Finbarr's Dreadnought"), "battle")
    grub = kput(state, "toothed-grubling", "battle")
    state.banish(grub)
    assert state.where[grub] == "hand"


def test_armored_sentinel_gives_protector_creatures_2000_power():
    """'Each of your other creatures that has "Protector" gets +2000 power.'"""
    state = kgame({kkey("Armored Sentinel"): 4, kkey("Broodmother"): 4, "toothed-grubling": 32})
    sentinel = kput(state, kkey("Armored Sentinel"), "battle")
    brood = kput(state, kkey("Broodmother"), "battle")
    grub = kput(state, "toothed-grubling", "battle")
    assert state.power(brood) == kprog("Broodmother").power + 2000
    assert state.power(grub) == kprog("Toothed Grubling").power
    assert state.power(sentinel) == kprog("Armored Sentinel").power  # "other"


def test_the_mystic_of_light_returns_a_light_spell_from_the_discard_pile():
    (etb,) = kprog("The Mystic of Light").triggers["etb"]
    assert etb[:3] == ("pick", "discard", "hand") and set(etb[3]) == {("spell", True), ("civ", "light")}


# issue 31: each class fixed as a class, checked over the whole catalogue, then played.

from deckhub.games.kaijudo.sentences import sentences as ksentences  # noqa: E402
from deckhub.games.kaijudo.policy import policy as kpolicy  # noqa: E402
from deckhub.games.kaijudo.text import norm as knorm, split_abilities as ksplit  # noqa: E402


def kops(value):
    """Every op a compiled program holds, the ones nested in others too."""
    if isinstance(value, dict):
        for v in value.values():
            yield from kops(v)
    elif isinstance(value, tuple):
        if value and isinstance(value[0], str) and value[0].isidentifier():
            yield value
        for v in value:
            yield from kops(v)


def kall_ops(prog):
    return list(kops((prog.spell, prog.unleash, prog.triggers, prog.other_etb, prog.ally_attack, prog.ally_banished)))


def kstatus(card, wording):
    """The status of the card's ability whose text holds `wording`."""
    (status,) = {s for text, s in kai_compile(card).abilities if re.search(wording, knorm(text))}
    return status


TARGET_LIMIT = re.compile(r"return target creature that (is level|has power) (\d+) or less")


def test_every_targeted_return_keeps_its_level_or_power_limit():
    """'Return target creature that is level 4 or less': the limit belongs to the target. Every card
    with the wording that compiles a return carries it on that op; none returns just any creature."""
    touched = set()
    for card in KCAT:
        limits = {("max_level" if kind == "is level" else "max_power_now", int(n))
                  for kind, n in TARGET_LIMIT.findall(knorm(card.text or ""))}
        bounces = [op for op in kall_ops(kai_compile(card)) if op[0] == "bounce"]
        if limits and bounces:
            touched.add(card.name)
            assert all(set(op[3]) & limits for op in bounces), (card.name, bounces)
    assert {"Ice Blade", "Veil Bubble", "Sawtooth Cyclone", "Emperor Dendrite", "Magnet Mech Glu-urrgle",
            "Tripwire Teleport"} <= touched


def _bounce_options(state, spell_name, spell):
    state.push(kprog(spell_name).spell, spell)
    state.run()
    return set() if state.pending is None else {v for v, _ in state.pending.options}


def test_ice_blade_returns_only_a_creature_of_level_4_or_less():
    """Kaijudo 14, 'spell': do as much as you can; no creature of level 4 or less, nothing returns."""
    state = kgame({"ice-blade": 4, "general-skycrusher": 4, "toothed-grubling": 32})
    big = kput(state, "general-skycrusher", "battle")
    small = kput(state, "toothed-grubling", "battle")
    assert _bounce_options(state, "Ice Blade", kput(state, "ice-blade", "hand")) == {small}
    state.apply_action({"kind": "choose", "option": small})
    assert state.where[small] == "hand" and state.where[big] == "battle"
    assert _bounce_options(state, "Ice Blade", kput(state, "ice-blade", "hand")) == set()
    assert state.where[big] == "battle"


def test_veil_bubble_counts_the_power_a_creature_has_now():
    """'Target creature that has power 4000 or less': Ripper Reaper (4000) with Essence Elf's +1000 is out of reach."""
    state = kgame({"veil-bubble": 4, "ripper-reaper": 4, "essence-elf": 4, "toothed-grubling": 28})
    reaper = kput(state, "ripper-reaper", "battle")
    grub = kput(state, "toothed-grubling", "battle")
    elf = kput(state, "essence-elf", "battle")
    assert _bounce_options(state, "Veil Bubble", kput(state, "veil-bubble", "hand")) == {grub, elf}
    assert reaper not in {grub, elf}


def test_the_built_in_player_does_not_return_its_own_creatures():
    """Against the dummy a return only ever finds your creatures: the player leaves an optional return
    ('you may return target creature ...') unused and does not cast a spell that only returns."""
    assert not kprog("Ice Blade").useful and not kprog("Veil Bubble").useful and kprog("Teleport").useful
    state = kgame({"emperor-dendrite": 4, "toothed-grubling": 36})
    grub = kput(state, "toothed-grubling", "battle")
    dendrite = kput(state, "emperor-dendrite", "battle")
    state.push(kprog("Emperor Dendrite").triggers["etb"], dendrite)
    state.run()
    assert state.pending.op[0] == "may"
    state.apply_action(kpolicy(state))
    assert state.pending is None and state.where[grub] == "battle"


def test_a_limit_on_a_chosen_creature_no_op_keeps_leaves_the_ability_manual():
    """'Choose one of your creatures that is level 4 or less. It gets ...': the boost cannot carry the
    limit, so the text is played by hand rather than offered to any creature."""
    card = Card(key="fixture-small-boost", game="kaijudo", name="Fixture Small Boost", type="Spell",  # TEST FIXTURE
                text="Choose one of your creatures that is level 4 or less. It gets +2000 power until the end of the turn.",
                attrs={"level": 2, "civilizations": ["Fire"], "power_value": 0})
    assert kai_compile(card).abilities[0][1] is MANUAL and kai_compile(card).spell == ()


TRIGGERED_BY_ANOTHER = re.compile(r"whenever one of your other creatures (?:enters the battle zone|attacks), (?:it|that creature) ")


def test_it_in_a_trigger_set_off_by_another_creature_is_that_creature():
    """'Whenever one of your other creatures enters the battle zone, it gets ...': every such ability
    that compiles binds 'it' to the creature that set it off, never to its own card."""
    touched = set()
    for card in KCAT:
        if TRIGGERED_BY_ANOTHER.search(knorm(card.text or "")):
            prog = kai_compile(card)
            boosts = [op for op in kops((prog.other_etb, prog.ally_attack)) if op[0] == "boost"]
            if boosts:
                touched.add(card.name)
                assert all(op[1] == "trigger" for op in boosts), (card.name, boosts)
    assert touched == {"Steamtank Kryon", "General Skycrusher"}


def test_steamtank_kryon_gives_the_creature_that_entered_power_and_fast_attack():
    state = kgame({"steamtank-kryon": 4, "toothed-grubling": 36})
    kryon = kput(state, "steamtank-kryon", "battle")
    grub = kput(state, "toothed-grubling", "hand")
    kmana(state, "toothed-grubling", 3)
    to_phase(state, "main")
    step(state, "summon", card=grub)
    assert state.power(grub) == 3000 + 2000 and state.power(kryon) == 4000
    to_phase(state, "attack")
    assert grub in attacks(state)  # Fast Attack: it may attack the turn it entered


def test_general_skycrusher_gives_the_attacking_creature_powerful_attack():
    state = kgame({"general-skycrusher": 4, "toothed-grubling": 36})
    sky = kput(state, "general-skycrusher", "battle")
    grub = kput(state, "toothed-grubling", "battle")
    to_phase(state, "attack")
    step(state, "next")
    to_phase(state, "attack")
    state.attacking = grub  # measured as the attack is under way
    before = state.power(grub)
    state.attacking = None
    step(state, "attack", card=grub)
    state.attacking = grub
    assert state.power(grub) == before + 3000
    state.attacking = None
    assert ("powerful_attack", 3000) not in state.boosts.get(sky, [])


SELF_EVENT = re.compile(r"^(?:when(?:ever)? this creature (?:enters the battle zone|attacks|is banished)[^,]*, )?")
YOURS = re.compile(r"\byou (?:may )?(?:draw|return|put)\b|\bthis creature (?:breaks|gets)\b|\bdraw (?:a|\d+) cards?\b")


def test_no_clause_of_yours_is_swallowed_by_a_clause_about_the_opponent():
    """A clause about the opponent is no effect for that clause alone: an ability whose event happens
    in a goldfish game and that says what you do is never 'no effect' as a whole (Ghost Spy's draw)."""
    for card in KCAT:
        prog = kai_compile(card)
        for (text, status), (_, body, _, _) in zip(prog.abilities, ksplit(card.text)):
            rest = SELF_EVENT.sub("", body)
            if status.value == "no_effect" and (rest != body or not prog.creature):
                clauses = [c for unit in ksentences(rest) for c in re.split(r",? (?:and|then) ", unit)]
                assert not any(YOURS.search(c) and not re.search(r"\b(?:enemy|opponent|clash)", c) for c in clauses), (card.name, text)


@pytest.mark.parametrize("name, event", [("Ghost Spy", "banished"), ("Magglekax", "etb"), ("Magglekax", "attack")])
def test_the_opponents_discard_leaves_your_draw(name, event):
    """'Your opponent chooses and discards a card. Then you may draw a card.' (the dummy has nothing to discard)"""
    ops = kprog(name).triggers[event]
    assert ("may", "draw a card", (("draw", 1),)) in ops
    state = kgame({kkey(name): 4, "toothed-grubling": 36})
    card = kput(state, kkey(name), "battle")
    hand = len(state.zones["hand"])
    state.push(ops, card)
    state.run()
    state.apply_action({"kind": "choose", "option": "yes"})
    assert len(state.zones["hand"]) == hand + 1


def test_leaping_hissy_breaks_a_shield_as_the_dummy_banishes_nothing():
    """'Your opponent may choose and banish one of his or her creatures that has Blocker. If he or she
    doesn't, this creature breaks one of your opponent's shields.' The dummy never acts (GUIDE §5)."""
    state = kgame({"leaping-hissy": 4, "toothed-grubling": 36})
    hissy = kput(state, "leaping-hissy", "hand")
    kmana(state, "leaping-hissy", 3) + kmana(state, "toothed-grubling", 2)
    to_phase(state, "main")
    step(state, "summon", card=hissy)
    assert state.counters["dummy_shields"] == 4


def test_galzak_gets_its_own_power_while_the_enemy_part_does_nothing():
    assert kprog("Galzak of Shadow Pass").triggers["attack"] == (("noop",), ("boost", "self", (("power", 3000),)))


def test_what_the_opponent_chooses_for_you_stays_manual():
    """The Phantom Necromancer: 'your opponent chooses a creature in your discard pile, and you return
    that creature to your hand'. The dummy never chooses: played by hand, not 'no effect'."""
    assert kstatus(KCAT.get("phantom-necromancer"), "you return that creature") is MANUAL


OPTIONAL_COST = re.compile(r"you may (?:banish (?:it|this creature|one of your (?:other )?creatures)|choose one of your other creatures and banish it|discard a card)\. if you do")


def test_every_optional_cost_is_offered():
    """'You may banish one of your creatures. If you do, ...': Meteor Rider's fix, for every card with
    the wording. The cost is offered even when what follows cannot matter against the dummy."""
    touched = set()
    for card in KCAT:
        prog = kai_compile(card)
        for text, status in prog.abilities:
            if OPTIONAL_COST.search(knorm(text)):
                touched.add(card.name)
                assert status is AUTO, (card.name, text)
        if card.name in touched:
            assert any(op[0] == "sacrifice" or (op[0] == "pick" and op[5]) for op in kall_ops(prog)), card.name
    assert {"Meteor Rider", "Lava Burst", "Cursed Phantom", "Ripper Reaper", "Nether Tactician", "Flame Auger"} <= touched


@pytest.mark.parametrize("name", ["Lava Burst", "Cursed Phantom"])
def test_lava_burst_and_cursed_phantom_offer_to_banish_one_of_your_creatures(name):
    state = kgame({kkey(name): 4, "toothed-grubling": 36})
    grub = kput(state, "toothed-grubling", "battle")
    card = kput(state, kkey(name), "battle" if name == "Cursed Phantom" else "hand")
    prog = kprog(name)
    state.push(prog.spell or prog.triggers["etb"], card)
    state.run()
    assert state.pending.optional and {v for v, _ in state.pending.options} == {grub}
    state.apply_action({"kind": "choose", "option": grub})
    assert state.where[grub] == "discard"


def test_meteor_rider_offers_to_banish_itself_and_the_player_declines():
    """'When this creature enters the battle zone, you may banish it. If you do, ...' (enemies only after)."""
    state = kgame({kkey("Meteor Rider"): 4, "toothed-grubling": 36})
    rider = kput(state, kkey("Meteor Rider"), "battle")
    state.push(kprog("Meteor Rider").triggers["etb"], rider)
    state.run()
    assert state.pending.op[0] == "sacrifice" and state.pending.optional
    assert kpolicy(state) == {"kind": "decline"}  # nothing to gain against the dummy
    state.apply_action({"kind": "choose", "option": rider})
    assert state.where[rider] == "discard"


def test_every_kaijudo_ability_names_only_races_and_civilizations_the_catalogue_has():
    """The class guard's self-check over the whole catalogue: no automated ability's compiled form
    names a race or civilization no card has, and coverage reports how many cards failed it."""
    from deckhub.games.kaijudo.effects import _names, coverage, vocabulary

    words = vocabulary(KCAT)
    for card in KCAT:
        prog = kai_compile(card)
        found = _names((tuple(prog.__dict__.values()),), set())
        assert not words.unknown(found), (card.name, words.unknown(found))
    assert coverage(KCAT)["self_checks"] == {}


def test_an_ability_naming_a_race_no_card_has_is_manual_and_counted():
    from deckhub.games.kaijudo.effects import coverage, vocabulary

    odd = Card(key="fixture-odd-lord", game="kaijudo", name="Fixture Odd Lord", type="Creature",
               text="Blocker\nEach of your purple creatures gets +1000 power.",  # TEST FIXTURE: no "purple" race
               attrs={"level": 3, "civilizations": ["Fire"], "race": ["Dragon"], "power_value": 3000})
    prog = kai_compile(odd, words=vocabulary([*KCAT, odd]))
    assert prog.buffs == () and prog.abilities[1][1] is MANUAL and prog.unknown_names == ("race 'purple'",)
    assert coverage([*KCAT, odd])["self_checks"] == {"unknown race or civilization": 1}


# --------------------------------------------------------------------------- Huntik

from test_huntik_engine import act as hact, game as hgame, keep as hkeep, legal as hlegal, put as hput  # noqa: E402


def test_bladestorm_kos_stunned_heroes_too():
    """Bladestorm: 'KO all heroes in my zone'; a stunned hero stays in its zone (Huntik 407), so it is KO'd."""
    s = hgame({"bladestorm": 1, "janus-knight-dark-charger": 2, "daktari-seeker": 1})
    janus = hput(s, "janus-knight-dark-charger", "z4")
    daktari = hput(s, "daktari-seeker", "z4")
    hkeep(s)
    hact(s, "manual.stun", card=daktari)
    s.push((("bladestorm",),), janus)
    s.run()
    assert s.where[daktari] != "z4" and s.where[janus] != "z4"


def test_hoplite_teamwork_counts_stunned_friends_and_never_enemies():
    """Teamwork: '+1 ATK and +1 DEF for each other friendly minor hero in my zone' (Huntik 401, 407)."""
    s = hgame({"hoplite-lionhearted": 1, "daktari-seeker": 1, "enderby-casterwill-tutor": 1})
    hoplite = hput(s, "hoplite-lionhearted", "z2")
    friend = hput(s, "daktari-seeker", "z2")
    enemy = hput(s, "enderby-casterwill-tutor", "deck")
    hkeep(s)
    s.place_enemy_hero(enemy, 2)
    assert s._stats(hoplite) == (3, 3)  # 2/2, +1/+1 for the friend, nothing for the enemy
    hact(s, "manual.stun", card=friend)
    assert s._stats(hoplite) == (3, 3)  # a stunned friend is still in the zone
    hact(s, "manual.move", card=friend, to="discard")
    assert s._stats(hoplite) == (2, 2)  # the enemy alone gives nothing


@pytest.mark.parametrize("key", ["kyroptero-stone-guardian", "riverjaw-crocodile-guardian"])
def test_a_hero_that_cant_move_on_its_own_starts_combat_only_by_its_power(key):
    """'I can't move on my own': no move, not even of 0 zones to start a combat (Huntik 600); its
    printed 'Exhaust Action: Start a combat in my zone' is offered instead."""
    s = hgame({key: 1, "enderby-casterwill-tutor": 1})
    hero = hput(s, key, "z3")
    enemy = hput(s, "enderby-casterwill-tutor", "deck")
    hkeep(s)
    s.place_enemy_hero(enemy, 3)
    while s.phase != "turn" or s.pending is not None:
        hact(s, "pass") if s.pending is None else s.apply_action({"kind": "decline"})
    assert not hlegal(s, "fight", card=hero)
    assert any(a.get("kind") == "power" and a.get("card") == hero for a in s.legal_actions(manual=False))


# --------------------------------------------------------------------------- Battledome

from deckhub.games.neopets_battledome.effects import compile_card as bd_compile  # noqa: E402
import test_battledome_engine as bd  # noqa: E402

BD = "neopets-battledome"


def bd_card(key, type_, text, **attrs):
    """A TEST FIXTURE Battledome card (the text is the wording the audit quoted)."""
    return Card(key=f"fx-{key}", game=BD, name=f"Fixture {key}", type=type_, text=text, attrs=attrs)


TT_SWORD = bd_card("tt-sword", "Equipment", "+2 Attack this turn.", level_requirement=0)
WARD = bd_card("ward", "Equipment", "Reduce the damage your Neopet would take by 1.", level_requirement=0)
PREVENT = bd_card("prevent", "Potion", "Prevent 1 damage.", level_requirement=0)


def _bd_game(extra, pets=("kougra",), **options):
    cat = Catalogue(BD, [*bd.FX, *extra])
    filler = dict(bd.FILLER)
    for card in extra:
        filler[card.key[3:]] = 1
    filler["atk-stone"] -= len(extra)
    options.setdefault("opening_hand", 0)
    return new_game(BD, bd.fixture_deck(filler, pets), cat, 1, options)


def test_this_turn_on_equipment_lasts_the_turn_only():
    """'+2 Attack this turn.' on an Equipment: the bonus is not permanent."""
    prog = bd_compile(TT_SWORD)
    assert prog.bonus == () and prog.turn_bonus == (("attack", 2),) and prog.automation == "full"
    state = _bd_game([TT_SWORD])
    sword = bd.put(state, "tt-sword")
    base = state.stat("attack")
    bd.step(state, "next")
    bd.step(state, "play", card=sword)
    assert state.where[sword] == "equipment" and state.stat("attack") == base + 2
    bd.play_turn(state)
    assert state.where[sword] == "equipment" and state.stat("attack") == base


def test_reduce_the_damage_your_neopet_would_take_is_every_hit_not_one_use():
    """Equipment 'Reduce the damage your Neopet would take by 1.' is not Red Scorchstone's cash-in."""
    prog = bd_compile(WARD)
    assert prog.ward == 1 and prog.reduction == 0
    state = _bd_game([WARD], pets=("gelert",), dummy_attacks=True, dummy_attack=10, dummy_hp=40, dummy_agility=0)
    ward = bd.put(state, "ward", "equipment")
    bd.step(state, "manual.counter", counter="defence_mod", delta=-1)  # no defence dice: every hit lands
    bd.to_battle(state)
    bd.step(state, "attack")
    bd.answer_rerolls(state)
    bd.step(state, "next")
    bd.answer_rerolls(state)
    assert state.pending is None or state.pending.op != ("cash_in",)
    assert state.where[ward] == "equipment"
    assert any("reduce the damage by 1" in line for line in state.log_lines())


def test_a_potions_prevent_1_damage_is_not_counted_as_automated():
    """It would expire with your turn, before the dummy's attack, its only use: manual, honestly."""
    prog = bd_compile(PREVENT)
    assert prog.automation != "full" and prog.manual_text == ("Prevent 1 damage.",) and prog.reduction == 0


def _hit_by_the_dummy(state):
    """From your Prep phase: attack, then let the dummy attack back; its battle's summary."""
    bd.to_battle(state)
    bd.step(state, "attack")
    bd.answer_rerolls(state)
    bd.step(state, "next")
    bd.answer_rerolls(state)
    assert state.last_battle["attacker"] == "dummy"
    return state.last_battle


def _armoured_game(card):
    """Gelert with HP to spare and no defence dice against a dummy that hits back with 10 dice."""
    state = _bd_game([card], pets=("gelert",), dummy_attacks=True, dummy_attack=10, dummy_hp=40, dummy_agility=0)
    bd.step(state, "manual.counter", counter="defence_mod", delta=-2)
    bd.step(state, "manual.counter", counter="hp_mod", delta=30)
    iid = bd.put(state, card.key[3:])
    bd.step(state, "next")
    bd.step(state, "play", card=iid)
    return state, iid


def test_a_clause_about_the_opponents_cards_is_no_effect_alone_and_yours_still_draws():
    """'Draw 2 cards and your opponent discards a card.': the training dummy has no inventory."""
    card = bd_card("mixed", "Legend", "Draw 2 cards and your opponent discards a card.", level_requirement=0)
    prog = bd_compile(card)
    assert prog.draw == 2 and prog.automation == "full"
    assert prog.abilities == (("Draw 2 cards", AUTO), ("your opponent discards a card", NO_EFFECT))
    state = _bd_game([card])
    iid = bd.put(state, "mixed")
    bd.step(state, "next")
    hand = len(state.zones["inventory"])
    bd.step(state, "play", card=iid)
    assert len(state.zones["inventory"]) == hand - 1 + 2
    # the dummy's Neopet is real: a clause about it is never of no effect
    assert bd_compile(bd_card("weaken", "Legend", "Draw a card and your opponent's Neopet gets -1 Defence.",
                              level_requirement=0)).abilities[1][1] is MANUAL


def test_this_turn_covers_every_clause_of_its_sentence():
    """'+2 Attack and +1 Agility this turn.' on an Equipment: both expire, not only the last."""
    card = bd_card("both", "Equipment", "+2 Attack and +1 Agility this turn.", level_requirement=0)
    prog = bd_compile(card)
    assert prog.bonus == () and prog.turn_bonus == (("attack", 2), ("agility", 1))
    state = _bd_game([card])
    iid = bd.put(state, "both")
    attack, agility = state.stat("attack"), state.stat("agility")
    bd.step(state, "next")
    bd.step(state, "play", card=iid)
    assert (state.stat("attack"), state.stat("agility")) == (attack + 2, agility + 1)
    bd.play_turn(state)
    assert state.where[iid] == "equipment" and (state.stat("attack"), state.stat("agility")) == (attack, agility)
    for text in ("This turn, your Neopet gets +2 Attack, +1 Agility.", "+2 Attack, +1 Agility until end of turn."):
        held = bd_compile(bd_card("held", "Equipment", text, level_requirement=0))
        assert held.bonus == () and held.turn_bonus == (("attack", 2), ("agility", 1)), text
    doubtful = bd_compile(bd_card("doubt", "Equipment", "+2 Attack this turn and +1 Agility.", level_requirement=0))
    assert doubtful.automation != "full" and not doubtful.bonus and not doubtful.turn_bonus


def test_a_this_turn_reduction_on_a_card_that_stays_expires_before_the_dummys_turn():
    """It is not Red Scorchstone's cash-in: on the dummy's turn nothing is left of it."""
    card = bd_card("turn-shield", "Equipment", "Reduce the damage your Neopet would take this turn by 2.",
                   level_requirement=0)
    prog = bd_compile(card)
    assert prog.turn_reduction == 2 and prog.reduction == 0 and prog.automation == "full"
    state, iid = _armoured_game(card)
    battle = _hit_by_the_dummy(state)
    assert battle["damage"] > 0 and battle["damage_taken"] == battle["damage"]
    assert state.pending is None and state.where[iid] == "equipment"


def test_reduce_the_next_damage_is_used_once_and_the_equipment_stays():
    """Only what the text says is used up: the reduction, once; never the Equipment."""
    card = bd_card("next-shield", "Equipment", "Reduce the next damage your Neopet would take by 2.",
                   level_requirement=0)
    prog = bd_compile(card)
    assert prog.shield == 2 and prog.reduction == 0 and prog.automation == "full"
    state, iid = _armoured_game(card)
    first = _hit_by_the_dummy(state)
    assert first["damage"] >= 2 and first["damage_taken"] == first["damage"] - 2
    assert state.pending is None and state.where[iid] == "equipment"
    bd.step(state, "next")  # a new turn: Train
    bd.step(state, "next")
    second = _hit_by_the_dummy(state)
    assert second["turn"] != first["turn"] and second["damage_taken"] == second["damage"] > 0
    assert state.where[iid] == "equipment"


def test_a_potions_next_damage_reduction_waits_for_the_dummys_attack():
    card = bd_card("next-potion", "Potion", "Reduce the next damage your Neopet would take by 2.", level_requirement=0)
    state, iid = _armoured_game(card)
    assert state.where[iid] == "discard"
    battle = _hit_by_the_dummy(state)
    assert battle["damage_taken"] == battle["damage"] - 2


def test_a_card_the_engine_cannot_play_at_all_is_not_partly_automated():
    """Without its level requirement no Prep card can be played, whatever its text reads."""
    prog = bd_compile(bd_card("no-level", "Equipment", "+2 Attack."))
    assert prog.missing == ("level_requirement",) and prog.automation == "none"
    assert bd_compile(bd_card("some-stats", "Neopet", None, hp=5, attack=3)).automation == "partial"  # it can field


def test_the_opponents_clause_first_and_yours_after_in_both_games():
    text = "Your opponent discards a card and you draw a card."
    neo = neo_compile(neo_card("after", "Something Has Happened!", text))
    dome = bd_compile(bd_card("after", "Legend", text, level_requirement=0))
    assert neo.on_play == (("draw", 1),) and dome.draw == 1
    for prog in (neo, dome):
        assert [s for _, s in prog.abilities] == [NO_EFFECT, AUTO] and prog.automation == "full"


# --------------------------------------------------------------------------- every game: the coverage walk

import importlib  # noqa: E402

from deckhub.core.engine import get_engine  # noqa: E402

PACKAGES = {"kaijudo": "kaijudo", "huntik": "huntik", "neopets-tcg": "neopets_tcg",
            "neopets-battledome": "neopets_battledome"}


def _plain(text):
    """Text compared loosely: no markup, one kind of dash, single spaces, lower case."""
    text = re.sub(r"<[^>]+>", "", text or "")
    text = re.sub(r"\s*[\u2014\u2013-]\s*", " - ", text)
    return re.sub(r"\s+", " ", text).strip().lower()


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_a_fully_automated_card_has_every_sentence_compiled(game):
    """Coverage tells the truth: a card counts as fully automated only when every part of its text
    compiled to something the engine does (or that cannot matter against the dummy); nothing of its
    text is left over, unread. Walks every card of the catalogue."""
    effects = importlib.import_module(f"deckhub.games.{PACKAGES[game]}.effects")
    catalogue = load_catalogue(game)
    full = 0
    for card in catalogue:
        prog = effects.compile_card(card)
        if prog.automation != "full":
            continue
        full += 1
        rest = _plain(card.text)
        for text, status in prog.abilities:
            assert status is not MANUAL, (card.key, text)
            rest = rest.replace(_plain(text), " ", 1)
        rest = re.sub(r"\([^()]*\)", " ", rest)  # reminder text
        assert not re.search(r"[a-z]{3,}", rest), (card.key, rest)
    report = get_engine(game).coverage(catalogue)
    assert report["full"] <= full  # coverage never counts more cards as full than the walk holds
    assert set(report["abilities"]) == {"automated", "no_effect", "manual"}


def test_abilities_that_trigger_at_once_resolve_in_the_order_you_choose():
    """Kaijudo 13: you choose the order of your abilities that trigger at once. With Mana Lightning
    cast, King Nautilus's attack can put the top card into mana first, then draw 2 cards."""
    state = kgame({kkey("King Nautilus"): 4, kkey("Mana Lightning"): 4, "toothed-grubling": 32})
    nautilus = kput(state, kkey("King Nautilus"), "battle")
    to_phase(state, "attack")
    step(state, "next")  # a new turn: no longer summoning sick
    to_phase(state, "main")
    spell = kput(state, kkey("Mana Lightning"), "hand")
    state.push(kprog("Mana Lightning").spell, spell)
    state.run()
    to_phase(state, "attack")
    state.apply_action({"kind": "attack", "card": nautilus})
    assert state.pending.op[0] == "order_triggers" and len(state.pending.options) == 2
    lightning = next(v for v, label in state.pending.options if "mana zone" in label)
    top = state.zones["deck"][-1]
    mana, hand = len(state.zones["mana"]), len(state.zones["hand"])
    state.apply_action({"kind": "choose", "option": lightning})
    state.apply_action({"kind": "choose", "option": "yes"})  # the top card into mana
    assert state.where[top] == "mana" and len(state.zones["mana"]) == mana + 1
    state.apply_action({"kind": "choose", "option": "yes"})  # then draw 2
    assert len(state.zones["hand"]) == hand + 2


def test_spell_cast_triggers_resolve_in_the_order_you_choose():
    """Kaijudo 13: Cyber Seer's and Arcane Glider's "whenever you cast a spell" trigger together; after
    Logos Scan resolves (draw 2), you pick which goes first: the Glider's +2000, then the Seer's draw."""
    state = kgame({"cyber-seer": 4, "arcane-glider": 2, "logos-scan": 4, "toothed-grubling": 30})
    seer = kput(state, "cyber-seer", "battle")
    glider = kput(state, "arcane-glider", "battle")
    kmana(state, "cyber-seer", 1) + kmana(state, "toothed-grubling", 2)  # Logos Scan: level 3, Water
    scan = kput(state, "logos-scan", "hand")
    to_phase(state, "main")
    hand = len(state.zones["hand"])
    state.apply_action({"kind": "cast", "card": scan})
    assert len(state.zones["hand"]) == hand - 1 + 2  # the spell resolved first: 2 cards drawn
    assert state.pending.op[0] == "order_triggers"
    labels = dict(state.pending.options)
    assert len(labels) == 2 and all(("Cyber Seer" in t) or ("Arcane Glider" in t) for t in labels.values())
    first = next(v for v, t in labels.items() if "Arcane Glider" in t)
    power = state.power(glider)
    state.apply_action({"kind": "choose", "option": first})
    assert state.power(glider) == power + 2000
    assert state.pending.op[0] != "order_triggers" and state.pending.source == seer  # then the Seer's "you may draw"


def test_copies_of_one_trigger_are_not_put_in_order():
    """Two Optic Cells' "whenever you draw a card" are the same ability of the same card: their order
    changes nothing, so the engine asks nothing and both resolve."""
    state = kgame({"optic-cell": 4, "toothed-grubling": 36})
    cells = [kput(state, "optic-cell", "battle") for _ in range(2)]
    powers = [state.power(c) for c in cells]
    state.draw(1)
    state.run()
    assert state.pending is None or state.pending.op[0] != "order_triggers"
    assert [state.power(c) for c in cells] == [p + 1000 for p in powers]

"""Kaijudo effects read sentence by sentence: an effect's text -> ops (or None: not automated).

One clause about the opponent is no effect for that clause alone, never for the clauses about you
("do as much as you can", Kaijudo 14, "spell"); "you may <cost>. If you do, ..." offers the cost
wherever the wording occurs; a pronoun in a trigger set off by another creature names that creature.
`effects` builds the card programs from these readings.
"""
from __future__ import annotations

import re
from typing import Callable

from deckhub.core.effects import Rules, contains, exact, full, starts
from deckhub.games.kaijudo.text import (NOOP, _boost_ops, _enemy_only, _filter_from, _is_noop, _look_ops, _num,
                                       group_matcher)


# --- effect bodies -> ops -----------------------------------------------------------------------

# One sentence of an effect -> ops, NOOP-only ops, or None (not automated): the first row that reads it.
SENTENCES = Rules("kaijudo sentences")


def _sentence_ops(s: str) -> tuple | None:
    """One sentence of an effect -> ops, NOOP-only ops, or None (not automated)."""
    s = re.sub(r"^then ", "", s.strip().rstrip(".").strip())
    if not s:
        return ()
    return SENTENCES.apply(s)


def _may(ops: tuple, label: str) -> tuple:
    return (("may", label, ops),)


def _inner(text: str, wrap: Callable[[tuple], tuple]) -> tuple | None:
    """The ops of a clause inside a condition, wrapped; None when the clause is not automated."""
    inner = _sentence_ops(text)
    return None if inner is None else wrap(inner)


SENTENCES.row("enemy or opponent only", contains(
    r"^(you may )?(banish|tap|untap|destroy) .*enemy creature",
    r"^(you may )?(return|put) (up to \d+ )?target enemy creature",
    r"^(up to \d+ )?target enemy creatures? ",
    r"^each enemy creature",
    r"^(then )?your opponent ",
    r"^you opponent ",
    r"^(you may )?(have|choose one of your creatures\. )?(this creature|it) battles? target enemy creature",
    r"^look at the top card of (your opponent's|each player's) deck",
    r"^choose (one|up to \d+) of your (other )?creatures\. (it|they) can't be blocked",
    r"^(choose )?(one|up to \d+) of your (other )?creatures\. (it|they) can't be blocked",
    r"^(choose )?(one of your (other )?creatures\. it|one of your creatures|it) gets \"slayer\"",
    r"^all your creatures get \"blocker\"",
    r"^it gets \"blocker\" until",
    r"^choose a shield and look at it",
    r"^it doesn't untap",
    r"^choose one of your creatures\. target enemy creature",
    r"^your attacking creatures can attack it",
    r"^choose target untapped enemy creature",
    r"^this creature can attack untapped creatures",
))(lambda m: (NOOP,))


@SENTENCES.row("you may", full(r"you may (.*)", re.S))
def _(m):
    inner = _sentence_ops(m.group(1))
    if inner is None:
        return None
    if all(op == NOOP for op in inner):
        return inner
    return _may(inner, m.group(1))


SENTENCES.row("draw", full(r"(?:then )?draw (a|one|two|three|\d+) cards?"))(lambda m: (("draw", _num(m.group(1))),))
SENTENCES.row("draw up to", full(r"draw up to (\d+|one|two|three) cards?"))(lambda m: (("draw_upto", _num(m.group(1))),))
SENTENCES.row("draw another", full(r"draw another (\d+|one|two|three|a) cards?"))(lambda m: (("draw", _num(m.group(1))),))
SENTENCES.row("untap a weaker creature", full(r"(?:you may )?choose one of your creatures that has less power than this creature and untap it"))(
    lambda m: (("untap", "choose_weaker", ()),))
SENTENCES.row("if other creatures of a group", full(r"if you have at least (\d+) other (\w+) creatures in (?:your|the) battle zone, (.+)"))(
    lambda m: _inner(m.group(3), lambda ops: (("if", ("count_other", (group_matcher(m.group(2)),), int(m.group(1))), ops),)))
SENTENCES.row("you discard a card", exact("you discard a card"))(lambda m: (("pick", "hand", "discard", (), 1, False, ()),))


@SENTENCES.row("whenever one of your creatures attacks this turn", full(r"whenever one of your creatures attacks this turn, (.+)"))
def _(m):
    inner = effect_ops(about_the_trigger(m.group(1)))
    if inner is None:
        return None
    return (NOOP,) if _is_noop(inner) else (("this_turn", "ally_attack", inner),)


SENTENCES.row("untap all at the end of the turn", exact(
    "untap all your creatures at the end of the turn", "at the end of the turn, untap all your creatures"))(lambda m: (NOOP,))
SENTENCES.row("untap all your creatures", exact("untap all your creatures"))(lambda m: (("untap", "all", ()),))
SENTENCES.row("untap this creature", exact("untap this creature"))(lambda m: (("untap", "self", ()),))
SENTENCES.row("they get blocker", exact("they get \"blocker\" until the start of your next turn"))(lambda m: (NOOP,))


@SENTENCES.row("top of deck to a zone", full(r"(?:then )?put the top (card|\d+ cards?) of your deck into your (mana zone|discard pile|shield zone face down as a new shield)( tapped)?"))
def _(m):
    n = 1 if m.group(1) == "card" else int(m.group(1).split()[0])
    dest = {"mana zone": "mana", "discard pile": "discard"}.get(m.group(2), "shields")
    if m.group(3) and dest != "mana":
        return None
    return (("top_to", dest, n) + (("tapped",) if m.group(3) else ()),)


SENTENCES.row("hand card to mana or shields", full(r"(?:then )?put a card from your hand into your (mana zone|shield zone face down as a new shield)"))(
    lambda m: (("pick", "hand", "mana" if m.group(1) == "mana zone" else "shields", (), 1, False, ()),))


@SENTENCES.row("discard pile card to hand", full(r"(?:then )?(?:return an? (.+?) from your discard pile to your hand|choose an? (.+?) in your discard pile(?: that is level (\d+) or less)? and return it to your hand)"))
def _(m):
    filt = _filter_from(m.group(1) or m.group(2))
    if filt is None:
        return None
    if m.group(3):
        filt = filt + (("max_level", int(m.group(3))),)
    return (("pick", "discard", "hand", filt, 1, False, ()),)


SENTENCES.row("all of a group from discard pile to hand", full(r"return all (\w+?)s? from your discard pile to your hand"))(
    lambda m: (("all_to", "discard", "hand", (("creature", True), group_matcher(m.group(1)))),))
SENTENCES.row("discard pile card to mana", full(r"choose an? (creature|card|spell) in your discard pile and put it into your mana zone"))(
    lambda m: (("pick", "discard", "mana", _filter_from(m.group(1)), 1, False, ()),))
SENTENCES.row("discard cards", full(r"(?:then )?discard (a|one|two|\d+) cards?"))(lambda m: (("pick", "hand", "discard", (), _num(m.group(1)), False, ()),))
SENTENCES.row("each player discards a card", exact("each player chooses and discards a card", "each player discards a card"))(
    lambda m: (("pick", "hand", "discard", (), 1, False, ()),))
SENTENCES.row("discard your hand", exact("each player discards his or her hand", "discard your hand"))(lambda m: (("discard_hand",),))
SENTENCES.row("shuffle your deck", full(r"(?:then )?shuffle your deck"))(lambda m: (("shuffle",),))
SENTENCES.row("boost", lambda s: _boost_ops(s))(lambda ops: ops)


@SENTENCES.row("put a non-evolution creature into the battle zone", full(r"(?:then )?(?:put|choose) (an?|up to \d+) (non-evolution .+?) (?:from your (hand|discard pile|mana zone) into the battle zone|in your (discard pile|mana zone) and put (?:it|them) into the battle zone)"))
def _(m):
    filt = _filter_from(m.group(2))
    if filt is None:
        return None
    src = {"hand": "hand", "discard pile": "discard", "mana zone": "mana"}[m.group(3) or m.group(4)]
    count = 1 if not m.group(1).startswith("up to") else int(m.group(1).split()[-1])
    return (("put_battle", src, filt, count, count > 1),)


@SENTENCES.row("put a low-level creature into the battle zone", full(r"(?:then )?choose an? (non-evolution creature) in your (discard pile|mana zone) that is level (\d+) or less and put it into the battle zone"))
def _(m):
    src = "discard" if m.group(2) == "discard pile" else "mana"
    return (("put_battle", src, (("creature", True), ("non_evo", True), ("max_level", int(m.group(3)))), 1, False),)


SENTENCES.row("untap one of your creatures", full(r"(?:you may )?choose one of your creatures(?: that is level (\d+) or less)? and untap it"))(
    lambda m: (("untap", "choose", (("max_level", int(m.group(1))),) if m.group(1) else ()),))
SENTENCES.row("shield to hand", exact("choose one of your shields and put it into your hand"))(lambda m: (("pick", "shields", "hand", (), 1, False, ()),))
SENTENCES.row("put a named creature into the battle zone", full(r"(?:then )?put a (creature named .+) from your hand into the battle zone"))(
    lambda m: (("put_battle", "hand", _filter_from(m.group(1)), 1, False),))
_LIMITS = {"is level": "max_level", "has power": "max_power_now"}


@SENTENCES.row("return target creature to its owner's hand", full(r"return target creature(?: that (has power|is level) (\d+) or less)?(?: from the battle zone)? to its owner's hand"))
def _(m):
    """The target's limit is part of the target: Ice Blade returns no level-7 creature."""
    filt = ((_LIMITS[m.group(1)], int(m.group(2))),) if m.group(1) else ()
    return (("bounce", False, "hand", filt),)


SENTENCES.row("return your creature to your hand", exact("choose one of your creatures in the battle zone and return it to your hand"))(
    lambda m: (("bounce", False, "hand", ()),))
SENTENCES.row("put your creature into the mana zone", exact(
    "choose one of your creatures in the battle zone and put it into the mana zone",
    "choose one of your creatures in the battle zone and put it into your mana zone"))(lambda m: (("bounce", False, "mana", ()),))


@SENTENCES.row("return cards from discard pile or mana to hand", full(r"choose up to (\d+|two|three) (creatures|cards|spells) in your (discard pile|mana zone) and return them to your hand"))
def _(m):
    src = "discard" if m.group(3) == "discard pile" else "mana"
    return (("pick", src, "hand", _filter_from(m.group(2)), _num(m.group(1)), True, ()),)


SENTENCES.row("top of deck to mana, up to", full(r"put up to (\d+|two) cards from the top of your deck into your mana zone"))(
    lambda m: (("top_to_upto", "mana", _num(m.group(1))),))
SENTENCES.row("peek and bottom", full(r"look at the top card of your deck\. you may put (?:it|that card) on the bottom of your deck"))(lambda m: (("peek_bottom",),))
SENTENCES.row("break shields", full(r"(?:choose (one|\d+|two) of your opponent's shields and this creature breaks them|this creature breaks (one|\d+|two) of your opponent's shields)"))(
    lambda m: (("break", _num(m.group(1) or m.group(2))),))
SENTENCES.row("check the card you unleashed with", exact("check the card you unleashed this creature with"))(lambda m: (NOOP,))


@SENTENCES.row("if the unleashed card was", full(r"if the card was (\w+), (.+)"))
def _(m):
    """Only a branch that cannot matter is read: which card was unleashed is not kept."""
    inner = _sentence_ops(m.group(2))
    return (NOOP,) if inner is not None and _is_noop(inner) else None


SENTENCES.row("if the opponent doesn't", full(r"if he or she doesn't, (.+)"))(
    lambda m: _sentence_ops(m.group(1)))  # the dummy never acts (GUIDE §5): what it may do, it doesn't
SENTENCES.row("untap at the end of the turn", starts(r"^at the end of (this|the) turn, untap"))(lambda m: (NOOP,))
SENTENCES.row("if you have few shields", full(r"if you have (\d+) or fewer shields, (.+)"))(
    lambda m: _inner(m.group(2), lambda ops: (("if", ("shields_le", int(m.group(1))), ops),)))
SENTENCES.row("if you have an evolution creature", full(r"if you have an evolution creature in the battle zone, (.+)"))(
    lambda m: _inner(m.group(1), lambda ops: (("if", ("evolution_in_play",), ops),)))
SENTENCES.row("about enemies only", lambda s: s if all(_enemy_only(unit) for unit in sentences(s)) else None)(lambda m: (NOOP,))


# Whole effects of several sentences read together, before they are read sentence by sentence.
EFFECTS = Rules("kaijudo multi-sentence effects")
# "you may <cost>. if you do, <effect>": the cost is offered wherever the wording occurs, even when
# what follows cannot matter against the dummy; what follows happens only when the cost was paid,
# whatever a replacement effect did with it (Kaijudo 13, "Replacement effects and 'if you do'").
OPTIONAL_COSTS = Rules("kaijudo optional costs")
OPTIONAL_COSTS.row("banish this creature", exact("banish it", "banish this creature"))(lambda m, then: (("sacrifice", "self", then),))
OPTIONAL_COSTS.row("banish one of your creatures", full(r"banish one of your (other )?creatures|choose one of your (other )?creatures and banish it"))(
    lambda m, then: (("sacrifice", "choose_other" if m.group(1) or m.group(2) else "choose", then),))
OPTIONAL_COSTS.row("discard a card", exact("discard a card"))(lambda m, then: (("pick", "hand", "discard", (), 1, True, then),))
OPTIONAL_COSTS.row("a shield into your hand", exact("choose one of your shields and put it into your hand"))(
    lambda m, then: (("pick", "shields", "hand", (), 1, True, then),))
OPTIONAL_COSTS.row("draw a card", exact("draw a card"))(lambda m, then: _may((("draw", 1),) + then, "draw a card"))


@EFFECTS.row("you may pay a cost, if you do", full(r"you may ([^.]+)\. if you do, (.+)"))
def _(m):
    then = effect_ops(m.group(2))
    if then is None:
        return None
    return OPTIONAL_COSTS.apply(m.group(1), tuple(op for op in then if op != NOOP))


EFFECTS.row("all creatures get power and attack untapped", full(r"each of your creatures gets \+(\d+) power until the end of the turn\. while attacking, those creatures can attack untapped creatures this turn"))(
    lambda m: (("boost", "all", (("power", int(m.group(1))),)),))
EFFECTS.row("peek, bottom, draw", full(r"look at the top card of your deck\. you may put (?:it|that card) on the bottom of your deck\. then draw a card"))(
    lambda m: (("peek_bottom",), ("draw", 1)))
EFFECTS.row("top card to hand or mana", full(r"look at the top card of your deck\. put that card into your hand or into your mana zone"))(
    lambda m: (("look", 1, (("hand", (), 1, True),), "mana"),))
EFFECTS.row("draw then discard", full(r"draw (\d+|a|one|two|three) cards?(?:,|\.) then discard (a|one|two|\d+) cards?"))(
    lambda m: (("draw", _num(m.group(1))), ("pick", "hand", "discard", (), _num(m.group(2)), False, ())))


EFFECTS.row("look at or search the deck", lambda body: _look_ops(body))(lambda ops: ops)


@EFFECTS.row("if it's your turn, instead", full(r"(.+?)\. if it's your turn, instead (.+)"))
def _(m):
    """Your cards' effects resolve on your turns only (the dummy never acts): the "instead" part
    replaces the first, which must still read."""
    return None if effect_ops(m.group(1)) is None else effect_ops(m.group(2))


_SENTENCE = re.compile(r"(?<=\.)\s+(?=[a-z])")
_CHOOSES = re.compile(r"\b(?:chooses?|name)\b")
_NAMES_THE_CHOSEN = re.compile(r"\b(?:it|they|them|that \w+|those \w+)\b")
# where one sentence turns from one subject to another: "... and this creature gets ...", "..., and you return ..."
_CLAUSE = re.compile(r",? (?:and|then) (?=(?:you|this creature)\b)")


def sentences(body: str) -> list[str]:
    """An effect's sentences; a sentence naming what the one before chose ("choose one of your
    creatures. it gets ...", "your opponent chooses .... banish that creature") stays with it."""
    units: list[str] = []
    for sentence in _SENTENCE.split(body):
        if units and _CHOOSES.search(units[-1]) and _NAMES_THE_CHOSEN.search(sentence):
            units[-1] += " " + sentence
        else:
            units.append(sentence)
    return units


def _parts_ops(parts: list[str]) -> tuple | None:
    """Every part read on its own (each "no effect" for that part alone); None when any part is not read."""
    ops: list[tuple] = []
    for part in parts:
        found = _sentence_ops(part)
        if found is None:
            return None
        ops.extend(found)
    return tuple(ops)


def _unit_ops(unit: str) -> tuple | None:
    """One sentence. A reading of it as "no effect" stands only when each of its clauses reads too:
    "target enemy creature gets -3000 power and this creature gets +3000 power" is the second clause."""
    whole = _sentence_ops(unit)
    if whole is not None and not _is_noop(whole):
        return whole
    clauses = _CLAUSE.split(unit)
    if len(clauses) == 1:
        return whole
    return _parts_ops(clauses)


def effect_ops(body: str) -> tuple | None:
    """A whole effect (one or more sentences) -> ops; None when any part is not automated. Mixed
    effects are read part by part ("do as much as you can", Kaijudo 14, "spell"): a part about the
    opponent alone is no effect for that part only, never for the parts about you."""
    body = body.strip().rstrip(".").replace('."', '".')
    body = re.sub(r"(shields?)\. (this creature|that dragon|the creature) breaks (that|those) shields?", r"\1 and this creature breaks them", body)
    if not body:
        return ()
    found = EFFECTS.apply(body)
    if found is not None:
        return found
    units = sentences(body)
    if len(units) == 1:
        return _unit_ops(body)
    whole = _sentence_ops(body)
    if whole is not None and not _is_noop(whole):
        return whole
    ops: list[tuple] = []
    for unit in units:
        part = _unit_ops(unit)
        if part is None:
            return None
        ops.extend(part)
    return tuple(ops)


_PRONOUN = re.compile(r"\b(?:it|that creature)\b")
_ANTECEDENT = re.compile(r"\b(?:a|an|one of|target|each|all|up to)\b")


def about_the_trigger(effect: str) -> str:
    """The effect of a trigger set off by another creature: an "it" or "that creature" that names
    nothing earlier in its sentence is that creature, not the card whose ability it is (Steamtank
    Kryon gives the creature that entered Fast Attack); "choose a creature ... return it" keeps its own."""
    def bind(sentence: str) -> str:
        return _PRONOUN.sub(lambda m: m.group(0) if _ANTECEDENT.search(sentence, 0, m.start()) else "the triggering creature", sentence)
    return ". ".join(bind(s) for s in effect.split(". "))

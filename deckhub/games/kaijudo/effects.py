"""Kaijudo card text -> a compiled `Program` the engine runs (keywords, statics, triggers, spell ops).

Card data stays in the catalogue; behaviour is derived from the printed rules text by a table of
patterns (GUIDE §3, "card behaviour in a separate table"). Effects are read sentence by sentence in
`sentences`; this module reads abilities (keywords, statics, triggers) and fills the program. Every ability of a card gets one
`deckhub.core.effects.Status`:

- automated: the engine carries it out;
- no_effect: against a dummy that has no creatures and never acts it changes nothing (it only
  targets enemy creatures, triggers on blocks or battles, on the opponent's spells, ...);
- manual: not automated: the view flags the card and the player uses manual moves.

A card is fully automated when none of its abilities is manual. Ops are small tuples the engine
interprets (`KaijudoState.run_op`); filters are tuples of (field, value) pairs.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Iterable, NamedTuple

from deckhub.core import effects as core_effects
from deckhub.core.effects import AUTO, MANUAL, NO_EFFECT, PASS, Rules, contains, exact, full, starts
from deckhub.games.kaijudo.sentences import EFFECTS, OPTIONAL_COSTS, SENTENCES, about_the_trigger, effect_ops, sentences
from deckhub.games.kaijudo.text import (_KEYWORDS, NOOP, _boost_items, _condition, _cost_condition, _enemy_only,
                                       _group_filter, group_matcher, _is_noop, _num, phrase_of, split_abilities)


@dataclass
class Program(core_effects.Program):
    """One card as the engine sees it. Built once per card (see `compile_card`)."""

    key: str
    name: str
    type: str
    level: int
    civs: tuple[str, ...]
    races: tuple[str, ...]
    power: int
    creature: bool
    evolution: tuple | None = None  # (count, matchers)
    evolution_wildcard: bool = False  # "can be evolved on as though it had all creature types..."
    breaker: int = 1
    fast: bool = False
    guard: bool = False
    skirmisher: bool = False
    blocker: bool = False
    slayer: bool = False
    powerful_attack: int = 0
    mana_tapped: bool = False
    enters_tapped: bool = False
    must_attack: bool = False
    untap_once: bool = False
    banish_after_attack: bool = False
    unleash: tuple = ()  # ops of "Unleash" (put a card from under it into the discard pile when it attacks)
    replace_banish: str | None = None  # "mana" | "hand" | "shields"
    cost_mods: tuple = ()  # ((filter, amount), ...) while in the battle zone: summon matching creatures for less
    self_cost: tuple = ()  # ((condition, amount), ...): "if ..., tap N fewer mana cards to summon this creature"
    buffs: tuple = ()  # ((filter, amount, others_only), ...) static power for your creatures
    grants: tuple = ()  # ((filter, keyword, value), ...) static keyword grants to your creatures
    cond_breakers: tuple = ()  # ((min_power, breaker), ...)
    cond_self: tuple = ()  # ((condition, items), ...): "while you have ..., this creature gets/has ..."
    triggers: dict[str, tuple] = field(default_factory=dict)  # etb/attack/end_turn/start_turn/banished/cast_spell -> ops
    ally_attack: tuple = ()  # ((filter, others_only, ops), ...)
    other_etb: tuple = ()  # ((filter, ops), ...)
    ally_banished: tuple = ()  # ((others_only, ops), ...): "whenever one of your (other) creatures is banished"
    spell: tuple = ()  # ops of a spell
    abilities: tuple = ()  # ((text, Status), ...)
    useful: bool = True  # a spell whose automated effect does something for you (`helps`)
    has_text: bool = False
    unknown_names: tuple = ()  # races / civilizations no catalogue card has, named by manual abilities


# --- filters ----------------------------------------------------------------------------------


def matches(prog: Program, pair: tuple) -> bool:
    kind, value = pair
    if kind == "any":
        return True
    if kind == "civ":
        return value in prog.civs
    if kind == "race":
        return any(r == value or (value == "dragon" and r.endswith("dragon")) for r in prog.races)
    if kind == "creature":
        return prog.creature == value
    if kind == "non_evo":
        return prog.evolution is None
    if kind == "evolution":
        return prog.evolution is not None
    if kind == "max_level":
        return prog.level <= value
    if kind == "min_power":
        return prog.power >= value
    if kind == "name":
        return prog.name.lower() == value
    if kind == "name_has":
        return value in prog.name.lower()
    if kind == "has":
        return getattr(prog, value, False)
    if kind == "spell":
        return not prog.creature
    if kind == "or":
        return any(matches(prog, p) for p in value)
    raise ValueError(f"unknown filter {pair!r}")


def match_all(prog: Program, filt: tuple) -> bool:
    return all(matches(prog, pair) for pair in filt)


# --- abilities -> the program -------------------------------------------------------------------

# Keywords and static abilities: each row fills the program and gives the ability's status.
STATICS = Rules("kaijudo static abilities")


@STATICS.row("keyword", lambda body: _KEYWORDS.get(body))
def _(keyword, prog):
    attr, value = keyword
    if attr == "breaker":
        prog.breaker = max(prog.breaker, value)
        return AUTO
    if value is None:
        setattr(prog, attr, True)  # no effect against the dummy, but 'creatures that have "Protector"' ask
        return NO_EFFECT
    setattr(prog, attr, value)
    return AUTO if attr in ("fast", "guard", "skirmisher") else NO_EFFECT


def _flag(attr: str) -> Callable:
    """A builder that sets one flag of the program."""
    def build(m, prog):
        setattr(prog, attr, True)
        return AUTO
    return build


@STATICS.row("powerful attack", full(r"powerful attack \+(\d+)"))
def _(m, prog):
    prog.powerful_attack += int(m.group(1))
    return AUTO


STATICS.row("enters the mana zone tapped", exact("this card enters your mana zone tapped", "this card enters you mana zone tapped"))(_flag("mana_tapped"))


@STATICS.row("evolution", full(r"(vortex )?evolution - put on (one|\d+) of your (.+)"))
def _(m, prog):
    target = m.group(3).strip().rstrip(".)")
    count = _num(m.group(2))
    nm = re.fullmatch(r"creatures that has \"(.+)\" in its name", target)
    if nm:
        matchers: tuple = (("name_has", nm.group(1)),)
    else:
        parts = re.split(r",? and/or |,? or |, ", target)
        if parts and parts[-1].endswith(" creatures") and all(len(p.split()) == 1 for p in parts[:-1]):
            parts = [p if p.endswith("creatures") else f"{p} creatures" for p in parts]
        matchers = tuple(group_matcher(p) for p in parts)
    prog.evolution = (count, matchers)
    return AUTO


STATICS.row("evolution wildcard", exact("this creature can be evolved on as though it had all creature types, card names, and civilizations"))(
    _flag("evolution_wildcard"))


@STATICS.row("replace banish", full(r"if this creature would be banished, (?:put it in(?:to)? your (mana zone)|return it to your (hand)|put it into your (shield zone) face down as a new shield) instead"))
def _(m, prog):
    prog.replace_banish = "mana" if m.group(1) else "hand" if m.group(2) else "shields"
    return AUTO


STATICS.row("attacks each turn", exact("this creature attacks each turn if able"))(_flag("must_attack"))
STATICS.row("enters the battle zone tapped", exact("this creature enters the battle zone tapped"))(_flag("enters_tapped"))
STATICS.row("untaps the first time", exact("whenever this creature becomes tapped for the first time each turn, untap it"))(_flag("untap_once"))
STATICS.row("banished after attacking", exact("when this creature attacks, banish it at the end of the attack",
                                                "whenever this creature attacks, banish it at the end of the attack"))(_flag("banish_after_attack"))


@STATICS.row("group power", full(r"each of your (other )?(.+?) gets? \+(\d+) power"))
def _(m, prog):
    filt = _group_filter(m.group(2))
    if filt is None:
        return PASS
    prog.buffs += ((filt or (("any", True),), int(m.group(3)), bool(m.group(1))),)
    return AUTO


@STATICS.row("breaker while powerful", full(r"while this creature has power (\d+) or more, it has \"(double|triple) breaker\""))
def _(m, prog):
    prog.cond_breakers += ((int(m.group(1)), 2 if m.group(2) == "double" else 3),)
    return AUTO


@STATICS.row("double breaker for powerful creatures", full(r"each of your creatures that has power (\d+) or more has \"double breaker\""))
def _(m, prog):
    prog.grants += (((("min_power_now", int(m.group(1))),), "breaker", 2),)
    return AUTO


@STATICS.row("evolution creatures attack harder", full(r"each of your evolution creatures has \"powerful attack \+(\d+)\" and breaks an additional shield"))
def _(m, prog):
    prog.grants += (((("evolution", True),), "powerful_attack", int(m.group(1))), ((("evolution", True),), "extra_break", 1))
    return AUTO


@STATICS.row("others have powerful attack", full(r"all your other creatures have \"powerful attack \+(\d+)\""))
def _(m, prog):
    prog.grants += (((("other", True),), "powerful_attack", int(m.group(1))),)
    return AUTO


@STATICS.row("cheaper group", full(r"you tap (\d+) (?:less|fewer) mana cards? to summon (\w+(?: creatures)?)"))
def _(m, prog):
    prog.cost_mods += (((("creature", True), group_matcher(m.group(2))), int(m.group(1))),)
    return AUTO


@STATICS.row("cheaper if", full(r"if (.+?), tap (\d+) fewer mana cards to summon this creature"))
def _(m, prog):
    cond = _cost_condition(m.group(1))
    if cond is None:
        return PASS
    prog.self_cost += ((cond, int(m.group(2))),)
    return AUTO


@STATICS.row("cheaper per card in the discard pile", full(r"for each (\w+) creature you have in your discard pile, tap 1 fewer mana cards? to summon this creature"))
def _(m, prog):
    prog.self_cost += ((("per", "discard", (("creature", True), group_matcher(m.group(1)))), 1),)
    return AUTO


@STATICS.row("untap at the end of your turn", full(r"at the end of (?:each of your turns|your turn|each turn), untap (this creature|all your creatures|all your (\w+) creatures)"))
def _(m, prog):
    if m.group(1) == "this creature":
        ops = (("untap", "self", ()),)
    else:
        ops = (("untap", "all", (group_matcher(m.group(2)),) if m.group(2) else ()),)
    prog.triggers["end_turn"] = prog.triggers.get("end_turn", ()) + ops
    return AUTO


@STATICS.row("back to hand at the end of the turn", exact("at the end of the turn, return this creature from the battle zone to your hand",
                                                          "at the end of each turn, return this creature from the battle zone to your hand"))
def _(m, prog):
    prog.triggers["end_turn"] = prog.triggers.get("end_turn", ()) + (("self_to", "hand"),)
    return AUTO


STATICS.row("no effect against the dummy", contains(
    r"^this creature can't be (attacked|blocked)",
    r"^this creature can't be (the )?target",
    r"^while you have another creature in the battle zone, this creature can't be the target",
    r"^(each of )?your .*can't be the target of your opponent's",
    r"^this creature can attack (untapped|tapped) creatures",
    r"^while revealed for a clash",
    r"^powerful block \+\d+",
    r"^while battling",
    r"^(whenever|when) (this creature|one of your (other )?creatures?) (wins|loses|win|lose) a battle",
    r"^(whenever|when) this creature (blocks|battles|is blocked|is attacked)",
    r"^(each time|whenever) (one of your opponent's|an enemy) creatures? (attacks|is banished|leaves)",
    r"^(each time|whenever) a creature attacks you",
    r"^while this creature is tapped, (each time one of your opponent's|your opponent)",
    r"^whenever your opponent casts",
    r"^if an opponent's",
    r"^(when|whenever) this creature becomes the target of (an|one of your) opponent",
    r"^while your opponent has a creature",
    r"^whenever one of your other creatures loses a battle",
    r"^during each of your turns, at the start of each battle",
    r"^your opponent can't",
    r"^all your (\w+ )?creatures (have|get) \"blocker\"",
    r"^all your creatures that are level \d+ or less have \"blocker\"",
    r"^(each of )?your (\w+ )?creatures can't be blocked",
    r"^this creature gets \+\d+ power for each tapped enemy creature",
    r"^while battling a creature",
    r"^while being attacked",
))(lambda m, prog: NO_EFFECT)


@STATICS.row("group replaces banish", full(r"each time one of your (other )?(.+?) would be banished, (?:put it into your (mana zone)|return it to your (hand)) instead"))
def _(m, prog):
    filt = _group_filter(m.group(2))
    if filt is None:
        return PASS
    if m.group(1):
        filt = filt + (("other", True),)
    prog.grants += ((filt, "replace_banish", "mana" if m.group(3) else "hand"),)
    return AUTO


_WHILE_GROUP = re.compile(r"while (.+?), ((?:all|each) (?:of )?your .+)").fullmatch
_GROUP_GETS = re.compile(r"(?:all|each) (?:of )?your (other )?(.+?) (?:have|has|gets?|get) (.+)").fullmatch


def _group_gets(body: str):
    """"[while <condition>,] all/each of your <group> have/get <items>" -> (match, condition)."""
    cond = None
    m = _WHILE_GROUP(body)
    if m and _condition(m.group(1)) is not None:
        cond, body = _condition(m.group(1)), m.group(2)
    m = _GROUP_GETS(body)
    return (m, cond) if m else None


@STATICS.row("your group gets or has", _group_gets)
def _(found, prog):
    m, cond = found
    filt = _group_filter(m.group(2))
    if filt is not None and cond is not None:
        filt = filt + (("cond", cond),)
    items = _boost_items(m.group(3))
    if filt is None or items is None:
        return PASS
    if m.group(1):
        filt = filt + (("other", True),)
    real = tuple(i for i in items if i[0] != "noop")
    if not real:
        return NO_EFFECT
    for kind, value in real:
        if kind == "power" and cond is None:
            others = any(p == ("other", True) for p in filt)
            prog.buffs += ((tuple(p for p in filt if p[0] != "other"), value, others),)
        else:
            prog.grants += ((filt, kind, value),)
    return AUTO


@STATICS.row("this creature gets or has while", full(r"while (.+?), this creature (?:gets|has|gains) (.+)"))
def _(m, prog):
    cond = _condition(m.group(1))
    items = _boost_items(m.group(2).replace(" and can attack", ", can attack").replace(" and has ", ", "))
    if cond is None or items is None:
        return PASS
    real = tuple(i for i in items if i[0] != "noop")
    if not real:
        return NO_EFFECT
    prog.cond_self += ((cond, real),)
    return AUTO


def _classify_static(prog: Program, body: str) -> str | None:
    """Keywords and static abilities; returns a status, or None when the body is not static."""
    return STATICS.apply(body, prog)


# Triggered abilities: each row fills the program's triggers and gives the ability's status.
TRIGGERS = Rules("kaijudo triggers")


def _triggered(events: tuple[str, ...]) -> Callable:
    """A builder that adds the effect to the program's triggers for `events`."""
    def build(m, prog, modes):
        ops = _modal(modes) if m.group(1) == "choose one:" else effect_ops(m.group(1))
        if ops is None:
            return MANUAL
        if _is_noop(ops):
            return NO_EFFECT
        for event in events:
            prog.triggers[event] = prog.triggers.get(event, ()) + ops
        return AUTO
    return build


for _name, _pattern, _events in (
    ("enters or attacks", r"^when(?:ever)? this creature enters the battle zone (?:and|or) whenever it attacks, (.+)$", ("etb", "attack")),
    ("enters the battle zone", r"^when(?:ever)? this creature enters the battle zone, (.+)$", ("etb",)),
    ("attacks", r"^when(?:ever)? this creature attacks(?: and isn't blocked)?, (.+)$", ("attack",)),
    ("is banished", r"^when(?:ever)? this creature is banished, (.+)$", ("banished",)),
    ("end of your turn", r"^at the end of (?:each of your turns|your turn|the turn|each turn|this turn), (.+)$", ("end_turn",)),
    ("start of your turn", r"^at the start of (?:each of your turns|your turn|each turn), (.+)$", ("start_turn",)),
    ("you cast a spell", r"^whenever you cast a spell, (.+)$", ("cast_spell",)),
    ("you draw a card", r"^whenever you draw a card, (.+)$", ("draw",)),
):
    TRIGGERS.row(_name, starts(_pattern))(_triggered(_events))

TRIGGERS.row("about enemies only", lambda body: body if all(_enemy_only(unit) for unit in sentences(body)) else None)(
    lambda m, prog, modes: NO_EFFECT)  # every sentence, not the text as a whole: "... then you may draw a card" is yours


@TRIGGERS.row("one of your creatures attacks", starts(r"^whenever one of your (other )?(?:(\w+) )?creatures attacks, (.+)$"))
def _(m, prog, modes):
    ops = effect_ops(about_the_trigger(m.group(3)))
    if ops is None:
        return MANUAL
    if _is_noop(ops):
        return NO_EFFECT
    filt = (group_matcher(m.group(2)),) if m.group(2) else ()
    prog.ally_attack += ((filt, bool(m.group(1)), ops),)
    return AUTO


@TRIGGERS.row("another creature enters", starts(r"^whenever one of your other creatures (?:that has \"(\w+)\" )?enters the battle zone, (.+)$"))
def _(m, prog, modes):
    ops = effect_ops(about_the_trigger(m.group(2)))
    if ops is None:
        return MANUAL
    if _is_noop(ops):
        return NO_EFFECT
    filt = (("has", m.group(1)),) if m.group(1) else ()
    prog.other_etb += ((filt, ops),)
    return AUTO


@TRIGGERS.row("one of your creatures is banished", full(
    r"whenever (?:(this creature or )?one of your (other )?creatures|(another) creature) is banished, (.+)"))
def _(m, prog, modes):
    """Only a banishment: a creature a replacement effect sends elsewhere was not banished (Kaijudo 13)."""
    ops = effect_ops(about_the_trigger(m.group(4)) if not m.group(1) else m.group(4))
    if ops is None:
        return MANUAL
    if _is_noop(ops):
        return NO_EFFECT
    prog.ally_banished += ((bool(m.group(2) or m.group(3)), ops),)
    return AUTO


def _classify_trigger(prog: Program, body: str, modes: list[str]) -> str | None:
    return TRIGGERS.apply(body, prog, modes)


def _modal(modes: list[str]) -> tuple | None:
    options = []
    any_auto = False
    for mode in modes:
        ops = effect_ops(mode.rstrip("."))
        if ops is None:
            options.append((mode, None))
        else:
            options.append((mode, ops))
            any_auto = any_auto or not _is_noop(ops)
    if not options or any(ops is None for _, ops in options):
        return None
    if not any_auto:
        return (NOOP,)
    return (("mode", tuple(options)),)


TABLES = (STATICS, TRIGGERS, EFFECTS, OPTIONAL_COSTS, SENTENCES)


class Vocabulary(NamedTuple):
    """The races and civilizations the cards of one catalogue have: a compiled filter naming
    anything else read its text wrong ("any number of creatures" as a race called "of")."""

    races: frozenset
    civs: frozenset

    def unknown(self, found: Iterable[tuple]) -> list[str]:
        """The names of `found` filter pairs no card of the catalogue has."""
        wrong = []
        for kind, value in found:
            if kind == "race" and value not in self.races and not (
                    value == "dragon" and any(r.endswith("dragon") for r in self.races)):
                wrong.append(f"race {value!r}")
            elif kind == "civ" and value not in self.civs:
                wrong.append(f"civilization {value!r}")
        return wrong


def vocabulary(cards: Iterable[Any]) -> Vocabulary:
    races, civs = set(), set()
    for card in cards:
        races.update(r.lower() for r in card.attrs.get("race") or ())
        civs.update(c.lower() for c in card.attrs.get("civilizations") or ())
    return Vocabulary(frozenset(races), frozenset(civs))


def compiler(catalogue: Any) -> Callable[[Any], Program]:
    """`compile_card` checked against this catalogue's races and civilizations (one per catalogue,
    so `Catalogue.compiled` keeps its programs)."""
    return catalogue.memo("kaijudo.compiler", lambda: partial(compile_card, words=vocabulary(catalogue)))


def _names(value: Any, found: set) -> set:
    """Every ("race", x) and ("civ", x) pair inside a program's fields."""
    if isinstance(value, tuple):
        if len(value) == 2 and value[0] in ("race", "civ") and isinstance(value[1], str):
            found.add(value)
        else:
            for v in value:
                _names(v, found)
    elif isinstance(value, dict):
        for v in value.values():
            _names(v, found)
    return found


def compile_card(card: Any, words: Vocabulary | None = None) -> Program:
    """The Program of a catalogue Card. Engines keep it on the catalogue (`Catalogue.compiled`),
    so a corrected level, power or civilization (a new catalogue) is compiled afresh. With the
    catalogue's `words`, an ability whose compiled form names a race or civilization no card has
    is left manual (and undone), and listed in `prog.unknown_names`."""
    attrs = card.attrs
    ctype = card.type or ""
    prog = Program(
        key=card.key, name=card.display_name, type=ctype, level=int(attrs.get("level") or 0),
        civs=tuple(c.lower() for c in attrs.get("civilizations") or ()),
        races=tuple(r.lower() for r in attrs.get("race") or ()),
        power=int(attrs.get("power_value") or 0), creature="Creature" in ctype, has_text=bool(card.text),
    )
    abilities: list[tuple[str, str]] = []
    spell_ops: list[tuple] = []
    unknown: list[str] = []
    for raw, body, modes, name in split_abilities(card.text):
        if words is not None:
            saved, saved_triggers, saved_ops = dict(prog.__dict__), dict(prog.triggers), len(spell_ops)
            before = _names((tuple(saved.values()), tuple(spell_ops)), set())
        _ability(prog, raw, body, modes, name, abilities, spell_ops)
        if words is not None and abilities[-1][1] is AUTO:
            wrong = words.unknown(_names((tuple(prog.__dict__.values()), tuple(spell_ops)), set()) - before)
            if wrong:
                prog.__dict__.update(saved)
                prog.triggers = saved_triggers
                del spell_ops[saved_ops:]
                abilities[-1] = (raw, MANUAL)
                unknown.extend(wrong)
    prog.unknown_names = tuple(unknown)
    if prog.evolution is None and "Evolution" in ctype:
        abilities.append(("(evolution target not found in the text)", MANUAL))
    prog.spell = tuple(spell_ops)
    prog.abilities = tuple(abilities)
    statuses = {s for _, s in abilities}
    prog.useful = prog.creature or helps(prog.spell) or MANUAL in statuses
    return prog


def _ability(prog: Program, raw: str, body: str, modes: list[str], name: str,
             abilities: list, spell_ops: list) -> None:
    """Compile one ability into `prog` (or `spell_ops`) and append (raw, status) to `abilities`."""
    if name == "unleash" and prog.creature:
        ops = effect_ops(body)
        status = MANUAL if ops is None else NO_EFFECT if _is_noop(ops) else AUTO
        if status == AUTO:
            prog.unleash = ops
        abilities.append((raw, status))
        return
    status = _classify_static(prog, body)
    if status is None:
        status = _classify_trigger(prog, body, modes)
    if status is None and not prog.creature:
        ops = _modal(modes) if body.endswith("choose one:") else effect_ops(body)
        if ops is None:
            status = MANUAL
        elif _is_noop(ops):
            status = NO_EFFECT
        else:
            status = AUTO
            spell_ops.extend(ops)
    if status is None:
        status = MANUAL
    abilities.append((raw, status))


def helps(ops: tuple) -> bool:
    """Whether ops can do something for you against the dummy: returning one of your own creatures
    (it has none to target) or paying an optional cost for an effect that cannot matter does not."""
    for op in ops:
        kind = op[0]
        if kind in ("noop", "bounce"):
            continue
        if kind in ("may", "if", "this_turn", "sacrifice"):
            if helps(op[2]):
                return True
        elif kind == "pick" and op[5] and op[1:3] == ("hand", "discard"):  # "you may discard a card. if you do, ..."
            if helps(op[6]):
                return True
        elif kind == "mode":
            if any(helps(mode_ops) for _, mode_ops in op[1]):
                return True
        else:
            return True
    return False


def _checks(prog: Program) -> tuple[str, ...]:
    return ("unknown race or civilization",) if prog.unknown_names else ()


def coverage(catalogue: Iterable[Any]) -> dict[str, Any]:
    """Distinct cards fully / partly / not automated, abilities by status, the commonest gaps."""
    cards = list(catalogue)
    compile = partial(compile_card, words=vocabulary(cards))
    return core_effects.coverage("kaijudo", catalogue, compile, phrase=phrase_of, tables=TABLES, checks=_checks, notes=(
        "an ability whose compiled form names a race or civilization that no card of the catalogue has is "
        "counted as manual (self_checks: the cards it happened to)",
        "full = every ability is automated or cannot matter against the dummy (it has no creatures and never acts); "
        "vanilla cards (no rules text) count as full",
        "no_effect abilities: targets only enemy creatures, blocking, battles, the opponent's hand, deck or spells",
    ))

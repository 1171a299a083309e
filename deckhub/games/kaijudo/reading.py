"""Kaijudo's compiled programs in plain words (see `deckhub.core.reading`): what a player reads on
a card's page to check the engine's reading against the printed text. Filters are said in full
(a level limit the compiler kept shows; one it dropped is missing from the words)."""
from __future__ import annotations

from typing import Any

from deckhub.core.reading import Reader, Unsaid, Words
from deckhub.games.kaijudo.effects import compiler

__all__ = ("WORDS", "compiler")

_ZONES = {"hand": "hand", "mana": "mana zone", "discard": "discard pile", "shields": "shield zone",
          "battle": "battle zone", "deck": "deck"}
_EVENTS = {"etb": "When it enters the battle zone", "attack": "When it attacks", "banished": "When it is banished",
           "end_turn": "At the end of your turn", "start_turn": "At the start of your turn",
           "cast_spell": "Whenever you cast a spell", "draw": "Whenever you draw a card",
           "ally_attack": "whenever one of your creatures attacks"}
_NUMBER = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def _event(name: str) -> str:
    if name not in _EVENTS:
        raise Unsaid(f"no words for the event {name!r}")
    return _EVENTS[name]


def _zone(name: str) -> str:
    if name not in _ZONES:
        raise Unsaid(f"no words for the zone {name!r}")
    return _ZONES[name]


def _count(n: int) -> str:
    return _NUMBER.get(n, str(n))


def _pair(pair: tuple) -> tuple[str, str]:
    """(adjective or noun before "card", words after it) for one filter pair."""
    kind, value = pair
    if kind == "any":
        return "", ""
    if kind == "civ":
        return value.title(), ""
    if kind == "race":
        return ("Dragon-race" if value == "dragon" else value.title()), ""
    if kind == "creature":
        return ("creature" if value else "spell"), ""
    if kind == "spell":
        return "spell", ""
    if kind == "non_evo":
        return "non-evolution", ""
    if kind == "evolution":
        return "evolution", ""
    if kind == "max_level":
        return "", f"of level {value} or less"
    if kind in ("min_power", "min_power_now"):
        return "", f"with {value} power or more"
    if kind == "max_power_now":
        return "", f"with {value} power or less"
    if kind == "name":
        return "", f"named {value.title()}"
    if kind == "name_has":
        return "", f"with {value.title()} in its name"
    if kind == "has":
        return "", f"that has {value.replace('_', ' ').title()}"
    if kind == "other":
        return "other", ""
    if kind == "or":
        return "", "that is " + " or ".join(what((p,)) for p in value)
    if kind == "cond":
        return "", f"while {_cond(value)}"
    raise Unsaid(f"no words for the filter {pair!r}")


def what(filt: tuple, noun: str = "card") -> str:
    """"a Fire creature of level 4 or less" for a filter."""
    before, after = [], []
    for pair in filt:
        b, a = _pair(pair)
        if b in ("creature", "spell"):
            noun = b
        elif b:
            before.append(b)
        if a:
            after.append(a)
    return " ".join([*before, noun, *after])


_CONDITIONS = {
    "shields_le": lambda c: f"you have {c[1]} or fewer shields",
    "dummy_shields_le": lambda c: f"the opponent has {c[1]} or fewer shields",
    "evolution_in_play": lambda c: "you have an evolution creature in the battle zone",
    "count_other": lambda c: f"you have at least {c[2]} other {what(c[1], 'creature')}s in the battle zone",
    "at_least": lambda c: f"you have at least {c[3]} {what(c[2])}s in your {_zone(c[1])}",
    "alone": lambda c: "you have no other creatures in the battle zone",
    "empty_hand": lambda c: "you have no cards in your hand",
    "mana_all": lambda c: f"every card in your mana zone is {c[1].title()}",
    "attacking": lambda c: "it is attacking",
    "has": lambda c: f"you have {'another' if c[2] else 'a'} {what(c[1], 'creature')} in the battle zone",
    "per": lambda c: f"for each {what(c[2])} in your {_zone(c[1])}",
}


def _cond(cond: tuple) -> str:
    if cond[0] not in _CONDITIONS:
        raise Unsaid(f"no words for the condition {cond!r}")
    return _CONDITIONS[cond[0]](cond)


def _item(item: tuple) -> str:
    kind, value = item
    words = {"power": f"+{value} power", "fast": "Fast Attack", "breaker": f"breaks {value} shields",
             "powerful_attack": f"Powerful Attack +{value}", "attack_players": "the right to attack players",
             "extra_break": "breaks one more shield", "blocker": "Blocker", "slayer": "Slayer",
             "replace_banish": f"goes to your {_ZONES.get(value, value)} instead of being banished"}.get(kind)
    if words is None:
        raise Unsaid(f"no words for the bonus {item!r}")
    return words


def _items(items: tuple) -> str:
    return " and ".join(_item(i) for i in items)


_WHO = {"self": "it gets", "all": "each of your creatures gets", "all_other": "each of your other creatures gets",
        "choose": "one of your creatures gets", "choose_other": "one of your other creatures gets",
        "choose_skirmisher": "one of your other creatures that has Skirmisher gets",
        "trigger": "the creature that set it off gets"}
_UNTAP = {"self": "untap it", "all": "untap all your creatures", "choose": "untap one of your creatures",
          "choose_other": "untap one of your other creatures",
          "choose_weaker": "untap one of your creatures that has less power than it",
          "trigger": "untap the creature that set it off"}


def _who(table: dict, who: str) -> str:
    if who not in table:
        raise Unsaid(f"no words for {who!r}")
    return table[who]


def _pick(op: tuple, r: Reader) -> str:
    _, src, dst, filt, count, optional, then = op
    n = _count(count)
    if src == "hand" and dst == "discard":
        said = f"discard {n} {what(filt)}{'s' if count > 1 else ''} from your hand"
    else:
        said = f"put {n} {what(filt)}{'s' if count > 1 else ''} from your {_zone(src)} into your {_zone(dst)}"
    said = ("you may " if optional else "") + said
    return said + (f", then {r.ops(then)}" if then else "")


def _look(op: tuple, r: Reader) -> str:
    _, n, specs, rest = op
    said = [f"look at the top {_count(n)} cards of your deck"]
    for dest, filt, count, optional in specs:
        said.append(f"{'you may ' if optional else ''}put {_count(count)} {what(filt)} among them into your {_zone(dest)}")
    said.append("put the rest on the bottom of your deck" if rest == "bottom" else f"put the rest into your {_zone(rest)}")
    return ", ".join(said)


OPS = {
    "draw": lambda op, r: f"draw {_count(op[1])} card{'s' if op[1] != 1 else ''}",
    "draw_upto": lambda op, r: f"draw up to {_count(op[1])} cards",
    "may": lambda op, r: f"you may {r.ops(op[2])}",
    "noop": lambda op, r: "",
    "top_to": lambda op, r: (f"put the top {'card' if op[2] == 1 else _count(op[2]) + ' cards'} of your deck into your "
                             f"{_zone(op[1])}" + (" face down as new shields" if op[1] == "shields" else "")),
    "top_to_upto": lambda op, r: f"put up to {_count(op[2])} cards from the top of your deck into your {_zone(op[1])}",
    "pick": _pick,
    "all_to": lambda op, r: f"put every {what(op[3])} from your {_zone(op[1])} into your {_zone(op[2])}",
    "discard_hand": lambda op, r: "discard your hand",
    "boost": lambda op, r: f"{_who(_WHO, op[1])} {_items(op[2])} until the end of the turn",
    "untap": lambda op, r: _who(_UNTAP, op[1]) + (f" (only a {what(op[2], 'creature')})" if op[2] else ""),
    "bounce": lambda op, r: (f"{'you may ' if op[1] else ''}return one {what(op[3] if len(op) > 3 else (), 'creature')} "
                             f"to its owner's {_zone(op[2] if len(op) > 2 else 'hand')}"),
    "put_battle": lambda op, r: (f"{'you may ' if op[4] else ''}put {_count(op[3])} {what(op[2], 'creature')} from "
                                 f"your {_zone(op[1])} into the battle zone"),
    "look": _look,
    "search": lambda op, r: (f"{'you may ' if op[3] else ''}search your deck for a {what(op[1])}, put it into your "
                             f"{_zone(op[2])}, then shuffle your deck"),
    "peek_bottom": lambda op, r: "look at the top card of your deck; you may put it on the bottom",
    "break": lambda op, r: f"break {_count(op[1])} of the opponent's shields",
    "tap_self": lambda op, r: "tap it",
    "if": lambda op, r: f"if {_cond(op[1])}, {r.ops(op[2]) or 'nothing more'}",
    "mode": lambda op, r: "choose one: " + " or ".join(f"({r.ops(ops) or 'nothing the goldfish opponent notices'})" for _, ops in op[1]),
    "this_turn": lambda op, r: f"this turn, {_event(op[1])}: {r.ops(op[2])}",
    "banish_self": lambda op, r: "banish it",
    "self_to": lambda op, r: f"return it to your {_zone(op[1])}",
    "sacrifice": lambda op, r: (f"you may banish {_SACRIFICED.get(op[1], op[1])}"
                                + (f"; if you do, {r.ops(op[2])}" if op[2] else "")),
}

_SACRIFICED = {"self": "it", "choose": "one of your creatures", "choose_other": "one of your other creatures"}


def _triggers(value: dict, r: Reader) -> list[str]:
    return [f"{_event(event)}: {r.ops(ops)}" for event, ops in value.items()]


def _evolution(value: Any, r: Reader) -> str:
    count, matchers = value
    return f"Evolution: put it on {_count(count)} of your {what(matchers, 'creature')}s"


FIELDS = {
    "triggers": _triggers,
    "spell": lambda v, r: r.ops(v),
    "breaker": lambda v, r: f"breaks {_count(v)} shields",
    "evolution": _evolution,
    "evolution_wildcard": lambda v, r: "can be evolved on as though it had every creature race",
    "mana_tapped": lambda v, r: "enters your mana zone tapped",
    "untap_once": lambda v, r: "untaps once after entering your mana zone tapped",
    "skirmisher": lambda v, r: "Skirmisher: it attacks only creatures",
    "guard": lambda v, r: "Guard: it can't attack",
    "blocker": lambda v, r: "Blocker",
    "slayer": lambda v, r: "Slayer",
    "fast": lambda v, r: "Fast Attack: it can attack the turn it enters the battle zone",
    "protector": lambda v, r: "Protector",
    "shield_blast": lambda v, r: "Shield Blast: when it is put into your hand from a broken shield, you may cast it for free",
    "powerful_attack": lambda v, r: f"Powerful Attack: +{v} power while attacking",
    "banish_after_attack": lambda v, r: "banished at the end of the turn it attacks",
    "must_attack": lambda v, r: "attacks each turn if able",
    "enters_tapped": lambda v, r: "enters the battle zone tapped",
    "replace_banish": lambda v, r: f"if it would be banished, it goes to your {_zone(v)} instead",
    "buffs": lambda v, r: [f"each of your {'other ' if others else ''}{what(filt, 'creature')}s gets +{amount} power"
                           for filt, amount, others in v],
    "grants": lambda v, r: [f"each of your {what(filt, 'creature')}s has {_item((kind, value))}" for filt, kind, value in v],
    "cost_mods": lambda v, r: [f"you tap {_count(amount)} less mana to summon a {what(filt)}" for filt, amount in v],
    "self_cost": lambda v, r: [f"tap {_count(amount)} less mana to summon it "
                               + (_cond(cond) if cond[0] == "per" else f"if {_cond(cond)}") for cond, amount in v],
    "cond_self": lambda v, r: [f"while {_cond(cond)}, it has {_items(items)}" for cond, items in v],
    "cond_breakers": lambda v, r: [f"with {power} power or more it breaks {_count(n)} shields" for power, n in v],
    "ally_attack": lambda v, r: [f"whenever one of your {'other ' if others else ''}{what(filt, 'creature')}s attacks: {r.ops(ops)}"
                                 for filt, others, ops in v],
    "ally_banished": lambda v, r: [f"whenever one of your {'other ' if others else ''}creatures is banished: {r.ops(ops)}"
                                   for others, ops in v],
    "other_etb": lambda v, r: [f"whenever another {what(filt, 'creature')} of yours enters the battle zone: {r.ops(ops)}"
                               for filt, ops in v],
    "unleash": lambda v, r: f"Unleash: when it attacks, you may put a card from under it into your discard pile to {r.ops(v)}",
}

WORDS = Words(
    ops=OPS, fields=FIELDS, quiet=frozenset({"has_text", "useful", "unknown_names"}),
    why=lambda text: "it only concerns the opponent, enemy creatures, blocks or battles, and the dummy has none of these and never acts",
)

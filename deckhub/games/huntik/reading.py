"""Huntik's compiled programs in plain words (see `deckhub.core.reading`). Heroes and actions are
programs written per card; missions and features are played by the missions package, so their
words come from there (the terms that win a mission, what a feature gives heroes)."""
from __future__ import annotations

from typing import Any

from deckhub.core.reading import Reader, Unsaid, Words, plural, some
from deckhub.games.huntik.effects import _UNBLOCKABLE, GRANTED, compile_card
from deckhub.games.huntik.missions import FEATURES, MISSIONS

__all__ = ("WORDS", "compiler")


def compiler(catalogue):
    """The card compiler (the same for every catalogue)."""
    return compile_card


def _stat(atk: int, def_: int) -> str:
    return " and ".join(f"{'+' if n >= 0 else ''}{n} {name}" for n, name in ((atk, "ATK"), (def_, "DEF")) if n)


def _a(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _card(filt: Any) -> str:
    """A card description of the hand, deck or discard pile."""
    atoms = filt if isinstance(filt, tuple) and (not filt or not isinstance(filt[0], str) or filt[0] not in
                                                  ("name_has", "not_name_has", "def_le", "speed")) else (filt,)
    words, noun = [], "card"
    for atom in atoms:
        if atom == "hero":
            noun = "hero card"
        elif atom in ("minor", "major"):
            noun = f"{atom} hero card"
        elif atom == "action":
            noun = "action card"
        elif atom == "not_me":
            noun += " other than me"
        elif atom[0] == "name_has":
            words.append(f"{atom[1]} ")
        elif atom[0] == "not_name_has":
            noun += f" not named {atom[1]}"
        elif atom[0] == "def_le":
            noun += f" with DEF {atom[1]} or less"
        elif atom[0] == "speed":
            words.append(f"{atom[1]} ")
        else:
            raise Unsaid(f"no words for the card description {atom!r}")
    return "".join(words) + noun


_TARGET_WORDS = {"friendly": "friendly", "enemy": "enemy", "minor": "minor", "major": "major", "ready": "ready",
                 "exhausted": "exhausted", "stunned": "stunned"}
_TARGET_AFTER = {"here": "in my zone", "elsewhere": "in another zone", "not_me": "other than me",
                 "in_combat": "in this combat", "def_le_round": "with DEF up to the round number"}


def _target(spec: tuple) -> str:
    before, after = [], []
    for atom in spec:
        if atom == "hero":
            continue
        if isinstance(atom, str) and atom in _TARGET_WORDS:
            before.append(_TARGET_WORDS[atom])
        elif isinstance(atom, str) and atom in _TARGET_AFTER:
            after.append(_TARGET_AFTER[atom])
        elif atom[0] == "within":
            after.append(f"within {plural(atom[1], 'zone')} of me")
        elif atom[0] == "away":
            after.append(f"exactly {plural(atom[1], 'zone')} away from me")
        elif atom[0] == "def_le":
            after.append(f"with DEF {atom[1]} or less")
        elif atom[0] == "def_eq":
            after.append(f"with DEF {atom[1]}")
        elif atom[0] == "not_named":
            after.append(f"not named {atom[1]}")
        else:
            raise Unsaid(f"no words for the target {atom!r}")
    return " ".join(["target", *before, "hero", *after])


def _verb(verb: Any) -> str:
    name = verb if isinstance(verb, str) else verb[0]
    simple = {"ko": "KO {t}", "stun": "stun {t}", "ready": "ready {t}", "exhaust": "exhaust {t}",
              "swap": "{t} swaps its ATK and DEF this round", "return_hand": "return {t} to its owner's hand",
              "put_my_zone": "put {t} into my zone", "control": "take control of {t}",
              "noop": "choose {t} (what happens to it cannot matter against the goldfish opponent)", "no_attacks": "{t} can't be attacked in this combat",
              "getaway": "if {t} would be KO'd this combat, it is stunned and put into zone 1 instead"}
    if name in simple:
        return simple[name]
    if name == "boost":
        return "{t} gets " + _stat(verb[1], verb[2]) + " this round"
    if name == "put_step":
        return f"put {{t}} up to {plural(verb[1], 'zone')} forward or back"
    if name == "put_back":
        return f"put {{t}} {plural(verb[1], 'zone')} back"
    if name == "grant":
        return f"{{t}} gets \"{GRANTED[verb[1]].label}\" this round"
    raise Unsaid(f"no words for the effect {verb!r}")


def _cond(atom: Any) -> str:
    named = {"never": "never", "in_combat": "I'm in combat", "me_in_combat": "I'm in combat",
             "not_in_combat": "I'm not in combat", "alone": "I'm alone in my zone",
             "enemy_here": "an enemy is in my zone", "enemy_hero_here": "an enemy hero is in my zone",
             "me_ready": "I'm ready", "me_exhausted": "I'm exhausted", "major_me": "it is played by a major hero",
             "hand_nonempty": "you have cards in your hand", "round_1": "it is round 1",
             "other_minors": "you have other minor heroes in play",
             "stunned_hero_here": "a stunned hero is in my zone"}
    if isinstance(atom, str):
        if atom not in named:
            raise Unsaid(f"no words for the condition {atom!r}")
        return named[atom]
    kind = atom[0]
    if kind == "zone":
        return f"I'm in zone {atom[1]}"
    if kind == "zone_in":
        return "I'm in zone " + " or ".join(str(z) for z in atom[1])
    if kind == "hand_min":
        return f"you have at least {plural(atom[1], 'card')} in your hand"
    if kind == "hand_has":
        return f"you have {_a(_card(atom[1]))} in your hand"
    if kind == "discard_has":
        return f"your discard pile holds at least {atom[2]} {_card(atom[1])}s"
    if kind == "round_ge":
        return f"it is round {atom[1]} or later"
    raise Unsaid(f"no words for the condition {atom!r}")


_PLACES = {"hand": "your hand", "top": "the top of your deck", "zone1": "play in zone 1", "my_zone": "play in my zone",
           "discard": "your discard pile"}


def _place(where: str) -> str:
    if where not in _PLACES:
        raise Unsaid(f"no words for the place {where!r}")
    return _PLACES[where]


def _put_me(where: str) -> str:
    words = {"fwd1": "put me 1 zone forward", "zone5_combat": "put me into zone 5 and start a combat there",
             "any": "put me into any zone"}
    if where not in words:
        raise Unsaid(f"no words for putting me {where!r}")
    return words[where]


OPS = {
    "draw": lambda op, r: f"draw {some(op[1], 'card')}",
    "note": lambda op, r: f"nothing happens ({op[1]})",
    "go_again": lambda op, r: "go again",
    "if": lambda op, r: f"if {_cond(op[1])}, {r.ops(op[2])}",
    "discard": lambda op, r: f"discard {some(op[1], 'card')}",
    "discard_filter": lambda op, r: f"discard {_a(_card(op[1]))}",
    "discard_or_elim": lambda op, r: f"discard a card, or eliminate {op[1] or 'me'}",
    "elim_me": lambda op, r: "eliminate me",
    "elim_if": lambda op, r: f"eliminate me if {_cond(op[1])}",
    "elim_friendly": lambda op, r: (f"eliminate a friendly {_card(op[1]).replace(' card', '')}"
                                    + (" (or, declining, eliminate me)" if op[2] == "me" else "")),
    "target": lambda op, r: ("you may " if op[3] else "") + _verb(op[2]).format(t=_target(op[1])),
    "exhaust_upto": lambda op, r: f"exhaust up to {op[1]} target ready heroes",
    "boost_me": lambda op, r: f"I get {_stat(op[1], op[2])} this round",
    "boost_me_combat": lambda op, r: f"I get {_stat(op[1], op[2])} this combat",
    "counter_me": lambda op, r: f"put {op[1]} +1 ATK and +1 DEF counter{'s' if op[1] != 1 else ''} on me",
    "ready_me": lambda op, r: "ready me",
    "exhaust_me": lambda op, r: "exhaust me",
    "stun_me": lambda op, r: "stun me",
    "no_ko_me": lambda op, r: "I can't be KO'd in this combat",
    "return_me_hand": lambda op, r: "return me to your hand",
    "me_to_hand": lambda op, r: "return me from your discard pile to your hand",
    "move_me": lambda op, r: f"move me up to {op[1]} zones{' forward' if op[2] else ''}",
    "put_me": lambda op, r: _put_me(op[1]),
    "unblockable_me": lambda op, r: "I'm unblockable this round",
    "unblockable_friendly": lambda op, r: "all friendly heroes are unblockable this round",
    "add_attacks": lambda op, r: f"add {op[1]} attacks to the combat",
    "remove_enemy_attacks": lambda op, r: f"remove {op[1]} enemy attacks from this combat",
    "search": lambda op, r: (f"{'you may ' if op[3] else ''}search your deck for {_a(_card(op[1]))}, put it into "
                             f"{_place(op[2])}, then shuffle your deck"),
    "search_or_discard": lambda op, r: f"put another {_card(op[1])} from your deck or discard pile into play in this zone",
    "from_discard": lambda op, r: (f"{'you may ' if op[3] else ''}put {_a(_card(op[1]))} from your discard pile into "
                                   f"{_place(op[2])}"),
    "hand_to_play": lambda op, r: (f"{'you may ' if op[3] else ''}put {_a(_card(op[1]))} from your hand into "
                                   f"{_place(op[2])}{' exhausted' if op[4] else ''}"),
    "look_top": lambda op, r: f"look at the top {op[1]} cards of your deck, put one into your hand and the rest on the bottom",
    "reveal_top": lambda op, r: (f"reveal the top card of your deck: {_a(_card(op[1]))} goes into {_place(op[2])}, "
                                 f"anything else into {_place(op[3])}"),
    "ferric": lambda op, r: ("reveal the top card of your deck: if it is the same action card, put it into your hand, "
                             "else into your discard pile"),
    "mill": lambda op, r: f"put the top {op[1]} cards of your deck into your discard pile",
    "grant_round": lambda op, r: (f"this round {'all heroes get' if op[1] == 'all' else 'your heroes get'} "
                                  f"\"{GRANTED[op[2]].label}\""),
    "play_into": lambda op, r: f"this round you may play {_card(op[1])}s into my zone",
    "initiative": lambda op, r: "you go first next round",
    "extra_major": lambda op, r: "you may play an extra major hero this round",
    "trap_zone": lambda op, r: "choose a zone to trap this round",
    "copyform": lambda op, r: "this card comes into play in my zone with my ATK and DEF",
    "bladestorm": lambda op, r: "KO all heroes in my zone",
    "start_combat_here": lambda op, r: "start a combat in my zone",
    "end_combat": lambda op, r: "end the combat with no attacks aimed",
    "reinforce": lambda op, r: "put a ready friendly hero into this combat, exhausted",
    "retaliation": lambda op, r: "eliminate a friendly hero in this combat",
    "designated_hitter": lambda op, r: "return a ready friendly hero to your hand",
    "outsourcing": lambda op, r: "eliminate a ready friendly hero",
    "regroup": lambda op, r: "put a friendly hero into another friendly hero's zone",
    "bottom_from_discard": lambda op, r: (f"put {op[2]} {_card(op[1]) if op[1] != '$self4' else 'other card'}s from "
                                          "your discard pile on the bottom of your deck"
                                          + (", and this card too" if op[1] == "$self4" else "")),
    "unstun_ready_all": lambda op, r: "unstun and ready all heroes",
    "ko_stunned_here": lambda op, r: "KO a stunned hero in my zone",
    "suits_to_top": lambda op, r: "you may put a Suit card from your discard pile on top of your deck",
    "ice_creatures": lambda op, r: "put every Ice Creature from your discard pile into play in my zone",
}

_EVENTS = {"start_combat": "When I start a combat", "move_into": "When I move into a zone",
           "i_play_exhaust": "Whenever I play an Exhaust Action card", "you_play_combat": "Whenever you play a Combat Action card",
           "you_play_action": "Whenever you play an Action card", "discarded": "When you discard me from your hand",
           "ko": "When I'm KO'd", "moved": "When I move"}


def _event(name: str) -> str:
    if name.startswith("i_play:"):
        return f"Whenever I play a {name.split(':', 1)[1]} card"
    if name.startswith("you_play:"):
        return f"Whenever you play a {name.split(':', 1)[1]} card"
    if name not in _EVENTS:
        raise Unsaid(f"no words for the event {name!r}")
    return _EVENTS[name]


_STATICS = {"survival": "I come into play with a Survival counter, removed instead of a KO from combat attacks",
            "protect_suit": "while a friendly minor Suit is in my zone, attacks can't be aimed at me",
            "zone_atk": "I get +X ATK, X the number of my zone", "defender": "in combat, all enemy attacks must be aimed at one target",
            "object_bonus": "I get +2 ATK and +2 DEF while I have an object",
            "teamwork": "I get +1 ATK and +1 DEF for each other friendly minor hero in my zone",
            "all_unblockable": "all your heroes are unblockable", "enters_exhausted": "I come into play exhausted"}


def _statics(value: frozenset, r: Reader) -> list[str]:
    missing = [s for s in value if s not in _STATICS]
    if missing:
        raise Unsaid(f"no words for the static {missing[0]!r}")
    return [_STATICS[s] for s in sorted(value)]


def _power(p: Any, r: Reader) -> str:
    speed = {"exhaust": "Exhaust Action", "free": "Free Action", "combat": "Combat Action"}[p.speed]
    when = f" (only if {' and '.join(_cond(c) for c in p.cond)})" if p.cond else ""
    where = " from your discard pile" if p.where == "discard" else ""
    once = ", once a combat" if p.once == "combat" else ""
    return f"{p.label} - {speed}{where}{once}{when}: {r.ops(p.ops)}"


_PLAY_ZONES = {"round_zone": "you may play me into the zone of the round's number",
               "with_hero_r3": "from round 3 you may play me into the zone of a friendly hero"}


FIELDS = {
    "effect": lambda v, r: r.ops(v),
    "powers": lambda v, r: [_power(p, r) for p in v],
    "triggers": lambda v, r: [f"{_event(e)}: {r.ops(ops)}" for e, ops in v.items()],
    "go_again": lambda v, r: "",  # said by its op in the effect
    "on_enter": lambda v, r: f"When I come into play: {r.ops(v)}",
    "on_play": lambda v, r: f"When you play me from your hand: {r.ops(v)}",
    "start_round": lambda v, r: f"At the start of each round: {r.ops(v)}",
    "start_if": lambda v, r: "My start-of-round power triggers only if " + " and ".join(_cond(c) for c in v),
    "round_start": lambda v, r: [f"At the start of round {n}: {r.ops(ops)}" for n, ops in v.items()],
    "statics": _statics,
    "move_max": lambda v, r: f"I can move up to {plural(v, 'zone')}",
    "fwd_max": lambda v, r: f"I can move up to {v} zones forward",
    "object_move_max": lambda v, r: f"I can move up to {v} zones while I have an object",
    "lazy": lambda v, r: "I can't move on my own" if v else "",
    "unblockable": lambda v, r: "Unblockable" if v else "",
    "play_zones": lambda v, r: [_PLAY_ZONES[z] if z in _PLAY_ZONES else r.op((z,)) for z in v],
    "play_cond": lambda v, r: "it can be played only if " + " and ".join(_cond(c) for c in v),
}


def _elsewhere(card: Any, text: str) -> str | None:
    """A mission's terms or a feature's powers, as the missions package plays them; the Unblockable
    keyword, which the card's facts give whatever its text compiles to."""
    if _UNBLOCKABLE.fullmatch(text.rstrip(".")):
        return "Unblockable: I can move forward through zones with enemy heroes"
    mission = MISSIONS.get(card.key)
    if mission is not None:
        return f"the engine plays this mission; it is won by its terms: {mission.terms}"
    feature = FEATURES.get(card.key)
    if feature is None and (card.type or "").lower() in ("mission", "feature"):
        return f"played by hand: the engine does not play this {card.type.lower()} (no engine can play it yet)"
    if feature is not None:
        said = [f"heroes get \"{power.label}\"" for _, power in feature.grants]
        if feature.obstacle:
            said.insert(0, f"an obstacle with {feature.atk} ATK and {feature.def_} DEF")
        if feature.object:
            said.insert(0, "an object heroes pick up and carry")
        return "the engine plays this feature: " + ("; ".join(said) or "as its mission sets it up")
    return None


WORDS = Words(
    ops=OPS, fields=FIELDS, quiet=frozenset({"name", "kind", "atk", "def_", "team", "tags", "speed", "useful", "hero"}),
    why=lambda text: "it only concerns enemy heroes, the opponent's hand or actions, and the passive defender has none",
    elsewhere=_elsewhere,
)

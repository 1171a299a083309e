"""Rule actions declared as data, and the refusals every game words the same way.

An engine lists its actions once, as `RuleAction`s (its State's `RULE_ACTIONS`, and
`EXTRA_MANUAL` for its own manual moves): the kind, the fields it takes (required, optional), the
phases it is legal in and a short description for the player. From that declaration the core
refuses, for every game in one wording, an unknown kind, a missing or an extra field, an action
outside its phases, a card id that names no card and true/false for any value; the engine's own
check is asked only about actions that pass, so it explains only what is particular to its game
(not enough mana, no such card in hand).

`ActionTable` is the declaration compiled once per State class: `refusal(action, phase, cards)`
is on the path of every action applied, so it does one dict lookup, counts and membership tests;
only a refused action pays for the words (`explain`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

CHOICE_KINDS = ("choose", "decline")
EVERY_GAME = "in every game: choose, decline, concede, manual.*"
_ABSENT = object()


@dataclass(frozen=True)
class RuleAction:
    """One kind of action a game accepts.

    fields: the fields it needs; optional: the fields it may have; phases: the phases it is legal
    in (empty: any phase); ids: the fields that hold one card instance id (default: "card" when it
    takes one), which the core checks name a card of the game; text: what it does, for the player;
    rule: the rulebook section that says when it is legal ("Kaijudo 10B")."""

    kind: str
    fields: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    phases: tuple[str, ...] = ()
    text: str = ""
    rule: str = ""
    ids: tuple[str, ...] | None = None

    @property
    def card_fields(self) -> tuple[str, ...]:
        if self.ids is not None:
            return self.ids
        return ("card",) if "card" in self.fields or "card" in self.optional else ()

    def takes(self) -> str:
        """Its fields as a refusal names them: "card, onto (optional)", or "none"."""
        names = [*self.fields, *(f"{f} (optional)" for f in self.optional)]
        return ", ".join(names) if names else "none"


def _or(words: Iterable[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


class ActionTable:
    """A game's declared actions, compiled for the checks on every action applied."""

    def __init__(self, actions: Iterable[RuleAction], listing: str, phases: Iterable[str] = (),
                 also: str = "", reserved: Iterable[str] = ()):
        """listing: how the unknown-kind refusal introduces the kinds ("the Kaijudo actions");
        also: what it adds after them (the kinds every game has)."""
        self.actions: tuple[RuleAction, ...] = tuple(actions)
        self.listing, self.also = listing, also
        game = listing
        known_phases = tuple(phases)
        self.by_kind: dict[str, RuleAction] = {}
        # kind -> (least and most keys, phases or None, required card id fields, other required
        # fields, optional fields, optional card id fields)
        self._fast: dict[str, tuple] = {}
        for spec in self.actions:
            if spec.kind in self.by_kind or spec.kind in reserved:
                raise TypeError(f"{game}: the action kind {spec.kind!r} is declared twice or is the core's own")
            stray = [p for p in spec.phases if p not in known_phases]
            if stray:
                raise TypeError(f"{game}: {spec.kind} names phases {stray} that are not among {list(known_phases)}")
            self.by_kind[spec.kind] = spec
            least, ids = len(spec.fields) + 1, spec.card_fields
            self._fast[spec.kind] = (least, least + len(spec.optional), frozenset(spec.phases) or None,
                                     tuple(f for f in spec.fields if f in ids),
                                     tuple(f for f in spec.fields if f not in ids),
                                     spec.optional, frozenset(f for f in spec.optional if f in ids))

    def kinds(self) -> list[str]:
        return sorted(self.by_kind)

    def refusal(self, action: Mapping[str, Any], phase: str, cards: int) -> str | None:
        """Why the declaration refuses `action` now (None: it is well formed for this phase)."""
        fast = self._fast.get(action.get("kind"))
        if fast is None:
            return self.explain(action, phase, cards)
        least, most, phases, id_fields, other_fields, optional, optional_ids = fast
        size = len(action)
        if size < least or size > most or (phases is not None and phase not in phases):
            return self.explain(action, phase, cards)
        for name in id_fields:  # present, and a card's id (not True: Python would take it for 1)
            value = action.get(name, _ABSENT)
            if value.__class__ is not int or not 0 <= value < cards:
                return self.explain(action, phase, cards)
        for name in other_fields:
            value = action.get(name, _ABSENT)
            if value is _ABSENT or value.__class__ is bool:
                return self.explain(action, phase, cards)
        if size != least:  # the other keys must all be optional fields
            found = 0
            for name in optional:
                value = action.get(name, _ABSENT)
                if value is not _ABSENT:
                    if value.__class__ is bool or name in optional_ids and (value.__class__ is not int or not 0 <= value < cards):
                        return self.explain(action, phase, cards)
                    found += 1
            if found != size - least:
                return self.explain(action, phase, cards)
        return None

    def explain(self, action: Mapping[str, Any], phase: str, cards: int) -> str | None:
        """The refusal in words (the slow path of `refusal`): the first of unknown kind, missing
        field, extra field, wrong phase, no such card; None when there is none."""
        kind = action.get("kind")
        for key, value in action.items():
            if value.__class__ is bool:
                return f"{kind}: {key!r} must be a card id, a number or a name, not {json.dumps(value)}"
        spec = self.by_kind.get(kind)
        if spec is None:
            also = f"; {self.also}" if self.also else ""
            return f"unknown action kind {kind!r} ({self.listing}: {', '.join(self.kinds()) or 'none'}{also})"
        missing = [f for f in spec.fields if f not in action]
        if missing:
            return (f"{kind} needs the field{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))} "
                    f"(its fields: {spec.takes()})")
        extra = sorted(set(action) - {"kind", *spec.fields, *spec.optional})
        if extra:
            return f"{kind} takes no field {', '.join(map(repr, extra))} (its fields: {spec.takes()})"
        if spec.phases and phase not in spec.phases:
            here = [s.kind for s in self.actions if not s.phases or phase in s.phases]
            what = f" ({spec.text})" if spec.text else ""
            rule = f" ({spec.rule})" if spec.rule else ""
            return (f"{kind}{what} is legal only in the {_or(spec.phases)} phase{rule}; this is the "
                    f"{phase or 'setup'} phase (its actions: {', '.join(here) or 'none'})")
        for name in spec.card_fields:
            if name in action:
                value = action[name]
                if value.__class__ is not int or not 0 <= value < cards:
                    return f"there is no card #{value!r} in this game ({name!r} takes a card id, 0 to {cards - 1})"
        return None

"""What the engine does with each ability of a card, in plain words generated from its compiled
program (never from the card text, so a player can see when the engine read a card wrongly), and
the curators' manual overrides applied to compiled programs.

A game says its programs in a `Words` table (its package's `reading` module): words for each op
kind, for each program field that carries behaviour, and why its no-effect abilities cannot
matter. The core finds which part of a program an ability compiled to by compiling the ability's
text alone and comparing it with the card compiled without text; an ability that cannot be
compiled alone (a game whose programs are written per card) is read with the card's other
automated text.

An override is data (card key -> the texts of the abilities a curator set to manual): the card
is compiled without those abilities' text, so none of their ops can run, and they are listed as
manual. When the rest of the card no longer compiles as it did, the whole card is left to manual
moves: a doubtful program stays manual.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from deckhub.core.effects import MANUAL, NO_EFFECT, Account, Status

PLAYED_BY_HAND = "played by hand"
NO_EFFECT_LEAD = "no effect against the goldfish opponent"
UNSAID = "carried out by the engine (no plain-words reading for this game)"

Say = Callable[[Any], str]


class Unsaid(LookupError):
    """A program holds an op kind or field the game's `Words` has no words for."""


@dataclass(frozen=True)
class Words:
    """How one game's compiled programs are said.

    `ops`: op kind -> say(op, words) for the op tuples (`("draw", 2)`); `fields`: program field ->
    say(value, words) for the fields that carry behaviour; `quiet`: fields that are facts or
    bookkeeping, never said; `why(text)`: why a no-effect ability cannot matter; `elsewhere(card,
    text)`: words for an automated ability whose behaviour the engine keeps outside what its text
    compiles to (a Huntik mission's terms, a keyword its card facts give), or None."""

    ops: Mapping[str, Callable[[tuple, "Reader"], str]] = field(default_factory=dict)
    fields: Mapping[str, Callable[[Any, "Reader"], str | Iterable[str]]] = field(default_factory=dict)
    quiet: frozenset = frozenset()
    why: Callable[[str], str] = lambda text: "the dummy opponent never acts"
    elsewhere: Callable[[Any, str], str | None] = lambda card, text: None


class Reader:
    """Says ops and fields with one game's `Words`; raises `Unsaid` for anything it has no words for."""

    def __init__(self, words: Words, prog: Any = None):
        self.words = words
        self.prog = prog  # the program being said (a field's words may depend on the card's kind)

    def op(self, op: tuple) -> str:
        say = self.words.ops.get(op[0]) if isinstance(op, tuple) and op else None
        if say is None:
            raise Unsaid(f"no words for the op {op!r}")
        return say(op, self)

    def ops(self, ops: Iterable[tuple], joiner: str = ", then ") -> str:
        said = [s for s in (self.op(op) for op in ops) if s]
        return joiner.join(said)

    def field(self, name: str, value: Any) -> list[str]:
        say = self.words.fields.get(name)
        if say is None:
            raise Unsaid(f"no words for the field {name!r}")
        said = say(value, self)
        return [s for s in ([said] if isinstance(said, str) else said) if s]


@dataclass(frozen=True)
class Part:
    """One ability of a card and the engine's reading of it."""

    index: int
    text: str
    status: Status
    words: str
    overridden: bool = False  # a curator set it to manual
    fixed: bool = False  # played from outside its compiled text (`Words.elsewhere`): no override can stop it


def _state(prog: Any) -> dict[str, Any]:
    """A program's fields, less what records its reading (the abilities, how each was accounted for)."""
    return {k: v for k, v in vars(prog).items() if k not in ("abilities", "accounts", "key") and not k.startswith("_")}


def _bare(card: Any, compile: Callable[[Any], Any]) -> Any:
    """The card compiled from its facts alone: no text, and a key no table written per card has."""
    return compile(dataclasses.replace(card, text=None, key=f"{card.key} (without its text)"))


def behaviour(prog: Any, bare: Any, words: Words) -> dict[str, Any]:
    """The fields of `prog` that differ from `bare` (the card compiled without text) and are not quiet."""
    base = _state(bare)
    return {k: v for k, v in _state(prog).items()
            if k not in words.quiet and base.get(k, _NOTHING) != v}


_NOTHING = object()


def say_behaviour(prog: Any, bare: Any, words: Words) -> str:
    reader = Reader(words, prog)
    said: list[str] = []
    for name, value in behaviour(prog, bare, words).items():
        said.extend(reader.field(name, value))
    return "; ".join(said)


def some(n: int, noun: str) -> str:
    """`a card` for one, `3 cards` for more: how a card's text counts what it moves."""
    return f"a {noun}" if n == 1 else f"{n} {noun}s"


def plural(n: int, noun: str) -> str:
    """`1 zone`, `2 zones`: a number that stays a number."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def sentence(words: str) -> str:
    words = words.strip()
    return words[:1].upper() + words[1:] if words else words


def read(card: Any, compile: Callable[[Any], Any], words: Words | None,
         manual: Iterable[str] = ()) -> tuple[Part, ...]:
    """The reading of each ability of `card` as `compile` makes it, with the curators' `manual`
    ability texts applied. Without a game's `words`, an automated ability says only that the
    engine carries it out."""
    manual = frozenset(manual)
    prog = with_manual(compile, card, manual)
    bare = _bare(card, compile) if words is not None else None
    abilities = tuple(prog.abilities)
    together: str | None = None
    parts = []
    for index, (text, status) in enumerate(abilities):
        fixed = False
        if status is MANUAL:
            said = PLAYED_BY_HAND
        elif status is NO_EFFECT:
            said = f"{NO_EFFECT_LEAD}: {words.why(text) if words else 'the dummy opponent never acts'}"
        elif words is None:
            said = UNSAID
        else:
            said = words.elsewhere(card, text)
            fixed = said is not None
            alone = compile(dataclasses.replace(card, text=text)) if said is None else None
            if alone is None:
                pass
            elif [a for a in alone.abilities if a not in bare.abilities] == [(text, status)]:
                said = say_behaviour(alone, bare, words)
            else:  # compiled as a whole card (a table written per card): read with its other text
                if together is None:
                    together = say_behaviour(prog, bare, words)
                said = together if len(abilities) == 1 else f"with this card's other automated text: {together}"
            said = sentence(said or "carried out by the engine (it changes no rule the engine tracks)")
        parts.append(Part(index, text, status, said, text in manual, fixed))
    return tuple(parts)


# --- the curators' overrides --------------------------------------------------------------------

def _without(text: str, removed: Iterable[str]) -> str | None:
    """`text` with each of `removed` cut out once (None when one is not found in it)."""
    for gone in removed:
        at = text.find(gone)
        if at < 0:
            return None
        text = text[:at] + text[at + len(gone):]
    return re.sub(r"[ \t]{2,}", " ", re.sub(r"\n\s*\n", "\n", text)).strip()


def _with_abilities(prog: Any, abilities: list, manual: frozenset) -> Any:
    """`prog` with `abilities`: an ability set to manual has an empty account (the player reads
    it), the others keep, in order, the accounts `prog` has for them."""
    kind = list if isinstance(prog.abilities, list) else tuple
    kept = iter(getattr(prog, "accounts", ()))
    accounts = tuple(Account(t, (), ()) if t in manual else next(kept) for t, _ in abilities)
    if dataclasses.is_dataclass(prog):
        copy = dataclasses.replace(prog, abilities=kind(abilities))
    else:
        copy = object.__new__(type(prog))
        vars(copy).update({k: v for k, v in vars(prog).items() if k in _state(prog)})
        copy.abilities = kind(abilities)
    copy.accounts = accounts
    return copy


def with_manual(compile: Callable[[Any], Any], card: Any, manual: Iterable[str]) -> Any:
    """`compile(card)` with the abilities whose text is in `manual` set to manual and their ops
    gone: the card is compiled without their text. If the rest then reads differently, or their
    text cannot be cut out, nothing of the card is automated (its ops gone too)."""
    prog = compile(card)
    manual = frozenset(manual)
    abilities = list(prog.abilities)
    if not manual or not any(text in manual for text, _ in abilities):
        return prog
    kept = [(t, s) for t, s in abilities if t not in manual]
    rest = _without(card.text or "", [t for t, _ in abilities if t in manual])
    if rest is not None:
        reduced = compile(dataclasses.replace(card, text=rest or None))
        if list(reduced.abilities) == kept:
            return _with_abilities(reduced, [(t, MANUAL if t in manual else s) for t, s in abilities], manual)
    bare = compile(dataclasses.replace(card, text=None))
    return _with_abilities(bare, [(t, MANUAL) for t, _ in abilities], frozenset(t for t, _ in abilities))


def overriding(compile: Callable[[Any], Any], overrides: Mapping[str, frozenset]) -> Callable[[Any], Any]:
    """`compile` with the curators' overrides (card key -> ability texts set to manual) applied."""
    if not overrides:
        return compile

    def compile_with_overrides(card: Any) -> Any:
        manual = overrides.get(card.key)
        return with_manual(compile, card, manual) if manual else compile(card)
    return compile_with_overrides

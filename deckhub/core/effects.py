"""The effects layer every engine compiles card text with: one status spelling, one Program base,
one coverage report, and pattern tables (`Rules`) whose rows can be listed, tested and counted.

A game's `effects.py` turns a card into its Program: each ability (a sentence or paragraph of
text, a keyword) gets a `Status`: automated, of no effect against the goldfish opponent, or manual
(the sandbox's manual moves play it). Coverage counts those statuses; text compiled wrongly is worse
than text marked manual, so a row that does not read its text exactly leaves it manual.
"""
from __future__ import annotations

import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Iterable, NamedTuple


class Status(str, Enum):
    """What the engine does with one ability. The values are the names coverage reports use."""

    AUTOMATED = "automated"
    NO_EFFECT = "no_effect"  # cannot matter against the opponent who never acts
    MANUAL = "manual"

    def __str__(self) -> str:
        return self.value


AUTO, NO_EFFECT, MANUAL = Status.AUTOMATED, Status.NO_EFFECT, Status.MANUAL


def automation_of(statuses: Iterable[Status]) -> str:
    """"full" when no ability is manual (vanilla cards too), "none" when every one is, else "partial"."""
    statuses = list(statuses)
    manual = sum(s is MANUAL for s in statuses)
    if not manual:
        return "full"
    return "none" if manual == len(statuses) else "partial"


class derived:
    """A value computed from a compiled card on first use and kept on it, like `cached_property`,
    but kept by plain attribute assignment. (For speed: `cached_property` writes through
    `instance.__dict__`, and on CPython 3.11 touching `__dict__` turns the card's compact attribute
    storage into a dict, after which the engines' hot reads of the card's attributes are no longer
    specialised.)"""

    def __init__(self, fn: Callable[[Any], Any]):
        self.fn = fn
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = self.fn(instance)
        object.__setattr__(instance, self.name, value)  # shadows this (non-data) descriptor from now on
        return value


class Program:
    """Base of a game's compiled card: `abilities` is ((text, Status), ...) once compiled.
    `automation` and `manual_text` are derived from it once (a Program is not changed after
    compiling); an engine whose cards can lack facts refines `automation`."""

    abilities: tuple = ()

    @derived
    def automation(self) -> str:
        return automation_of(s for _, s in self.abilities)

    @derived
    def manual_text(self) -> tuple[str, ...]:
        return tuple(text for text, status in self.abilities if status is MANUAL)


# --- pattern tables ----------------------------------------------------------------------------

PASS = object()  # a builder's answer for "this row does not apply after all: try the next one"


@dataclass(frozen=True)
class Rule:
    """One row of a pattern table: `match(text)` gives a match (or None), `build(match, *args)`
    the result (or PASS). `name` is what tests and counts call the row."""

    name: str
    match: Callable[[str], Any]
    build: Callable[..., Any]


def full(pattern: str, flags: int = 0) -> Callable[[str], Any]:
    """The text is exactly the pattern."""
    return re.compile(pattern, flags).fullmatch


def starts(pattern: str, flags: int = 0) -> Callable[[str], Any]:
    """The text begins with the pattern."""
    return re.compile(pattern, flags).match


def contains(*patterns: str) -> Callable[[str], Any]:
    """One of the patterns occurs somewhere in the text."""
    return re.compile("|".join(f"(?:{p})" for p in patterns)).search


def exact(*texts: str) -> Callable[[str], Any]:
    """The text is one of these strings."""
    found = frozenset(texts)
    return lambda text: text if text in found else None


class Rules:
    """A pattern table `[(pattern, builder)]`: the first row whose pattern matches and whose builder
    does not PASS gives the result. Rows keep their order (earlier rows win), have names, and can be
    asked which of them reads a text (`which`), so every row can be tested and counted.

    Rows are added in order with the `row` decorator:

        SENTENCES = Rules("sentences")

        @SENTENCES.row("draw", full(r"draw (a|\\d+) cards?"))
        def _(m):
            return (("draw", number(m.group(1))),)
    """

    def __init__(self, name: str, rules: Iterable[Rule] = ()):
        self.name = name
        self.rules: list[Rule] = []
        self.hits: Counter | None = None  # while `counting`: how many texts each row read
        for rule in rules:
            self.add(rule)

    def add(self, rule: Rule) -> None:
        if any(r.name == rule.name for r in self.rules):
            raise ValueError(f"{self.name}: a row named {rule.name!r} already exists")
        self.rules.append(rule)

    def row(self, name: str, match: Callable[[str], Any]) -> Callable[[Callable], Callable]:
        def add(build: Callable) -> Callable:
            self.add(Rule(name, match, build))
            return build
        return add

    def __iter__(self):
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def apply(self, text: str, *args: Any, default: Any = None) -> Any:
        for rule in self.rules:
            m = rule.match(text)
            if m is not None:
                result = rule.build(m, *args)
                if result is not PASS:
                    if self.hits is not None:
                        self.hits[rule.name] += 1
                    return result
        return default

    def which(self, text: str, *args: Any) -> str | None:
        """The name of the row that reads `text` (None: no row does). Builders that fill a program
        get a throw-away one in `args`."""
        for rule in self.rules:
            m = rule.match(text)
            if m is not None and rule.build(m, *args) is not PASS:
                return rule.name
        return None


@contextmanager
def counting(tables: Iterable[Rules]):
    """Count, while the block runs, the texts each row of `tables` reads: {table: {row: n}}."""
    tables = tuple(tables)
    for table in tables:
        table.hits = Counter()
    counts = {table.name: table.hits for table in tables}
    try:
        yield counts
    finally:
        for table in tables:
            counts[table.name] = Counter({r.name: table.hits[r.name] for r in table})
            table.hits = None


# --- coverage ----------------------------------------------------------------------------------

class Rated(NamedTuple):
    """How coverage counts one card: its automation, its abilities' statuses, whether it is vanilla
    (nothing to automate) and phrases for what else keeps it from being automated."""

    automation: str
    abilities: tuple
    vanilla: bool
    gaps: tuple[str, ...] = ()


def rate(card: Any, prog: Program) -> Rated:
    """The default rating: the program's own automation and abilities; vanilla = no abilities."""
    return Rated(prog.automation, tuple(prog.abilities), not prog.abilities)


def default_phrase(text: str) -> str:
    words = re.sub(r"\d+", "N", text.lower()).split()
    return " ".join(words[:6])


@dataclass
class CoverageReport:
    """How much of a game's card text an engine automates (one shape for every game)."""

    game: str
    total: int = 0
    full: int = 0
    partial: int = 0
    none: int = 0
    vanilla: int = 0
    abilities: Counter = field(default_factory=Counter)
    phrases: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_json(self, top: int = 25) -> dict[str, Any]:
        ranked = sorted(self.phrases.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
        return {"game": self.game, "cards": self.total, "full": self.full, "partial": self.partial,
                "none": self.none, "vanilla": self.vanilla,
                "abilities": {s.value: self.abilities[s] for s in Status},
                "top_unautomated": [{"phrase": p, "cards": n} for p, n in ranked], "notes": list(self.notes)}


def coverage(game: str, catalogue: Iterable[Any], compile: Callable[[Any], Program], *,
             rate: Callable[[Any, Program], Rated] = rate, phrase: Callable[[str], str] = default_phrase,
             notes: Iterable[str] = (), tables: Iterable[Rules] = (),
             checks: Callable[[Program], Iterable[str]] | None = None) -> dict[str, Any]:
    """Distinct cards fully / partly / not automated, abilities by status, the commonest gaps, and
    how many texts each row of the game's pattern `tables` reads ("patterns").
    `checks(prog)` names the self-checks a card's program failed (an ability left manual because
    its compiled form named something no card has); "self_checks" counts cards per check.
    `compile` is the game's card compiler, `rate` how a card counts (default: its program's own
    statuses), `phrase` how a manual text is grouped."""
    report = CoverageReport(game, notes=list(notes))
    if hasattr(catalogue, "overriding"):  # a catalogue's curators set some abilities to manual
        compile = catalogue.overriding(compile)
    phrases: Counter = Counter()
    failed: Counter = Counter()
    with counting(tables) as counts:
        for card in catalogue:
            prog = compile(card)  # afresh, not from the catalogue's memo: the rows count what they read
            rated = rate(card, prog)
            report.total += 1
            report.vanilla += bool(rated.vanilla)
            setattr(report, rated.automation, getattr(report, rated.automation) + 1)
            for text, status in rated.abilities:
                report.abilities[status] += 1
                if status is MANUAL:
                    phrases[phrase(text)] += 1
            phrases.update(rated.gaps)
            if checks is not None:
                failed.update(set(checks(prog)))
    report.phrases = dict(phrases)
    return {**report.to_json(), "patterns": {name: dict(rows) for name, rows in counts.items()},
            "self_checks": dict(sorted(failed.items()))}

"""The effects layer every engine compiles card text with: one status spelling, one Program base,
one coverage report, and pattern tables (`Rules`) whose rows can be listed, tested and counted.

A game's `effects.py` turns a card into its Program: each ability (a sentence or paragraph of
text, a keyword) gets a `Status`: automated, of no effect against the goldfish opponent, or manual
(the sandbox's manual moves play it). Coverage counts those statuses; text compiled wrongly is worse
than text marked manual, so a row that does not read its text exactly leaves it manual.

Every word is accounted for: a game's compiler opens a `Ledger` per ability (`accounting`), the
patterns it reads with (`pattern`, and the `full`/`starts`/`contains` rows of `Rules`) record which
spans of the text they consumed, and an ability whose unread spans still hold a significant word
(a qualifier, a pronoun, a condition, "you may") is settled as manual, naming the word.
"""
from __future__ import annotations

import re
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from re import _compiler as sre_compile, _constants as sre, _parser as sre_parse
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
    """Base of a game's compiled card: `abilities` is ((text, Status), ...) once compiled, and
    `accounts` one `Account` per ability (which row read which spans of it, and what was left).
    `automation` and `manual_text` are derived from it once (a Program is not changed after
    compiling); an engine whose cards can lack facts refines `automation`."""

    abilities: tuple = ()
    accounts: tuple = ()

    @derived
    def automation(self) -> str:
        return automation_of(s for _, s in self.abilities)

    @derived
    def manual_text(self) -> tuple[str, ...]:
        return tuple(text for text, status in self.abilities if status is MANUAL)


# --- accounting for every word --------------------------------------------------------------------

# The words that change what an ability does: left unread, the ability is not what its ops do.
SIGNIFICANT: tuple[tuple[str, str], ...] = (
    ("qualifier", r"\b(?:level|power|cost) \d+ or (?:less|more|fewer)\b"),
    ("qualifier", r"\bor (?:less|more|fewer)\b"),
    ("qualifier", r"\bcosts?\b"),
    ("qualifier", r"\bother\b"),
    ("qualifier", r"\bup to\b"),
    ("qualifier", r"\byour\b"),
    ("qualifier", r"\bopponent's\b"),
    ("pronoun", r"\bthat creature\b"),
    ("pronoun", r"\b(?:it|its|them|they|those)\b"),
    ("condition", r"\bif\b"),
    ("condition", r"\bunless\b"),
    ("option", r"\byou may\b"),
)


def significant(*extra: tuple[str, str]) -> re.Pattern:
    """The core's significant words plus a game's own ((kind, regex), ...), as one pattern whose
    group names say the kind."""
    kinds: dict[str, list[str]] = {}
    for kind, regex in SIGNIFICANT + extra:
        kinds.setdefault(kind, []).append(regex)
    return re.compile("|".join(f"(?P<{k}>{'|'.join(rs)})" for k, rs in kinds.items()), re.I)


WORDS = significant()


class Account(NamedTuple):
    """How one ability's text was read: the spans each row consumed, and the significant words
    no row read ((kind, word), ...). `left` empty = every significant word is accounted for (not
    counted for an ability its compiler left manual: the player plays all of it)."""

    text: str
    reads: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]
    left: tuple[tuple[str, str], ...]
    demoted: bool = False  # a row read it, but a word it left makes it manual

    @property
    def reason(self) -> str:
        return "; ".join(f"{kind} {word!r} not read" for kind, word in self.left)


def _fold(text: str) -> str:
    """Text as the patterns compare it: case and typographic apostrophes folded (same length)."""
    return text.lower().replace("\u2019", "'")


class Ledger:
    """The spans of one ability's text that rows consumed. A match on a part of the text is placed
    by finding that part (in the text, or in a text a reader rewrote it to: `rewrite`); each
    character is judged by the innermost match whose text holds it, so a clause handed to a nested
    reader counts as read only where that reader read it."""

    __slots__ = ("text", "key", "nodes", "words", "lost", "aliases")

    def __init__(self, text: str, words: re.Pattern = WORDS):
        self.text, self.key, self.words = text, _fold(text), words
        self.nodes: list[list] = []  # [name, start, end, match or fixed spans, where each character came from]
        self.lost: list[str] = []  # texts read in a form not found in the ability's text
        self.aliases: list[tuple[str, list[tuple[int, int]]]] = []  # (rewritten text, each character's origin)

    def place(self, text: str) -> tuple[int, int, list | None] | None:
        """Where `text` is: (start, end, None) in the ability's text, or in a rewritten form of it
        (start, end, the span of the ability's text each character stands for); None if nowhere."""
        key = _fold(text)
        at = self.key.find(key)
        if at >= 0:
            return at, at + len(key), None
        for alias, origin in reversed(self.aliases):
            at = alias.find(key)
            if at >= 0 and key:
                chars = origin[at:at + len(key)]
                return chars[0][0], chars[-1][1], chars
        self.lost.append(text)
        return None

    def alias(self, text: str, rewritten: str, origin: list[tuple[int, int]]) -> None:
        """`rewritten` is `text` with some words replaced: `origin` gives, per character of it, the
        span of `text` it stands for. Reading a replacement reads the words it replaced."""
        found = self.place(text)
        if found is not None:
            at, _, chars = found
            self.aliases.append((_fold(rewritten), [(chars[a][0], chars[b - 1][1]) if chars else (at + a, at + b)
                                                    for a, b in origin]))

    def add(self, text: str, read: Any, name: str = "") -> None:
        """Record that `read` (a `Tracked` match, or ((start, end), ...) within `text`) read `text`."""
        found = self.place(text)
        if found is not None:
            self.nodes.append([name, *found[:2], read, found[2]])

    def whole(self, text: str, name: str = "") -> None:
        """`text` read word for word (a fixed string, a hand-written reading of exactly this text)."""
        self.add(text, ((0, len(text)),), name)

    def name(self, mark: int, name: str) -> None:
        for node in self.nodes[mark:]:
            node[0] = node[0] or name

    def _spans(self, node: list) -> list[tuple[int, int]]:
        read, at, chars = node[3], node[1], node[4]
        spans = read.consumed() if isinstance(read, Tracked) else read
        if chars is None:
            return [(at + a, at + b) for a, b in spans]
        return [(chars[a][0], chars[b - 1][1]) for a, b in spans if b > a]

    def account(self, words: bool = True, part: str | None = None) -> Account:
        """What each match read; with `words`, also the significant words none read (only those
        inside `part`, when a clause of the text is an ability of its own)."""
        spans = [self._spans(node) for node in self.nodes]
        reads = tuple((node[0], tuple(s)) for node, s in zip(self.nodes, spans) if s)
        found = list(self.words.finditer(self.text)) if words else ()
        at = self.key.find(_fold(part)) if part is not None else -1
        if at >= 0:
            found = [m for m in found if at <= m.start() and m.end() <= at + len(part)]
        if not found and not (words and self.lost):
            return Account(self.text, reads, ())
        scopes: dict[tuple[int, int], list] = {}  # what the matches on one part of the text read
        for node, consumed in zip(self.nodes, spans):
            scopes.setdefault((node[1], node[2]), []).extend(consumed)

        def seen(start: int, end: int) -> bool:
            """Read by the innermost match whose text holds the word (each character's, if none holds it whole)."""
            around = [(b - a, (a, b)) for a, b in scopes if a <= start and end <= b]
            if around and any(s <= start and end <= e for s, e in scopes[min(around)[1]]):
                return True
            return end - start > 1 and all(seen(c, c + 1) for c in range(start, end))

        left = [(m.lastgroup, m.group(0).lower()) for m in found if not seen(m.start(), m.end())]
        if self.lost:
            left.append(("rewritten", self.lost[0]))
        return Account(self.text, reads, tuple(left))

    def settle(self, status: Status, part: str | None = None) -> tuple[Status, Account]:
        """The ability's status once its words are counted: manual when a significant word is left
        (in `part` only, when the ability is that clause of the text). Closes the ledger when it is
        the open one."""
        if _LEDGER.get() is self:
            _LEDGER.set(None)
        account = self.account(status is not MANUAL, part)  # a manual ability's words are the player's anyway
        if account.left and status is not MANUAL:
            return MANUAL, account._replace(demoted=True)
        return status, account


def read_all(text: str, name: str = "") -> None:
    """In the open ledger, `text` read word for word by a reader that judged it as a whole (a
    clause only about the opponent: none of it is the goldfish player's to play)."""
    book = _LEDGER.get()
    if book is not None:
        book.whole(text, name)


def read_whole(abilities: Iterable[tuple[str, Status]], name: str) -> tuple[Account, ...]:
    """The accounts of abilities each read by a reading written for that card's text by hand (a
    table keyed by card, a keyword): every word of a non-manual one counts as read."""
    return tuple(Account(text, () if status is MANUAL else ((name, ((0, len(text)),)),), ())
                 for text, status in abilities)


_LEDGER: ContextVar[Ledger | None] = ContextVar("deckhub_ledger", default=None)


@contextmanager
def accounting(text: str, words: re.Pattern = WORDS):
    """Open the ledger of one ability's `text` (the form its rows read: normalised, without
    reminder text) while the block compiles it."""
    ledger = Ledger(text, words)
    token = _LEDGER.set(ledger)
    try:
        yield ledger
    finally:
        _LEDGER.reset(token)


def open_ledger(text: str, words: re.Pattern = WORDS) -> Ledger:
    """`accounting` for a compiler loop that cannot be a block: the ledger is current from now on,
    until `settle` (or the next `open_ledger`)."""
    ledger = Ledger(text, words)
    _LEDGER.set(ledger)
    return ledger


def rewrite(regex: str, repl: str | Callable[[re.Match], str], text: str, flags: int = 0) -> str:
    """`re.sub` for card-text readers: in the open ledger, a replacement stands for the words it
    replaced (a pronoun bound to the creature it names, two sentences said as one), so reading it
    reads them."""
    parts: list[str] = []
    origin: list[tuple[int, int]] = []
    last = 0
    for m in re.finditer(regex, text, flags):
        new = repl(m) if callable(repl) else m.expand(repl)
        parts += (text[last:m.start()], new)
        origin += [(i, i + 1) for i in range(last, m.start())] + [m.span()] * len(new)
        last = m.end()
    if not parts:
        return text
    parts.append(text[last:])
    origin += [(i, i + 1) for i in range(last, len(text))]
    rewritten = "".join(parts)
    book = _LEDGER.get()
    if book is not None and rewritten != text:
        book.alias(text, rewritten, origin)
    return rewritten


def _wild(items: list) -> bool:
    """Whether a repeated subpattern can match words (not only digits, spaces or punctuation)."""
    for op, av in items:
        if op in (sre.ANY, sre.NOT_LITERAL):
            return True
        if op == sre.IN:
            for kind, value in av:
                if kind == sre.CATEGORY and value not in (sre.CATEGORY_DIGIT, sre.CATEGORY_SPACE):
                    return True
                if kind in (sre.NEGATE, sre.RANGE) or (kind == sre.LITERAL and chr(value).isalpha()):
                    return True
        elif op == sre.LITERAL and chr(av).isalpha():
            return True
        elif op == sre.SUBPATTERN and _wild(av[3]):
            return True
        elif op == sre.BRANCH and any(_wild(b) for b in av[1]):
            return True
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and _wild(av[2]):
            return True
    return False


def _groups_in(items: list, found: set) -> set:
    for op, av in items:
        if op == sre.SUBPATTERN:
            if av[0] is not None:
                found.add(av[0])
            _groups_in(av[3], found)
        elif op == sre.BRANCH:
            for b in av[1]:
                _groups_in(b, found)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            _groups_in(av[2], found)
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            _groups_in(av[1], found)
    return found


def _shadow(items: list, state: Any, n: int, parts: dict, inside: bool) -> None:
    """Wrap, in place, every optional or word-repeating part outside a capturing group in a group
    of its own (numbered after the pattern's own, so these keep their numbers): `parts` says which."""
    for i, (op, av) in enumerate(items):
        if op == sre.SUBPATTERN:
            _shadow(av[3], state, n, parts, inside or (av[0] is not None and av[0] <= n))
        elif op == sre.BRANCH:
            for b in av[1]:
                _shadow(b, state, n, parts, inside)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            lo, hi, body = av
            _shadow(body, state, n, parts, inside)
            wild = hi > 1 and _wild(body)
            if (lo == 0 or wild) and not inside:
                sub = sre_parse.SubPattern(state, [(op, av)])
                gid = state.opengroup()
                state.closegroup(gid, sub)
                parts[gid] = ("wild" if wild else "optional", frozenset(_groups_in(body, set())))
                items[i] = (sre.SUBPATTERN, (gid, 0, 0, sub))


# What optional wording must not hold unless a reader reads it: a number, a limit, "other", "up to",
# a condition, "you may". (Optional wording without these, "of your", "and put them", is the
# pattern's own synonym for the same effect.)
_RUNS = re.compile(rb"\x01+")
_LIMITING = re.compile(r"\d|\b(?:level|power|cost|less|more|fewer|other|up to|if|unless|may)\b", re.I)


class TrackedPattern:
    """A compiled regex whose matches record, in the open ledger, what they consumed: the literal
    part of the match, and the groups the reader asked for. A wildcard repeat outside a capturing
    group counts as unread (the reader cannot tell what it swallowed), and so does an optional part
    holding a number, a limit or a condition, unless a group inside it was read."""

    __slots__ = ("pattern", "regex", "groups", "parts")

    def __init__(self, regex: str, flags: int = 0):
        self.pattern = re.compile(regex, flags)
        tree = sre_parse.parse(regex, flags)
        self.groups = tree.state.groups - 1
        self.parts: dict[int, tuple[str, frozenset]] = {}
        _shadow(tree.data, tree.state, self.groups, self.parts, False)
        self.regex = sre_compile.compile(tree, flags) if self.parts else self.pattern

    def _track(self, m: re.Match, text: str) -> "Tracked":
        tracked = Tracked(m, self)
        book = _LEDGER.get()
        if book is not None:
            book.add(text, tracked)
        return tracked

    def match(self, text: str) -> "Tracked | None":
        m = self.regex.match(text)
        return None if m is None else self._track(m, text)

    def fullmatch(self, text: str) -> "Tracked | None":
        m = self.regex.fullmatch(text)
        return None if m is None else self._track(m, text)

    def search(self, text: str) -> "Tracked | None":
        m = self.regex.search(text)
        return None if m is None else self._track(m, text)


@lru_cache(maxsize=None)
def pattern(regex: str, flags: int = 0) -> TrackedPattern:
    """`re.compile` for card-text readers: matches record what they consume (see `TrackedPattern`)."""
    return TrackedPattern(regex, flags)


def fullmatch(regex: str, text: str, flags: int = 0) -> "Tracked | None":
    """`re.fullmatch` for card-text readers (see `pattern`)."""
    return pattern(regex, flags).fullmatch(text)


class Tracked:
    """A match as a reader sees it (the pattern's own groups only), remembering which groups it read."""

    __slots__ = ("m", "p", "read")

    def __init__(self, m: re.Match, p: TrackedPattern):
        self.m, self.p, self.read = m, p, set()

    def _touch(self, g: int | str) -> None:
        if isinstance(g, str):
            g = self.p.pattern.groupindex[g]
        if g == 0:
            self.read.update(range(1, self.p.groups + 1))
        else:
            self.read.add(g)

    def group(self, *gs: int | str) -> Any:
        for g in gs or (0,):
            self._touch(g)
        return self.m.group(*gs)

    __getitem__ = group

    def groups(self, default: Any = None) -> tuple:
        self._touch(0)
        return self.m.groups(default)[:self.p.groups]

    def groupdict(self, default: Any = None) -> dict:
        for name in self.p.pattern.groupindex:
            self._touch(name)
        return {k: self.m.group(k) if self.m.group(k) is not None else default for k in self.p.pattern.groupindex}

    def start(self, g: int | str = 0) -> int:
        self._touch(g)
        return self.m.start(g)

    def end(self, g: int | str = 0) -> int:
        self._touch(g)
        return self.m.end(g)

    def span(self, g: int | str = 0) -> tuple[int, int]:
        self._touch(g)
        return self.m.span(g)

    @property
    def string(self) -> str:
        return self.m.string

    def __bool__(self) -> bool:
        return True

    def consumed(self) -> list[tuple[int, int]]:
        """The spans of the text this match accounts for: the match, less unread groups and the
        parts no reader could see, plus the groups read."""
        m = self.m
        a, b = m.span()
        done = bytearray(b - a)
        done[:] = b"\x01" * (b - a)
        for g in range(1, self.p.groups + 1):
            if g not in self.read and m.start(g) >= 0:
                done[m.start(g) - a:m.end(g) - a] = bytes(m.end(g) - m.start(g))
        for gid, (kind, inner) in self.p.parts.items():
            s, e = m.span(gid)
            if s >= 0 and e > s and (kind == "wild" or not inner & self.read and _LIMITING.search(m.string, s, e)):
                done[s - a:e - a] = bytes(e - s)
        for g in self.read:
            if m.start(g) >= 0:
                done[m.start(g) - a:m.end(g) - a] = b"\x01" * (m.end(g) - m.start(g))
        return [(a + run.start(), a + run.end()) for run in _RUNS.finditer(done)]


# --- pattern tables ----------------------------------------------------------------------------

PASS = object()  # a builder's answer for "this row does not apply after all: try the next one"


_CLAUSE_END = re.compile(r"\.\s|;|, then\b| and (?:you|then)\b")


def clause_end(text: str, at: int) -> int:
    """Where the clause that goes on at `at` ends: a sentence's end, "; ", ", then", "and you"."""
    m = _CLAUSE_END.search(text, at)
    return m.start() if m else len(text)


@dataclass(frozen=True)
class Rule:
    """One row of a pattern table: `match(text)` gives a match (or None), `build(match, *args)`
    the result (or PASS). `name` is what tests and counts call the row. A `moot` row proves that
    the rest of its clause cannot matter (a trigger that never fires against the goldfish, an
    effect on an enemy creature): its own groups, and the words after its match up to the clause's
    end, are read (a wildcard of its own is not: it could have swallowed a clause about you)."""

    name: str
    match: Callable[[str], Any]
    build: Callable[..., Any]
    moot: bool = False


def full(regex: str, flags: int = 0) -> Callable[[str], Any]:
    """The text is exactly the pattern."""
    return pattern(regex, flags).fullmatch


def starts(regex: str, flags: int = 0) -> Callable[[str], Any]:
    """The text begins with the pattern (the rest of the text is not read)."""
    return pattern(regex, flags).match


def contains(*patterns: str) -> Callable[[str], Any]:
    """One of the patterns occurs somewhere in the text (the rest of the text is not read)."""
    return pattern("|".join(f"(?:{p})" for p in patterns)).search


def exact(*texts: str) -> Callable[[str], Any]:
    """The text is one of these strings (read word for word)."""
    found = frozenset(texts)

    def match(text: str) -> str | None:
        if text not in found:
            return None
        book = _LEDGER.get()
        if book is not None:
            book.whole(text)
        return text
    return match


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
        self._rows: list[tuple[Rule, Callable[[str], Any], TrackedPattern | None]] = []
        self.hits: Counter | None = None  # while `counting`: how many texts each row read
        for rule in rules:
            self.add(rule)

    def add(self, rule: Rule) -> None:
        if any(r.name == rule.name for r in self.rules):
            raise ValueError(f"{self.name}: a row named {rule.name!r} already exists")
        self.rules.append(rule)
        tracked = getattr(rule.match, "__self__", None)
        if isinstance(tracked, TrackedPattern):  # (for speed: the regex's own method, tracked once it matches)
            self._rows.append((rule, getattr(tracked.regex, rule.match.__name__), tracked))
        else:
            self._rows.append((rule, rule.match, None))

    def row(self, name: str, match: Callable[[str], Any], moot: bool = False) -> Callable[[Callable], Callable]:
        def add(build: Callable) -> Callable:
            self.add(Rule(name, match, build, moot))
            return build
        return add

    def __iter__(self):
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def apply(self, text: str, *args: Any, default: Any = None) -> Any:
        """The first row's result; in the open ledger, what that row's patterns (and the readers
        its builder called) consumed, named after the row. A row whose matcher is not a tracked
        pattern accounts for nothing it does not record itself."""
        book = _LEDGER.get()
        nodes = book.nodes if book is not None else []
        mark = len(nodes)  # a row that does not apply leaves nothing behind
        for rule, match, tracked in self._rows:
            m = match(text)
            if m is None:
                if len(nodes) != mark:
                    del nodes[mark:]
                continue
            if tracked is not None:
                m = tracked._track(m, text)
            if book is not None:
                book.name(mark, f"{self.name}: {rule.name}")
            result = rule.build(m, *args)
            if result is PASS:
                del nodes[mark:]
                continue
            if self.hits is not None:
                self.hits[rule.name] += 1
            if book is not None:  # the row's text is its own, read where it says (a reader of
                # its own, not a tracked pattern, reads none of it)
                read = ()
                if rule.moot and isinstance(m, Tracked):
                    m.groups()
                    read = ((m.m.end(), clause_end(text, m.m.end())),)
                book.add(text, read, f"{self.name}: {rule.name}")
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
    statuses), `phrase` how a manual text is grouped. "demoted" counts the abilities a row read
    but left manual for a significant word it did not read, by the first such word; "unproven"
    the abilities counted as played that no ledger read (a compiler that keeps no `accounts`):
    "full" is what the accounting proves when that is 0."""
    report = CoverageReport(game, notes=list(notes))
    if hasattr(catalogue, "overriding"):  # a catalogue's curators set some abilities to manual
        compile = catalogue.overriding(compile)
    phrases: Counter = Counter()
    failed: Counter = Counter()
    demoted: Counter = Counter()
    unproven = 0
    with counting(tables) as counts:
        for card in catalogue:
            prog = compile(card)  # afresh, not from the catalogue's memo: the rows count what they read
            if len(prog.accounts) != len(prog.abilities):  # read by no ledger: nothing proves it
                unproven += sum(status is not MANUAL for _, status in prog.abilities)
            demoted.update(f"{kind} {word!r}" for a in prog.accounts if a.demoted for kind, word in a.left[:1])
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
            "self_checks": dict(sorted(failed.items())),
            "demoted": {"abilities": sum(demoted.values()), "by_word": dict(demoted.most_common())},
            "unproven": unproven}

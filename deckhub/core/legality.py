"""Deck legality: a format's declared limits, the generic checks they drive, and every violation.

A `Format` is data (each game's `formats.json`): per-section card counts (min/max/exact, counting
all cards or only some types, copies or distinct cards, a minimum of N per pack for Limited play),
which types a section may or may not hold, copy limits (a default, per-type limits, limits set by a
card flag such as a unique Map Piece, counted across one or more sections), and the names of the few
checks that only one game has (`deckhub/games/<pkg>/legality.py`, CHECKS). A rules update is a new
format entry, not new code.

`check_deck` returns a `Report` listing ALL violations. Severities: "error" (the deck is illegal),
"warning" (rulebook advice), "unverified" (the check needs a value the catalogue does not know, such
as a Neopets TCG card's type; those cards are named and nothing is guessed). Legal = no errors.

Checks are pure computation on catalogue values in memory. What a format needs to know of a card
(type, copy key, copy limit) is worked out once per (catalogue, format, card) and cached, so a check
of a 50-card deck is a few dictionary look-ups per entry. A catalogue is treated as immutable: build
a new `Catalogue` when cards change.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from deckhub.core.caches import LRU
from deckhub.core.cards import Card, Catalogue, normalize_name
from deckhub.core.decklist import Deck

if TYPE_CHECKING:
    from deckhub.core.spec import GameSpec

ERROR, WARNING, UNVERIFIED = "error", "warning", "unverified"
SEVERITIES = (ERROR, WARNING, UNVERIFIED)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Violation:
    """One problem with a deck, as the issue's JSON: rule, severity, section, message, cards, expected, actual.

    `cards` are display names; `keys` (not part of the JSON) are the same cards' catalogue keys, so
    an editor can highlight them. `missing` (an unverified check's): the fact the catalogue lacks of
    those cards ("type", "species"), so a page names each card once under what it lacks.
    """

    rule: str
    severity: str
    section: str | None
    message: str
    cards: tuple[str, ...] = ()
    expected: Any = None
    actual: Any = None
    keys: tuple[str, ...] = field(default=(), compare=False)
    missing: str = field(default="", compare=False)

    def to_json(self) -> dict[str, Any]:
        # copies of expected/actual: a Violation may be shared (worded once per catalogue and format)
        return {"rule": self.rule, "severity": self.severity, "section": self.section,
                "message": self.message, "cards": list(self.cards),
                "expected": _copy(self.expected), "actual": _copy(self.actual)}


@dataclass
class Report:
    game: str
    format: str
    violations: list[Violation]
    counts: dict[str, int]

    @property
    def legal(self) -> bool:
        return not any(v.severity == ERROR for v in self.violations)

    def by_severity(self, severity: str) -> list[Violation]:
        return [v for v in self.violations if v.severity == severity]

    @property
    def errors(self) -> list[Violation]:
        return self.by_severity(ERROR)

    @property
    def warnings(self) -> list[Violation]:
        return self.by_severity(WARNING)

    @property
    def unverified(self) -> list[Violation]:
        return self.by_severity(UNVERIFIED)

    @property
    def verified(self) -> bool:
        """False while a check could not be made for want of a card value: "legal so far", not legal."""
        return not any(v.severity == UNVERIFIED for v in self.violations)

    def unverified_cards(self) -> list[str]:
        """The cards the unverified checks name (display names, each once, in the order named)."""
        seen: dict[str, None] = {}
        for v in self.violations:
            if v.severity == UNVERIFIED:
                seen.update(dict.fromkeys(v.cards))
        return list(seen)

    def unverified_by_missing(self) -> list[tuple[str, list[str]]]:
        """The cards the unverified checks name, grouped by the fact the catalogue lacks of them
        ("type": [...]), each card once a group: one line a fact, not one badge a check and card."""
        groups: dict[str, dict[str, None]] = {}
        for v in self.violations:
            if v.severity == UNVERIFIED and v.cards:
                groups.setdefault(v.missing or "what the checks need", {}).update(dict.fromkeys(v.cards))
        return [(missing, list(names)) for missing, names in groups.items()]

    def rules(self, severity: str | None = None) -> set[str]:
        return {v.rule for v in self.violations if severity is None or v.severity == severity}

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "format": self.format, "legal": self.legal, "verified": self.verified,
                "counts": dict(self.counts), "violations": [v.to_json() for v in self.violations]}


# --------------------------------------------------------------------------- format data

def _types(values: Iterable[str] | None) -> frozenset[str] | None:
    return None if values is None else frozenset(v.casefold() for v in values)


@dataclass(frozen=True)
class CountLimit:
    """A bound on how many cards a section holds.

    types: count only cards of these types (None: all). distinct: count different cards (by copy
    key), not copies. exempt_attr: cards whose attribute is true are not counted. per_pack: the
    minimum is per_pack x the pack count (Huntik Limited).
    """

    rule: str
    min: int | None = None
    max: int | None = None
    types: frozenset[str] | None = None
    distinct: bool = False
    exempt_attr: str | None = None
    per_pack: int | None = None
    what: str = "cards"
    cite: str = ""

    @classmethod
    def from_json(cls, d: Mapping[str, Any], cite: str) -> "CountLimit":
        lo, hi = d.get("min"), d.get("max")
        if "exact" in d:
            lo = hi = d["exact"]
        return cls(d["rule"], lo, hi, _types(d.get("types")), bool(d.get("distinct")), d.get("exempt_attr"),
                   d.get("per_pack"), d.get("what", "cards"), d.get("cite", cite))


@dataclass(frozen=True)
class TypeRule:
    """Which card types a section may hold (allowed: None = any) and which it may not."""

    rule: str
    allowed: frozenset[str] | None = None
    forbidden: frozenset[str] = frozenset()
    exempt_attr: str | None = None
    allowed_names: tuple[str, ...] = ()  # as written, for messages
    forbidden_names: tuple[str, ...] = ()
    cite: str = ""

    @classmethod
    def from_json(cls, d: Mapping[str, Any], cite: str) -> "TypeRule":
        allowed = d.get("allowed")
        forbidden = d.get("forbidden") or ()
        return cls(d["rule"], _types(allowed), _types(forbidden) or frozenset(), d.get("exempt_attr"),
                   tuple(allowed or ()), tuple(forbidden), d.get("cite", cite))

    def status(self, card: Card) -> int:
        """Whether the card breaks this rule: _YES, _NO, or _UNKNOWN (its type is not known)."""
        if self.exempt_attr and card.attrs.get(self.exempt_attr):
            return _NO
        if not card.type:
            return _UNKNOWN
        t = card.type.casefold()
        return _YES if (self.allowed is not None and t not in self.allowed) or t in self.forbidden else _NO


@dataclass(frozen=True)
class SectionRules:
    section: str
    counts: tuple[CountLimit, ...] = ()
    types: TypeRule | None = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any], cite: str) -> "SectionRules":
        return cls(d["section"], tuple(CountLimit.from_json(c, cite) for c in d.get("counts", ())),
                   TypeRule.from_json(d["types"], cite) if d.get("types") else None)


@dataclass(frozen=True)
class AttrLimit:
    """A copy limit set by a card flag (e.g. a unique Map Piece: 1); unknown flag -> unverified."""

    attr: str
    limit: int | None
    rule: str
    type: str | None = None  # casefolded; None = any type


@dataclass(frozen=True)
class CopyLimit:
    """How many copies of one card (by the game's copy key) the given sections may hold together.

    default None = any number; by_type maps a type to (limit, rule); by_attr lists flag limits.
    """

    rule: str
    sections: tuple[str, ...]
    default: int | None
    by_type: Mapping[str, tuple[int | None, str]] = field(default_factory=dict)
    by_attr: tuple[AttrLimit, ...] = ()
    cite: str = ""

    @classmethod
    def from_json(cls, d: Mapping[str, Any], cite: str) -> "CopyLimit":
        rule = d["rule"]
        by_type: dict[str, tuple[int | None, str]] = {}
        for t, v in (d.get("by_type") or {}).items():
            by_type[t.casefold()] = (v.get("limit"), v.get("rule", rule)) if isinstance(v, dict) else (v, rule)
        by_attr = tuple(AttrLimit(a["attr"], a.get("limit"), a.get("rule", rule),
                                  a["type"].casefold() if a.get("type") else None) for a in d.get("by_attr", ()))
        return cls(rule, tuple(d["sections"]), d.get("default"), by_type, by_attr, d.get("cite", cite))

    def limit_for(self, card: Card) -> tuple[int | None, str, bool, int | None]:
        """(limit, rule, certain, lowest possible limit when not certain) for one card."""
        ctype = card.type.casefold() if card.type else None
        if ctype is None and (self.by_type or any(a.type for a in self.by_attr)):
            candidates = [self.default, *(lim for lim, _ in self.by_type.values()), *(a.limit for a in self.by_attr)]
            known = [c for c in candidates if c is not None]
            if len(set(candidates)) > 1:
                return None, self.rule, False, min(known) if known else None
        for a in self.by_attr:
            if a.type is not None and a.type != ctype:
                continue
            value = card.attrs.get(a.attr)
            if value is None:
                base, rule = self.by_type.get(ctype, (self.default, self.rule)) if ctype else (self.default, self.rule)
                if base == a.limit:
                    return base, rule, True, None
                low = a.limit if base is None or (a.limit is not None and a.limit < base) else base
                return None, a.rule, False, low
            if value:
                return a.limit, a.rule, True, None
        if ctype is not None and ctype in self.by_type:
            lim, rule = self.by_type[ctype]
            return lim, rule, True, None
        return self.default, self.rule, True, None


@dataclass(frozen=True)
class CheckSpec:
    """A game-specific check named by a format: which function, its rule id and its parameters."""

    name: str
    rule: str
    severity: str = ERROR
    params: Mapping[str, Any] = field(default_factory=dict)
    cite: str = ""


@dataclass(frozen=True)
class Format:
    game: str
    id: str
    name: str
    version: str = ""
    source: str = ""
    default: bool = False
    sections: tuple[SectionRules, ...] = ()
    copies: tuple[CopyLimit, ...] = ()
    checks: tuple[CheckSpec, ...] = ()
    rule_prefix: str = ""
    description: str = ""

    @property
    def needs_packs(self) -> bool:
        return any(c.per_pack for s in self.sections for c in s.counts)

    @classmethod
    def from_json(cls, game: str, d: Mapping[str, Any], rule_prefix: str | None = None) -> "Format":
        cite = d.get("cite", "")
        checks = tuple(CheckSpec(c["name"], c["rule"], c.get("severity", ERROR), dict(c.get("params") or {}),
                                 c.get("cite", cite)) for c in d.get("checks", ()))
        for c in checks:
            if c.severity not in SEVERITIES:
                raise ValueError(f"{game} format {d.get('id')}: check {c.name}: unknown severity {c.severity!r}")
        return cls(game, d["id"], d.get("name", d["id"]), str(d.get("version", "")), d.get("source", ""),
                   bool(d.get("default")), tuple(SectionRules.from_json(s, cite) for s in d.get("sections", ())),
                   tuple(CopyLimit.from_json(c, cite) for c in d.get("copies", ())), checks,
                   rule_prefix or game, d.get("description", ""))


# --------------------------------------------------------------------------- per-card facts, cached

_NO, _YES, _UNKNOWN = 0, 1, 2  # per-card answers a format's rules precompute


def allowed_sections(game: "GameSpec", fmt: Format, card: Card) -> tuple[str, ...]:
    """The game's sections this card may go in under `fmt`, in the game's order: those whose type
    rule it does not break (a Huntik action only in the Deck, a Battledome Equipment only in the
    Main Deck). A card of unknown type breaks no rule here: it stays unverified, never refused on a guess."""
    rules = {s.section: s.types for s in fmt.sections}
    return tuple(s.name for s in game.sections
                 if (rule := rules.get(s.name)) is None or rule.status(card) != _YES)


class CardFacts:
    """What a format needs to know of one card, worked out once per (catalogue, format).

    type_status[i]: for the format's i-th TypeRule, _NO (fits), _YES (breaks it), _UNKNOWN (type unknown).
    counted[i]: for the i-th CountLimit, whether the card counts (_YES), not (_NO), or is unknown.
    limits[i]: for the i-th CopyLimit, (limit, rule, certain, lowest possible limit when not certain);
    thresholds[i]: the copy count above which that rule may report anything (None: never).
    """

    __slots__ = ("key", "card", "name", "type", "copy_key", "name_key", "limits", "thresholds",
                 "type_status", "counted")

    def __init__(self, key: str, card: Card, copy_key: str, fmt: Format):
        self.key = key
        self.card = card
        self.name = card.display_name
        self.type = t = card.type.casefold() if card.type else None
        self.copy_key = copy_key
        self.name_key = normalize_name(card.name)
        self.limits = tuple(c.limit_for(card) for c in fmt.copies)
        self.thresholds = tuple((lim if certain else low) for lim, _r, certain, low in self.limits)
        attrs = card.attrs
        statuses = []
        counted = []
        for srules in fmt.sections:
            for limit in srules.counts:
                if limit.exempt_attr and attrs.get(limit.exempt_attr):
                    counted.append(_NO)
                elif limit.types is None:
                    counted.append(_YES)
                elif t is None:
                    counted.append(_UNKNOWN)
                else:
                    counted.append(_YES if t in limit.types else _NO)
            if srules.types is not None:
                statuses.append(srules.types.status(card))
        self.type_status = tuple(statuses)
        self.counted = tuple(counted)


_MISSING = object()


WORDED_KEPT = 4096  # violations kept worded per format and catalogue (see _Compiled.memo)


class _Compiled:
    """A format made ready to check decks of one catalogue: card facts, plans, check functions."""

    __slots__ = ("format", "game", "catalogue", "facts", "section_names", "counts", "plan", "funcs", "memo", "__weakref__")

    def __init__(self, fmt: Format, game: "GameSpec", catalogue: Catalogue):
        self.format = fmt
        self.game = game
        self.catalogue = catalogue
        self.facts: dict[str, CardFacts | None] = {}
        # violations already worded, by what decides them (wording costs more than checking); the
        # most recently used are kept, as a long-running site checks endless different decks
        self.memo: LRU = LRU(WORDED_KEPT)
        self.section_names = frozenset(s.name for s in game.sections)
        self.counts = {s.name: 0 for s in game.sections}  # a report's counts before the deck is read
        plan = []
        ci = ti = 0
        for srules in fmt.sections:
            counts = []
            for limit in srules.counts:
                simple = limit.types is None and not limit.distinct and limit.exempt_attr is None
                counts.append((ci, limit, simple))
                ci += 1
            types = None
            if srules.types is not None:
                types = (ti, srules.types)
                ti += 1
            plan.append((srules.section, tuple(counts), types))
        self.plan = tuple(plan)
        funcs = game.checks if fmt.checks else {}
        missing = [c.name for c in fmt.checks if c.name not in funcs]
        if missing:
            raise LookupError(f"{game.slug} format {fmt.id} names checks {missing}, which "
                              f"{game.package}.legality does not define")
        self.funcs = tuple((funcs[c.name], c) for c in fmt.checks)

    def get(self, key: str) -> CardFacts | None:
        facts = self.facts.get(key, _MISSING)
        if facts is _MISSING:
            card = self.catalogue.cards.get(key)
            facts = None if card is None else CardFacts(key, card, self.game.copy_key(card), self.format)
            self.facts[key] = facts
        return facts  # type: ignore[return-value]


def _compiled(fmt: Format, game: "GameSpec", catalogue: Catalogue) -> _Compiled:
    """The format's checks compiled for this catalogue, kept on it (see `Catalogue.memo`)."""
    table = catalogue.memo_table("legality")
    key = (game.slug, fmt.id)
    c = table.get(key)
    if c is None or c.format is not fmt or c.game is not game:  # (not yet, or another format or spec of that name)
        c = table[key] = _Compiled(fmt, game, catalogue)
    return c


Rows = dict[str, list[tuple[CardFacts, int]]]


@dataclass
class CheckContext:
    """What a game-specific check sees: the deck, its format, and each section's known cards."""

    deck: Deck
    game: "GameSpec"
    format: Format
    catalogue: Catalogue
    packs: int | None
    rows: Rows
    memo: LRU  # a check may keep worded violations here (see _Compiled.memo)
    shared: dict = field(default_factory=dict)  # what this one check's functions share (a list's hits)

    def remember(self, key, make: Callable[[], Any]) -> Any:
        """`make()` once per key for this catalogue and format (for costly messages)."""
        return self.memo.get_or_build(key, make)

    def section(self, name: str) -> list[tuple[CardFacts, int]]:
        """(facts, qty) of the known cards (qty > 0) in a section, in deck order."""
        return self.rows.get(name, [])


CheckFunc = Callable[[CheckContext, CheckSpec], Iterable[Violation]]


# --------------------------------------------------------------------------- the checks

def cited(text: str, cite: str) -> str:
    """A message with its rulebook citation appended, e.g. "... (Kaijudo 4)"."""
    return f"{text} ({cite})" if cite else text


def names_keys(facts: Iterable[CardFacts]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(display names, keys) of cards, each card once, in order."""
    seen = {f.key: f.name for f in facts}
    return tuple(seen.values()), tuple(seen)


def _bounds(lo: int | None, hi: int | None) -> dict[str, int]:
    out = {}
    if lo is not None:
        out["min"] = lo
    if hi is not None:
        out["max"] = hi
    return out


def _need(lo: int | None, hi: int | None, what: str) -> str:
    if lo is not None and lo == hi:
        return f"exactly {lo} {what}"
    if lo is not None and hi is not None:
        return f"{lo} to {hi} {what}"
    if lo is not None:
        return f"at least {lo} {what}"
    return f"at most {hi} {what}"


def _check_count(out: list[Violation], section: str, rows: list[tuple[CardFacts, int]], total: int,
                 index: int, limit: CountLimit, simple: bool, packs: int | None) -> None:
    lo, hi = limit.min, limit.max
    if limit.per_pack:
        if packs is None:
            out.append(Violation(limit.rule, UNVERIFIED, section,
                                 cited(f"The {section} needs {limit.per_pack} cards per pack used; the pack count "
                                       f"was not given.", limit.cite),
                                 expected={"per_pack": limit.per_pack}, actual=total))
            return
        lo = max(lo or 0, limit.per_pack * packs)
    if simple:
        if (lo is None or total >= lo) and (hi is None or total <= hi):
            return
        n = n_max = total
        unknown: list[CardFacts] = []
    else:
        n = extra = 0
        unknown = []
        distinct: set[str] = set()
        unknown_keys: set[str] = set()
        for f, qty in rows:
            status = f.counted[index]
            if status == _YES:
                if limit.distinct:
                    distinct.add(f.copy_key)
                else:
                    n += qty
            elif status == _UNKNOWN:
                unknown.append(f)
                if limit.distinct:
                    unknown_keys.add(f.copy_key)
                else:
                    extra += qty
        if limit.distinct:
            n = len(distinct)
            extra = len(unknown_keys - distinct)
        n_max = n + extra
        if (lo is None or n >= lo) and (hi is None or n_max <= hi):
            return
    need = _need(lo, hi, limit.what)
    expected = _bounds(lo, hi)
    if (lo is not None and n_max < lo) or (hi is not None and n > hi):
        out.append(Violation(limit.rule, ERROR, section,
                             cited(f"The {section} must have {need}; it has {n}.", limit.cite),
                             expected=expected, actual=n))
    else:
        names, keys = names_keys(unknown)
        out.append(Violation(limit.rule, UNVERIFIED, section,
                             cited(f"The {section} must have {need}; it has {n} to {n_max}, depending on the "
                                   f"unknown types of: {', '.join(names)}.", limit.cite),
                             names, expected, {"min": n, "max": n_max}, keys, missing="type"))


def _check_types(out: list[Violation], section: str, rows: list[tuple[CardFacts, int]], index: int,
                 rule: TypeRule, memo: LRU) -> None:
    bad: list[CardFacts] = []
    unknown: list[CardFacts] = []
    for f, _qty in rows:
        status = f.type_status[index]
        if status:
            (bad if status == _YES else unknown).append(f)
    if not bad and not unknown:
        return
    memo_key = ("types", index, section, tuple([f.key for f in bad]), tuple([f.key for f in unknown]))
    done = memo.get(memo_key)
    if done is None:
        done = memo.put(memo_key, _type_violations(section, rule, bad, unknown))
    out.extend(done)


def _type_violations(section: str, rule: TypeRule, bad: list[CardFacts], unknown: list[CardFacts]) -> tuple:
    out: list[Violation] = []
    if rule.allowed is not None:
        what = "only " + ", ".join(rule.allowed_names) + " cards"
        expected: dict[str, Any] = {"types": list(rule.allowed_names)}
    else:
        what = "no " + ", ".join(rule.forbidden_names) + " cards"
        expected = {"not_types": list(rule.forbidden_names)}
    if bad:
        names, keys = names_keys(bad)
        listed = ", ".join(f"{f.name} ({f.card.type})" for f in bad)
        out.append(Violation(rule.rule, ERROR, section,
                             cited(f"The {section} may hold {what}; it holds {listed}.", rule.cite),
                             names, expected, sorted({f.card.type for f in bad}), keys))
    if unknown:
        names, keys = names_keys(unknown)
        out.append(Violation(rule.rule, UNVERIFIED, section,
                             cited(f"The {section} may hold {what}; the catalogue does not know the type of: "
                                   f"{', '.join(names)}.", rule.cite),
                             names, expected, None, keys, missing="type"))
    return tuple(out)


def _check_copies(out: list[Violation], rows: Rows, index: int, limit: CopyLimit, memo: LRU) -> None:
    if len(limit.sections) == 1:
        entries = rows.get(limit.sections[0], ())
    else:
        entries = [e for section in limit.sections for e in rows.get(section, ())]
    totals: dict[str, int] = {}
    over: list[str] = []
    # the usual case: no name repeats (a set comprehension: map() over operator getters runs fewer
    # bytecodes but more machine instructions, attrgetter taking the generic attribute lookup)
    if len({f.copy_key for f, _q in entries}) == len(entries):
        for f, qty in entries:
            threshold = f.thresholds[index]
            if threshold is not None and qty > threshold:
                over.append(f.copy_key)
                totals[f.copy_key] = qty
    else:
        for f, qty in entries:
            ck = f.copy_key
            total = totals[ck] = totals.get(ck, 0) + qty
            threshold = f.thresholds[index]
            if threshold is not None and total > threshold and ck not in over:
                over.append(ck)
    if not over:
        return
    where = limit.sections[0] if len(limit.sections) == 1 else None
    groups: dict[str, dict[str, CardFacts]] = {ck: {} for ck in over}  # the cards of each name over, by key
    for s in limit.sections:
        for f, _q in rows.get(s, ()):
            group = groups.get(f.copy_key)
            if group is not None:
                group[f.key] = f
    # the messages depend only on these names, their cards and totals: worded once (see _Compiled.memo)
    key = ("copies", index, tuple((ck, totals[ck], tuple(groups[ck])) for ck in over))
    worded = memo.get(key)
    if worded is None:
        worded = memo.put(key, _word_copies(limit, index, where, over, totals, groups))
    out.extend(worded)


def _word_copies(limit: CopyLimit, index: int, where: str | None, over: list[str], totals: dict[str, int],
                 groups: dict[str, dict[str, CardFacts]]) -> tuple[Violation, ...]:
    out: list[Violation] = []
    across = "" if where else " across " + " and ".join(limit.sections)
    for ck in over:
        total = totals[ck]
        group = list(groups[ck].values())
        lim, rule, certain, low = None, limit.rule, True, None
        for f in group:  # several cards sharing a name: the strictest certain limit wins
            l2, r2, c2, low2 = f.limits[index]
            if not c2:
                certain = False
                if low2 is not None and (low is None or low2 < low):
                    low, rule_low = low2, r2
            elif l2 is not None and (lim is None or l2 < lim):
                lim, rule = l2, r2
        names, keys = names_keys(group)
        label = " / ".join(names)
        if lim is not None and total > lim:
            out.append(Violation(rule, ERROR, where,
                                 cited(f"At most {lim} {'copy' if lim == 1 else 'copies'} of {label}{across}; "
                                       f"the deck has {total}.", limit.cite),
                                 names, {"max": lim}, total, keys))
        elif not certain and low is not None and total > low:
            out.append(Violation(rule_low, UNVERIFIED, where,
                                 cited(f"{label}: {total} copies{across}; the limit may be {low}, and the catalogue "
                                       f"lacks what decides it (its type or flags).", limit.cite),
                                 names, {"max": low}, total, keys, missing="type or flags"))
    return tuple(out)


def check_deck(deck: Deck, game: "GameSpec", format: Format, catalogue: Catalogue, *,
               packs: int | None = None) -> Report:
    """Every violation of `deck` against `format` (a format of `game`), checked on `catalogue`.

    `packs` is the pack count for formats whose minimum deck size depends on it (Huntik Limited);
    when such a format is checked without it, the size rule is `unverified`.
    """
    fmt = format
    comp = _compiled(fmt, game, catalogue)
    known = comp.facts.get
    out: list[Violation] = []
    counts = comp.counts.copy()
    rows: Rows = {}
    unknown_keys: list[str] = []
    prefix = fmt.rule_prefix or game.slug
    for name, entries in deck.sections.items():
        total = 0
        row = rows[name] = []
        for key, qty in entries.items():
            total += qty
            f = known(key, _MISSING)
            if f is _MISSING:
                f = comp.get(key)
            if f is None:
                unknown_keys.append(key)
            elif qty > 0:
                row.append((f, qty))
            else:
                out.append(Violation(f"{prefix}.deck.quantity", ERROR, name,
                                     f"{f.name}: a quantity must be a positive whole number, not {qty}.",
                                     (f.name,), {"min": 1}, qty, (key,)))
        counts[name] = total
        if total and name not in comp.section_names:
            names, keys = names_keys(f for f, _q in row)
            out.append(Violation(f"{prefix}.deck.unknown-section", ERROR, name,
                                 f"{game.name} decks have no section {name!r}; its sections are "
                                 f"{', '.join(s.name for s in game.sections)}.",
                                 names, [s.name for s in game.sections], name, keys))
    if unknown_keys:
        out.append(Violation(f"{prefix}.deck.unknown-card", ERROR, None,
                             f"Not {game.name} cards in this catalogue: {', '.join(unknown_keys)}.",
                             tuple(unknown_keys), None, None, tuple(unknown_keys)))
    empty: list[tuple[CardFacts, int]] = []
    for section, count_plan, type_plan in comp.plan:
        row = rows.get(section, empty)
        total = counts.get(section, 0)
        for index, limit, simple in count_plan:
            _check_count(out, section, row, total, index, limit, simple, packs)
        if type_plan is not None and row:
            _check_types(out, section, row, type_plan[0], type_plan[1], comp.memo)
    for index, limit in enumerate(fmt.copies):
        _check_copies(out, rows, index, limit, comp.memo)
    if comp.funcs:
        ctx = CheckContext(deck, game, fmt, catalogue, packs, rows, comp.memo)
        for func, spec in comp.funcs:
            out.extend(func(ctx, spec))
    return Report(game.slug, fmt.id, out, counts)

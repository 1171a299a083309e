"""Cards, printings and sets as plain values, and an in-memory catalogue to look them up.

Everything that reads card facts (legality, engines, statistics, the web pages) works on these
values, so it can run without a database and be tested in microseconds.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Mapping, TypeVar

from deckhub.core.caches import LRU
from deckhub.core.name_bounds import NameBounds
from deckhub.core.reading import overriding

T = TypeVar("T")
_MISSING = object()

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})
_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalize_name(name: str) -> str:
    """Fold case, accents, curly vs straight quotes and punctuation, so equal names compare equal.

    Spelling variants ("Kass's Charm" for "Kass Charm") stay different here: fuzzy matching finds
    them and reports the match as a notice.
    """
    text = unicodedata.normalize("NFKD", name.translate(_QUOTES))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    text = text.replace("'", "").replace("&", " and ")
    return _NON_WORD.sub(" ", text).strip()


def slugify(text: str) -> str:
    return normalize_name(text).replace(" ", "-") or "card"


@dataclass(frozen=True, slots=True)
class Printing:
    """One appearance of a card in a set: its collector number and rarity (or promo code)."""

    set_code: str
    number: str | None = None
    rarity: str | None = None
    promo_code: str | None = None
    source_id: str | None = None  # e.g. the OCTGN card GUID of this printing

    def to_json(self) -> dict[str, Any]:
        return {"set": self.set_code, "number": self.number, "rarity": self.rarity,
                "promo_code": self.promo_code, "source_id": self.source_id}


@dataclass(frozen=True, slots=True)
class CardSet:
    code: str
    name: str
    size: int | None = None
    position: int = 0
    booster: Mapping[str, Any] | None = None  # the set's booster-pack definition, when known

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "name": self.name, "size": self.size,
                "position": self.position, "booster": self.booster}


@dataclass(frozen=True, slots=True)
class Card:
    """A card as a game's rules see it (a reprint is one card with several printings).

    `attrs` holds the game's own fields (level, civilizations, atk, species, ...). A field that is
    not known is absent or None; `provenance` says for each known field whether it was
    "imported", "derived" or "contributed", and `sources` where the facts came from.
    """

    key: str
    game: str
    name: str
    version: str | None = None
    type: str | None = None
    text: str | None = None
    attrs: Mapping[str, Any] = field(default_factory=dict)
    provenance: Mapping[str, str] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    printings: tuple[Printing, ...] = ()

    @property
    def display_name(self) -> str:
        return f"{self.name}, {self.version}" if self.version else self.name

    def get(self, attr: str, default: Any = None) -> Any:
        if attr == "type":
            return self.type
        return self.attrs.get(attr, default)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "version": self.version, "type": self.type,
                "text": self.text, "attrs": dict(self.attrs), "provenance": dict(self.provenance),
                "sources": list(self.sources), "aliases": list(self.aliases),
                "printings": [p.to_json() for p in self.printings]}

    @classmethod
    def from_json(cls, game: str, data: Mapping[str, Any]) -> "Card":
        return cls(
            key=data["key"], game=game, name=data["name"], version=data.get("version"),
            type=data.get("type"), text=data.get("text"), attrs=dict(data.get("attrs") or {}),
            provenance=dict(data.get("provenance") or {}), sources=tuple(data.get("sources") or ()),
            aliases=tuple(data.get("aliases") or ()),
            printings=tuple(Printing(p["set"], p.get("number"), p.get("rarity"), p.get("promo_code"),
                                     p.get("source_id")) for p in data.get("printings") or ()),
        )


BLANK_KEY = "~blank"  # a key no imported card has (keys are slugs of names)


def blank_card(game: str, type: str | None = None, attrs: Mapping[str, Any] | None = None) -> Card:
    """The neutral filler a causal impact puts in a card's place: a card of `game` with no text, no
    type and no facts, which does nothing and counts for nothing (every engine holds such a card;
    where the rules make any card a resource, as Kaijudo's mana, it is one as any dead card is)."""
    return Card(key=BLANK_KEY, game=game, name="Blank card", type=type, text="", attrs=dict(attrs or {}),
                provenance={}, sources=("a blank filler for measuring card impact, not a real card",))


@dataclass
class CatalogueData:
    """What an importer produces for one game: sets, cards, and warnings about oddities kept."""

    game: str
    sets: list[CardSet] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class Catalogue:
    """All cards of one game, indexed by key, by printing id and by normalized name (and aliases).

    A catalogue is never changed once built: a corrected card is a new catalogue. So whatever is
    derived from one (compiled card programs, dealt decks, search indexes, legality tables) is
    kept on it with `memo`, lives as long as it does and is never stale (a family keyed by what
    users send keeps its most recently used values: `memo_each`).

    `manual` is the curators' overrides (card key -> texts of abilities set to manual): every
    program compiled through the catalogue (`compiled`, `overriding`) leaves them to manual moves.
    A changed override is a new catalogue, like a corrected card.
    """

    def __init__(self, game: str, cards: Iterable[Card], sets: Iterable[CardSet] = (),
                 manual: Mapping[str, frozenset[str]] | None = None):
        self.game = game
        self.manual: Mapping[str, frozenset[str]] = dict(manual or {})
        self.cards: dict[str, Card] = {}
        self.sets: dict[str, CardSet] = {s.code: s for s in sets}
        self._by_name: dict[str, list[Card]] = {}
        self._by_source_id: dict[str, Card] = {}
        for card in cards:
            self.cards[card.key] = card
            names = {normalize_name(card.name), normalize_name(card.display_name)}
            names.update(normalize_name(a) for a in card.aliases)
            for n in names:
                self._by_name.setdefault(n, []).append(card)
            for p in card.printings:
                if p.source_id:
                    self._by_source_id[p.source_id.lower()] = card
        self._choices: list[str] | None = None
        self._memo: dict[Hashable, Any] = {}
        self._memo_of: Catalogue = self

    def _memos(self) -> dict[Hashable, Any]:
        # a catalogue made by copying another's attributes (a session catalogue) gets its own memo
        if self._memo_of is not self:
            self._memo, self._memo_of = {}, self
        return self._memo

    def memo(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value derived from this catalogue under `key`, built by `build()` on first use.
        Two threads may both build it; the first one stored wins (values are deterministic)."""
        memos = self._memos()
        value = memos.get(key, _MISSING)
        if value is _MISSING:
            value = memos.setdefault(key, build())
        return value

    def memo_table(self, table: Hashable) -> dict:
        """The dict a family of values lives in, `memo(table, dict)` in one call (`memo_each`,
        `compiled` and the deck checks use it for every deck checked or dealt and every card dealt)."""
        memos = self._memo if self._memo_of is self else self._memos()
        entries = memos.get(table, _MISSING)
        if entries is _MISSING:
            entries = memos.setdefault(table, {})
        return entries

    def memo_each(self, table: Hashable, key: Hashable, build: Callable[[], T], limit: int | None = None) -> T:
        """Like `memo`, for a family of values (one per deck list...); with a `limit`, the family
        keeps the `limit` values used most recently (an `LRU`), so values keyed by user input
        cannot grow without bound."""
        if limit is not None:
            return self.memo(table, lambda: LRU(limit)).get_or_build(key, build)
        entries = self.memo_table(table)
        value = entries.get(key, _MISSING)
        if value is _MISSING:
            value = entries[key] = build()
        return value

    def compiled(self, compile: Callable[[Card], T], card: Card) -> T:
        """`compile(card)` once per card of this catalogue (an engine's card programs). A card that
        is not this catalogue's own value is compiled afresh: its facts may differ."""
        if self.cards.get(card.key) is not card:
            return self.overriding(compile)(card)
        entries = self._memo.get(compile) if self._memo_of is self else None  # (once per card dealt)
        if entries is None:
            entries = self.memo_table(compile)
        value = entries.get(card.key, _MISSING)
        if value is _MISSING:
            value = entries[card.key] = self.overriding(compile)(card)
        return value

    def overriding(self, compile: Callable[[Card], T]) -> Callable[[Card], T]:
        """`compile` with this catalogue's manual overrides applied (what coverage compiles with)."""
        return overriding(compile, self.manual)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards.values())

    def get(self, key: str) -> Card | None:
        return self.cards.get(key)

    def by_source_id(self, source_id: str) -> Card | None:
        return self._by_source_id.get(source_id.lower())

    def lookup(self, name: str) -> list[Card]:
        """Cards whose name, "name, version" or alias equals `name` once normalized.

        When several differ only in punctuation, the one spelt exactly as asked wins.
        """
        found = self._by_name.get(normalize_name(name), ())
        if len(found) > 1:
            exact = [c for c in found if name.strip().casefold() in (c.name.casefold(), c.display_name.casefold())]
            if exact:
                return exact
        return list(found)

    def name_choices(self) -> list[str]:
        if self._choices is None:
            self._choices = list(self._by_name)
        return self._choices

    def suggest(self, name: str, limit: int = 3, score_cutoff: float = 60) -> list[tuple[Card, float]]:
        """Likely cards for a misspelt name, best first (rapidfuzz over normalized names)."""
        from rapidfuzz import fuzz, process  # imported lazily: heavy-ish

        query = normalize_name(name)
        if not query:
            return []
        found: list[tuple[Card, float]] = []
        seen: set[str] = set()
        bounds = self.memo("core.name_bounds", lambda: NameBounds(self.name_choices()))
        for choice, score in bounds.best(query, limit * 3, score_cutoff, fuzz.WRatio, process.extract):
            for card in self._by_name[choice]:
                if card.key not in seen:
                    seen.add(card.key)
                    found.append((card, score))
        return found[:limit]

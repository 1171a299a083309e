"""What a catalogue knows, counted: per set and per field, how many cards have a known value and how
that value is known (imported from a source, derived by a stated rule, contributed by players).

Pure: it reads a `Catalogue` and the list of fields to count (the web layer passes the game's
proposable fields). A card counts once in each set it is printed in; an empty string or list is
unknown, as everywhere else. Results are kept per catalogue object, so a worker counts a game once
per catalogue change, not once per request.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from deckhub.core.cards import Catalogue

HOW = ("imported", "derived", "contributed")


@dataclass
class FieldCount:
    known: int = 0
    imported: int = 0
    derived: int = 0
    contributed: int = 0

    def add(self, how: str, n: int = 1) -> None:
        self.known += n
        if how == "derived":
            self.derived += n
        elif how == "contributed":
            self.contributed += n
        else:
            self.imported += n

    def to_json(self) -> dict[str, int]:
        return {"known": self.known, "imported": self.imported, "derived": self.derived,
                "contributed": self.contributed}


@dataclass
class SetCompleteness:
    code: str
    name: str
    size: int | None
    cards: int = 0
    fields: dict[str, FieldCount] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "name": self.name, "size": self.size, "cards": self.cards,
                "fields": {k: c.to_json() for k, c in self.fields.items()}}


@dataclass
class Completeness:
    """A game's counts: `total` over all its cards (printed or not), `sets` in release order."""

    game: str
    total: SetCompleteness
    sets: list[SetCompleteness]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "cards": self.total.cards,
                "fields": {k: c.to_json() for k, c in self.total.fields.items()},
                "sets": [s.to_json() for s in self.sets]}

    def set(self, code: str) -> SetCompleteness | None:
        return next((s for s in self.sets if s.code == code), None)


def is_known(value: Any) -> bool:
    return value is not None and value != "" and value != [] and value != ()


def completeness(catalogue: Catalogue, fields: Sequence[str]) -> Completeness:
    """Known values of `fields` in every set of the catalogue and over the whole game, counted once
    per catalogue (see `Catalogue.memo`)."""
    keys = tuple(fields)
    return catalogue.memo_each("completeness", keys, lambda: _count(catalogue, keys))


def _count(catalogue: Catalogue, keys: tuple[str, ...]) -> Completeness:
    ordered = sorted(catalogue.sets.values(), key=lambda s: (s.position, s.name))
    sets = {s.code: SetCompleteness(s.code, s.name, s.size, 0, {k: FieldCount() for k in keys}) for s in ordered}
    total = SetCompleteness("", "", None, 0, {k: FieldCount() for k in keys})
    # Cards that share their sets and their known fields' provenance are counted together (a catalogue
    # has a few hundred such shapes for a thousand cards); a shape is 2 bits a field: 0 unknown, else HOW.
    code = {"derived": 2, "contributed": 3}
    shapes: Counter[tuple[Any, int]] = Counter()
    for card in catalogue:
        provenance = card.provenance
        attrs = card.attrs
        shape = 0
        for i, k in enumerate(keys):
            v = card.type if k == "type" else card.text if k == "text" else attrs.get(k)
            if v or v == 0:  # known: 0 counts, None / "" / [] do not (and `is_known` agrees)
                shape |= code.get(provenance.get(k), 1) << (2 * i)
        printings = card.printings
        if len(printings) == 1:
            in_sets: Any = printings[0].set_code
        else:
            in_sets = tuple(dict.fromkeys(p.set_code for p in printings))
        shapes[(in_sets, shape)] += 1
    for (in_sets, shape), n in shapes.items():
        known = [(k, HOW[(shape >> (2 * i) & 3) - 1]) for i, k in enumerate(keys) if shape >> (2 * i) & 3]
        for group in (total, *(sets[c] for c in ((in_sets,) if isinstance(in_sets, str) else in_sets) if c in sets)):
            group.cards += n
            for k, how in known:
                group.fields[k].add(how, n)
    return Completeness(catalogue.game, total, list(sets.values()))

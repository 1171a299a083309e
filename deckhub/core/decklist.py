"""A deck as named sections of (card key, quantity), independent of where it was typed or stored."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from deckhub.core.cards import Card, Catalogue, normalize_name

# "Defeat Ymir: Frost King (SAS) 145": a name, its set (code or name) in parentheses, a collector number
_PRINTING = re.compile(r"^(?P<name>\S.*?)\s*\((?P<set>[^()]*[^()\s][^()]*)\)\s*#?(?P<number>[A-Za-z0-9][A-Za-z0-9./-]*)$")


def split_printing(text: str) -> tuple[str, str, str] | None:
    """`Name (SET) NUMBER` -> (name, set, number); None when the text names no printing."""
    m = _PRINTING.match(text.strip())
    return (m.group("name").strip(), m.group("set").strip(), m.group("number")) if m else None


def find_set(catalogue: Catalogue, text: str) -> str | None:
    """The code of the set `text` names, by its code or its name (a code wins), else None."""
    wanted = normalize_name(text)
    by_code = [s.code for s in catalogue.sets.values() if normalize_name(s.code) == wanted]
    by_name = [s.code for s in catalogue.sets.values() if normalize_name(s.name) == wanted]
    return (by_code or by_name or [None])[0]


def _number(text: str | None) -> str:
    return (text or "").strip().lstrip("#").lstrip("0").lower() or "0"


def cards_printed(catalogue: Catalogue, name: str, set_text: str, number: str) -> list[Card] | None:
    """Cards called `name` with a printing numbered `number` in the set `set_text`; None for an unknown set."""
    code = find_set(catalogue, set_text)
    if code is None:
        return None
    return [c for c in catalogue.lookup(name)
            if any(p.set_code == code and _number(p.number) == _number(number) for p in c.printings)]


def printing_label(card: Card) -> str:
    """How a deck list names this card's first numbered printing: `Name (SET) NUMBER`."""
    printing = next((p for p in card.printings if p.number), None)
    if printing is None:
        return card.display_name
    return f"{card.display_name} ({printing.set_code}) {printing.number}"


def needs_printing(catalogue: Catalogue, card: Card) -> bool:
    """Its name alone names more than one card, so a list must say which printing."""
    return len(catalogue.lookup(card.display_name)) > 1


@dataclass
class Deck:
    """`sections` maps a section name ("Deck", "Neopet Stack") to {card key: quantity}, in order."""

    game: str
    sections: dict[str, dict[str, int]] = field(default_factory=dict)
    name: str = ""

    def add(self, section: str, card_key: str, qty: int = 1) -> None:
        entries = self.sections.setdefault(section, {})
        entries[card_key] = entries.get(card_key, 0) + qty

    def count(self, section: str) -> int:
        return sum(self.sections.get(section, {}).values())

    def entries(self) -> Iterator[tuple[str, str, int]]:
        for section, cards in self.sections.items():
            for key, qty in cards.items():
                yield section, key, qty

    def expand(self, section: str, catalogue: Catalogue) -> list[Card]:
        """The section as a list of cards, one element per copy (what an engine shuffles)."""
        return [catalogue.cards[key] for key, qty in self.sections.get(section, {}).items() for _ in range(qty)]

    def to_json(self) -> dict:
        return {"game": self.game, "name": self.name,
                "sections": {s: [{"card": k, "qty": q} for k, q in cards.items()] for s, cards in self.sections.items()}}

    @classmethod
    def from_json(cls, data: dict) -> "Deck":
        deck = cls(data["game"], name=data.get("name", ""))
        for section, entries in data.get("sections", {}).items():
            for e in entries:
                deck.add(section, e["card"], int(e["qty"]))
        return deck

"""A deck as named sections of (card key, quantity), independent of where it was typed or stored."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from deckhub.core.cards import Card, Catalogue


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

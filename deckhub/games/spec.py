"""What a game declares about itself: its deck sections, card fields, types and how copies count."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from deckhub.core.cards import Card, normalize_name


@dataclass(frozen=True)
class SectionSpec:
    """A deck section ("Deck", "Neopet Stack") and the other headers players write for it."""

    name: str
    aliases: tuple[str, ...] = ()

    def matches(self, header: str) -> bool:
        wanted = normalize_name(header)
        return wanted == normalize_name(self.name) or wanted in {normalize_name(a) for a in self.aliases}


@dataclass(frozen=True)
class FieldSpec:
    """A game-specific card field: how to label it and whether the search page filters by it.

    kind: "int" (numeric, filterable by range), "str" (one value, filter by choice),
    "list" (several values, filter by choice), "text" (shown only).
    """

    key: str
    label: str
    kind: str = "str"
    filter: bool = True


def count_by_name(card: Card) -> str:
    """Copies are counted by name in most games (GUIDE §4)."""
    return normalize_name(card.name)


@dataclass(frozen=True)
class GameSpec:
    slug: str
    name: str
    sections: tuple[SectionSpec, ...]
    fields: tuple[FieldSpec, ...] = ()
    types: tuple[str, ...] = ()
    copy_key: Callable[[Card], str] = count_by_name
    main_section: str = "Deck"  # where lines go before any section header
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def package(self) -> str:
        return self.slug.replace("-", "_")

    def section(self, header: str) -> SectionSpec | None:
        return next((s for s in self.sections if s.matches(header)), None)


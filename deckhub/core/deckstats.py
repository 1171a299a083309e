"""A deck's numbers: card types, the cost curve that fits the game, and its colour breakdown.

Which card field is the "cost" (Kaijudo level, Battledome level requirement) and which is the
"colour" (civilization, team, faerie) is declared by each game in `GameSpec.extras`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from deckhub.core.cards import Catalogue
from deckhub.core.decklist import Deck

UNKNOWN = "unknown"


@dataclass
class DeckStats:
    total: int = 0
    types: Counter = field(default_factory=Counter)
    curve_label: str | None = None
    curve: Counter = field(default_factory=Counter)  # cost -> copies; UNKNOWN for unknown costs
    breakdown_label: str | None = None
    breakdown: Counter = field(default_factory=Counter)

    def curve_steps(self) -> list[tuple[int | str, int]]:
        """(cost, copies) from the lowest cost up, unknown costs last: the curve holds numbers and
        the word UNKNOWN, which do not sort together."""
        known = sorted(k for k in self.curve if k != UNKNOWN)
        return [(k, self.curve[k]) for k in known + ([UNKNOWN] if UNKNOWN in self.curve else [])]


def deck_stats(deck: Deck, catalogue: Catalogue, extras: dict) -> DeckStats:
    curve_field, curve_label = extras.get("curve", (None, None))
    colour_field, colour_label = extras.get("breakdown", (None, None))
    stats = DeckStats(curve_label=curve_label, breakdown_label=colour_label)
    for _section, key, qty in deck.entries():
        card = catalogue.get(key)
        if card is None:
            continue
        stats.total += qty
        stats.types[card.type or UNKNOWN] += qty
        if curve_field:
            cost = card.get(curve_field)
            stats.curve[cost if isinstance(cost, int) else UNKNOWN] += qty
        if colour_field:
            value = card.get(colour_field)
            values = value if isinstance(value, (list, tuple)) else [value]
            for v in values or [None]:
                stats.breakdown[v if v not in (None, "") else "none"] += qty
    return stats

"""What changed between two versions of a deck, card by card."""
from __future__ import annotations

from dataclasses import dataclass

from deckhub.core.decklist import Deck


@dataclass(frozen=True)
class Change:
    section: str
    card_key: str
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


def diff_decks(old: Deck, new: Deck) -> list[Change]:
    """Every (section, card) whose quantity differs, in the new deck's order then removed cards."""
    changes: list[Change] = []
    sections = list(new.sections) + [s for s in old.sections if s not in new.sections]
    for section in sections:
        before = old.sections.get(section, {})
        after = new.sections.get(section, {})
        for key in list(after) + [k for k in before if k not in after]:
            if before.get(key, 0) != after.get(key, 0):
                changes.append(Change(section, key, before.get(key, 0), after.get(key, 0)))
    return changes

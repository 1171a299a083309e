"""Exact opening-hand and draw odds (hypergeometric), for a card or a group of cards.

How many cards a player has seen by a turn depends on the game: its opening hand, how many it
draws a turn, whether the first player skips the first draw, and from which turn draws start.
Each game declares that in `GameSpec.extras["draws"]`; the numbers are exact fractions.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, Callable, Iterable

from deckhub.core.cards import Card, Catalogue
from deckhub.core.decklist import Deck


def at_least(k: int, population: int, successes: int, draws: int) -> Fraction:
    """P(X >= k) for X ~ Hypergeometric(population, successes, draws), exactly."""
    if not (0 <= successes <= population and draws >= 0):
        raise ValueError("need 0 <= successes <= population and draws >= 0")
    draws = min(draws, population)
    if k <= 0:
        return Fraction(1)
    total = comb(population, draws)
    hits = sum(comb(successes, i) * comb(population - successes, draws - i)
               for i in range(k, min(successes, draws) + 1))
    return Fraction(hits, total)


@dataclass(frozen=True)
class DrawModel:
    section: str  # the section the hand is drawn from
    hand: int
    per_turn: int = 1
    first_skips: bool = True  # the player going first does not draw on turn 1
    from_turn: int = 1  # the first turn (or round) with a draw

    @classmethod
    def from_extras(cls, extras: dict[str, Any], hand: int | None = None) -> "DrawModel":
        d = dict(extras["draws"])
        if hand is not None:
            d["hand"] = hand
        return cls(**d)

    def seen_by(self, turn: int, first: bool) -> int:
        """Cards seen (opening hand + draws) by the end of the draw step of `turn`."""
        draws = 0
        for t in range(self.from_turn, turn + 1):
            if t == 1 and first and self.first_skips:
                continue
            draws += self.per_turn
        return self.hand + draws


def group_predicate(kind: str, value: str) -> Callable[[Card], bool]:
    """Which cards count: "card" (a key), "type", or any card field (civilizations, level, tags, team...)."""
    if kind == "card":
        return lambda card: card.key == value
    if kind == "type":
        return lambda card: (card.type or "").casefold() == value.casefold()

    def matches(card: Card) -> bool:
        got = card.get(kind)
        values = got if isinstance(got, (list, tuple)) else [got]
        return any(str(v).casefold() == value.casefold() for v in values if v is not None)
    return matches


def count_in(deck: Deck, section: str, catalogue: Catalogue, predicate: Callable[[Card], bool]) -> int:
    return sum(qty for key, qty in deck.sections.get(section, {}).items()
               if (card := catalogue.get(key)) is not None and predicate(card))


def odds_table(deck: Deck, catalogue: Catalogue, model: DrawModel, predicate: Callable[[Card], bool],
               at_least_k: int = 1, turns: Iterable[int] = range(1, 9), first: bool = True) -> dict[str, Any]:
    """The chance of at least k matching cards in the opening hand and by each turn."""
    population = deck.count(model.section)
    successes = count_in(deck, model.section, catalogue, predicate)
    rows = [{"turn": 0, "label": "opening hand", "seen": min(model.hand, population),
             "chance": float(at_least(at_least_k, population, successes, model.hand)) if population else 0.0}]
    for t in turns:
        seen = model.seen_by(t, first)
        rows.append({"turn": t, "label": f"by turn {t}", "seen": min(seen, population),
                     "chance": float(at_least(at_least_k, population, successes, seen)) if population else 0.0})
    return {"population": population, "successes": successes, "k": at_least_k, "rows": rows}

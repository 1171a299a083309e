"""Exact opening-hand and draw odds (hypergeometric), for a card or a group of cards.

How many cards a player has seen by a turn depends on the game: its opening hand, how many it
draws a turn, whether the first player skips the first draw, and from which turn draws start.
Each game declares that in `GameSpec.extras["draws"]`; the numbers are exact fractions.
"""
from __future__ import annotations

import random
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


def both_at_least(a: int, b: int, population: int, only_a: int, only_b: int, both: int, draws: int) -> Fraction:
    """P(at least `a` cards of group A and at least `b` of group B among `draws` cards), exactly
    (multivariate hypergeometric): `only_a`/`only_b` cards are in one group, `both` in the two."""
    neither = population - only_a - only_b - both
    if min(only_a, only_b, both, neither) < 0 or draws < 0:
        raise ValueError("the groups' cards must fit in the population")
    draws = min(draws, population)
    hits = 0
    for k in range(min(both, draws) + 1):
        for i in range(max(0, a - k), min(only_a, draws - k) + 1):
            ways_ab = comb(both, k) * comb(only_a, i)
            for j in range(max(0, b - k), min(only_b, draws - k - i) + 1):
                hits += ways_ab * comb(only_b, j) * comb(neither, draws - k - i - j)
    return Fraction(hits, comb(population, draws))


def combined_odds_table(deck: Deck, catalogue: Catalogue, model: DrawModel, group_a: Callable[[Card], bool], a: int,
                        group_b: Callable[[Card], bool], b: int, turns: Iterable[int] = range(1, 9),
                        first: bool = True, shuffles: int = 10_000, seed: int = 0) -> dict[str, Any]:
    """The exact chance of at least `a` cards of group A and at least `b` of group B in the opening
    hand and by each turn, beside its estimate from `shuffles` seeded shuffles of the deck (the
    two agree to within the estimate's noise, about 1/sqrt(shuffles))."""
    pool: list[tuple[bool, bool]] = []
    for key, qty in deck.sections.get(model.section, {}).items():
        card = catalogue.get(key)
        kind = (bool(card and group_a(card)), bool(card and group_b(card)))
        pool.extend([kind] * qty)
    population = len(pool)
    only_a = sum(1 for x, y in pool if x and not y)
    only_b = sum(1 for x, y in pool if y and not x)
    both = sum(1 for x, y in pool if x and y)
    seen_at = [(0, "opening hand", model.hand)] + [(t, f"by turn {t}", model.seen_by(t, first)) for t in turns]
    rng = random.Random(seed)
    hits = [0] * len(seen_at)
    for _ in range(shuffles if population else 0):
        rng.shuffle(pool)
        for n, (_t, _label, seen) in enumerate(seen_at):
            top = pool[:seen]
            if sum(x for x, _ in top) >= a and sum(y for _, y in top) >= b:
                hits[n] += 1
    rows = [{"turn": t, "label": label, "seen": min(seen, population),
             "chance": float(both_at_least(a, b, population, only_a, only_b, both, seen)) if population else 0.0,
             "simulated": hits[n] / shuffles if population and shuffles else None}
            for n, (t, label, seen) in enumerate(seen_at)]
    return {"population": population, "a": a, "b": b, "group_a": only_a + both, "group_b": only_b + both,
            "both": both, "shuffles": shuffles, "seed": seed, "rows": rows}

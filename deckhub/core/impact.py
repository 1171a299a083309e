"""Causal card impact: how much slower the deck wins when one copy of a card is a blank instead.

Each arm is the deck with one copy of one distinct card replaced by the blank filler
(`deckhub.core.cards.blank_card`), played on the deck's own seeds as tuning's variants are (common
random numbers, paired differences, successive halving: `deckhub.core.tuning`). Halving here keeps
the cards whose difference is least clear, so the games go where the answer is still open. A card's
`delta` is the paired mean change of the game's score (winning turn; a game not won scores the limit
plus one): positive, the deck is slower without the card.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from deckhub.core.cards import BLANK_KEY, Catalogue, blank_card
from deckhub.core.decklist import Deck
from deckhub.core.tuning import Tuner, clarity, drive, paired

DEFAULT_BUDGET = 4_000
FIRST_GAMES = 30  # paired games every card plays before halving drops any (when half the budget affords it)


@dataclass(frozen=True)
class CardImpact:
    card: str
    key: str
    delta: float
    ci: tuple[float, float]
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "key": self.key, "delta": round(self.delta, 4),
                "ci": [round(self.ci[0], 4), round(self.ci[1], 4)], "games": self.games}

    @property
    def slower_without(self) -> bool:
        return self.ci[0] > 0

    @property
    def faster_without(self) -> bool:
        return self.ci[1] < 0


@dataclass
class ImpactResult:
    game: str
    deck: str
    seed: int
    budget: int
    games_played: int
    cards: list[CardImpact]
    settings: dict[str, Any]

    @property
    def verdict(self) -> str:
        slower = [c.card for c in self.cards if c.slower_without]
        faster = [c.card for c in self.cards if c.faster_without]
        if not slower and not faster:
            return (f"no card's effect beats the noise: with {self.games_played:,} games, no card's 95% interval "
                    "excludes zero (a larger budget narrows them)")
        parts = []
        if slower:
            parts.append(f"the deck is slower without {', '.join(slower)}")
        if faster:
            parts.append(f"faster with a blank instead of {', '.join(faster)}")
        return ("; ".join(parts) + f" (95% intervals; with {len(self.cards)} cards, about one in twenty "
                "may clear one by chance)")

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "deck": self.deck, "seed": self.seed, "games_played": self.games_played,
                "budget": self.budget, "cards": [c.to_json() for c in self.cards], "verdict": self.verdict,
                "settings": self.settings}


def with_blank(catalogue: Catalogue) -> Catalogue:
    """`catalogue` with the blank filler in it (kept on the catalogue: built once per catalogue)."""
    if catalogue.get(BLANK_KEY) is not None:
        return catalogue
    return catalogue.memo("impact-blank", lambda: Catalogue(
        catalogue.game, [*catalogue, blank_card(catalogue.game)], catalogue.sets.values(), catalogue.manual))


def impact_tuner(game: str, deck: Deck, catalogue: Catalogue, *, budget: int = DEFAULT_BUDGET, seed: int = 0,
                 options: dict | None = None, halving: bool = True) -> Tuner:
    """The rounds of an impact run: one arm per distinct card (a copy replaced by the blank)."""
    return Tuner(game, deck, with_blank(catalogue), [BLANK_KEY], lambda _deck: True, budget=budget, seed=seed,
                 options=options, halving=halving, rank=clarity, first_games=FIRST_GAMES)


def impact_result(tuner: Tuner, settings: dict[str, Any] | None = None) -> ImpactResult:
    """Every card's paired difference and 95% interval, most positive (the deck slowest without it) first."""
    base = tuner.base
    rows = []
    for arm in tuner.arms[1:]:
        if not arm.scores:
            continue
        delta, ci = paired(arm, base)
        card = tuner.catalogue.get(arm.swap.out)
        rows.append(CardImpact(card.display_name if card else arm.swap.out, arm.swap.out, delta, ci, len(arm.scores)))
    rows.sort(key=lambda c: (-c.delta, c.card, c.key))
    return ImpactResult(tuner.game, tuner.deck.name, tuner.seed, tuner.budget, tuner.played, rows,
                        {"options": {k: v for k, v in tuner.options.items() if k != "card_values"},
                         "rounds": len(tuner.plan), "cards_found": tuner.swaps_found,
                         "score": f"winning turn; a game not won scores {tuner.limit + 1}",
                         "halving": "the cards whose difference is least clear play on", **(settings or {})})


def impact(game: str, deck: Deck, catalogue: Catalogue, *, budget: int = DEFAULT_BUDGET, seed: int = 0,
           options: dict | None = None, workers: int = 1, halving: bool = True,
           progress: Callable[[int, int], None] | None = None,
           settings: dict[str, Any] | None = None) -> ImpactResult:
    """Play an impact run here (see the module doc); `halving=False` gives every card the same games."""
    tuner = impact_tuner(game, deck, catalogue, budget=budget, seed=seed, options=options, halving=halving)
    drive(tuner, workers, progress)
    return impact_result(tuner, settings)

"""Causal card impact played here (the command's use case): each card's paired difference when one
copy is a blank filler, on the deck's own seeds (see `deckhub.core.impact`)."""
from __future__ import annotations

import os

from deckhub.core.cards import Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import EngineError
from deckhub.core.impact import ImpactResult, impact
from deckhub.core.tuning import MIN_BUDGET, TuningError
from deckhub.services.tunings import TuningStartError, values_applied


def impact_here(deck: Deck, base: Catalogue, options: dict, *, allow_unknown: bool = False, budget: int,
                seed: int, workers: int, progress=None) -> tuple[ImpactResult, int]:
    """(the impact of `deck`'s cards, the number of its cards played without values the engine
    needs). A deck lacking values is refused (UnplayableDeck) unless `allow_unknown`."""
    _engine, catalogue, unknown = values_applied(deck, base, options, allow_unknown)
    if budget < MIN_BUDGET:
        raise TuningStartError(f"an impact run needs a budget of at least {MIN_BUDGET} games, not {budget}")
    try:
        result = impact(deck.game, deck, catalogue, budget=budget, seed=seed, options=options,
                        workers=min(workers, os.cpu_count() or 1), progress=progress,
                        settings={"cards_without_values": len(unknown)})
    except (TuningError, EngineError, ValueError) as exc:
        raise TuningStartError(str(exc)) from None
    return result, len(unknown)

"""How much of Huntik's card text the engine plays (`deckhub coverage huntik`).

The card compiler (`effects`) rates each paragraph; a mission or feature counts only when the
missions package encodes it. This module joins the two, so the missions can use the compiler's
`Power` without the compiler importing the missions back.
"""
from __future__ import annotations

from typing import Any, Iterable

from deckhub.core import effects as core_effects
from deckhub.core.effects import MANUAL
from deckhub.games.huntik.effects import Program, compile_card, phrase_of
from deckhub.games.huntik.missions import FEATURES, MISSIONS


def coverage(catalogue: Iterable[Any]) -> dict[str, Any]:
    """Distinct cards fully / partly / not automated, abilities by status, the commonest gaps.
    A mission or feature counts as automated only when the missions module encodes it."""
    missions_left = []

    def rate(card, prog: Program) -> core_effects.Rated:
        abilities = tuple(prog.abilities)
        if (prog.kind == "mission" and card.key not in MISSIONS) or (prog.kind == "feature" and card.key not in FEATURES):
            if prog.kind == "mission":
                missions_left.append(card.display_name)
            texts = [t for t, _ in abilities] or [card.display_name]
            return core_effects.Rated("none", tuple((t, MANUAL) for t in texts), not abilities)
        return core_effects.Rated(prog.automation, abilities, not abilities)

    result = core_effects.coverage("huntik", catalogue, compile_card, rate=rate, phrase=phrase_of, notes=(
        "full = every paragraph of text is automated or cannot matter against the passive defending player "
        "(who has no heroes, no hand and plays nothing); vanilla cards (no text) count as full",
        "no effect: text that only targets enemy heroes (Huntik 305: obstacles are not heroes), the opponent's "
        "hand or the opponent's actions; a card that needs such a target cannot be played (Huntik 704)",
        "missions and features count as automated when the mission is encoded",
    ))
    if missions_left:
        result["notes"].append("missions not encoded: " + "; ".join(missions_left))
    return result

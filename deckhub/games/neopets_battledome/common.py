"""Constants and helpers the engine's modules share (dealing a deck, texts)."""
from __future__ import annotations

from typing import Any

from deckhub.core.engine import EngineError
from deckhub.games.neopets_battledome.effects import compile_card


CODESTONE_CAP = 5  # Turn: Train ("cannot exceed 5 Codestones")


ROUNDS_TO_WIN = 2  # Turn: End of Round ("2 round wins is the Champion")


PLAYER_PHASES = ("train", "prep", "battle")


_BONUS_ZONES = ("codestones", "equipment", "faerie", "play_area")  # where a card's bonus counts while it is there


_MOD = {s: f"{s}_mod" for s in ("attack", "defence", "agility", "hp")}


BATTLE_STATS = ("attack", "defence", "agility")


# The training dummy's defaults: the one Neopet with published stats (Acara: HP 8, Attack 3,
# Defence 2; data/neopets-battledome/cards.json) with the Agility of the Acara in Upper Deck's own
# example (Turn: Battle, "the defending Acara has an Agility of 5").
DUMMY_DEFAULTS = {"hp": 8, "attack": 3, "defence": 2, "agility": 5}


# What the sandbox shows next to the options: the points no source settles (notes §3, §7, §9).
NOT_FOUND = {
    "opening_hand": "opening inventory size: not found in any readable source (notes §3.5); default 5",
    "mulligan": "mulligan: not found (notes §3.6); default off",
    "deck_out": "drawing from an empty Main Deck: not found (notes §7); default: the draw is skipped",
    "equipment_slots": "Equipment limit 3: SI.com only (notes §2b, SECONDARY)",
    "full_slot": "playing into a full Faerie or Equipment slot: not found (notes §9.5-9.6); default: not allowed",
    "painting": "how a Paint Brush swaps in a Rainbow Pool Neopet: not found (notes §9.12); default: choose one of "
                "the same species, Codestones, Equipment and damage stay",
    "codestones_at_round_end": "Codestones at the end of a round: not in the article; they are part of the "
                               "Neopet (March 2025 update), so they go with it to Round Results",
}


_STAT_LIMITS = dict(minimum=0, maximum=30)


def _compiled(entries: dict[str, int], catalogue) -> list[tuple]:
    """(card, program) per copy of a deck section, kept on the catalogue: dealing only shuffles."""
    def build() -> list[tuple]:
        found: list[tuple] = []
        for card_key, qty in entries.items():
            card = catalogue.get(card_key)
            if card is None:
                raise EngineError(f"card {card_key!r} is not in the Neopets Battledome catalogue")
            found.extend([(card, catalogue.compiled(compile_card, card))] * qty)
        return found
    return catalogue.memo_each("neopets_battledome.decks", tuple(entries.items()), build, limit=512)


def _section(deck, *names: str) -> dict[str, int]:
    for name in names:
        if name in deck.sections:
            return deck.sections[name]
    return {}


def _fight_view_of(fight) -> dict[str, Any] | None:
    if fight is None:
        return None
    return {"attacker": fight["attacker"], "attack": list(fight["attack"]), "defence": list(fight["defence"]),
            "rolled": {k: list(v) for k, v in fight["rolled"].items()}, "agility": list(fight["agility"]),
            "reroller": fight["reroller"], "reroll_limit": fight["reroll_limit"], "marked": list(fight["marked"]),
            "damage_before_cash_in": fight.get("pending_damage")}


def _dice_text(values) -> str:
    return "[" + " ".join(str(v) for v in values) + "]" if values else "[]"



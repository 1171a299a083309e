"""Constants and helpers the engine's modules share (dealing a deck, texts)."""
from __future__ import annotations

from deckhub.core.engine import EngineError
from deckhub.games.kaijudo.effects import compiler


PHASE_LABELS = {"mana": "End the mana phase", "main": "Go to the attack phase", "attack": "End the turn"}


_CIV_NAMES = {"light": "Light", "water": "Water", "darkness": "Darkness", "fire": "Fire", "nature": "Nature"}


def _compiled_deck(entries: dict[str, int], catalogue) -> list[tuple]:
    """(card, program, name) per copy of a deck section, kept on the catalogue: dealing only shuffles."""
    def build() -> list[tuple]:
        compile_card = compiler(catalogue)
        found = []
        for card_key, qty in entries.items():
            card = catalogue.get(card_key)
            if card is None:
                raise EngineError(f"card {card_key!r} is not in the Kaijudo catalogue")
            found.extend([(card, catalogue.compiled(compile_card, card), card.display_name)] * qty)
        if not found:
            raise EngineError("the deck has no cards in its Deck section")
        return found
    return catalogue.memo_each("kaijudo.decks", tuple(entries.items()), build, limit=512)


def _items_text(items: tuple) -> str:
    parts = []
    for kind, value in items:
        parts.append({"power": f"+{value} power", "fast": "Fast Attack", "breaker": f"breaks {value}",
                      "powerful_attack": f"Powerful Attack +{value}", "attack_players": "may attack players",
                      "extra_break": "breaks an additional shield"}.get(kind, kind))
    return ", ".join(parts)

"""Constants and helpers the engine's modules share (dealing a deck, texts)."""
from __future__ import annotations

from typing import Any

from deckhub.core.engine import EngineError
from deckhub.games.neopets_tcg.contest import ARENAS
from deckhub.games.neopets_tcg.effects import compile_card


WIN_POINTS = 21


MAX_NEOPETS = 3


ARENA_SET = frozenset(ARENAS)


_SUBSETS_UP_TO = 6  # contest participant sets listed in full up to this many candidates


def _dealable(cls, deck, catalogue) -> tuple[bool, list[tuple]]:
    """(split, [(card, zone, program, name, unknown values)] per copy) for a deck, kept on the
    catalogue: dealing a game then only shuffles. `split`: a one-section (basic-game) list whose
    Basic Neopets form the Neopet Stack."""
    sections = {name: entries for name, entries in deck.sections.items() if entries}
    key = (cls, tuple((name, tuple(entries.items())) for name, entries in sections.items()))
    return catalogue.memo_each("neopets_tcg.decks", key, lambda: _deal_plan(cls, sections, catalogue), limit=512)


def _deal_plan(cls, sections, catalogue) -> tuple[bool, list[tuple]]:
    split = False
    if sections.get("Neopet Stack"):
        stack_entries, deck_entries = sections["Neopet Stack"], sections.get("Deck", {})
    elif len(sections) == 1:
        stack_entries, deck_entries, split = {}, next(iter(sections.values())), True
    else:
        raise EngineError(f"a Neopets TCG deck has a Neopet Stack and a Deck; this one has {', '.join(sections) or 'no cards'}")
    pool: list[tuple] = []
    for entries, zone in ((stack_entries, "stack"), (deck_entries, "deck")):
        for card_key, qty in entries.items():
            card = catalogue.get(card_key)
            if card is None:
                raise EngineError(f"card {card_key!r} is not in the Neopets TCG catalogue")
            prog = catalogue.compiled(compile_card, card)
            where = ("stack" if prog.type == "Basic Neopet" else "deck") if split else zone
            gaps = tuple(f for f in cls.needed_values(card) if not _known(card, f))
            pool.extend([(card, where, prog, card.display_name, gaps)] * qty)
    if not pool:
        raise EngineError("the deck has no cards")
    return split, pool


def _a(word: str | None) -> str:
    word = word or "card of unknown type"
    return f"{'an' if word[0].lower() in 'aeiou' else 'a'} {word}"


def _arena(value: Any) -> str | None:
    return value if isinstance(value, str) and value in ARENA_SET else None


def _known(card, name: str) -> bool:
    if name == "type":
        return compile_card(card).type is not None
    if name == "tap_to_play":
        return compile_card(card).tap is not None
    if name == "text":
        return card.text is not None
    return card.attrs.get(name) is not None

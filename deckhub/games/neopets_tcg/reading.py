"""Neopets TCG compiled programs in plain words (see `deckhub.core.reading`). The catalogue holds
no rules text, so these words mostly say what the engine made of text a player supplied."""
from __future__ import annotations

from deckhub.core.reading import Reader, Words, some
from deckhub.games.neopets_tcg.effects import compile_card

__all__ = ("WORDS", "compiler")


def compiler(catalogue):
    """The card compiler (the same for every catalogue)."""
    return compile_card


def _group(group: str) -> str:
    return {"neopets": "Neopets", "heroes": "Heroes", "both": "Neopets or Heroes"}[group]


OPS = {
    "draw": lambda op, r: f"draw {some(op[1], 'card')}",
    "may": lambda op, r: f"you may {r.ops(op[2])}",
    "bank_from_hand": lambda op, r: "put an Item or Equipment from your hand into your bank",
    "bank_top": lambda op, r: f"put the top {some(op[1], 'card')} of your deck into your bank",
    "move_one": lambda op, r: f"tap one of your untapped {_group(op[1])} and move it to another arena",
    "move_free": lambda op, r: f"move one of your {_group(op[1])} to another arena without tapping it",
    "untap_one": lambda op, r: f"untap one of your {_group(op[1])}",
}


def _bonus(value: dict, r: Reader) -> str:
    given = [f"{'+' if n > 0 else ''}{n} {arena.capitalize()}" for arena, n in value.items() if n]
    if not given:
        return ""
    when = "while it is attached" if r.prog is not None and r.prog.type == "Equipment" else "to the contest total"
    return f"{' and '.join(given)} {when}"


def _tap(value: str | None, r: Reader) -> str:
    if value in (None, "none"):
        return ""  # no cost of its own (or one no pattern read: then the text stays manual)
    return "to play it, tap one of your Neopets" + ("" if value == "any" else f" of the {value} faerie type")


FIELDS = {
    "bonus": _bonus,
    "tap": _tap,
    "on_play": lambda v, r: f"when you play it: {r.ops(v)}",
    "on_bank": lambda v, r: f"when you bank it: {r.ops(v)}",
    "on_win": lambda v, r: f"when it wins a contest: {r.ops(v)}",
    "before_turn": lambda v, r: f"before your turn: {r.ops(v)}",
}

WORDS = Words(
    ops=OPS, fields=FIELDS,
    quiet=frozenset({"type", "species", "faerie", "stats", "bank", "text_known", "unread", "neopet", "contester"}),
    why=lambda text: "it only concerns the opponent's cards, and the dummy opponent has none and never acts",
)

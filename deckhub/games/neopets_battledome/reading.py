"""Battledome compiled programs in plain words (see `deckhub.core.reading`). The catalogue holds
almost no rules text, so these words mostly say what the engine made of a player's values and text."""
from __future__ import annotations

from deckhub.core.reading import Reader, Words, some
from deckhub.games.neopets_battledome.effects import STAT_LABELS, compile_card

__all__ = ("WORDS", "compiler")


def compiler(catalogue):
    """The card compiler (the same for every catalogue)."""
    return compile_card


def _stats(pairs: tuple) -> str:
    return " and ".join(f"{'+' if n > 0 else ''}{n} {STAT_LABELS[stat]}" for stat, n in pairs if n)


def _bonus(value: tuple, r: Reader) -> str:
    role = r.prog.role if r.prog is not None else ""
    when = {"one_shot": "for the turn it is played", "food": "for the turn it is played",
            "codestone": "while it is in your Battledome"}.get(role, "while it is in play")
    return f"your Neopet gets {_stats(value)} {when}" if _stats(value) else ""


FIELDS = {
    "bonus": _bonus,
    "turn_bonus": lambda v, r: f"your Neopet gets {_stats(v)} the turn it is played" if _stats(v) else "",
    "heal": lambda v, r: f"remove {v} damage from your Neopet",
    "reduction": lambda v, r: (f"reduce the damage your Neopet takes this turn by {v}"
                               if r.prog is not None and r.prog.role in ("one_shot", "food") else
                               f"cash it in when your Neopet is hit to take {v} less damage"),
    "turn_reduction": lambda v, r: f"reduce the damage your Neopet takes by {v} the turn it is played",
    "shield": lambda v, r: f"reduce the next damage your Neopet takes by {v}, once",
    "ward": lambda v, r: f"reduce every hit on your Neopet by {v} while it is in play",
    "draw": lambda v, r: f"draw {some(v, 'card')}",
}

WORDS = Words(
    fields=FIELDS,
    quiet=frozenset({"role", "level", "stats", "missing", "behaviour_known", "species"}),
    why=lambda text: "it only concerns the opponent, and the training dummy never acts",
)

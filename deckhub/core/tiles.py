"""What a card's tile on the goldfish board shows, declared by the engine as data (`State.TILE`).

Every tile shows a card's name, type and text, whether its text is automated and the values the
player entered for it; what else matters differs from game to game (a Kaijudo creature's power and
why it cannot attack, a Huntik hero's ATK and whether it is stunned). An engine's card view puts
those facts in its dict and its State's TILE says which of them the tile shows, and how: the board
draws whatever is declared and knows no game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Stat:
    """A number the tile shows: the card view's `key`, after a short `label` ("ATK"); "?" when None."""

    key: str
    label: str


@dataclass(frozen=True)
class Flag:
    """A state the tile shows when the card view's `key` is `when` (True: any true value).

    text: the words shown (None: the value itself, e.g. why a creature cannot attack); line: a line
    under the numbers, else a badge beside the name; css: classes it adds ("problem error");
    turned: the whole tile is drawn turned, as a tapped card."""

    key: str
    text: str | None = None
    when: Any = True
    line: bool = False
    css: str = ""
    turned: bool = False

    def shown(self, card: dict[str, Any]) -> bool:
        value = card.get(self.key)
        return bool(value) if self.when is True else value == self.when


@dataclass(frozen=True)
class Tile:
    """A game's tile: its numbers and flags in the order shown, the card view's lists written after
    the type ("Creature · Fire · Water") and those written as a line of their own (keywords)."""

    stats: tuple[Stat, ...] = ()
    flags: tuple[Flag, ...] = ()
    beside_type: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()

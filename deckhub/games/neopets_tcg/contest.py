"""The Neopets TCG contest, as pure arithmetic (rulebook: "Contests", "Contests Against Villains"
and the FAQ on sixes and rerolls). No state, no randomness of its own: the die is a function the
caller passes, so the same rolls always give the same result.

A side's total is the arena stat of each of its Neopets and Heroes in the contest, the bonuses
of the Equipment attached to them, its Item's bonus (added to the total, not to a participant) and
its die. A 6 wins outright; both sides rolling a 6, or equal totals, means both reroll (a Villain's
owner does not roll: only you reroll). With no rivals at all you win at once, without rolling.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

ARENAS = ("strength", "agility", "magic", "intelligence")
YOU, RIVAL, REROLL = "you", "rival", "reroll"


def contest_total(stats: Iterable[int], equipment: Iterable[int] = (), item: int = 0, die: int = 0) -> int:
    """One side's total: participants' arena stats + Equipment bonuses + the Item's bonus + the die."""
    return sum(stats) + sum(equipment) + item + die


def decide(your_die: int, your_total: int, rival_die: int | None, rival_total: int) -> str:
    """"you", "rival" or "reroll" for one roll of the dice. `rival_die` is None when the rival does not
    roll (a Villain contest). A 6 wins outright; both 6 -> reroll; otherwise the higher total wins and
    a tie is a reroll."""
    you_six, rival_six = your_die == 6, rival_die == 6
    if you_six and rival_six:
        return REROLL
    if you_six:
        return YOU
    if rival_six:
        return RIVAL
    if your_total > rival_total:
        return YOU
    if rival_total > your_total:
        return RIVAL
    return REROLL


@dataclass(frozen=True)
class Side:
    """One side of a contest: each participant's stat for the arena, the Equipment bonuses for that
    arena, the Item's bonus, and whether this side rolls (a Villain's owner does not)."""

    stats: tuple[int, ...] = ()
    equipment: tuple[int, ...] = ()
    item: int = 0
    rolls: bool = True

    def total(self, die: int | None) -> int:
        return contest_total(self.stats, self.equipment, self.item, die or 0)


@dataclass(frozen=True)
class ContestResult:
    winner: str  # "you" | "rival"
    rolls: tuple[tuple[int | None, int | None], ...]  # (your die, rival's die) for every roll, rerolls included
    totals: tuple[int, int] | None  # the deciding roll's totals; None when there were no rivals
    reason: str  # "no rivals" | "six" | "total"

    def describe(self) -> str:
        if self.reason == "no rivals":
            return "no rivals: won automatically"
        parts = []
        for yours, theirs in self.rolls:
            parts.append(f"you rolled {yours}" + (f", the rival rolled {theirs}" if theirs is not None else ""))
        text = "; reroll; ".join(parts)
        if self.reason == "six":
            return f"{text}: a 6 wins"
        return f"{text}: {self.totals[0]} against {self.totals[1]}"


def resolve(you: Side, rival: Side | None, roll: Callable[[], int], max_rolls: int = 1000) -> ContestResult:
    """Play out a contest's dice. `rival` None: no Neopets or Heroes oppose you, so you win at once.
    `roll()` returns a die (1-6); you roll first, then the rival (if it rolls)."""
    if rival is None:
        return ContestResult(YOU, (), None, "no rivals")
    rolls: list[tuple[int | None, int | None]] = []
    for _ in range(max_rolls):
        mine = roll()
        theirs = roll() if rival.rolls else None
        rolls.append((mine, theirs))
        totals = (you.total(mine), rival.total(theirs))
        outcome = decide(mine, totals[0], theirs, totals[1])
        if outcome != REROLL:
            six = (mine == 6) != (theirs == 6)
            return ContestResult(outcome, tuple(rolls), totals, "six" if six else "total")
    raise RuntimeError(f"no winner after {max_rolls} rolls")

"""Battledome dice, as pure functions (Upper Deck's article on a turn, "Battle": the authority for
this arithmetic; `../shared/rules/neopets-battledome-turn.md`).

- Gather dice: a pool is the Neopet's stat plus every bonus and modifier, at most 10 dice
  ("Gather that many dice (maximum 10)"); a pool below 0 is 0 dice (notes §5.3).
- Roll: attack 1-3 fail, 4-5 succeed, 6 is a critical attack, a success that cannot be blocked;
  defence 1-3 fail, 4-6 block.
- Compare agility: the Neopet with the higher Agility may reroll up to the difference in dice and
  must keep the new results; equal Agility, nobody rerolls.
- Calculate damage: criticals + max(0, successes - blocks) (the article's example: attack 6, 4, 4,
  3, 1 against defence 5, 3, 2, 2 is 1 critical + 2 successes - 1 block = 2 damage).

Nothing here knows about cards or states; the engine calls these with numbers and its own RNG.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Sequence

MAX_DICE = 10
SIDES = 6
CRITICAL = 6
ATTACK_SUCCESS = 4  # 4 and 5 succeed, 6 is critical
BLOCK = 4  # 4, 5 and 6 block


def dice_pool(value: int, cap: int = MAX_DICE) -> int:
    """How many dice a stat total gathers: never below 0, never above the cap (10)."""
    return max(0, min(int(value), cap))


def count_attack(dice: Iterable[int]) -> tuple[int, int]:
    """(criticals, successes): 6s are criticals; 4s and 5s are successes; 1-3 fail."""
    crits = successes = 0
    for d in dice:
        if d >= CRITICAL:
            crits += 1
        elif d >= ATTACK_SUCCESS:
            successes += 1
    return crits, successes


def count_blocks(dice: Iterable[int]) -> int:
    """Defence dice of 4, 5 or 6 are blocks."""
    return sum(1 for d in dice if d >= BLOCK)


@dataclass(frozen=True)
class BattleResult:
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    criticals: int
    successes: int
    blocks: int
    damage: int

    def to_json(self) -> dict:
        return {"attack": list(self.attack), "defence": list(self.defence), "criticals": self.criticals,
                "successes": self.successes, "blocks": self.blocks, "damage": self.damage}

    def explain(self) -> str:
        return (f"{self.criticals} critical + {self.successes} success{'es' if self.successes != 1 else ''} "
                f"- {self.blocks} block{'s' if self.blocks != 1 else ''} = {self.damage} damage")


def resolve(attack: Sequence[int], defence: Sequence[int]) -> BattleResult:
    """Damage of one battle from the final dice: criticals always land; each block cancels one
    success; blocks left over cancel nothing."""
    for d in (*attack, *defence):
        if d.__class__ is not int or not 1 <= d <= SIDES:
            raise ValueError(f"a die shows 1 to {SIDES}, not {d!r}")
    crits, successes = count_attack(attack)
    blocks = count_blocks(defence)
    return BattleResult(tuple(attack), tuple(defence), crits, successes, blocks, crits + max(0, successes - blocks))


def damage(attack: Sequence[int], defence: Sequence[int]) -> int:
    return resolve(attack, defence).damage


def rerolls(attacker_agility: int, defender_agility: int) -> tuple[str | None, int]:
    """Who may reroll, and up to how many dice: ("attacker" | "defender", difference), or (None, 0)
    when the Agility values are equal."""
    diff = int(attacker_agility) - int(defender_agility)
    if diff > 0:
        return "attacker", diff
    if diff < 0:
        return "defender", -diff
    return None, 0


def roll(rng: random.Random, n: int) -> list[int]:
    """n fair dice from the game's own seeded RNG."""
    rand = rng.random
    return [int(rand() * SIDES) + 1 for _ in range(n)]


def reroll(rng: random.Random, dice: Sequence[int], indices: Iterable[int]) -> list[int]:
    """The dice with the chosen ones rolled again (each at most once; the new results stand)."""
    chosen = sorted(set(indices))
    for i in chosen:
        if not 0 <= i < len(dice):
            raise ValueError(f"there is no die #{i} (dice 0 to {len(dice) - 1})")
    new = list(dice)
    for i in chosen:
        new[i] = int(rng.random() * SIDES) + 1
    return new


def greedy_rerolls(role: str, own: Sequence[int], other: Sequence[int], limit: int) -> list[int]:
    """The dice a sensible player rerolls (indices, at most `limit`), never one whose reroll can
    only lose: an attacker rerolls its failed dice, then, when every success is blocked anyway, its
    successes (a blocked success is worth nothing; a 6 would land); a defender rerolls failed blocks
    while successes get through."""
    limit = max(0, limit)
    if role == "attacker":
        fails = [i for i, d in enumerate(own) if d < ATTACK_SUCCESS]
        chosen = fails[:limit]
        _, successes = count_attack(own)
        if len(chosen) < limit and successes and successes <= count_blocks(other):
            chosen += [i for i, d in enumerate(own) if ATTACK_SUCCESS <= d < CRITICAL][:limit - len(chosen)]
        return chosen
    _, successes = count_attack(other)
    if successes <= count_blocks(own):
        return []
    fails = [i for i, d in enumerate(own) if d < BLOCK]
    return fails[:limit]

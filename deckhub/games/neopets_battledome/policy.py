"""The built-in policy: the legal action the automated player takes."""
from __future__ import annotations

from deckhub.core.state import Action, Choice
from deckhub.games.neopets_battledome import dice
from deckhub.games.neopets_battledome.common import PLAYER_PHASES
from deckhub.games.neopets_battledome.effects import STATS
from deckhub.games.neopets_battledome.state import BattledomeState


_STAT_WEIGHT = {"attack": 3, "agility": 2, "defence": 1, "hp": 1}


def card_value(state: BattledomeState, iid: int) -> float:
    """How much a card adds to a race against the dummy (higher: play it first)."""
    prog = state.progs[iid]
    weights = dict(_STAT_WEIGHT)
    if state.dummy_attacks:
        weights.update(defence=2, hp=2)
    value = sum(weights[k] * v for k, v in prog.bonus)
    if state.dummy_attacks or state.counters["damage"]:
        # a reduction of the next damage or a cash-in is worth its points against an attacking dummy;
        # one of this turn only (on a card that stays in play) is over before the dummy's attack
        value += prog.heal * (1 if state.counters["damage"] else 0) \
            + (prog.reduction + prog.shield) * (1 if state.dummy_attacks else 0)
    value += prog.draw * 1.5
    return value


def _neopet_score(state: BattledomeState, iid: int) -> float:
    prog = state.progs[iid]
    stats = {s: prog.stat(s) for s in STATS}
    if any(v is None for v in stats.values()):
        return -100
    return 3 * stats["attack"] + 2 * stats["agility"] + stats["hp"] + stats["defence"] * (2 if state.dummy_attacks else 0.5)


def _answer(state: BattledomeState, choice: Choice) -> Action:
    kind = choice.op[0]
    values = [v for v, _ in choice.options]
    if kind in ("field", "paint"):
        return {"kind": "choose", "option": max(values, key=lambda i: _neopet_score(state, i))}
    if kind == "mulligan":
        has_stone = any(state.progs[i].role == "codestone" for i in state.zones["inventory"])
        return {"kind": "choose", "option": "keep" if has_stone else "mulligan"}
    if kind == "reroll":
        fight = state.fight
        role = "attacker" if fight["reroller"] == fight["attacker"] else "defender"
        own = fight["attack"] if role == "attacker" else fight["defence"]
        other = fight["defence"] if role == "attacker" else fight["attack"]
        picks = dice.greedy_rerolls(role, own, other, fight["reroll_limit"])
        for i in picks:
            if i not in fight["marked"]:
                return {"kind": "choose", "option": i}
        return {"kind": "choose", "option": "done"}
    if kind == "cash_in":
        return {"kind": "choose", "option": max(values, key=lambda i: state.progs[i].reduction)}
    return {"kind": "choose", "option": values[0]} if values else {"kind": "decline"}


def policy(state: BattledomeState) -> Action:
    """A greedy goldfish player: the best Neopet first, a Codestone every turn (the biggest bonus),
    the most useful card in Prep, Food when it helps, attack every turn, reroll failed dice."""
    choice = state.pending
    if choice is not None:
        return _answer(state, choice)
    phase = state.phase
    inventory = state.zones["inventory"]
    if phase in PLAYER_PHASES or phase == "dummy":
        for iid in inventory:  # Food that helps now: healing when hurt, bonuses before your attack
            prog = state.progs[iid]
            if prog.role != "food":
                continue
            if state.food_block(iid) is not None:
                continue
            if (prog.heal and state.counters["damage"] >= min(prog.heal, 2)) or \
               (phase == "battle" and (prog.bonus_of("attack") > 0 or prog.draw)) or \
               (phase == "dummy" and (prog.reduction or prog.shield or prog.bonus_of("defence") > 0)):
                return {"kind": "play", "card": iid}
    if phase == "train":
        if not state.trained:
            stones = [i for i in inventory if state.progs[i].role == "codestone" and state.train_block(i) is None]
            if stones:
                return {"kind": "train", "card": max(stones, key=lambda i: card_value(state, i))}
    elif phase == "prep":
        if not state.prepped:
            best, best_value = None, 0.0
            for iid in inventory:
                prog = state.progs[iid]
                if prog.role in ("food", "codestone") or state.prep_block(iid) is not None:
                    continue
                value = card_value(state, iid)
                if prog.role in ("equipment", "slot", "play_area"):
                    value *= 2  # lasts the round
                elif prog.role == "brush":
                    targets = state.paint_targets()
                    top = state.active()
                    value = max((_neopet_score(state, t) for t in targets), default=0) - _neopet_score(state, top)
                elif prog.role == "petpet":
                    value = 1 + max((prog.stat(s) or 0) - (state.stat(s) or 0) for s in ("attack", "agility"))
                if value > best_value:
                    best, best_value = iid, value
            if best is not None:
                return {"kind": "play", "card": best}
    elif phase == "battle":
        pet = state.petpet()
        if pet is not None:
            for stat in ("attack", "agility"):
                printed = state.progs[state.active()].stat(stat)
                if state.borrow_block(stat) is None and printed is not None and state.progs[pet].stat(stat) > printed:
                    return {"kind": "borrow", "stat": stat}
        if state.attack_block() is None:
            return {"kind": "attack"}
    return {"kind": "next"}

"""The built-in policy: the legal action the automated player takes."""
from __future__ import annotations

from typing import Any

from deckhub.core.state import Action, Choice
from deckhub.games.kaijudo.effects import NOOP, helps
from deckhub.games.kaijudo.state import KaijudoState


def card_value(state: KaijudoState, iid: int) -> int:
    """How much a card is worth to a goldfish race (higher: keep it, play it)."""
    prog = state.progs[iid]
    if not prog.creature:
        return 4 + prog.level if prog.useful and prog.spell else 0
    if prog.guard or prog.skirmisher:
        return 2 + prog.level // 2
    return 10 + 2 * prog.level + 4 * prog.breaker + (6 if prog.fast else 0) + (3 if prog.evolution else 0)


def _charge_score(state: KaijudoState, iid: int, unlocked: frozenset[str], mana: int) -> float:
    prog = state.progs[iid]
    score = 0.0
    new_civs = 0  # civilizations this card would unlock
    for c in prog.civs:
        if c not in unlocked:
            new_civs += 1
    score += 30 * new_civs
    if not prog.useful or (not prog.creature and not prog.spell):
        score += 60
    if prog.creature and (prog.guard or prog.skirmisher):
        score += 25
    if prog.level > mana + 2:
        score += 2 * prog.level
    elif prog.level <= mana + 1 and not new_civs:
        score -= 15
    if prog.mana_tapped and state.turn > 1:
        score -= 4
    return score


def _choice_value(state: KaijudoState, choice: Choice, value: Any) -> float:
    op = choice.op
    kind = op[0]
    if kind == "pick":
        src, dst = op[1], op[2]
        if dst in ("discard", "shields") and src == "hand":
            return -card_value(state, value)
        if dst == "mana":
            return _charge_score(state, value, state.unlocked(), len(state.zones["mana"]))
        return card_value(state, value)
    if kind in ("put_battle", "look_pick", "search"):
        return card_value(state, value)
    if kind in ("bounce", "sacrifice"):
        return _spare(state, value)
    if kind == "boost":
        return (0 if state.tapped[value] else 10) + (5 if state.sick(value) else 0) + state.progs[value].breaker
    if kind == "mode":
        ops = op[1][value][1]
        return 0 if all(o == NOOP for o in ops) else 10 - value
    if kind in ("draw_upto", "top_to_upto"):
        return value if len(state.zones["deck"]) - value > 3 else -value
    return 0


def _spare(state: KaijudoState, iid: int) -> float:
    """How gladly one of your creatures leaves the battle zone: one that cannot attack this turn or
    at all goes first, one a replacement effect saves (to hand, mana or shields) costs little."""
    prog = state.progs[iid]
    value = -card_value(state, iid)
    if state.attack_block(iid) is not None:
        value += 8
    if prog.replace_banish or state.statics(iid, "replace_banish"):
        value += 12
    return value


def _answer(state: KaijudoState, choice: Choice) -> Action:
    op = choice.op
    kind = op[0]
    deck_left = len(state.zones["deck"])
    if kind == "order_triggers":
        return {"kind": "choose", "option": 0}  # in the order they are printed and listed
    if kind == "peek_bottom":
        return {"kind": "choose", "option": "yes"} if card_value(state, state.zones["deck"][-1]) < 8 else {"kind": "decline"}
    if kind in ("may", "unleash"):
        if kind == "may" and deck_left <= 3 and any(o[0] in ("draw", "pick") for o in op[2]):
            return {"kind": "decline"}
        if not helps(op[2] if kind == "may" else op[1]):
            return {"kind": "decline"}  # returning your own creature, or a cost paid for nothing, gains nothing
        if kind == "may":
            return {"kind": "choose", "option": "yes"}
    if kind == "pick" and choice.optional and op[2] == "discard" and (deck_left <= 3 or not helps(op[6])):
        return {"kind": "decline"}
    if kind == "sacrifice":  # only a creature that cannot attack now is worth paying with
        idle = [v for v, _ in choice.options if state.attack_block(v) is not None]
        if not helps(op[2]) or not idle:
            return {"kind": "decline"}
        return {"kind": "choose", "option": max(idle, key=lambda v: _spare(state, v))}
    if kind == "bounce" and choice.optional:
        return {"kind": "decline"}
    best = max(choice.options, key=lambda o: _choice_value(state, choice, o[0]))
    return {"kind": "choose", "option": best[0]}


def policy(state: KaijudoState) -> Action:
    """A greedy goldfish player: charge for colours and curve, play the biggest threats, attack with
    the biggest breakers first. It reads the state directly (no list of actions is built)."""
    choice = state.pending
    if choice is not None:
        return _answer(state, choice)
    phase = state.phase
    if phase == "mana":
        hand = state.zones["hand"]
        mana = len(state.zones["mana"])
        if hand and not state.charged and (mana < 7 or len(hand) >= 3):
            unlocked = state.unlocked()
            best, best_score = None, 0.0
            for iid in hand:  # the first of the best scores
                score = _charge_score(state, iid, unlocked, mana)
                if best is None or score > best_score:
                    best, best_score = iid, score
            return {"kind": "charge", "card": best}
    elif phase == "main":
        hand = state.zones["hand"]
        if hand:
            unlocked = state.unlocked()
            have = state.untapped_mana()
            best, best_value = None, 0
            progs = state.progs
            for iid in hand:
                prog = progs[iid]
                if not unlocked.issuperset(prog.civs):
                    continue
                cost = state.cost(iid)
                if cost > have:
                    continue
                if not prog.creature:
                    if prog.spell and prog.useful and 5 + prog.level > best_value:
                        best, best_value = {"kind": "cast", "card": iid}, 5 + prog.level
                    continue
                value = card_value(state, iid) + cost
                if prog.evolution is None:
                    if value > best_value:
                        best, best_value = {"kind": "summon", "card": iid}, value
                    continue
                for onto in state.evolution_bases(iid):
                    v = value + sum(8 if state.sick(b) or state.attack_block(b) else -card_value(state, b) // 4 for b in onto)
                    if v > best_value:
                        best, best_value = {"kind": "summon", "card": iid, "onto": onto}, v
            if best is not None:
                return best
    elif phase == "attack":
        best, most = None, 0
        for iid in state.creatures():
            if state.attack_block(iid) is None:
                breaks = state.breaks(iid)
                if breaks > most:
                    best, most = iid, breaks
        if best is not None:
            return {"kind": "attack", "card": best}
    return {"kind": "next"}

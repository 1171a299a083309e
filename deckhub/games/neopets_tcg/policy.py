"""The built-in policy: the legal action the automated player takes."""
from __future__ import annotations

from deckhub.core.state import Action, Choice
from deckhub.games.neopets_tcg.common import WIN_POINTS
from deckhub.games.neopets_tcg.contest import ARENAS
from deckhub.games.neopets_tcg.state import NeopetsState


def _free_arena(state: NeopetsState, exclude: str | None = None) -> str | None:
    """An arena without your Neopets or Heroes or a Villain (the best place for a new Neopet)."""
    best, best_score = None, None
    for a in ARENAS:
        if a == exclude:
            continue
        score = (len(state.participants(a)), state.villain_in(a) is not None)
        if best_score is None or score < best_score:
            best, best_score = a, score
    return best


def _paid(state: NeopetsState, action: Action) -> Action | None:
    """The action paying the card's own tapping cost with the Neopet whose tap loses least: one in an
    arena contested already or with another untapped Neopet or Hero to contest (a contest the dummy
    never answers needs only one); None when no Neopet can pay."""
    ways = state.paying(state.progs[action["card"]], [action])
    if not ways or "tap" not in ways[0]:
        return ways[0] if ways else None

    def loss(way: Action) -> tuple[int, int]:
        arena = state.where[way["tap"]]
        spare = sum(not state.tapped[i] for i in state.participants(arena)) > 1
        return (0 if arena in state.contested or spare else 1, way["tap"])
    return min(ways, key=loss)


def _answer(state: NeopetsState, choice: Choice) -> Action:
    op = choice.op
    kind = op[0]
    deck_left = len(state.zones["deck"])
    if kind == "flip_to":
        arena = _free_arena(state)
        return {"kind": "choose", "option": arena}
    if kind in ("bank_or_draw", "bank_from_hand"):
        banks = [v for v, _ in choice.options if v != "draw"]
        can_draw = any(v == "draw" for v, _ in choice.options) and deck_left > 1
        if banks:
            best = max(banks, key=lambda i: (state.progs[i].bank, -i))
            if state.counters["points"] + state.progs[best].bank >= WIN_POINTS or not can_draw:
                return {"kind": "choose", "option": best}
            # more contests are coming this turn than there are cards to bank: draw first, bank later
            # (the same number of draws, but a drawn Item or Equipment can still be banked this turn)
            later = sum(1 for a in ARENAS if a not in state.contested and state.villain_in(a) is None
                        and any(not state.tapped[i] for i in state.participants(a)))
            if len(banks) <= later:
                return {"kind": "choose", "option": "draw"}
            return {"kind": "choose", "option": best}
        if any(v == "draw" for v, _ in choice.options) and deck_left > 1:
            return {"kind": "choose", "option": "draw"}
        return {"kind": "decline"}
    if kind == "villain_item":
        arena, ids, villain = op[1], op[2], op[3]
        mine = sum(state.stat(i, arena) or 0 for i in ids)
        need = (state.progs[villain].stats[arena] or 0) + 1 - mine  # the die must make up the rest
        if need <= 5:
            return {"kind": "decline"}  # winnable without spending an Item (it is worth points banked)
        best = max(choice.options, key=lambda o: state.progs[o[0][0] if isinstance(o[0], list) else o[0]].bonus[arena])
        return {"kind": "choose", "option": best[0]}
    if kind == "may":
        draws = any(o[0] in ("draw",) for o in op[2])
        return {"kind": "decline"} if draws and deck_left <= 3 else {"kind": "choose", "option": "yes"}
    return {"kind": "choose", "option": choice.options[0][0]}


def policy(state: NeopetsState) -> Action:
    """A greedy goldfish player: spread the Neopets over the arenas, contest in every arena each
    turn, bank the most valuable known Item or Equipment (else draw), play cards whose automated
    text draws or banks, and leave Villains (they would only block your own arenas) in the hand."""
    choice = state.pending
    if choice is not None:
        return _answer(state, choice)
    if state.phase != "main":
        return {"kind": "end_turn"}
    progs, tapped = state.progs, state.tapped
    neopets = state.neopets()
    # 1. Experienced Neopets onto a Neopet of their species
    for h in state.zones["hand"]:
        prog = progs[h]
        if prog.type == "Experienced Neopet" and prog.species is not None:
            for n in neopets:
                if progs[n].species == prog.species and progs[n].type == "Basic Neopet":
                    action = _paid(state, {"kind": "replace", "card": h, "onto": n})
                    if action is not None:
                        return action
    # 2. a contest in every arena where one can start (against a Villain only when the numbers are known)
    for a in ARENAS:
        ready = sorted(i for i in state.participants(a) if not tapped[i])
        if not ready:
            continue
        villain = state.villain_in(a)
        if villain is None:
            if a in state.contested:
                continue
            if len(ready) > 1 and not any(progs[i].type == "Hero" for i in ready):
                spread = _free_arena(state, exclude=a)
                if spread is not None and not state.participants(spread) and state.villain_in(spread) is None:
                    return {"kind": "contest", "arena": a, "with": ready[:1]}  # the others spread out below
            return {"kind": "contest", "arena": a, "with": ready}
        sets = state.contest_sets(a)
        if sets:
            return {"kind": "contest", "arena": a, "with": max(sets, key=len)}
    # 3. untapped Neopets that cannot contest where they are move to an arena of their own
    for n in neopets:
        if tapped[n]:
            continue
        here = state.where[n]
        spread = _free_arena(state, exclude=here)
        if spread is not None and not state.participants(spread) and state.villain_in(spread) is None:
            return {"kind": "move", "card": n, "arena": spread}
    # 4. cards whose automated text draws or banks, while the deck can afford it
    if len(state.zones["deck"]) > 3:
        for h in state.zones["hand"]:
            prog = progs[h]
            if prog.type == "Something Has Happened!" and prog.useful_play and prog.tap is not None:
                action = _paid(state, {"kind": "happen", "card": h})
                if action is not None:
                    return action
    return {"kind": "end_turn"}

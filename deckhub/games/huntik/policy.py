"""Huntik's built-in policy: a plan per mission, then the best-scoring action.

The plans themselves live with their missions (`missions/<family>.py`, each a `_Plan` subclass that
its mission names); this module holds the greedy player that asks them and the bases they share.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from deckhub.core.state import Action, Choice
from deckhub.games.huntik.board import MAX_ROUNDS

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.games.huntik.state import HuntikState


# --- the built-in policy ------------------------------------------------------------------------
# A greedy lead player: every legal action gets a score from what the mission needs (where each
# hero should stand, which mission power to use, when a combat is worth starting); the best one
# above zero is taken, else it passes. Choices are answered the same way.

def _hero_value(state: HuntikState, iid: int) -> float:
    prog = state.progs[iid]
    value = prog.atk + prog.def_ + (3 if prog.unblockable else 0) + (2 if prog.fwd_max or prog.move_max > 2 else 0)
    if prog.lazy:
        value -= 4
    return value


def _card_value(state: HuntikState, iid: int) -> float:
    """How much a card in hand is worth keeping (low: discard it first)."""
    prog = state.progs[iid]
    if prog.hero:
        return 10 + _hero_value(state, iid)
    if prog.kind == "action":
        if not prog.useful:
            return 0
        return {"strikemode": 9, "hyperstride": 8, "slipstream": 8, "sprint": 8, "zoom": 7, "rapid-charge": 7,
                "bring-in-the-big-guns": 8, "second-wind": 6, "shadowspeed": 6, "avoidance": 6,
                "honorguard": 5, "research": 5, "trailblazer": 6, "call-for-backup": 6, "regroup": 6}.get(prog.key, 3)
    return 1


class _Plan:
    """Where heroes go and what the mission's powers are worth; one subclass per kind of mission."""

    def __init__(self, state: HuntikState):
        self.s = state
        self._goals: dict[int, int | None] = {}
        goal = self.goal
        self.goal = lambda u: self._goals[u] if u in self._goals else self._goals.setdefault(u, goal(u))  # type: ignore[method-assign]

    def goal(self, u: int) -> int | None:
        return None

    def power_score(self, u: int, power: str, feature: int | None) -> float:
        return 0.0

    def need(self, zone: int) -> tuple[int, list[int]] | None:
        """(attacks needed, enemies to KO in priority order) for a combat worth starting in `zone`."""
        return None

    def ready_matters(self, u: int) -> bool:
        """Whether exhausting this hero now (for an exhaust action card) would waste a mission power."""
        return False

    def weight(self, u: int) -> float:
        """How much getting this hero to its goal is worth, against the others."""
        return 1.0

    def follow_up_ok(self, zone: int, starter: int | None) -> bool:
        """Whether a combat that cannot win at once still leads somewhere this round."""
        return True

    def answer(self, choice: Choice) -> Action | None:
        """The answer to a choice only this mission's features ask (None: the generic answer)."""
        return None


class _ZonePlan(_Plan):
    """Every hero heads for one zone (Escape the Mansion, the Idols, the Tomb...)."""

    target = 4
    powers: dict[str, float] = {}

    def goal(self, u):
        return self.target

    def power_score(self, u, power, feature):
        return self.powers.get(power, 0.0)


def _heroes_break_the_tie(s: HuntikState) -> bool:
    """The last round of a mutual mission: if nobody wins it, the heroes each player controls in play
    decide (Huntik 102), so a hero kept in play is worth more than any card kept in hand."""
    return s.round == MAX_ROUNDS and s.mission.kind == "mutual"


def _plan(state: HuntikState) -> _Plan:
    """The plan of the mission being played (the registry of missions/ gave each mission its own)."""
    return (state.mission.plan or _Plan)(state)


def _dist(zone: int, goal: int | None) -> int:
    return 0 if goal is None else abs(zone - goal)


def _expected_attacks(state: HuntikState, zone: int, starter: int | None, newcomer: int | None = None) -> int:
    total = sum(state.atk(u) for u in state.lead_units() if state.zone_of(u) == zone and not state.stunned[u])
    if newcomer is not None and state.zone_of(newcomer) != zone:
        total += state.atk(newcomer)
    if starter is not None and starter not in state.feature_of and state.text_on(starter):
        if ("add_attacks", 4) in state.progs[starter].triggers.get("start_combat", ()):
            total += 4
    total += 4 * sum(1 for i in state.zones["hand"] if state.progs[i].key == "strikemode")
    return total


def _fight_worth(state: HuntikState, plan: _Plan, zone: int, starter: int | None, newcomer: int | None = None) -> bool:
    memo = plan.__dict__.setdefault("_fights", {})
    key = (zone, starter, newcomer)
    if key not in memo:
        memo[key] = _fight_worth_now(state, plan, zone, starter, newcomer)
    return memo[key]


def _fight_worth_now(state: HuntikState, plan: _Plan, zone: int, starter: int | None, newcomer: int | None) -> bool:
    need = plan.need(zone)
    if need is None:
        return False
    if _expected_attacks(state, zone, starter, newcomer) < need[0]:
        return False
    return plan.follow_up_ok(zone, starter)


def _survivors(state: HuntikState, units: list[int], attacks: int) -> list[int]:
    """Which of these units outlive `attacks` aimed to KO as many as possible, lowest DEF first."""
    alive = []
    for u in sorted(units, key=lambda t: (bool(state.feature_counters.get(t, {}).get("survival")), state.def_(t))):
        if not state.feature_counters.get(u, {}).get("survival") and state.def_(u) <= attacks:
            attacks -= state.def_(u)
        else:
            alive.append(u)
    return alive


def _move_gain(state: HuntikState, plan: _Plan, u: int, to: int) -> float:
    goal = plan.goal(u)
    z = state.zone_of(u)
    gain = _dist(z, goal) - _dist(to, goal)
    if gain <= 0:
        return 0.0
    score = 10.0 * gain + (5.0 if to == goal else 0.0)
    return score * plan.weight(u)


def _best_put(state: HuntikState, plan: _Plan, candidates: list[int], zones_for) -> tuple[float, int | None]:
    best, who = 0.0, None
    for t in candidates:
        for z in zones_for(t):
            g = _move_gain(state, plan, t, z)
            if state.exhausted[t]:
                g *= 1.5  # moving an exhausted hero is moving one that could not move itself
            if g > best:
                best, who = g, t
    return best, who


def _action_score(state: HuntikState, plan: _Plan, a: Action) -> float:
    kind = a["kind"]
    if kind == "pass":
        return 0.0
    s = state
    if kind == "move":
        u, to = a["card"], a["to"]
        score = _move_gain(s, plan, u, to)
        if score and s.enemies_in(to) and plan.need(to) is None and u not in s.feature_of:
            score += 0.0
        return score
    if kind == "fight":
        u = a["card"]
        return 80.0 if _fight_worth(s, plan, s.zone_of(u), u) else 0.0
    if kind == "power":
        u, name = a["card"], a["power"]
        score = plan.power_score(u, name, a.get("feature", u if u in s.feature_of else None))
        if score:
            return score
        return _generic_power_score(s, plan, u, name)
    if kind == "play":
        iid = a["card"]
        prog = s.progs[iid]
        if prog.hero:
            return _hero_play_score(s, plan, iid, a.get("zone", 1))
        return _action_card_score(s, plan, iid, a.get("hero"))
    return 0.0


def _hero_play_score(s: HuntikState, plan: _Plan, iid: int, zone: int) -> float:
    prog = s.progs[iid]
    key = prog.key
    hand_after = len(s.zones["hand"]) - 1
    heroes = s.lead_units(heroes_only=True)
    if key == "metagolem-icon-of-history" and hand_after > 0:
        return 0.0
    if key == "ponderous-rocky-dino" and s.round == 1:
        return 0.0
    if key in ("ymir-frost-giant", "breaker-griers-titan") and hand_after == 0:
        return 0.0
    if key == "hector-tomb-raider" and not any(_hero_value(s, h) < _hero_value(s, iid) for h in heroes):
        return 0.0
    if key == "iron-monkey-leaping-frenzy" and not any(s.progs[h].kind == "major" and _hero_value(s, h) < _hero_value(s, iid)
                                                        for h in heroes if h not in s.copy_stats):
        return 0.0
    if key == "venadek-scruffy-scrapper" and any(s.progs[h].kind == "minor" for h in heroes if h not in s.copy_stats):
        return 1.0
    score = 30.0 + _hero_value(s, iid)
    goal = plan.goal(iid)
    if goal is not None:
        score += 2.0 * (_dist(1, goal) - _dist(zone, goal))
    return score


def _generic_power_score(s: HuntikState, plan: _Plan, u: int, name: str) -> float:
    if name in ("megapunch", "dread-stare", "dragon-burst", "mindzap", "stunt", "squeeze", "pixie-dust", "sting",
                "aquablast", "finishing-move", "earthtide", "thundercut", "poison-cloud", "experiment", "mercenary"):
        return 0.0  # these only hurt your own heroes against a passive defender
    if name == "investigate" or name == "loremaster":
        return 6.0 if len(s.zones["deck"]) > 4 and not plan.ready_matters(u) and _dist(s.zone_of(u), plan.goal(u)) == 0 else 0.0
    if name in ("charge-up", "inspiration"):
        return 0.0
    if name == "burn":
        return 0.0
    if name == "start-combat":
        return 80.0 if _fight_worth(s, plan, s.zone_of(u), u) else 0.0
    if name in ("scapegoat", "triple-threat", "double-your-effort"):
        return 15.0 if _dist(s.zone_of(u), plan.goal(u)) > 0 or plan.ready_matters(u) else 0.0
    if name == "healer":
        return 0.0
    if name == "fiery-inspiration":
        return 5.0 if any(s.progs[i].kind == "minor" for i in s.zones["discard"]) else 0.0
    if name == "headhunter":
        return 0.0
    if name == "lead-the-charge":
        heroes_in_hand = [i for i in s.zones["hand"] if s.progs[i].hero and s.progs[i].kind != "legendary"]
        if not heroes_in_hand:
            return 0.0
        blocked_major = any(s.progs[i].kind == "major" for i in heroes_in_hand) and s.majors_played >= s.major_allowance
        return 40.0 if blocked_major else 20.0
    if name == "airlift":
        best, _ = _best_put(s, plan, [t for t in s.lead_units(heroes_only=True) if t != u and s.zone_of(t) != s.zone_of(u)],
                            lambda t: [s.zone_of(u)])
        return best
    if name == "ice-slide":
        best, _ = _best_put(s, plan, s.lead_units(heroes_only=True), lambda t: [s.zone_of(t) - 1, s.zone_of(t) + 1])
        return best - 2 if best > 2 else 0.0
    if name == "taxi":
        return 0.0
    if name == "buzzjump":
        return _move_gain(s, plan, u, 5)
    if name == "bag-draw":
        return 0.0
    if name == "call-freelancer" or name == "call-partner":
        return 0.0
    if name == "back-to-work":
        return 0.0
    return 0.0


def _exhausted_behind(s: HuntikState, plan: _Plan) -> list[int]:
    return [h for h in s.lead_units(heroes_only=True) if s.exhausted[h] and not s.stunned[h]
            and (_dist(s.zone_of(h), plan.goal(h)) > 0 or plan.ready_matters(h))]


def _action_card_score(s: HuntikState, plan: _Plan, iid: int, hero: int | None) -> float:
    prog = s.progs[iid]
    key = prog.key
    if not prog.useful or prog.speed == "combat":
        return 0.0
    deck_ok = len(s.zones["deck"]) > 3
    if hero is not None:
        if plan.ready_matters(hero):
            return 0.0
        z = s.zone_of(hero)
        goal = plan.goal(hero)
        if key in ("hyperstride", "zoom", "rapid-charge"):
            most = 3 if key == "rapid-charge" else 2
            unblock = s.unblockable(hero) or key == "zoom"
            zones = s.reach(hero, most, 0 if key == "rapid-charge" else most, unblock)
            best = max((_move_gain(s, plan, hero, t) for t in zones), default=0.0)
            return best + 3.0 if best > 0 else 0.0
        if key == "slipstream":
            best = max((_move_gain(s, plan, hero, t) for t in range(1, 6)), default=0.0)
            return best + 4.0 if best > 0 else 0.0
        idle = _dist(z, goal) == 0 or not any(_move_gain(s, plan, hero, t) > 0 for t in s.reach(hero, *s.move_range(hero), s.unblockable(hero)))
        if not idle:
            return 0.0
        if key in ("research", "ace-in-the-hole", "decoding"):
            return 6.0 if deck_ok else 0.0
        if key in ("call-for-backup", "trailblazer"):
            return 8.0 if deck_ok else 2.0
        if key == "avoidance":
            blocked = any(_dist(s.zone_of(h), plan.goal(h)) > 0 and not s.unblockable(h) and not s.exhausted[h]
                          for h in s.lead_units(heroes_only=True) if h != hero)
            return 9.0 if blocked else (4.0 if deck_ok else 0.0)
        if key == "everfight":
            return 5.0 if any(s.progs[i].hero and s.progs[i].def_ <= 3 for i in s.zones["discard"]) else 0.0
        if key == "copyform":
            return 7.0
        return 0.0
    if key == "sprint":
        best, _ = _best_put(s, plan, s.lead_units(heroes_only=True), lambda t: [s.zone_of(t) - 1, s.zone_of(t) + 1])
        return best
    if key == "regroup":
        heroes = s.lead_units(heroes_only=True)
        best, _ = _best_put(s, plan, heroes, lambda t: [s.zone_of(o) for o in heroes if o != t])
        return best
    if key == "bring-in-the-big-guns":
        heroes_in_hand = [i for i in s.zones["hand"] if s.progs[i].hero and s.progs[i].kind != "legendary"]
        majors = [i for i in heroes_in_hand if s.progs[i].kind == "major"]
        if majors and s.majors_played >= s.major_allowance:
            return 35.0
        return 0.0
    if key in ("shadowspeed", "get-back-to-work", "second-wind"):
        behind = _exhausted_behind(s, plan)
        if key == "get-back-to-work":
            behind = [h for h in behind if s.progs[h].kind == "minor"]
        return 12.0 + 3 * len(behind) if behind else 0.0
    if key == "double-your-effort":
        return 0.0
    if key == "take-the-initiative":
        return 0.0
    return 0.0


def _combat_policy(s: HuntikState, plan: _Plan, actions: list[Action]) -> Action:
    c = s.combat
    need = plan.need(c["zone"])
    lead, foe = s.totals()
    short = need is not None and lead < need[0]
    best, best_score = None, 0.0
    wolf = any(s.progs[u].key == "wolf-knight-noble-werewolf" for u in s.combatants("lead") if u not in s.feature_of and s.text_on(u))
    for a in actions:
        if a["kind"] == "play":
            key = s.progs[a["card"]].key
            score = 0.0
            if key == "strikemode" and short:
                score = 10.0
            elif key == "honorguard" and foe > 0:
                score = 5.0
            elif wolf and short and key in ("honorguard", "skingrip", "strikemode"):
                score = 8.0
            if score > best_score:
                best, best_score = a, score
        elif a["kind"] == "power":
            if a["power"] == "stoneshield" and foe > 0:
                score = 4.0
            elif a["power"] in ("call-freelancer", "call-partner") and short:
                score = 6.0
            else:
                score = 0.0
            if score > best_score:
                best, best_score = a, score
    return best or {"kind": "pass"}


# Start-of-round powers the lead player puts in order (Huntik 702): first those that bring cards
# (Sophie's and Grier's reveals, Numbers' and Hector's searches), then Caliban's "discard a card or
# eliminate me" (a card just revealed into the hand can pay it), Ymir's "Ice Creatures from your
# discard pile into play" last (one just revealed or discarded comes along); ties in zone order.
_ORDER_RANK = {"reveal_top": 0, "search": 0, "discard_or_elim": 1, "ice_creatures": 2}


def _order_rank(entry: tuple) -> int:
    ((_, ops),), _ = entry  # ((("if_in_play", ops),), source): see HuntikOps._op_start_round
    return _ORDER_RANK.get(ops[0][0], 1)


def _choice(s: HuntikState, plan: _Plan) -> Action:
    choice = s.pending
    op = choice.op
    kind = op[0]
    values = [v for v, _ in choice.options]

    def pick(value) -> Action:
        return {"kind": "choose", "option": value}

    decline = {"kind": "decline"} if choice.optional else None
    if kind == "order_triggers":
        return pick(min(values, key=lambda n: (_order_rank(op[1][n]), n)))
    if kind == "combat_option":
        u = op[1]
        return pick("yes") if _fight_worth(s, plan, s.zone_of(u), u) else decline
    if kind == "aim":
        _, left, assigned = op
        done: dict[int, int] = {}
        for t, k in assigned:
            done[t] = done.get(t, 0) + k
        need = plan.need(s.combat["zone"]) if s.combat else None
        order = list(need[1]) if need else []
        targets = s.aimable("defender")
        order = [t for t in order if t in targets] + sorted((t for t in targets if t not in order), key=s.def_)
        for t in order:
            want = s.def_(t) - done.get(t, 0)
            if 0 < want <= left:
                return pick([t, want])
        t = next((t for t in order if done.get(t, 0) < s.def_(t)), order[0])
        return pick([t, left])
    if kind in ("discard", "discard_filter", "discard_or_elim"):
        if kind == "discard_or_elim" and op[1] and any(op[1].casefold() in s.progs[v].name.casefold() for v in values):
            return pick(next(v for v in values if op[1].casefold() in s.progs[v].name.casefold()))
        worst = min(values, key=lambda v: _card_value(s, v))
        if (kind == "discard_or_elim" and choice.source is not None and _card_value(s, worst) > _hero_value(s, choice.source) + 10
                and not _heroes_break_the_tie(s)):
            return decline or pick(worst)
        return pick(worst)
    if kind == "elim_friendly":
        worst = min(values, key=lambda v: _hero_value(s, v))
        if choice.optional and choice.source is not None and _hero_value(s, worst) >= _hero_value(s, choice.source):
            return decline
        return pick(worst)
    if kind == "target":
        verb = op[2] if isinstance(op[2], str) else op[2][0]
        if verb in ("ready",):
            return pick(max(values, key=lambda t: (_dist(s.zone_of(t), plan.goal(t)) > 0 or plan.ready_matters(t), s.atk(t))))
        if verb == "boost":
            in_c = [t for t in values if s.in_combat(t)]
            return pick(max(in_c or values, key=s.atk))
        if verb == "put_step":
            best, who = _best_put(s, plan, values, lambda t: [s.zone_of(t) - 1, s.zone_of(t) + 1])
            return pick(who if who is not None else values[0])
        if verb == "getaway":
            return pick(min(values, key=s.def_))
        if choice.optional:
            return decline
        return pick(min(values, key=lambda t: _hero_value(s, t)))
    if kind == "put_to":
        t = op[1]
        goal = plan.goal(t)
        return pick(min(values, key=lambda z: (_dist(z, goal), -z)))
    if kind in ("move_me", "put_me"):
        u = choice.source
        goal = plan.goal(u) if u is not None else None
        best = min(values, key=lambda z: (_dist(z, goal), z))
        if kind == "move_me" and goal is not None and _dist(best, goal) >= _dist(s.zone_of(u), goal):
            return decline or pick(best)
        return pick(best)
    if kind in ("search", "search_or_discard", "from_discard", "hand_to_play", "look_pick", "reinforce", "put_in_zone"):
        best = max(values, key=lambda v: _card_value(s, v) if kind != "reinforce" else s.atk(v))
        return pick(best)
    if kind in ("exhaust_upto", "suits_to_top"):
        return decline or pick(values[0])
    if kind == "trap_zone":
        goals = {plan.goal(h) for h in s.lead_units(heroes_only=True)}
        free = [z for z in values if z not in goals and not any(s.zone_of(h) < z for h in s.lead_units(heroes_only=True))]
        return pick(free[-1] if free else 1)
    mine = plan.answer(choice)
    if mine is not None:
        return mine
    if kind == "adrenaline_yes":
        return pick("yes")
    if kind in ("retaliation", "designated_hitter", "outsourcing", "ko_pick"):
        return pick(min(values, key=lambda t: _hero_value(s, t)))
    if kind == "regroup":
        best, who = _best_put(s, plan, values, lambda t: [s.zone_of(o) for o in s.lead_units(heroes_only=True) if o != t])
        return pick(who if who is not None else values[0])
    if kind == "bottom_pick":
        return pick(min(values, key=lambda v: _card_value(s, v)))
    return pick(values[0]) if values else (decline or {"kind": "decline"})


def _mulligan_policy(s: HuntikState) -> Action:
    """Keep a hand with two heroes; else send back the cards that are not heroes or good actions."""
    hand = s.zones["hand"]
    if sum(1 for i in hand if s.progs[i].hero) < 2:
        for i in hand:
            if not s.progs[i].hero and _card_value(s, i) < 6 and i not in s.mulligan_marked:
                return {"kind": "mark", "card": i}
    return {"kind": "mulligan"}


def policy(state: HuntikState) -> Action:
    """A greedy lead player (see above)."""
    plan = _plan(state)
    if state.pending is not None:
        return _choice(state, plan)
    if state.phase == "mulligan":
        return _mulligan_policy(state)
    actions = state.legal_actions(manual=False)
    if state.phase == "combat":
        return _combat_policy(state, plan, actions)
    best, best_score = {"kind": "pass"}, 0.0
    for a in actions:
        score = _action_score(state, plan, a)
        if score > best_score:
            best, best_score = a, score
    return best

"""The herding missions: heroes move a feature across the map with the powers it gives them (Get
the Argo Out of the Water, SAS 154; Corral the Bulls, SAS 150; Catch the Gargoyle, SAS 149).

The Argo is pushed one zone forward at a time, the Bulls straight into zone 1 (they ready only at
the start of rounds 3 and 5); the Gargoyle runs: grabbing it puts it 2 zones forward and changes its
Water counters, it flies a zone back at the start of each round, and it is caught once it is dry.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from deckhub.core.state import Action
from deckhub.games.huntik.board import ZONE_NO
from deckhub.games.huntik.missions import Feature, Mission, answer, feature_in, grant, op
from deckhub.games.huntik.policy import _Plan

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.games.huntik.state import HuntikState


FEATURES = (
    Feature("argo", "Argo", grants=(("all_here", grant("push-argo", "Push the Argo", "exhaust", ("push_argo", "$feature"))),)),
    Feature("bull", "Bull", no_ready=True, grants=(
        ("lead_here", grant("push-bull", "Push the Bull into zone 1", "exhaust", ("push_bull", "$feature"))),)),
    Feature("gargoyle", "Gargoyle", obstacle=True, atk=0, def_=1, ko="never", grants=(
        ("all_here", grant("grab", "Grab the Gargoyle", "free", ("stun_me",), ("grab_gargoyle", "$feature"))),
        ("lead_here_dry", grant("catch", "Catch the Gargoyle", "free", ("win", "caught the Gargoyle"))))),
)


# --- checks and start-of-round rules ----------------------------------------------------------

def _bulls(state: "HuntikState") -> str | None:
    bulls = state.features("bull")
    if bulls and all(state.zone_of(b) == 1 for b in bulls):
        return "all 3 Bulls are in zone 1"
    return None


def _bulls_start(state: "HuntikState") -> None:
    if state.round in (3, 5):
        for f in state.features("bull"):
            if state.zone_of(f):
                state.exhausted[f] = False
        state.note(f"Corral the Bulls: the Bulls ready (start of round {state.round})")


def _gargoyle_start(state: "HuntikState") -> None:
    for f in state.features("gargoyle"):
        zone = state.zone_of(f)
        if zone and zone > 1:
            state.put_feature(f, zone - 1)
            state.note(f"Catch the Gargoyle: the Gargoyle is put into zone {zone - 1}")


# --- ops --------------------------------------------------------------------------------------

@op("push_argo")
def push_argo(state: "HuntikState", op: tuple, source: int | None) -> None:
    f = op[1]
    z = state.zone_of(f)
    if z and z < 5:
        state.put_feature(f, z + 1)
        state.note(f"the Argo is pushed into zone {z + 1}")
        if source is not None and state.where[source] in ZONE_NO and state.def_(source) <= 3:
            state.lasting_bonus[source] += 2
            state.note(f"{state.label(source)} (3 DEF or less) gets 2 +1 ATK and +1 DEF counters")


@op("push_bull")
def push_bull(state: "HuntikState", op: tuple, source: int | None) -> None:
    f = op[1]
    if state.zone_of(f):
        state.put_feature(f, 1)
        state.note(f"the Bull (#{f}) is put into zone 1")


@op("grab_gargoyle")
def grab_gargoyle(state: "HuntikState", op: tuple, source: int | None) -> None:
    f = op[1]
    z = state.zone_of(f)
    if not z:
        return
    new = min(5, z + 2)
    if new == z:
        state.note("the Gargoyle can't be put forward from zone 5")
        return
    state.put_feature(f, new)
    state.note(f"the Gargoyle is put into zone {new}")
    water = state.feature_counters.setdefault(f, {}).get("water", 0)
    options = [("remove", f"remove a Water counter (now {water})")] if water else []
    options.append(("add", f"put a Water counter on it (now {water})"))
    state.ask("Grab the Gargoyle: the Water counters", options, ("gargoyle_water", f, new), source)


@answer("gargoyle_water")
def gargoyle_water(state: "HuntikState", op: tuple, source: int | None, value) -> None:
    _, f, new = op
    counters = state.feature_counters.setdefault(f, {})
    counters["water"] = counters.get("water", 0) + (1 if value == "add" else -1)
    state.note(f"the Gargoyle has {counters['water']} Water counter(s)")
    if new == 5:
        found = [i for i in state.zones["discard"] if state.progs[i].speed == "free"]
        if found:
            state.ask("the Gargoyle was put into your zone 5: return a Free Action card from your discard pile to your hand?",
                      [(i, state.label(i)) for i in found], ("from_discard", ("speed", "free"), "hand", True), source, optional=True)


@op("win")
def win(state: "HuntikState", op: tuple, source: int | None) -> None:
    """A power that wins the mission outright (Catch the Gargoyle)."""
    state.win(f"{state.mission.label}: you {op[1]} (Huntik 102)")


# --- plans ------------------------------------------------------------------------------------

class _Argo(_Plan):
    """One hero in each zone from the Argo's to zone 4, each pushing it on in turn."""

    def argo(self):
        return self.s.features("argo")[0]

    def goal(self, u):
        s = self.s
        a = s.zone_of(self.argo())
        if not a:
            return None
        slots = list(range(a, 5))
        z = s.zone_of(u)
        holders = {}
        for h in s.lead_units(heroes_only=True):
            holders.setdefault(s.zone_of(h), h)
        if z in slots and holders.get(z) == u:
            return z
        free = [k for k in slots if k not in holders]
        if not free:
            return max(z, a)
        return min(free, key=lambda k: (abs(k - z), -k))

    def power_score(self, u, power, feature):
        return 95.0 if power == "push-argo" else 0.0

    def ready_matters(self, u):
        return self.s.zone_of(u) == self.s.zone_of(self.argo())


class _Bulls(_Plan):
    """A ready hero to each Bull not yet in zone 1, to push it there."""

    def open_bulls(self):
        return [b for b in self.s.features("bull") if self.s.zone_of(b) and self.s.zone_of(b) != 1]

    def goal(self, u):
        s = self.s
        bulls = self.open_bulls()
        if not bulls:
            return None
        zones = sorted({s.zone_of(b) for b in bulls})
        z = s.zone_of(u)
        holders = {}
        for h in s.lead_units(heroes_only=True):
            if not s.stunned[h]:
                holders.setdefault(s.zone_of(h), h)
        if z in zones and holders.get(z) == u:
            return z
        free = [k for k in zones if k not in holders] or zones
        return min(free, key=lambda k: abs(k - z))

    def power_score(self, u, power, feature):
        return 95.0 if power == "push-bull" and feature is not None and self.s.zone_of(feature) != 1 else 0.0

    def ready_matters(self, u):
        return any(self.s.zone_of(b) == self.s.zone_of(u) for b in self.open_bulls())


class _Gargoyle(_Plan):
    """Grab the Gargoyle until it has no Water counters left, then catch it."""

    def garg(self):
        return self.s.features("gargoyle")[0]

    def goal(self, u):
        s = self.s
        g = s.zone_of(self.garg())
        water = s.feature_counters.get(self.garg(), {}).get("water", 0)
        if water == 0:
            return g
        return g if g <= 4 else 4

    def power_score(self, u, power, feature):
        s = self.s
        if power == "catch":
            return 100.0
        if power == "grab":
            g = s.zone_of(self.garg())
            water = s.feature_counters.get(self.garg(), {}).get("water", 0)
            return 90.0 if g <= 4 and water > 0 else 0.0
        return 0.0

    def answer(self, choice) -> Action | None:
        """Grab the Gargoyle: take a Water counter off whenever there is one."""
        if choice.op[0] == "gargoyle_water":
            values = [v for v, _ in choice.options]
            return {"kind": "choose", "option": "remove" if "remove" in values else values[0]}
        return None


# --- missions ---------------------------------------------------------------------------------

MISSIONS = (
    Mission("catch-the-gargoyle", "Catch the Gargoyle", "149", "mutual",
            (("gargoyle", 4, 1, {"water": 3}),), "a lead hero catches the Gargoyle once it has no Water counters",
            start_round=_gargoyle_start, plan=_Gargoyle),
    Mission("corral-the-bulls", "Corral the Bulls", "150", "mutual",
            (("bull", 2, 1, {}), ("bull", 3, 1, {}), ("bull", 4, 1, {})), "all 3 Bulls are in zone 1",
            check=_bulls, start_round=_bulls_start, plan=_Bulls),
    Mission("get-the-argo-out-of-the-water", "Get the Argo Out of the Water", "154", "mutual",
            (("argo", 1, 1, {}),), "the Argo is in zone 5", check=feature_in("argo", 5, "the Argo"), plan=_Argo),
)

"""The exit missions: a number of heroes leave the map through a feature, each drawing as it goes
(Escape the Mansion, SAS 146; Escape the Haunted Mine, SAS 153; Go to the Hidden Cave, SAS 155).

The progress counter counts the heroes out. The Mansion Door stands in zone 4; the Ghostly Shaft
waits beside the map until the Ghostly Bear's Mystic Consultation puts it where the Bear goes; the
Hidden Cave waits beside the map until a hero in zone 4 searches for it, while the Water Spout
blocks lead heroes and moves every round and the Speedboats make their carriers unblockable.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from deckhub.games.huntik.board import ZONE_NO
from deckhub.games.huntik.missions import PICKUP, Feature, Mission, grant, op
from deckhub.games.huntik.policy import _Plan, _ZonePlan

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.games.huntik.state import HuntikState


FEATURES = (
    Feature("mansion-door", "Mansion Door", grants=(
        ("lead_here", grant("escape", "Escape the Mansion", "free", ("leave_map", 2, "escaped the mansion"))),)),
    Feature("ghostly-bear", "Ghostly Bear", grants=(
        ("all", grant("mystic", "Mystic Consultation", "exhaust", ("mystic", "$feature"))),)),
    Feature("ghostly-shift", "Ghostly Shaft", grants=(
        ("lead_here", grant("climb", "Climb the Ghostly Shaft", "free", ("climb", "$feature"))),)),
    Feature("hidden-cave", "Hidden Cave", grants=(
        ("lead_here", grant("enter-cave", "Enter the Hidden Cave", "free", ("leave_map", 1, "entered the Hidden Cave"))),)),
    Feature("speedboat", "Speedboat", grants=(("all_here", PICKUP),), carry_unblockable=True, object=True),
    Feature("water-spout", "Water Spout", blocks_lead=True),
)

SEARCH_CAVE = grant("search-cave", "Search for the Hidden Cave", "free", ("search_cave",))


def _progress(n: int, what: str) -> Callable[["HuntikState"], str | None]:
    def check(state: "HuntikState") -> str | None:
        done = state.counters["progress"]
        return f"{done} heroes {what}" if done >= n else None
    return check


def _spout_start(state: "HuntikState") -> None:
    for f in state.features("water-spout"):
        zone = state.zone_of(f)
        options = [z for z in (2, 3, 4) if z != zone]
        new = state.rng.choice(options)
        state.put_feature(f, new)
        state.note(f"the defending player puts the Water Spout into zone {new}")


# --- ops --------------------------------------------------------------------------------------

@op("leave_map")
def leave_map(state: "HuntikState", op: tuple, source: int | None) -> None:
    """("leave_map", cards to draw, what the hero did): the hero is removed from the map and counted."""
    if source is None or state.where[source] not in ZONE_NO:
        return
    state.note(f"{state.label(source)} {op[2]}: removed from the map")
    state._leave_play(source, "removed")
    state.draw(op[1])
    state.counters["progress"] += 1


@op("climb")
def climb(state: "HuntikState", op: tuple, source: int | None) -> None:
    f = op[1]
    if source is None or state.where[source] not in ZONE_NO:
        return
    state.carrier.pop(f, None)
    state._leave_play(f, "removed")
    state.note(f"{state.label(source)} climbs the Ghostly Shaft: both are removed from the map")
    state._leave_play(source, "removed")
    state.draw(1)
    state.counters["progress"] += 1


@op("mystic")
def mystic(state: "HuntikState", op: tuple, source: int | None) -> None:
    f = op[1]
    found = [i for i in state.zones["discard"] if state.progs[i].speed == "combat"]
    if found:
        state.ask("Mystic Consultation: return up to 1 Combat Action card from your discard pile to your hand",
                  [(i, state.label(i)) for i in found], ("from_discard", ("speed", "combat"), "hand", True), source, optional=True)
    state.push((("mystic_move", f),), source)


@op("mystic_move")
def mystic_move(state: "HuntikState", op: tuple, source: int | None) -> None:
    bear = op[1]
    z = state.zone_of(bear)
    if not z:
        return
    if z < 5:
        state.put_feature(bear, z + 1)
    for shaft in state.features("ghostly-shift"):
        state.put_feature(shaft, state.zone_of(bear))
    state.note(f"the Ghostly Bear is in zone {state.zone_of(bear)}; the Ghostly Shaft is put into zone {state.zone_of(bear)}")


@op("search_cave")
def search_cave(state: "HuntikState", op: tuple, source: int | None) -> None:
    if source is None or state.where[source] not in ZONE_NO:
        return
    for cave in state.features("hidden-cave"):
        state.put_feature(cave, state.zone_of(source))
        state.note(f"the Hidden Cave is put into zone {state.zone_of(source)}")


# --- plans ------------------------------------------------------------------------------------

def _first_hero_at(state: "HuntikState", zone: int, exclude: int | None = None) -> int | None:
    for h in state.lead_units(heroes_only=True):
        if h != exclude and state.zone_of(h) == zone and not state.stunned[h]:
            return h
    return None


class _Mansion(_ZonePlan):
    target = 4
    powers = {"escape": 100.0}


class _Mine(_Plan):
    """Stand where the Shaft is (or will be); consult the Bear when someone waits where it goes next."""

    def spot(self) -> int:
        s = self.s
        shaft = s.features("ghostly-shift")
        if shaft and s.zone_of(shaft[0]):
            return s.zone_of(shaft[0])
        bear = s.features("ghostly-bear")
        return min(5, s.zone_of(bear[0]) + 1) if bear and s.zone_of(bear[0]) else 3

    def goal(self, u):
        return self.spot()

    def power_score(self, u, power, feature):
        s = self.s
        if power == "climb":
            return 100.0
        if power == "mystic":
            shaft = s.features("ghostly-shift")
            if shaft and s.zone_of(shaft[0]) and _first_hero_at(s, s.zone_of(shaft[0])) is not None:
                return 0.0  # someone can climb already
            bear = s.features("ghostly-bear")[0]
            nxt = min(5, s.zone_of(bear) + 1)
            climber = _first_hero_at(s, nxt)
            if climber is not None:
                return 90.0 if climber != u or len(s.lead_units(heroes_only=True)) == 1 else 85.0
        return 0.0


class _Cave(_Plan):
    """Take a Speedboat past the Water Spout, search for the Cave from zone 4, enter it."""

    def goal(self, u):
        s = self.s
        boats = [b for b in s.features("speedboat") if b not in s.carrier and s.zone_of(b)]
        if boats and not s.unblockable(u) and s.zone_of(u) == s.zone_of(boats[0]):
            return s.zone_of(u)
        cave = s.features("hidden-cave")
        if cave and s.zone_of(cave[0]):
            return s.zone_of(cave[0])
        return 4

    def power_score(self, u, power, feature):
        s = self.s
        if power == "enter-cave":
            return 100.0
        if power == "search-cave":
            cave = s.features("hidden-cave")
            return 90.0 if cave and s.zone_of(cave[0]) != s.zone_of(u) else 0.0
        if power == "pickup" and feature is not None and s.cards[feature].key == "speedboat":
            return 0.0 if s.unblockable(u) else 70.0
        return 0.0


# --- missions ---------------------------------------------------------------------------------

MISSIONS = (
    Mission("escape-the-mansion", "Escape the Mansion", "146", "unknown",
            (("mansion-door", 4, 1, {}),), "3 heroes escape the mansion",
            check=_progress(3, "escaped the mansion"), progress="heroes escaped", plan=_Mansion),
    Mission("escape-the-haunted-mine", "Escape the Haunted Mine", "153", "mutual",
            (("ghostly-bear", 2, 1, {}), ("ghostly-shift", 0, 1, {})), "2 heroes climb the Ghostly Shaft",
            check=_progress(2, "climbed the Ghostly Shaft"), progress="heroes climbed", plan=_Mine),
    Mission("go-to-the-hidden-cave", "Go to the Hidden Cave", "155", "mutual",
            (("water-spout", 3, 1, {}), ("speedboat", 1, 2, {}), ("hidden-cave", 0, 1, {})),
            "2 heroes enter the Hidden Cave", check=_progress(2, "entered the Hidden Cave"),
            start_round=_spout_start, grants=((4, SEARCH_CAVE),), progress="heroes in the cave", plan=_Cave),
)

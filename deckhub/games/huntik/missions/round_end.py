"""The end-of-round missions: their terms are looked at as a round ends (Huntik 501), not at any
time (Control the Idols of Omeed, SAS 157; Retrieve Vlad's Amulets, SAS 158; Draw the Enemy Away
from the Tomb, SAS 152).

The Idols score every round and are decided at the end of round 7; Vlad's Bag of Amulets must be
with your hero at the end of round 5 or 7 (it lies beside Antedeluvian, an obstacle a discarded major
hero hires for a round); the Tomb needs its zone clear of defending heroes from round 3 on, and the
Explosive, once transported into zone 3 or 4, pulls them all into its own zone at the start of a round.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from deckhub.games.huntik.missions import PICKUP, Feature, Mission, grant, op
from deckhub.games.huntik.policy import _Plan, _ZonePlan

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.games.huntik.state import HuntikState


FEATURES = (
    Feature("golden-idol", "Golden Idol", grants=(("all_here", PICKUP),), scores_twice=True, object=True),
    Feature("vlads-bag-of-amulets", "Vlad's Bag of Amulets", object=True, grants=(
        ("all_here", PICKUP),
        ("carrier", grant("bag-draw", "Vlad's Bag of Amulets: draw a card", "exhaust", ("draw", 1))))),
    Feature("antedeluvian", "Antedeluvian", obstacle=True, atk=4, def_=5, ko="never", powers=(
        grant("mercenary", "Mercenary: discard a major hero card to control Antedeluvian this round", "free",
              ("discard_filter", ("major",)), ("control_feature", "$feature"), cond=(("hand_has", ("major",)),)),)),
    Feature("explosive", "Explosive", grants=(
        ("major_here", grant("transport", "Transport the Explosive", "exhaust", ("feature_forward", "$feature", 1))),)),
    Feature("tomb-entrance", "Tomb Entrance"),
)


# --- end-of-round terms and start-of-round rules ----------------------------------------------

def _idols_score(state: "HuntikState") -> str | None:
    scored = 0
    for h in state.lead_units(heroes_only=True):
        zone = state.zone_of(h)
        points = {3: 1, 4: 2, 5: 3}.get(zone, 0)
        if points and any(state.feature_prog(f).scores_twice for f in state.carried_by(h)):
            points *= 2
        scored += points
    if scored:
        state.counters["points"] += scored
        state.note(f"Control the Idols of Omeed: your heroes score {scored} (total {state.counters['points']}; the defender has 0)")
    if state.round == 7:
        if state.counters["points"] > 0:
            return f"{state.counters['points']} points to the defending player's 0 at the end of round 7"
    return None


def _vlad(state: "HuntikState") -> str | None:
    if state.round in (5, 7):
        for f in state.features("vlads-bag-of-amulets"):
            h = state.carrier.get(f)
            if h is not None and state.controlled_by_lead(h):
                return f"your hero has Vlad's Bag of Amulets at the end of round {state.round}"
    return None


def _tomb(state: "HuntikState") -> str | None:
    if state.round < 3:
        return None
    for tomb in state.features("tomb-entrance"):
        zone = state.zone_of(tomb)
        if zone and not any(h in state.enemy_heroes for h in state.enemies_in(zone)):  # stunned ones don't count
            return f"no defending heroes are in the Tomb Entrance's zone at the end of round {state.round}"
    return None


def _explosive_start(state: "HuntikState") -> None:
    """Explosive, Force Investigation: in zone 3 or 4 with no defending hero in its zone, all
    defending heroes are put there (a goldfish defender has none unless a position was built)."""
    for f in state.features("explosive"):
        zone = state.zone_of(f)
        if zone in (3, 4) and not any(h in state.enemy_heroes for h in state.enemies_in(zone, unstunned=False)):
            for h in sorted(state.enemy_heroes):
                if state.zone_of(h) and state.zone_of(h) != zone:
                    state.move_unit(h, zone)
                    state.note(f"Force Investigation: {state.label(h)} is put into zone {zone}")


# --- ops --------------------------------------------------------------------------------------

@op("control_feature")
def control_feature(state: "HuntikState", op: tuple, source: int | None) -> None:
    """Antedeluvian's Mercenary: the lead player controls the obstacle until the round ends."""
    f = op[1]
    state.feature_controller[f] = "lead"
    state._units = None
    state.round_mods.append(("control", f))
    state.note(f"you control {state.fname(f)} this round")


@op("feature_forward")
def feature_forward(state: "HuntikState", op: tuple, source: int | None) -> None:
    """("feature_forward", feature, n): put it n zones forward, as far as the map goes (the Explosive)."""
    f, n = op[1], op[2]
    z = state.zone_of(f)
    if z and z < 5:
        state.put_feature(f, min(5, z + n))
        state.note(f"{state.fname(f)} is put into zone {state.zone_of(f)}")


# --- plans ------------------------------------------------------------------------------------

class _Idols(_ZonePlan):
    target = 5
    powers = {"pickup": 60.0}


class _Tomb(_ZonePlan):
    target = 3


class _Vlad(_Plan):
    """Get to the Bag, pick it up, and stay with its carrier (drawing with it when the deck allows)."""

    def bag(self):
        return self.s.features("vlads-bag-of-amulets")[0]

    def goal(self, u):
        s = self.s
        b = self.bag()
        if b in s.carrier:
            return s.zone_of(u) if s.carrier[b] != u else s.zone_of(b)
        return s.zone_of(b)

    def power_score(self, u, power, feature):
        if power == "pickup" and feature == self.bag():
            return 90.0
        if power == "bag-draw":
            return 12.0 if len(self.s.zones["deck"]) > 4 else 0.0
        return 0.0


# --- missions ---------------------------------------------------------------------------------

MISSIONS = (
    Mission("draw-the-enemy-away-from-the-tomb", "Draw the Enemy Away from the Tomb", "152", "mutual",
            (("explosive", 2, 1, {}), ("tomb-entrance", 5, 1, {})),
            "at the end of rounds 3 to 7, no defending hero is in the Tomb Entrance's zone", end_round=_tomb,
            start_round=_explosive_start, plan=_Tomb),
    Mission("control-the-idols-of-omeed", "Control the Idols of Omeed", "157", "training",
            (("golden-idol", 1, 1, {}), ("golden-idol", 5, 1, {})),
            "more points than the defending player at the end of round 7 (1, 2, 3 points a hero in zones 3, 4, 5 "
            "at the end of each round, twice for a hero with a Golden Idol)", end_round=_idols_score, progress="",
            plan=_Idols),
    Mission("retrieve-vlads-amulets", "Retrieve Vlad's Amulets", "158", "training",
            (("antedeluvian", 3, 1, {}), ("vlads-bag-of-amulets", 3, 1, {})),
            "your hero has Vlad's Bag of Amulets at the end of round 5 or 7", end_round=_vlad, plan=_Vlad),
)

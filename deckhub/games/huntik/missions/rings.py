"""The Ring of Arc missions: carry the Ring to a zone (Deliver, Retrieve, Escape with the Ring of Arc).

Escape with the Ring of Arc hides the true Ring among three fakes: each of the first four lead heroes
to enter play brings one face-down Ring, turned up when its carrier reaches zone 5 or leaves play (the
engine's moves do both); a face-down Ring has no text, so it meets no terms until it is turned up.
"""
from __future__ import annotations

from deckhub.games.huntik.missions import PICKUP, Feature, Mission, feature_in
from deckhub.games.huntik.policy import _Plan


FEATURES = (
    Feature("ring-of-arc", "Ring of Arc", grants=(("lead_here", PICKUP),), carry_bonus=(2, 2), object=True),
    Feature("fake-ring-of-arc", "Fake Ring of Arc", object=True),
)


# --- plans ------------------------------------------------------------------------------------

class _Carry(_Plan):
    """Pick up a feature and bring it to a zone (the Rings of Arc)."""

    key = "ring-of-arc"
    dest = 4

    def item(self) -> int | None:
        found = self.s.features(self.key)
        return found[0] if found else None

    def goal(self, u):
        f = self.item()
        if f is None:
            return self.dest
        if self.s.carrier.get(f) == u:
            return self.dest
        if f not in self.s.carrier:
            return self.s.zone_of(f) or self.dest
        return self.dest

    def power_score(self, u, power, feature):
        return 90.0 if power == "pickup" and feature == self.item() else 0.0

    def weight(self, u):
        f = self.item()
        return 3.0 if f is not None and self.s.carrier.get(f) == u else 1.0


class _Deliver(_Carry):
    dest = 4


class _Retrieve(_Carry):
    dest = 1


class _EscapeRing(_Plan):
    """Carry a face-down Ring to zone 5 (any of them may be the true one); pick up a dropped one."""

    def goal(self, u):
        s = self.s
        if any(f in s.face_down for f in s.carried_by(u)):
            return 5
        loose = [f for f in s.face_down if s.zone_of(f) and f not in s.carrier]
        if loose:
            return s.zone_of(loose[0])
        return 5

    def power_score(self, u, power, feature):
        return 80.0 if power == "pickup" else 0.0

    def weight(self, u):
        return 2.0 if any(f in self.s.face_down for f in self.s.carried_by(u)) else 1.0


# --- missions ---------------------------------------------------------------------------------

MISSIONS = (
    Mission("deliver-the-ring-of-art", "Deliver the Ring of Arc", "DEM", "training",
            (("ring-of-arc", 1, 1, {}),), "the Ring of Arc is in zone 4",
            check=feature_in("ring-of-arc", 4, "the Ring of Arc"), aliases=("Deliver the Ring of Art",), plan=_Deliver),
    Mission("escape-with-the-ring-of-arc", "Escape with the Ring of Arc", "147", "unknown",
            (("fake-ring-of-arc", 0, 3, {}), ("ring-of-arc", 0, 1, {})), "the Ring of Arc is in zone 5",
            check=feature_in("ring-of-arc", 5, "the Ring of Arc"), rings=True, plan=_EscapeRing),
    Mission("retrieve-the-ring-of-arc", "Retrieve the Ring of Arc", "148", "unknown",
            (("ring-of-arc", 4, 1, {}),), "the Ring of Arc is in zone 1",
            check=feature_in("ring-of-arc", 1, "the Ring of Arc"), plan=_Retrieve),
)

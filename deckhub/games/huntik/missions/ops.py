"""The ops the missions and their features run (the mission data and checks: missions/__init__.py)."""
from __future__ import annotations

from deckhub.games.huntik.board import ZONE_NO


class MissionOps:
    """Feature and mission ops (`_op_<name>`)."""

    # feature ops
    def _op_win(self, op, source):
        self.win(f"{self.mission.label}: you {op[1]} (Huntik 102)")

    def _op_pickup(self, op, source):
        f = op[1]
        if source is None or f is None or f in self.carrier or self.where[f] != self.where[source]:
            return
        self.carrier[f] = source
        self.note(f"{self.label(source)} picks up {self.fname(f)}")

    def _op_control_feature(self, op, source):
        f = op[1]
        self.feature_controller[f] = "lead"
        self._units = None
        self.round_mods.append(("control", f))
        self.note(f"you control {self.fname(f)} this round")

    def _op_grab_gargoyle(self, op, source):
        f = op[1]
        z = self.zone_of(f)
        if not z:
            return
        new = min(5, z + 2)
        if new == z:
            self.note("the Gargoyle can't be put forward from zone 5")
            return
        self.put_feature(f, new)
        self.note(f"the Gargoyle is put into zone {new}")
        water = self.feature_counters.setdefault(f, {}).get("water", 0)
        options = [("remove", f"remove a Water counter (now {water})")] if water else []
        options.append(("add", f"put a Water counter on it (now {water})"))
        self.ask("Grab the Gargoyle: the Water counters", options, ("gargoyle_water", f, new), source)

    def _res_gargoyle_water(self, op, source, value):
        _, f, new = op
        counters = self.feature_counters.setdefault(f, {})
        counters["water"] = counters.get("water", 0) + (1 if value == "add" else -1)
        self.note(f"the Gargoyle has {counters['water']} Water counter(s)")
        if new == 5:
            found = [i for i in self.zones["discard"] if self.progs[i].speed == "free"]
            if found:
                self.ask("the Gargoyle was put into your zone 5: return a Free Action card from your discard pile to your hand?",
                         [(i, self.label(i)) for i in found], ("from_discard", ("speed", "free"), "hand", True), source, optional=True)

    def _op_push_argo(self, op, source):
        f = op[1]
        z = self.zone_of(f)
        if z and z < 5:
            self.put_feature(f, z + 1)
            self.note(f"the Argo is pushed into zone {z + 1}")
            if source is not None and self.where[source] in ZONE_NO and self.def_(source) <= 3:
                self.lasting_bonus[source] += 2
                self.note(f"{self.label(source)} (3 DEF or less) gets 2 +1 ATK and +1 DEF counters")

    def _op_push_bull(self, op, source):
        f = op[1]
        if self.zone_of(f):
            self.put_feature(f, 1)
            self.note(f"the Bull (#{f}) is put into zone 1")

    def _op_feature_forward(self, op, source):
        f, n = op[1], op[2]
        z = self.zone_of(f)
        if z and z < 5:
            self.put_feature(f, min(5, z + n))
            self.note(f"{self.fname(f)} is put into zone {self.zone_of(f)}")

    def _op_mystic(self, op, source):
        f = op[1]
        found = [i for i in self.zones["discard"] if self.progs[i].speed == "combat"]
        if found:
            self.ask("Mystic Consultation: return up to 1 Combat Action card from your discard pile to your hand",
                     [(i, self.label(i)) for i in found], ("from_discard", ("speed", "combat"), "hand", True), source, optional=True)
        self.push((("mystic_move", f),), source)

    def _op_mystic_move(self, op, source):
        bear = op[1]
        z = self.zone_of(bear)
        if not z:
            return
        if z < 5:
            self.put_feature(bear, z + 1)
        for shaft in self.features("ghostly-shift"):
            self.put_feature(shaft, self.zone_of(bear))
        self.note(f"the Ghostly Bear is in zone {self.zone_of(bear)}; the Ghostly Shaft is put into zone {self.zone_of(bear)}")

    def _op_climb(self, op, source):
        f = op[1]
        if source is None or self.where[source] not in ZONE_NO:
            return
        self.carrier.pop(f, None)
        self._leave_play(f, "removed")
        self.note(f"{self.label(source)} climbs the Ghostly Shaft: both are removed from the map")
        self._leave_play(source, "removed")
        self.draw(1)
        self.counters["progress"] += 1

    def _op_leave_map(self, op, source):
        if source is None or self.where[source] not in ZONE_NO:
            return
        self.note(f"{self.label(source)} {op[2]}: removed from the map")
        self._leave_play(source, "removed")
        self.draw(op[1])
        self.counters["progress"] += 1

    def _op_search_cave(self, op, source):
        if source is None or self.where[source] not in ZONE_NO:
            return
        for cave in self.features("hidden-cave"):
            self.put_feature(cave, self.zone_of(source))
            self.note(f"the Hidden Cave is put into zone {self.zone_of(source)}")

    def _op_future_visions(self, op, source):
        deck = self.zones["deck"]
        if not deck:
            return
        top = deck[-1]
        self.note(f"Glacier of Dreams: revealed {self.label(top)} on top of the deck")
        self.ask(f"Future Visions: put {self.label(top)} into your discard pile?", (("yes", "Yes"),), ("future_yes", top), source, optional=True)

    def _res_future_yes(self, op, source, value):
        if value == "yes" and self.where[op[1]] == "deck":
            self.move(op[1], "discard")
            self.note(f"put {self.label(op[1])} into the discard pile")

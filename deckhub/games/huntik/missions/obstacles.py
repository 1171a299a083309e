"""The obstacle missions: KO an obstacle the defending player controls (Defeat Ymir: Frost King,
SAS 145 and 151; Take the Bigfoot Captive, SAS 156).

The obstacles fight like heroes (Huntik 305, 600-602); what is particular to each is data: Frost
Minions stun instead of leaving play and shield Ymir while they are in his zone, Bigfoot escapes
once, the Glacier of Dreams reveals the top card of your deck when a hero stops in its zone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from deckhub.core.state import Action
from deckhub.games.huntik.missions import Feature, Mission, answer, op
from deckhub.games.huntik.policy import _card_value, _Plan, _survivors

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.games.huntik.state import HuntikState


FEATURES = (
    Feature("bigfoot", "Bigfoot", obstacle=True, atk=3, def_=3, controller="defender", ko="escape"),
    Feature("frost-minion", "Frost Minion", obstacle=True, atk=1, def_=2, controller="defender", ko="stun"),
    Feature("ignatius-lava-lord", "Ignatius: Lava Lord", obstacle=True, atk=2, def_=3, controller="defender"),
    Feature("ymir-frost-king", "Ymir: Frost King", obstacle=True, atk=6, def_=5, controller="defender",
            cant_move=True, shielded_by="frost-minion"),
    Feature("glacier-of-dreams", "Glacier of Dreams", on_hero_stops=(("future_visions",),)),
)


def _ko(key: str, what: str) -> Callable[["HuntikState"], str | None]:
    def check(state: "HuntikState") -> str | None:
        return f"{what} was KO'd" if key in state.knocked_out_keys else None
    return check


# --- ops --------------------------------------------------------------------------------------

@op("future_visions")
def future_visions(state: "HuntikState", op: tuple, source: int | None) -> None:
    """Glacier of Dreams: reveal the top card of the deck; the player may discard it."""
    deck = state.zones["deck"]
    if not deck:
        return
    top = deck[-1]
    state.note(f"Glacier of Dreams: revealed {state.label(top)} on top of the deck")
    state.ask(f"Future Visions: put {state.label(top)} into your discard pile?", (("yes", "Yes"),), ("future_yes", top), source,
              optional=True)


@answer("future_yes")
def future_yes(state: "HuntikState", op: tuple, source: int | None, value) -> None:
    if value == "yes" and state.where[op[1]] == "deck":
        state.move(op[1], "discard")
        state.note(f"put {state.label(op[1])} into the discard pile")


# --- plans ------------------------------------------------------------------------------------

class _Fight(_Plan):
    """KO an obstacle (Ymir, Bigfoot): gather in its zone, fight when the attacks are there."""

    key = "ymir-frost-king"

    def boss(self) -> int | None:
        if not hasattr(self, "_boss"):
            found = [f for f in self.s.features(self.key) if self.s.zone_of(f)]
            self._boss = found[0] if found else None
        return self._boss

    def blockers(self) -> list[int]:
        if not hasattr(self, "_blockers"):
            s, boss = self.s, self.boss()
            self._blockers = [f for f in s.feature_of if s.zone_of(f) and s.feature_controller.get(f) == "defender" and not s.stunned[f]
                              and f != boss and s.zone_of(f) != s.zone_of(boss or f)]
        return self._blockers

    def goal(self, u):
        s = self.s
        b = self.boss()
        if b is None:
            return None
        z = s.zone_of(u)
        for f in self.blockers():
            fz = s.zone_of(f)
            if fz == z and not s.unblockable(u) and fz < s.zone_of(b):
                return z  # stay and fight the blocker
        return s.zone_of(b)

    def need(self, zone):
        s = self.s
        b = self.boss()
        if b is None:
            return None
        enemies = s.enemies_in(zone)
        if not enemies:
            return None
        if zone != s.zone_of(b):
            total = sum(s.feature_of[e].def_ for e in enemies)
            return total, sorted(enemies, key=lambda e: s.feature_of[e].def_)
        shields = [e for e in enemies if e != b]
        if shields and s.feature_of[b].shielded_by:
            return sum(s.feature_of[e].def_ for e in shields), shields
        return s.feature_of[b].def_, [b]


class _Ymir(_Fight):
    key = "ymir-frost-king"

    def follow_up_ok(self, zone, starter):
        """The Frost Minions shield Ymir until they are stunned, and they unstun at the start of the
        next round: fight them only if a second combat can KO Ymir this round."""
        s = self.s
        b = self.boss()
        if b is None or zone != s.zone_of(b) or not [e for e in s.enemies_in(zone) if e != b]:
            return True
        here = [u for u in s.lead_units() if s.zone_of(u) == zone and not s.stunned[u]]
        if starter is not None and starter not in here:
            here.append(starter)
        foe = sum(s.atk(e) for e in s.enemies_in(zone))
        alive = _survivors(s, here, foe)
        strength = sum(s.atk(u) for u in alive)
        fresh = [u for u in s.lead_units(heroes_only=True) if u != starter and not s.exhausted[u] and not s.stunned[u]]
        ready_inside = any(u in alive for u in fresh if s.zone_of(u) == zone)
        arrivals = [s.atk(u) + (4 if ("add_attacks", 4) in s.progs[u].triggers.get("start_combat", ()) else 0)
                    for u in fresh if s.zone_of(u) != zone and zone in s.reach(u, *s.move_range(u), s.unblockable(u))]
        if not arrivals and not ready_inside:
            return False  # nobody could start the second combat
        return strength + max(arrivals, default=0) >= s.feature_of[b].def_


class _Bigfoot(_Fight):
    key = "bigfoot"

    def answer(self, choice) -> Action | None:
        """Future Visions: discard the revealed card when it is worth little."""
        if choice.op[0] == "future_yes":
            return {"kind": "choose", "option": "yes"} if _card_value(self.s, choice.op[1]) < 5 else {"kind": "decline"}
        return None


# --- missions ---------------------------------------------------------------------------------

MISSIONS = (
    Mission("defeat-ymir-frost-king-145", "Defeat Ymir: Frost King (145)", "145", "unknown",
            (("ymir-frost-king", 4, 1, {}),), "Ymir: Frost King is KO'd",
            check=_ko("ymir-frost-king", "Ymir: Frost King"), plan=_Ymir),
    Mission("defeat-ymir-frost-king-151", "Defeat Ymir: Frost King (151)", "151", "mutual",
            (("ymir-frost-king", 4, 1, {}), ("frost-minion", 4, 2, {}), ("ignatius-lava-lord", 1, 1, {})),
            "Ymir: Frost King is KO'd", check=_ko("ymir-frost-king", "Ymir: Frost King"),
            notes=("a stunned Frost Minion does not count as being in Ymir's zone",), plan=_Ymir),
    Mission("take-the-bigfoot-captive", "Take the Bigfoot Captive", "156", "mutual",
            (("bigfoot", 5, 1, {"escape": 1}), ("glacier-of-dreams", 2, 1, {})), "Bigfoot is KO'd",
            check=_ko("bigfoot", "Bigfoot"), plan=_Bigfoot),
)

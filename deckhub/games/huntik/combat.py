"""Combat (Huntik 600-602): attacks, blocks, the obstacles fighting back, KOs and stuns."""
from __future__ import annotations

from deckhub.games.huntik.board import ZONE_NO


class HuntikCombat:
    """Starting, running and concluding a combat."""

    # -- combat (Huntik 600-602) -------------------------------------------------------------------
    def _op_begin_combat(self, op, source):
        _, zone, starter = op
        if self.combat is not None or not self.enemies_in(zone) or self.outcome is not None:
            return
        self.combat = {"zone": zone, "starter": starter, "added": 0, "removed": 0, "no_attacks": set(), "used": set()}
        self.combat_mods = []
        self.phase = "combat"
        foes = ", ".join(self.fname(e) for e in self.enemies_in(zone))
        mine = ", ".join(self.label(u) for u in self.combatants("lead"))
        self.note(f"combat in zone {zone}: {mine} against {foes}; the defending player passes (Huntik 601)")
        if self.where[starter] in ZONE_NO and self.text_on(starter) and starter not in self.feature_of:
            ops = self.progs[starter].triggers.get("start_combat")
            if ops:
                self.push(ops, starter)

    def _op_combat_check(self, op, source):
        if self.combat is None:
            return  # it already ended (Stalemate, Poison Cloud): that ended the turn
        if not self.combatants("lead") or not self.combatants("defender"):
            self.note("one side has no heroes or obstacles left in the combat: it ends (Huntik 601)")
            self._finish_combat()

    def totals(self) -> tuple[int, int]:
        c = self.combat
        lead = sum(self.atk(u) for u in self.combatants("lead") if u not in c["no_attacks"]) + c["added"]
        foe = sum(self.atk(u) for u in self.combatants("defender") if u not in c["no_attacks"]) - c["removed"]
        return max(lead, 0), max(foe, 0)

    def aimable(self, side: str) -> list[int]:
        """Cards in the combat the other side may aim attacks at."""
        found = []
        for t in self.combatants(side):
            if t in self.feature_of:
                shield = self.feature_of[t].shielded_by
                if shield and any(self.cards[j].key == shield and j in self.feature_of and not self.stunned[j]
                                  for j in self.zones[self.where[t]]):
                    continue
            elif self._static(t, "protect_suit") and any(
                    j != t and self.is_hero(j) and self.progs[j].kind == "minor" and "suit" in self.progs[j].name.casefold()
                    and not self.stunned[j] for j in self.zones[self.where[t]]):
                continue
            found.append(t)
        return found

    def _op_conclude(self, op, source):
        c = self.combat
        if c is None:
            return
        if not self.combatants("lead") or not self.combatants("defender"):
            self.note("one side has no heroes or obstacles in the combat: it ends without attacks (Huntik 601)")
            self._finish_combat()
            return
        lead, foe = self.totals()
        self.note(f"combat conclusion: your attacks {lead}, the defending player's {foe} (Huntik 602)")
        c["lead_total"], c["foe_total"] = lead, foe
        self.push((("aim", lead, ()),))

    def _op_aim(self, op, source):
        _, left, assigned = op
        targets = self.aimable("defender")
        if left <= 0 or not targets:
            if left > 0:
                self.note(f"{left} attack(s) can't be aimed at any card in the combat and go un-aimed (Huntik 602)")
            self.push((("defender_aims", assigned),))
            return
        if len(targets) == 1:
            self.push((("defender_aims", assigned + ((targets[0], left),)),))
            return
        options = [([t, k], f"{k} attack(s) at {self.fname(t)} (DEF {self.def_(t)})") for t in targets for k in range(1, left + 1)]
        self.ask(f"aim your attacks: {left} left (Huntik 602)", options, op)

    def _res_aim(self, op, source, value):
        _, left, assigned = op
        t, k = value
        self.push((("aim", left - k, assigned + ((t, k),)),))

    def _op_defender_aims(self, op, source):
        c = self.combat
        assigned = op[1]
        foe = c["foe_total"]
        plan = self.defender_aim(foe)
        mine = {}
        for t, k in assigned:
            mine[t] = mine.get(t, 0) + k
        if mine:
            self.note("you aim " + ", ".join(f"{k} at {self.fname(t)}" for t, k in mine.items()))
        if plan:
            self.note("the defending player's obstacles aim " + ", ".join(f"{k} at {self.label(t)}" for t, k in plan.items()))
        doomed = [t for t, k in mine.items() if k >= self.def_(t)] + [t for t, k in plan.items() if k >= self.def_(t)]
        for t in doomed:
            self.ko(t, by_attacks=True)
        self._finish_combat()

    def defender_aim(self, total: int) -> dict[int, int]:
        """The passive defender's obstacles aim to KO as many of your heroes as they can, lowest DEF
        first; attacks can't go un-aimed (Huntik 602)."""
        targets = self.aimable("lead")
        if total <= 0 or not targets:
            return {}
        single = any(self._static(u, "defender") for u in self.combatants("lead"))

        def sturdy(t: int) -> bool:
            return any(m[0] == "no_ko" and m[1] == t for m in self.combat_mods) or bool(self.feature_counters.get(t, {}).get("survival"))

        order = sorted(targets, key=lambda t: (sturdy(t), self.def_(t), t))
        plan: dict[int, int] = {}
        left = total
        if single:
            pick = next((t for t in order if self.def_(t) <= total and not sturdy(t)), order[0])
            return {pick: total}
        for t in order:
            need = max(self.def_(t), 1)
            if not sturdy(t) and need <= left:
                plan[t] = need
                left -= need
        if left:
            first = next(iter(plan), order[0])
            plan[first] = plan.get(first, 0) + left
        return plan

    def _finish_combat(self) -> None:
        self.combat = None
        self.combat_mods = []
        self.phase = "turn"
        self._end_turn()

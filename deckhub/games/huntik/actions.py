"""What the player may do and how a rules action is applied (Huntik 302, 403, 500, 600)."""
from __future__ import annotations

from deckhub.core.actions import RuleAction
from deckhub.core.state import Action
from deckhub.games.huntik.board import ZONE_NO
from deckhub.games.huntik.effects import GRANTED, Power
from deckhub.games.huntik.missions import PICKUP


class HuntikActions:
    """The rules' actions of a Huntik game: listing, checking, explaining and applying them."""

    GAME_NAME = "Huntik"
    RULE_ACTIONS = (
        RuleAction("mark", ("card",), phases=("mulligan",), rule="Huntik 101",
                   text="mark or unmark a card of your opening hand for the mulligan"),
        RuleAction("mulligan", phases=("mulligan",), rule="Huntik 101",
                   text="once a game, before round 1: the marked cards go to the bottom of the deck and you draw as many"),
        RuleAction("play", ("card",), ("zone", "hero"), phases=("turn", "combat"), rule="Huntik 301, 302", ids=("card", "hero"),
                   text="play a hero (into zone 1 unless a card says) or an action card (naming the hero an exhaust action exhausts)"),
        RuleAction("move", ("card", "to"), phases=("turn",), rule="Huntik 403", text="move a ready card of yours up to its range"),
        RuleAction("fight", ("card",), phases=("turn",), rule="Huntik 600", text="move 0 zones to start a combat"),
        RuleAction("power", ("card", "power"), ("feature",), phases=("turn", "combat"), rule="Huntik 701", ids=("card", "feature"),
                   text="use a card's action power"),
        RuleAction("pass", phases=("turn", "combat"), rule="Huntik 500, 601",
                   text="end your turn; after the defending player's pass it ends the round, in a combat the combat"),
    )

    # -- what the player may do ---------------------------------------------------------------
    def play_zones(self, iid: int) -> list[int]:
        """Zones a hero card in hand may be played into now (Huntik 301: zone 1 unless a card says)."""
        prog = self.progs[iid]
        zones = {1}
        if self.text_on(iid):
            if "with_hero_r3" in prog.play_zones and self.round >= 3:
                zones.update(self.zone_of(h) for h in self.lead_units(heroes_only=True))
            if "round_zone" in prog.play_zones and self.round <= 5:
                zones.add(self.round)
        for m in self.round_mods:
            if m[0] == "play_into" and self.where[m[1]] in ZONE_NO and self.card_ok(m[2], iid):
                zones.add(self.zone_of(m[1]))
        return sorted(zones)

    def can_play_hero(self, iid: int) -> str | None:
        prog = self.progs[iid]
        if prog.kind == "legendary":
            return f"{prog.name} is a legendary hero: only another card's text brings it into play (Huntik 301)"
        if prog.kind == "major" and self.majors_played >= self.major_allowance:
            return f"you have already played a major hero this round (Huntik 301: one a round)"
        return None

    def powers_of(self, u: int) -> list[tuple[Power, int | None]]:
        """Action powers a card in play (or in your discard pile) offers you: (power, feature giving it)."""
        found: list[tuple[Power, int | None]] = []
        zone = self.where[u]
        if zone == "discard":
            return [(p, None) for p in self.progs[u].powers if p.where == "discard"]
        if zone not in ZONE_NO:
            return found
        if u in self.feature_of:
            if self.feature_controller.get(u) != "lead" and u not in self.face_down:
                found.extend((p, u) for p in self.feature_of[u].powers)
            return found
        if self.stunned[u] or not self.controlled_by_lead(u):
            return found
        if self.text_on(u):
            found.extend((p, None) for p in self.progs[u].powers if p.where == "play")
        for m in self.round_mods:
            if m[0] == "grant" and (m[1] == u or m[1] == "all" or (m[1] == "friendly")):
                found.append((GRANTED[m[2]], None))
        if not self.is_hero(u):
            return found
        my_zone = ZONE_NO[zone]
        major = u not in self.copy_stats and self.progs[u].kind == "major"
        for f, fp in self.feature_of.items():
            fz = self.where[f]
            if fz not in ZONE_NO:
                continue
            if f in self.face_down:  # no text; its carrier may pick it up again (see missions/)
                if fz == zone and f not in self.carrier:
                    found.append((PICKUP, f))
                continue
            for who, power in fp.grants:
                if who == "all":
                    ok = True
                elif who == "carrier":
                    ok = self.carrier.get(f) == u
                elif who in ("lead_here", "all_here"):
                    ok = fz == zone
                elif who == "major_here":
                    ok = fz == zone and major
                elif who == "lead_here_dry":
                    ok = fz == zone and not self.feature_counters.get(f, {}).get("water")
                else:
                    ok = False
                if ok:
                    found.append((power, f))
        for zone_no, power in self.mission.grants:
            if my_zone == zone_no:
                found.append((power, None))
        return found

    def power_block(self, u: int, power: Power, feature: int | None) -> str | None:
        """Why a power cannot be used now, or None (Huntik 701)."""
        if power.speed == "combat":
            if self.phase != "combat":
                return f"{power.label} is a combat action: only during a combat (Huntik 404)"
        elif self.phase != "turn":
            return f"{power.label} can be used on your turn, not during a combat (Huntik 601)"
        if power.where == "play" and u not in self.feature_of and self.stunned[u]:
            return f"{self.label(u)} is stunned: it has no text (Huntik 407)"
        if power.speed == "exhaust" and self.exhausted[u]:
            return f"{self.label(u)} is exhausted: exhaust actions need a ready card (Huntik 701)"
        if power.name == "pickup" and feature is not None and feature in self.carrier:
            return f"{self.fname(feature)} is already with a hero (Huntik 305)"
        if power.once == "combat" and self.combat and (u, power.name) in self.combat["used"]:
            return f"{power.label} is used once a combat"
        ops = self._bind(power.ops, feature, u)
        if not self._usable(ops, power.cond, u):
            return f"{power.label}: its conditions are not met or it has no legal target now"
        return None

    def action_card_block(self, iid: int, hero: int | None) -> str | None:
        prog = self.progs[iid]
        speed = prog.speed or "free"
        if speed == "combat" and self.phase != "combat":
            return f"{prog.name} is a combat action: it is played only during a combat (Huntik 302)"
        if speed != "combat" and self.phase != "turn":
            return f"only combat actions are played during a combat (Huntik 601)"
        if speed == "exhaust":
            if hero is None:
                return f"{prog.name} is an exhaust action: name the ready hero you exhaust to play it (\"hero\": id) (Huntik 302)"
            if not (self.is_hero(hero) and self.controlled_by_lead(hero)):
                return f"#{hero} is not a hero you control (obstacles can't be exhausted to play exhaust actions, Huntik 305)"
            if self.exhausted[hero]:
                return f"{self.label(hero)} is exhausted"
        elif hero is not None:
            return f"{prog.name} is a {speed} action: it exhausts no hero"
        if not self._usable(prog.effect, prog.play_cond, hero):
            return f"{prog.name} can't be played now (a condition is not met or no legal target: Huntik 704)"
        return None

    def rule_actions(self) -> list[Action]:
        phase = self.phase
        if phase == "mulligan":
            return [{"kind": "mark", "card": i} for i in self.zones["hand"]] + [{"kind": "mulligan"}]
        actions: list[Action] = []
        heroes = [u for u in self.lead_units(heroes_only=True) if not self.stunned[u]]
        ready_heroes = [u for u in heroes if not self.exhausted[u]]
        for i in self.zones["hand"]:
            prog = self.progs[i]
            if prog.hero:
                if phase == "turn" and self.can_play_hero(i) is None:
                    for z in self.play_zones(i):
                        actions.append({"kind": "play", "card": i} if z == 1 else {"kind": "play", "card": i, "zone": z})
            elif prog.kind in ("action", "amulet"):
                if (prog.speed or "free") == "exhaust":
                    for h in ready_heroes:
                        if self.action_card_block(i, h) is None:
                            actions.append({"kind": "play", "card": i, "hero": h})
                elif self.action_card_block(i, None) is None:
                    actions.append({"kind": "play", "card": i})
        if phase == "turn":
            for u in self.lead_units():
                if self.stunned[u] or self.exhausted[u]:
                    continue
                fwd, back = self.move_range(u)
                for z in self.reach(u, fwd, back, self.unblockable(u)):
                    actions.append({"kind": "move", "card": u, "to": z})
                # starting a combat is a move of 0 zones (Huntik 600): not for a card that can't move on its own
                if (fwd or back) and self.enemies_in(self.zone_of(u)):
                    actions.append({"kind": "fight", "card": u})
        for u in self.lead_units() + [f for f in self.feature_of if self.where[f] in ZONE_NO and f not in self.face_down
                                      and self.feature_of[f].powers] + list(self.zones["discard"]):
            for power, feature in self.powers_of(u):
                if self.power_block(u, power, feature) is None:
                    a = {"kind": "power", "card": u, "power": power.name}
                    if feature is not None and feature != u:
                        a["feature"] = feature
                    if a not in actions:
                        actions.append(a)
        actions.append({"kind": "pass"})
        return actions

    def explain_game_rule(self, action: Action) -> str:
        kind = action["kind"]
        card = action.get("card")
        if kind == "mark":
            return f"only cards in your hand can be marked for the mulligan; #{card!r} is not one"
        if kind == "play":
            if self.where[card] != "hand":
                return f"{self.name_of(card)} is not in your hand"
            prog = self.progs[card]
            if prog.hero:
                if self.phase != "turn":
                    return "heroes are played on your turn, not during a combat (Huntik 404)"
                reason = self.can_play_hero(card)
                if reason:
                    return reason
                zone = action.get("zone", 1)
                if zone not in self.play_zones(card):
                    return f"{prog.name} can be played into zone(s) {', '.join(map(str, self.play_zones(card)))} now (Huntik 301)"
                return "give \"zone\" only for a zone other than 1"
            if prog.kind in ("action", "amulet"):
                return self.action_card_block(card, action.get("hero")) or "that play is not possible"
            return f"{prog.name} can't be played"
        if kind in ("move", "fight"):
            if not self.controlled_by_lead(card):
                return f"{self.name_of(card)} is not a hero or obstacle you control in play"
            if self.stunned[card]:
                return f"{self.label(card)} is stunned: it can't move (Huntik 407)"
            if self.exhausted[card]:
                return f"{self.label(card)} is exhausted: only a ready card moves (Huntik 403)"
            fwd, back = self.move_range(card)
            if fwd == 0 and back == 0:
                return (f"{self.label(card)} can't move on its own, so it can't move 0 zones to start a combat "
                        f"either (Huntik 600): use its own power" if kind == "fight" else
                        f"{self.label(card)} can't move on its own")
            if kind == "fight":
                return f"there is no enemy hero or obstacle in {self.label(card)}'s zone to fight (Huntik 600)"
            to = action.get("to")
            z = self.zone_of(card)
            if isinstance(to, int) and to > z and not self.unblockable(card):
                for k in range(z, min(to, 6)):
                    if 1 <= k <= 5 and self.zone_blocks(k, card):
                        return (f"an enemy in zone {k} blocks {self.label(card)}: forward moves can't go past or out of "
                                f"a zone with an enemy hero or obstacle, only into it (Huntik 403)")
            return f"{self.label(card)} can move to zone(s) {', '.join(map(str, self.reach(card, fwd, back, self.unblockable(card)))) or 'none'} (at most {max(fwd, back)} zones, one direction, Huntik 403)"
        if kind == "power":
            for power, feature in self.powers_of(card):
                if power.name == action.get("power"):
                    reason = self.power_block(card, power, feature)
                    if reason:
                        return reason
            return f"{self.name_of(card)} has no usable power {action.get('power')!r} now"
        return f"{kind!r} is not a legal action now"

    # -- applying actions -------------------------------------------------------------------------
    def apply_rule(self, action: Action) -> None:
        kind = action["kind"]
        if kind == "mark":
            iid = action["card"]
            if iid in self.mulligan_marked:
                self.mulligan_marked.remove(iid)
            else:
                self.mulligan_marked.append(iid)
            return
        if kind == "mulligan":
            self._mulligan([i for i in self.mulligan_marked if self.where[i] == "hand"])
            return
        if kind == "pass":
            if self.phase == "combat":
                self.note("you pass; the defending player has passed: the combat concludes (Huntik 601)")
                self.push((("conclude",),))
            else:
                self._pass()
            return
        iid = action["card"]
        self.passes = 0
        if kind == "play":
            prog = self.progs[iid]
            if prog.hero:
                self._play_hero(iid, action.get("zone", 1))
            else:
                self._play_action(iid, action.get("hero"))
        elif kind == "move":
            self.exhausted[iid] = True
            src = self.zone_of(iid)
            self.note(f"{self.label(iid)} moves from zone {src} to zone {action['to']}")
            self._relocate(iid, action["to"])
            self.push((("after_move", iid, src, True), ("turn_done",)))
        elif kind == "fight":
            self.exhausted[iid] = True
            self.note(f"{self.label(iid)} moves 0 zones and starts a combat in zone {self.zone_of(iid)}")
            self.push((("begin_combat", self.zone_of(iid), iid), ("turn_done",)))
        elif kind == "power":
            self._use_power(iid, action["power"], action.get("feature"))

    def mulligan_action(self, redraw: bool):
        """Keep the opening hand, or mark all of it and take the mulligan (Huntik 101)."""
        unmarked = [i for i in self.zones["hand"] if i not in self.mulligan_marked]
        if redraw and unmarked:
            return {"kind": "mark", "card": unmarked[0]}
        return {"kind": "mulligan"}

    def _mulligan(self, cards: list[int]) -> None:
        for i in cards:
            self.move(i, "deck", bottom=True)
        drawn = self.deal(len(cards))
        self.note(f"mulligan: {len(cards)} card(s) to the bottom of the deck, drew {drawn}" if cards else "kept the opening hand")
        self.mulligan_marked = []
        self.phase = "turn"
        self._round_opening()

    def _round_opening(self) -> None:
        lead_first = self.round % 2 == 0 or self.initiative
        self.initiative = False
        self.first_player = "lead" if lead_first else "defender"
        if lead_first:
            self.passes = 0
            self.note(f"round {self.round}: you take the first turn (Huntik 500)")
        else:
            self.passes = 1
            self.note(f"round {self.round}: the defending player takes the first turn and passes (Huntik 500)")

    def _pass(self) -> None:
        if self.passes >= 1:
            self.note("you pass after the defending player's pass: the round ends (Huntik 500)")
        else:
            self.note("you pass; the defending player passes: the round ends (Huntik 500)")
        self.passes = 2
        self.push((("end_round",),))

    def _play_hero(self, iid: int, zone: int) -> None:
        prog = self.progs[iid]
        if prog.kind == "major":
            self.majors_played += 1
        self.note(f"played {self.label(iid)}" + (f" into zone {zone}" if zone != 1 else ""))
        self.push((("enter", iid, zone, True, False), ("turn_done",)))

    def _play_action(self, iid: int, hero: int | None) -> None:
        prog = self.progs[iid]
        self.move(iid, "resolving")
        if hero is not None:
            self.exhausted[hero] = True
            self.note(f"played {prog.name} (#{iid}), exhausting {self.label(hero)}")
        else:
            self.note(f"played {prog.name} (#{iid})")
        self._flag_manual(iid)
        triggers: list[tuple[tuple, int | None]] = []
        if hero is not None and self.text_on(hero):
            hp = self.progs[hero]
            for event, ops in hp.triggers.items():
                if event.startswith("i_play:") and event[7:].casefold() in prog.name.casefold():
                    triggers.append((ops, hero))
            if prog.speed == "exhaust" and "i_play_exhaust" in hp.triggers:
                triggers.append((hp.triggers["i_play_exhaust"], hero))
        for u in self.lead_units(heroes_only=True):
            if not self.text_on(u):
                continue
            trig = self.progs[u].triggers
            if not trig:
                continue
            for event, ops in trig.items():
                if event.startswith("you_play:") and event[9:].casefold() in prog.name.casefold():
                    triggers.append((ops, u))
            if prog.speed == "combat" and "you_play_combat" in trig:
                triggers.append((trig["you_play_combat"], u))
            if "you_play_action" in trig:
                triggers.append(((("ferric", prog.name),), u))
        ops = list(self._bind(prog.effect, None, hero, card=iid))
        ops.append(("card_done", iid))
        self.push(ops, hero)
        for t_ops, src in triggers:
            self.queue.insert(0, ((("later", t_ops), src)))  # after the effect (see NOTES)
        tail = ("combat_check",) if self.phase == "combat" else ("turn_done",)
        self.queue.insert(0, (tail, None))

    def _use_power(self, u: int, name: str, feature: int | None) -> None:
        power, feature = next((p, f) for p, f in self.powers_of(u) if p.name == name
                              and (f == feature or (feature is None and f in (u, None))))
        if power.speed == "exhaust":
            self.exhausted[u] = True
        if self.combat is not None and power.once:
            self.combat["used"].add((u, power.name))
        where = f" (from {self.fname(feature)})" if feature is not None and feature != u else ""
        self.note(f"{self.label(u)} uses {power.label}{where}")
        ops = list(self._bind(power.ops, feature, u))
        if power.speed == "exhaust" and power.printed and u not in self.feature_of and self.where[u] in ZONE_NO:
            ops.append(("adrenaline", u))
        self.push(ops, u)
        tail = ("combat_check",) if self.phase == "combat" else ("turn_done",)
        self.queue.insert(0, (tail, None))

    @staticmethod
    def _bind(ops: tuple, feature: int | None, me: int | None, card: int | None = None) -> tuple:
        if not ops:
            return ops
        out = []
        for op in ops:
            if "$feature" in op or "$card" in op:
                op = tuple(feature if x == "$feature" else card if x == "$card" else x for x in op)
            out.append(op)
        return tuple(out)

    def end_phase(self, manual: bool) -> None:
        if self.phase == "mulligan":
            self._mulligan([])
        elif self.phase == "combat":
            self.push((("conclude",),))
        else:
            self._pass()

    def _flag_manual(self, iid: int) -> None:
        prog = self.progs[iid]
        if prog.automation != "full":
            self.note(f"{prog.name}: not automated: {' / '.join(prog.manual_text)} (use manual moves if it applies)")

"""Moving cards between zones, with what a move carries along (features, Huntik 305), and the manual moves."""
from __future__ import annotations

from deckhub.core.actions import RuleAction
from deckhub.core.state import Action, IllegalAction
from deckhub.games.huntik.board import MAP, ZONE_NO, _CARD_MODS


class HuntikMoves:
    """Card movement: the rules' own and the manual moves."""

    # -- moving cards -------------------------------------------------------------------------
    def _relocate(self, iid: int, zone: int) -> None:
        """Move or put a card in play into another zone; features with it go along (Huntik 305)."""
        dest = MAP[zone - 1]
        self.move(iid, dest)
        for f in self.carried_by(iid):
            self.move(f, dest)
        if zone == 5 and self.mission.rings:
            for f in self.carried_by(iid):
                if f in self.face_down:
                    self._reveal_ring(f)

    def move_unit(self, iid: int, zone: int) -> None:
        """Put a card in play into another zone (features with it go along); not a move (Huntik 403)."""
        self._relocate(iid, zone)

    def put_feature(self, f: int, zone: int) -> None:
        """A feature put into a zone (by the mission or a power); a carried one is dropped first."""
        self.carrier.pop(f, None)
        self.move(f, MAP[zone - 1])

    def _reveal_ring(self, f: int) -> None:
        self.face_down.discard(f)
        key = self.cards[f].key
        if key == "fake-ring-of-arc":
            self.note(f"the Ring (#{f}) is revealed: a Fake Ring of Arc, removed from the map")
            self.carrier.pop(f, None)
            self.move(f, "removed")
        else:
            self.note(f"the Ring (#{f}) is revealed: the Ring of Arc!")

    def _leave_play(self, iid: int, dest: str, bottom: bool = False) -> None:
        """A card leaves play (KO'd, eliminated, returned, removed from the map): features with it
        are dropped in its zone; counters and modifiers on it end (Huntik 305, 400)."""
        carried = self.carried_by(iid)
        for f in carried:
            del self.carrier[f]
        self.carrier.pop(iid, None)
        self.enemy_heroes.discard(iid)
        if self.where[iid] in ZONE_NO:
            self.last_zone[iid] = ZONE_NO[self.where[iid]]
        self._units = None
        if iid not in self.feature_of and self.progs[iid].kind == "legendary" and dest not in ZONE_NO and dest != "removed":
            dest = "legendary"
        if iid in self.copy_stats and dest not in ZONE_NO:
            del self.copy_stats[iid]
        self.move(iid, dest, bottom=bottom)
        self.exhausted[iid] = self.stunned[iid] = False
        self.lasting_bonus[iid] = 0
        if iid not in self.feature_of:
            self.feature_counters.pop(iid, None)
        self.round_mods = [m for m in self.round_mods if m[0] not in _CARD_MODS or m[1] != iid]
        self.combat_mods = [m for m in self.combat_mods if m[1] != iid]
        if self.mission.rings:
            for f in carried:
                if f in self.face_down:
                    self._reveal_ring(f)

    def _enter(self, iid: int, zone: int, from_hand: bool, exhausted: bool) -> None:
        """A hero enters play (Huntik 705): ready unless a text says otherwise, in zone 1 unless
        another zone is given; then its "when I come into play" and "when you play me" texts."""
        prog = self.progs[iid]
        if self.where[iid] in ZONE_NO:
            return
        self.move(iid, MAP[zone - 1])
        self.exhausted[iid] = exhausted or ("enters_exhausted" in prog.statics)
        self.stunned[iid] = False
        self.lasting_bonus[iid] = 0
        if "survival" in prog.statics:
            self.feature_counters[iid] = {"survival": 1}
        self._flag_manual(iid)
        if self.mission.rings and self.ring_pool:
            ring = self.ring_pool.pop(0)
            self.move(ring, MAP[zone - 1])
            self.carrier[ring] = iid
            self.note(f"{self.label(iid)} comes into play with a face-down Ring (#{ring})")
            if zone == 5:
                self._reveal_ring(ring)
        ops: list[tuple] = list(prog.on_enter)
        if from_hand:
            ops.extend(prog.on_play)
        if ops:
            self.push(ops, iid)

    def eliminate(self, iid: int, why: str = "") -> None:
        if self.where[iid] not in ZONE_NO:
            return
        self.note(f"{self.label(iid)} is eliminated" + (f" ({why})" if why else ""))
        self._leave_play(iid, "discard")

    def stun(self, iid: int) -> None:
        if self.where[iid] not in ZONE_NO or self.stunned[iid]:
            return
        self.stunned[iid] = True
        self.exhausted[iid] = True
        self.note(f"{self.label(iid)} is stunned")
        for f in self.carried_by(iid):
            del self.carrier[f]
            self.note(f"{self.fname(f)} is dropped in zone {self.zone_of(f)}")

    def ko(self, iid: int, by_attacks: bool = False) -> None:
        """KO a hero (to its owner's discard pile) or an obstacle (removed from the map), with the
        replacements the cards give (Huntik 400, 710). Two events the cards tell apart: a KO during
        a combat (any KO while one is fought: Gar-Ghoul's "can't be KO'd in that battle", Quick
        Getaway's "would be KO'd this combat") and a KO by combat attacks (`by_attacks`: the attacks
        aimed at the combat's conclusion, Huntik 602: Sabriel's Survival counter), so Retaliation's
        KO during a combat is not one by combat attacks."""
        if self.where[iid] not in ZONE_NO:
            return
        if iid in self.feature_of:
            f = self.feature_of[iid]
            if f.ko == "never":
                self.note(f"{self.fname(iid)} can't be KO'd")
                return
            if f.ko == "stun":
                self.note(f"{self.fname(iid)} would be KO'd: it is stunned instead")
                self.stun(iid)
                return
            if f.ko == "escape" and self.feature_counters.get(iid, {}).get("escape"):
                self.feature_counters[iid]["escape"] -= 1
                self.note(f"{self.fname(iid)} would be KO'd: Escape! an Escape counter comes off it and you draw a card")
                self.draw(1)
                return
            self.note(f"{self.fname(iid)} is KO'd and removed from the map")
            self.knocked_out_keys.add(self.cards[iid].key)
            self._leave_play(iid, "removed")
            return
        # "this combat" modifiers exist only while a combat is fought (begin and end clear them)
        if any(m[0] == "no_ko" and m[1] == iid for m in self.combat_mods):
            self.note(f"{self.label(iid)} can't be KO'd in this combat")
            return
        if by_attacks and self.feature_counters.get(iid, {}).get("survival"):
            self.feature_counters[iid]["survival"] -= 1
            self.note(f"{self.label(iid)} would be KO'd by combat attacks: its Survival counter comes off instead")
            return
        if any(m[0] == "getaway" and m[1] == iid for m in self.combat_mods):
            self.note(f"{self.label(iid)} would be KO'd: Quick Getaway stuns it and puts it into zone 1 instead")
            self.stun(iid)
            self._relocate(iid, 1)
            return
        self.note(f"{self.label(iid)} is KO'd")
        self._leave_play(iid, "discard")
        if self.text_on(iid) and "ko" in self.progs[iid].triggers:
            pass  # Ice Creature targets an enemy hero: none against a passive defender


    def discard_from_hand(self, iid: int) -> None:
        self.move(iid, "discard")
        self.note(f"discarded {self.label(iid)}")
        prog = self.progs[iid]
        if "discarded" in prog.triggers:
            self.push(prog.triggers["discarded"], None)

    # -- manual moves -------------------------------------------------------------------------
    def manual_move_error(self, iid: int, to: str) -> str | None:
        if iid in self.feature_of:
            if to not in ZONE_NO and to != "removed":
                return f"{self.fname(iid)} is a feature: it goes only into a zone of the map or beside it"
            return None
        prog = self.progs[iid]
        if to == "legendary" and prog.kind != "legendary":
            return f"{prog.name} is not a legendary hero"
        if to in ZONE_NO and not prog.hero and iid not in self.copy_stats:
            return f"{prog.name} is not a hero: only heroes and features are in play (Huntik 400)"
        return None

    def manual_move(self, iid: int, to: str, bottom: bool) -> str:
        src = self.where[iid]
        label = self.name_of(iid, src)
        if src in ZONE_NO and to in ZONE_NO:
            if iid in self.feature_of:
                self.carrier.pop(iid, None)
                self.move(iid, to)
            else:
                self._relocate(iid, ZONE_NO[to])
        elif src in ZONE_NO:
            if iid in self.feature_of:
                self.carrier.pop(iid, None)
            self._leave_play(iid, to, bottom)
        elif to in ZONE_NO:
            if iid in self.feature_of:
                self.move(iid, to)
            else:
                self.move(iid, to)
                self.exhausted[iid] = self.stunned[iid] = False
        else:
            self.move(iid, to, bottom=bottom)
        if iid in self.carrier and self.where[iid] != self.where[self.carrier[iid]]:
            del self.carrier[iid]
        return f"moved {label} from {self.zone_label(src)} to {self.zone_label(to)}" + (" (bottom)" if bottom else "")

    def extra_manual_actions(self) -> list[Action]:
        actions: list[Action] = []
        for z in MAP:
            ids = self.zones[z]
            for i in ids:
                actions.append({"kind": "manual.exhaust", "card": i})
                if i not in self.feature_of or self.feature_of[i].obstacle:
                    actions.append({"kind": "manual.stun", "card": i})
                if i in self.carrier:
                    actions.append({"kind": "manual.drop", "card": i})
                elif i in self.feature_of and not self.feature_of[i].obstacle:
                    for h in ids:
                        if self.is_hero(h):
                            actions.append({"kind": "manual.pickup", "card": i, "hero": h})
        return actions

    EXTRA_MANUAL = (
        RuleAction("manual.exhaust", ("card",), text="exhaust or ready a card on the map"),
        RuleAction("manual.stun", ("card",), text="stun or unstun a hero or obstacle"),
        RuleAction("manual.drop", ("card",), text="drop a feature a hero carries"),
        RuleAction("manual.pickup", ("card", "hero"), ids=("card", "hero"), text="give a feature to a hero in its zone"),
    )

    def apply_extra_manual(self, action: Action) -> str:
        kind, iid = action["kind"], action["card"]
        if self.where[iid] not in ZONE_NO:
            raise IllegalAction(f"{self.name_of(iid)} is not on the map", action)
        if kind == "manual.exhaust":
            self.exhausted[iid] = not self.exhausted[iid]
            return f"{'exhausted' if self.exhausted[iid] else 'readied'} {self.name_of(iid)}"
        if kind == "manual.stun":
            if iid in self.feature_of and not self.feature_of[iid].obstacle:
                raise IllegalAction("only heroes and obstacles are stunned (Huntik 407)", action)
            if self.stunned[iid]:
                self.stunned[iid] = False
                return f"unstunned {self.name_of(iid)}"
            self.stunned[iid] = self.exhausted[iid] = True
            for f in self.carried_by(iid):
                del self.carrier[f]
            return f"stunned {self.name_of(iid)}"
        if kind == "manual.drop":
            if iid not in self.carrier:
                raise IllegalAction(f"{self.name_of(iid)} is not with a hero", action)
            del self.carrier[iid]
            return f"dropped {self.name_of(iid)}"
        hero = action.get("hero")
        if iid not in self.feature_of or self.feature_of[iid].obstacle:
            raise IllegalAction(f"{self.name_of(iid)} is not a feature a hero can pick up", action)
        if iid in self.carrier:
            raise IllegalAction(f"{self.name_of(iid)} is already with a hero", action)
        if not self.is_hero(hero) or self.where[hero] != self.where[iid]:
            raise IllegalAction("\"hero\" must be a hero in the same zone (Huntik 305)", action)
        self.carrier[iid] = hero
        return f"{self.name_of(hero)} picks up {self.name_of(iid)}"

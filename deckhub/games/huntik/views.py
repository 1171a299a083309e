"""How a Huntik game shows itself: action texts, card views and the board view."""
from __future__ import annotations

import re
from typing import Any

from deckhub.core.state import Action
from deckhub.core.tiles import Flag, Stat, Tile
from deckhub.games.huntik.board import MAP, MAX_ROUNDS, NOTES, ZONE_NO

_START_OF = re.compile(r"\bat the start of (?:each \w+|round \d+),", re.I)  # (Ymir's text says "each rounf")


class HuntikViews:
    """Text and views."""

    TILE = Tile(stats=(Stat("atk", "ATK"), Stat("def", "DEF")),
                flags=(Flag("exhausted", "exhausted", turned=True), Flag("stunned", "stunned"),
                       Flag("controller", "defender's", when="defender", css="problem error")))

    # -- text and views -------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        kind = action.get("kind")
        if kind == "pass":
            return "Pass (conclude the combat)" if self.phase == "combat" else "Pass (the round ends)"
        if kind == "mulligan":
            cards = [i for i in self.mulligan_marked if self.where[i] == "hand"]
            if not cards:
                return "Keep the opening hand"
            return f"Mulligan: put {len(cards)} marked card(s) on the bottom and draw {len(cards)} (Huntik 101)"
        if kind == "mark":
            iid = action.get("card")
            if self.is_card(iid):
                return f"{'Unmark' if iid in self.mulligan_marked else 'Mark'} {self.label(iid)} for the mulligan"
            return repr(action)
        if kind in ("manual.exhaust", "manual.stun", "manual.drop", "manual.pickup"):
            iid = action.get("card")
            name = self.name_of(iid) if self.is_card(iid) else f"#{iid}"
            verb = {"manual.exhaust": "Exhaust / ready", "manual.stun": "Stun / unstun", "manual.drop": "Drop",
                    "manual.pickup": "Pick up"}[kind]
            extra = f" with #{action.get('hero')}" if kind == "manual.pickup" else ""
            return f"[manual] {verb} {name}{extra}"
        iid = action.get("card")
        if not self.is_card(iid):
            return repr(action)
        name = self.label(iid)
        if kind == "play":
            prog = self.progs[iid]
            if prog.hero:
                return f"Play {name} into zone {action.get('zone', 1)}"
            hero = action.get("hero")
            if self.is_card(hero):
                return f"Play {name}, exhausting {self.label(hero)}"
            return f"Play {name}"
        if kind == "move":
            return f"Move {name} to zone {action.get('to')}"
        if kind == "fight":
            return f"{name}: start a combat in zone {self.zone_of(iid)}"
        if kind == "power":
            for power, feature in self.powers_of(iid):
                if power.name == action.get("power"):
                    return f"{name}: {power.label}" + (f" ({self.fname(feature)})" if feature is not None and feature != iid else "")
            return f"{name}: {action.get('power')}"
        return repr(action)

    def trigger_label(self, ops: tuple, source: int) -> str:
        """A start-of-round power in the choice of order (Huntik 702): the card, its zone and what it does."""
        text = next((t for t, _ in self.progs[source].abilities if _START_OF.search(t)), "")
        return f"{self.label(source)} in zone {self.zone_of(source)}: {_START_OF.split(text, 1)[-1].strip()}"

    def card_view(self, iid: int) -> dict[str, Any]:
        if iid in self.face_down:
            view = {"id": iid, "key": None, "name": "Ring (face down)", "type": "feature", "text": "",
                    "face_down": True, "automated": "full", "manual_text": [], "feature": True,
                    "zone": self.zone_of(iid) or None}
            if iid in self.carrier:
                view["with"] = self.carrier[iid]
            return view
        card = self.cards[iid]
        prog = self.progs[iid]
        view: dict[str, Any] = {"id": iid, "key": card.key, "name": prog.name, "type": card.type, "text": card.text,
                                "automated": prog.automation, "manual_text": list(prog.manual_text)}
        if iid in self.feature_of:
            f = self.feature_of[iid]
            view["feature"] = True
            view["obstacle"] = f.obstacle
            if f.obstacle:
                view["printed_atk"], view["printed_def"] = f.atk, f.def_
        else:
            view["printed_atk"], view["printed_def"] = prog.atk, prog.def_
            view["team"] = prog.team
        zone = self.where[iid]
        if iid in self.mulligan_marked and zone == "hand":
            view["marked_for_mulligan"] = True
        if zone in ZONE_NO:
            view["zone"] = ZONE_NO[zone]
            view["exhausted"] = self.exhausted[iid]
            view["stunned"] = self.stunned[iid]
            view["controller"] = self.controller(iid)
            if self.is_hero(iid) or self.is_obstacle(iid):
                a, d = self._stats(iid)
                view["atk"], view["def"] = a, d
                view["unblockable"] = self.unblockable(iid)
            carrying = self.carried_by(iid)
            if carrying:
                view["carrying"] = carrying
            if iid in self.carrier:
                view["with"] = self.carrier[iid]
            counters = dict(self.feature_counters.get(iid, {}))
            if self.lasting_bonus[iid]:
                counters["+1/+1"] = self.lasting_bonus[iid]
            if counters:
                view["counters"] = counters
            if iid in self.copy_stats:
                view["copyform"] = True
        return view

    def extra_view(self) -> dict[str, Any]:
        m = self.mission
        c = self.combat
        combat = None
        if c is not None:
            lead, foe = self.totals()
            combat = {"zone": c["zone"], "yours": self.combatants("lead"), "enemies": self.combatants("defender"),
                      "your_attacks": lead, "enemy_attacks": foe}
        return {"round_based": True, "huntik": {
            "round": self.round, "max_rounds": MAX_ROUNDS,
            "mission": {"key": m.key, "name": m.label, "number": m.number, "kind": m.kind, "terms": m.terms,
                        "progress": self.counters["progress"], "progress_label": m.progress,
                        "points": self.counters["points"], "notes": list(m.notes)},
            "map": [{"zone": n, "cards": list(self.zones[z])} for n, z in enumerate(MAP, start=1)],
            "removed": [i for i in self.zones["removed"]],
            "major_heroes_played": self.majors_played, "major_heroes_allowed": self.major_allowance,
            "first_player": self.first_player,
            "combat": combat, "rules_notes": list(NOTES),
        }}


def _bonus(a: int, d: int) -> str:
    parts = []
    if a:
        parts.append(f"+{a} ATK")
    if d:
        parts.append(f"+{d} DEF")
    return " and ".join(parts) or "nothing"


def _verb_text(verb) -> str:
    name = verb if isinstance(verb, str) else verb[0]
    if name == "boost":
        return f"give {_bonus(verb[1], verb[2])} this round"
    return {"ko": "KO", "stun": "stun", "ready": "ready", "exhaust": "exhaust",
            "swap": "swap its ATK and DEF", "return_hand": "return to its owner's hand", "put_step": "put into another zone",
            "put_back": "put 1 zone back", "put_my_zone": "put into this zone", "getaway": "protect with Quick Getaway",
            "grant": "give the power", "no_attacks": "remove its attacks", "control": "control", "noop": "choose"}.get(name, name)

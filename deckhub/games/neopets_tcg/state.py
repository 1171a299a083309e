"""The engine's State: setup, queries, the rules' actions, manual moves and views."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from deckhub.core.actions import RuleAction
from deckhub.core.ops import LOSE_ON_DRAW
from deckhub.core.state import Action, CounterSpec, IllegalAction, State, ZoneSpec
from deckhub.core.session_values import ValueField
from deckhub.core.tables import fixed
from deckhub.core.tiles import Flag, Stat, Tile
from deckhub.games.neopets_tcg.common import ARENA_SET, WIN_POINTS, _SUBSETS_UP_TO, _a, _arena, _dealable
from deckhub.games.neopets_tcg.contest import ARENAS
from deckhub.games.neopets_tcg.effects import FAERIES, TAP_CHOICES, TYPES, Program, compile_card, needed
from deckhub.games.neopets_tcg.ops import NeopetsOps


@dataclass
class NeopetsTable:
    """Everything a Neopets TCG game adds to the core's State, by instance id where it is a list
    (the one declaration `State.clone` copies)."""

    progs: list[Program] = fixed()  # each instance's compiled card
    names: list[str] = fixed()
    missing: list[tuple[str, ...]] = fixed()  # needed values still unknown (fixed for a game)
    first: bool
    first_drawn: bool  # the turn order was drawn at random (the `first` option)
    turn_limit: int
    tapped: list[bool]
    host: list[int]  # the Neopet or Hero an Equipment is attached to (-1: none)
    attached: dict[int, list[int]]  # host -> its Equipment
    contested: set[str]  # arenas with a regular contest this turn


_MAIN = {"phases": ("main",), "rule": "rulebook: On Your Turn"}  # every action is one of the main phase


class NeopetsState(NeopetsOps, State):
    TABLE = NeopetsTable
    ZONES = (
        ZoneSpec("deck", "Deck", hidden=True),
        ZoneSpec("hand", "Hand"),
        ZoneSpec("stack", "Neopet Stack", hidden=True),
        ZoneSpec("strength", "Strength arena"),
        ZoneSpec("agility", "Agility arena"),
        ZoneSpec("magic", "Magic arena"),
        ZoneSpec("intelligence", "Intelligence arena"),
        ZoneSpec("limbo", "Being played", manual_target=False),
        ZoneSpec("discard", "Discard pile", pile=True),
        ZoneSpec("bank", "Bank", pile=True),
    )
    COUNTERS = (CounterSpec("points", "Bank points", initial=0, minimum=0),)
    PHASES = ("before", "draw", "untap", "flip", "main", "end")
    EMPTY_DECK = (LOSE_ON_DRAW, "you had to draw from an empty deck (rulebook: Running Out of Cards)")
    FIRST_DRAW_SKIPPED = "the first player does not draw on the first turn (rulebook: On Your Turn)"
    GAME_NAME = "Neopets TCG"
    TILE = Tile(stats=(Stat("bank_value", "Bank"),), flags=(Flag("tapped", "tapped", turned=True),))
    RULE_ACTIONS = (
        RuleAction("move", ("card", "arena"), **_MAIN, text="tap an untapped Neopet of yours to move it to another arena"),
        RuleAction("trade_in", ("card",), **_MAIN, text="trade in an untapped Neopet and flip the next one of your stack"),
        RuleAction("replace", ("card", "onto"), ("tap",), **_MAIN, ids=("card", "onto", "tap"), text="play an Experienced Neopet replacing one of its species"),
        RuleAction("hero", ("card", "tap"), **_MAIN, ids=("card", "tap"), text="play a Hero, tapping an untapped Neopet"),
        RuleAction("villain", ("card", "arena"), ("tap",), **_MAIN, ids=("card", "tap"), text="play a Villain into an arena without one"),
        RuleAction("equip", ("card", "to"), ("tap",), **_MAIN, ids=("card", "to", "tap"), text="play an Equipment onto a Neopet or Hero"),
        RuleAction("happen", ("card",), ("tap",), **_MAIN, ids=("card", "tap"), text="play a Something Has Happened! card"),
        RuleAction("location", ("card", "arena"), ("tap",), **_MAIN, ids=("card", "tap"), text="play a Location into an arena"),
        RuleAction("contest", ("arena", "with"), **_MAIN, text="start a contest in an arena with untapped cards there"),
        RuleAction("end_turn", **_MAIN, text="end your turn"),
    )
    EXTRA_MANUAL = (
        RuleAction("manual.tap", ("card",), text="tap or untap a card in an arena"),
        RuleAction("manual.attach", ("card", "to"), ids=("card", "to"), text="attach an Equipment from your hand or discard pile"),
    )

    # the values a player may set for a game (deckhub.core.session_values), named as in the GameSpec
    VALUE_FIELDS = (
        ValueField("type", "card type", "choice", TYPES),
        ValueField("species", "species", "str"),
        ValueField("faerie", "faerie type", "choice", FAERIES),
        *(ValueField(a, a, "int", minimum=0, maximum=99) for a in ARENAS),
        *(ValueField(f"{a}_bonus", f"{a} bonus", "int", minimum=-99, maximum=99) for a in ARENAS),
        ValueField("bank_value", "bank value", "int", minimum=0, maximum=99),
        ValueField("tap_to_play", "tapping cost", "choice", TAP_CHOICES),
        ValueField("text", "rules text", "text"),
    )

    @classmethod
    def needed_values(cls, card) -> tuple[str, ...]:
        return needed(compile_card(card))

    # -- setup (rulebook: Setup) ------------------------------------------------------------------
    def setup(self, deck, catalogue) -> None:
        split, base = _dealable(type(self), deck, catalogue)
        order = list(range(len(base)))
        self.shuffle_items(order)  # shuffle first, then number the instances: an id tells nothing
        pool = [base[i] for i in order]
        self.new_instances([p[0] for p in pool], [p[1] for p in pool])
        self.progs = [p[2] for p in pool]
        self.names = [p[3] for p in pool]
        self.missing = [p[4] for p in pool]
        n = len(pool)
        self.tapped = [False] * n
        self.host = [-1] * n
        self.attached = {}
        self.contested = set()
        self.first = self.draw_turn_order()
        self.turn_limit = int(self.options["turn_limit"])
        drawn = self.deal(4)
        self.note(f"shuffled a Neopet Stack of {len(self.zones['stack'])} and a deck of {len(self.zones['deck']) + drawn}, "
                  f"drew {len(self.zones['hand'])}; {self.turn_order_words(self.first)}"
                  + ("; one-section list: its Basic Neopets form the Neopet Stack" if split else ""))
        missing = sorted({self.names[i] for i in range(n) if self.missing[i]})
        if missing:
            self.note(f"values unknown for {len(missing)} cards (give them for this game, or play them with manual moves): {', '.join(missing[:8])}"
                      + (" ..." if len(missing) > 8 else ""))
        self.push((("begin_turn",),))

    def lose(self, reason: str) -> None:
        """A loss says when unknown values may have caused it (nothing could be banked for them)."""
        unbankable = {self.names[i] for i in range(len(self.cards))
                      if "bank_value" in self.missing[i] or "type" in self.missing[i]}
        if unbankable and self.outcome is None:
            reason += (f" ({self.counters['points']} points banked: {len(unbankable)} card"
                       f"{'s' if len(unbankable) != 1 else ''} in this deck "
                       f"{'have' if len(unbankable) != 1 else 'has'} no known bank value)")
        super().lose(reason)

    # -- queries ------------------------------------------------------------------------------------
    def unknown(self, iid: int) -> list[str]:
        """The needed values of this card that are unknown (see `needed_values`)."""
        return list(self.missing[iid])

    def in_play(self, iid: int) -> bool:
        return self.where[iid] in ARENA_SET

    def neopets(self) -> list[int]:
        """Your Neopets in play (Basic and Experienced; Heroes and Villains are not Neopets)."""
        progs = self.progs
        return [i for a in ARENAS for i in self.zones[a] if progs[i].neopet]

    def participants(self, arena: str) -> list[int]:
        """Your Neopets and Heroes in an arena (the cards that can start or join a contest)."""
        progs = self.progs
        return [i for i in self.zones[arena] if progs[i].contester]

    def villain_in(self, arena: str) -> int | None:
        for i in self.zones[arena]:
            if self.progs[i].type == "Villain":
                return i
        return None

    def stat(self, iid: int, arena: str) -> int | None:
        """A Neopet's, Hero's or Villain's stat for the arena with its Equipment bonuses; None if unknown."""
        value = self.progs[iid].stats[arena]
        if value is None:
            return None
        for e in self.attached.get(iid, ()):
            bonus = self.progs[e].bonus[arena]
            if bonus is None:
                return None
            value += bonus
        return value

    def stat_gaps(self, ids, arena: str) -> list[str]:
        """What is unknown for a contest in `arena` with these cards: "Blue Skeith's strength"..."""
        gaps = []
        for i in ids:
            if self.progs[i].stats[arena] is None:
                gaps.append(f"{self.names[i]}'s {arena}")
            for e in self.attached.get(i, ()):
                if self.progs[e].bonus[arena] is None:
                    gaps.append(f"{self.names[e]}'s {arena} bonus")
        return gaps

    def tappers(self, need: str | None) -> list[int] | None:
        """The untapped Neopets that can pay a tapping cost (None: the cost is unknown)."""
        if need is None:
            return None
        if need == "none":
            return []
        tapped, progs = self.tapped, self.progs
        return [i for i in self.neopets() if not tapped[i] and (need == "any" or progs[i].faerie == need)]

    def paying(self, prog: Program, actions: list[Action]) -> list[Action]:
        """These ways to play a card from the hand, each once per Neopet that can pay its own tapping
        cost (every kind but the Hero, whose cost is the rules' "tap" already); none while the cost
        is unknown or no Neopet can pay it."""
        if prog.type == "Hero" or prog.tap == "none":
            return actions
        payers = self.tappers(prog.tap)
        return [dict(action, tap=n) for action in actions for n in payers or ()]

    def bankable(self) -> list[int]:
        """Items and Equipment in your hand whose bank value is known."""
        progs = self.progs
        return [i for i in self.zones["hand"] if progs[i].type in ("Item", "Equipment") and progs[i].bank is not None]

    def contest_sets(self, arena: str) -> list[list[int]]:
        """The participant sets a contest in this arena may start with (each sorted)."""
        tapped = self.tapped
        cands = sorted(i for i in self.participants(arena) if not tapped[i])
        if not cands:
            return []
        if len(cands) <= _SUBSETS_UP_TO:
            sets = [list(c) for k in range(1, len(cands) + 1) for c in combinations(cands, k)]
        else:
            sets = [[i] for i in cands] + [cands]
        villain = self.villain_in(arena)
        if villain is not None:  # a Villain contest needs every number it adds up
            if self.progs[villain].stats[arena] is None:
                return []
            sets = [s for s in sets if not self.stat_gaps(s, arena)]
        return sets

    def contest_block(self, arena: str) -> str | None:
        """Why no contest can start in this arena now (None: one can)."""
        tapped = self.tapped
        if not any(not tapped[i] for i in self.participants(arena)):
            return f"you have no untapped Neopet or Hero in the {arena} arena"
        villain = self.villain_in(arena)
        if villain is None:
            if arena in self.contested:
                return f"you already started a contest in the {arena} arena this turn (one per arena per turn)"
            return None
        if self.progs[villain].stats[arena] is None:
            return f"{self.names[villain]}'s {arena} is unknown — set it for this game to contest it"
        return None

    # -- the rules' actions -------------------------------------------------------------------------
    def rule_actions(self) -> list[Action]:
        if self.phase != "main":
            return []
        actions: list[Action] = []
        progs, tapped, where = self.progs, self.tapped, self.where
        neopets = self.neopets()
        untapped = [i for i in neopets if not tapped[i]]
        for i in untapped:
            for a in ARENAS:
                if a != where[i]:
                    actions.append({"kind": "move", "card": i, "arena": a})
        for i in untapped:
            actions.append({"kind": "trade_in", "card": i})
        hosts = [i for a in ARENAS for i in self.zones[a] if progs[i].contester]
        for h in self.zones["hand"]:
            prog = progs[h]
            kind = prog.type
            if kind == "Experienced Neopet":
                targets = [{"kind": "replace", "card": h, "onto": n} for n in neopets
                           if prog.species is not None and progs[n].species == prog.species]
            elif kind == "Hero":
                targets = [{"kind": "hero", "card": h, "tap": n} for n in untapped]
            elif kind == "Villain":
                targets = [{"kind": "villain", "card": h, "arena": a} for a in ARENAS if self.villain_in(a) is None]
            elif kind == "Equipment":
                targets = [{"kind": "equip", "card": h, "to": t} for t in hosts]
            elif kind == "Location":
                targets = [{"kind": "location", "card": h, "arena": a} for a in ARENAS]
            elif kind == "Something Has Happened!":
                targets = [{"kind": "happen", "card": h}]
            else:
                continue
            actions.extend(self.paying(prog, targets))
        for a in ARENAS:
            if self.villain_in(a) is None and a in self.contested:
                continue
            for s in self.contest_sets(a):
                actions.append({"kind": "contest", "arena": a, "with": s})
        actions.append({"kind": "end_turn"})
        return actions

    def check_game_rule(self, action: Action) -> str | None:
        """The common actions checked directly (agrees with `rule_actions`, pinned by a test); the
        rest by looking them up in the list."""
        kind = action["kind"]
        if kind == "end_turn":
            return None
        if kind == "contest":
            arena, ids = _arena(action["arena"]), action["with"]
            if arena is not None and type(ids) is list and all(type(i) is int for i in ids) \
                    and (arena not in self.contested or self.villain_in(arena) is not None) \
                    and ids in self.contest_sets(arena):
                return None
            return self.explain_game_rule(action)
        return super().check_game_rule(action)

    def explain_game_rule(self, action: Action) -> str:
        kind = action["kind"]
        if "arena" in action and _arena(action["arena"]) is None:
            return f"there is no arena {action['arena']!r} (arenas: {', '.join(ARENAS)})"
        if kind != "contest" and kind != "end_turn":
            card = action["card"]
            name = self.names[card]
            where = self.where[card]
            if kind in ("move", "trade_in"):
                if where not in ARENA_SET or not self.progs[card].neopet:
                    return f"only your Neopets in play can {'move' if kind == 'move' else 'be traded in'}; {self.name_of(card)} is not one"
                if self.tapped[card]:
                    return f"{name} is tapped: only an untapped Neopet can {'move' if kind == 'move' else 'be traded in'}"
                if kind == "move" and action.get("arena") == where:
                    return f"{name} is already in the {where} arena"
            elif where != "hand":
                return f"{self.name_of(card)} is not in your hand"
            else:
                gaps = self.unknown(card)
                if gaps:
                    field = next(f for f in self.VALUE_FIELDS if f.name == gaps[0])
                    return f"{name}: {field.flag()}"
                expected = {"replace": "Experienced Neopet", "hero": "Hero", "villain": "Villain", "equip": "Equipment",
                            "happen": "Something Has Happened!", "location": "Location"}[kind]
                if self.progs[card].type != expected:
                    return f"{name} is {_a(self.progs[card].type)}, not {_a(expected)} card"
                if kind == "equip":
                    to = action.get("to")
                    if not self.in_play(to) or not (self.progs[to].neopet or self.progs[to].type == "Hero"):
                        return f"Equipment goes onto one of your Neopets or Heroes in play; #{to!r} is not one"
                if kind == "hero":
                    payer = action.get("tap")
                    if payer not in [i for i in self.neopets() if not self.tapped[i]]:
                        return f"playing a Hero taps one of your untapped Neopets; #{payer!r} is not one"
                if kind == "replace":
                    onto = action.get("onto")
                    if onto not in self.neopets():
                        return f"an Experienced Neopet replaces one of your Neopets in play; #{onto!r} is not one"
                    if self.progs[onto].species != self.progs[card].species:
                        return f"{name} ({self.progs[card].species}) can only replace a {self.progs[card].species}, not {self.names[onto]}"
                if kind == "villain" and self.villain_in(action["arena"]) is not None:
                    return f"the {action['arena']} arena already has a Villain"
                need = self.progs[card].tap
                if need not in (None, "none") and "tap" in action and action["tap"] not in (self.tappers(need) or []):
                    return f"{name} needs an untapped {'Neopet' if need == 'any' else need + ' Neopet'} to tap; #{action.get('tap')!r} is not one"
                if need not in (None, "none") and "tap" not in action:
                    return f"{name} needs you to tap an untapped {'Neopet' if need == 'any' else need + ' Neopet'}: say which with \"tap\""
        if kind == "contest":
            arena = action["arena"]
            block = self.contest_block(arena)
            if block:
                return block
            ids = action.get("with")
            if not isinstance(ids, list) or not ids:
                return "a contest needs \"with\": the untapped Neopets and Heroes of that arena to tap, as a sorted list"
            gaps = self.stat_gaps([i for i in ids if self.is_card(i)], arena)
            villain = self.villain_in(arena)
            if villain is not None and gaps:
                return f"a Villain contest adds up stats, and these are unknown — set them for this game: {', '.join(gaps)}"
            return (f"\"with\" must list untapped Neopets or Heroes of yours in the {arena} arena, each once, in "
                    f"increasing order; {ids!r} does not")
        return f"{self.action_label(action)} is not possible now"

    def action_label(self, action: Action) -> str:
        try:
            return self.describe(action)
        except Exception:  # a forged action may not describe
            return repr(action)

    def apply_rule(self, action: Action) -> None:
        kind = action["kind"]
        if kind == "end_turn":
            self.end_phase(manual=False)
            return
        if kind == "contest":
            self._contest(action["arena"], action["with"])
            return
        iid = action["card"]
        if kind == "move":
            self.tapped[iid] = True
            self.note(f"moved {self.label(iid)} from the {self.where[iid]} arena to the {action['arena']} arena (tapped)")
            self._to_arena(iid, action["arena"])
        elif kind == "trade_in":
            self.note(f"traded in {self.label(iid)}")
            self._leave_play(iid, discard=True)
            self.push((("flip", "trade in"),))
        elif kind == "replace":
            if "tap" in action:
                self.tapped[action["tap"]] = True
                self.note(f"tapped {self.label(action['tap'])} to play {self.label(iid)}")
            self._replace(iid, action["onto"])
        elif kind == "hero":
            payer = action["tap"]
            self.tapped[payer] = True
            arena = self.where[payer]
            self.move(iid, arena)
            self.tapped[iid] = False
            self.note(f"tapped {self.label(payer)} to play the Hero {self.label(iid)} into the {arena} arena (untapped)")
            self._played(iid)
        else:
            if "tap" in action:
                self.tapped[action["tap"]] = True
            paid = f" (tapping {self.label(action['tap'])})" if "tap" in action else ""
            if kind == "villain":
                self.move(iid, action["arena"])
                self.tapped[iid] = False
                self.note(f"played the Villain {self.label(iid)} into the {action['arena']} arena{paid}")
                self._played(iid)
            elif kind == "equip":
                target = action["to"]
                self._attach(iid, target)
                self.note(f"played {self.label(iid)} onto {self.label(target)}{paid}")
                self._played(iid)
            elif kind == "location":
                arena = action["arena"]
                for old in [i for i in self.zones[arena] if self.progs[i].type == "Location"]:
                    self.move(old, "discard")
                    self.note(f"{self.label(old)} is replaced and discarded")
                self.move(iid, arena)
                self.note(f"played the Location {self.label(iid)} into the {arena} arena{paid}")
                self._played(iid)
            elif kind == "happen":
                self.move(iid, "limbo")
                self.note(f"played {self.label(iid)}{paid}")
                self.push((("to_discard", iid),))
                self._played(iid)

    def end_phase(self, manual: bool) -> None:
        self.push((("end_turn",),))

    # -- manual moves ---------------------------------------------------------------------------------
    def manual_move(self, iid: int, to: str, bottom: bool) -> str:
        src = self.where[iid]
        label = self.name_of(iid, src)
        if src in ARENA_SET and to in ARENA_SET:
            self._to_arena(iid, to)
        elif src in ARENA_SET:
            self._leave_play(iid, discard=False, to=to, bottom=bottom)
        else:
            self.move(iid, to, bottom=bottom)
            self.tapped[iid] = False
        text = f"moved {label} from {self.zone_label(src)} to {self.zone_label(to)}" + (" (bottom)" if bottom else "")
        value = self.progs[iid].bank
        if (src == "bank") != (to == "bank"):
            if value is None:
                text += "; its bank value is unknown: adjust the bank points by hand"
            else:
                delta = value if to == "bank" else -value
                self.counters["points"] = max(0, self.counters["points"] + delta)
                text += f"; bank points {delta:+d} (now {self.counters['points']})"
        return text

    def manual_move_error(self, iid: int, to: str) -> str | None:
        if to in ARENA_SET and self.progs[iid].type == "Equipment":
            return f"{self.names[iid]} is Equipment: attach it to a Neopet or Hero (manual.attach), not to an arena"
        return None

    def extra_manual_actions(self) -> list[Action]:
        actions: list[Action] = []
        progs = self.progs
        hosts = [i for a in ARENAS for i in self.zones[a] if progs[i].contester]
        for a in ARENAS:
            for i in self.zones[a]:
                if progs[i].type != "Equipment":
                    actions.append({"kind": "manual.tap", "card": i})
        for zone in ("hand", "discard"):
            for e in self.zones[zone]:
                if progs[e].type == "Equipment":
                    actions.extend({"kind": "manual.attach", "card": e, "to": t} for t in hosts)
        return actions

    def apply_extra_manual(self, action: Action) -> str:
        kind, iid = action["kind"], action["card"]
        if kind == "manual.tap":
            if self.where[iid] not in ARENA_SET or self.progs[iid].type == "Equipment":
                raise IllegalAction(f"only cards in the arenas (not Equipment) can be tapped; {self.name_of(iid)} is in "
                                    f"{self.zone_label(self.where[iid])}", action)
            self.tapped[iid] = not self.tapped[iid]
            return f"{'tapped' if self.tapped[iid] else 'untapped'} {self.label(iid)}"
        target = action.get("to")
        if self.progs[iid].type != "Equipment" or self.where[iid] not in ("hand", "discard"):
            raise IllegalAction(f"manual.attach takes an Equipment from your hand or discard pile; {self.name_of(iid)} is not one", action)
        if self.where[target] not in ARENA_SET or not (self.progs[target].neopet or self.progs[target].type == "Hero"):
            raise IllegalAction(f"Equipment attaches to one of your Neopets or Heroes in play; #{target!r} is not one", action)
        src = self.where[iid]
        self._attach(iid, target)
        return f"attached {self.label(iid)} from {self.zone_label(src)} to {self.label(target)}"

    # -- text and views -------------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        kind = action.get("kind")
        card = action.get("card")
        name = self.label_of(card)
        tap = action.get("tap")
        paying = f", tapping {self.label(tap)}" if self.is_card(tap) else ""
        if kind == "end_turn":
            return "End the turn"
        if kind == "move":
            return f"Move {name} to the {action.get('arena')} arena (taps it)"
        if kind == "trade_in":
            return f"Trade in {name}"
        if kind == "replace":
            return f"Play {name} replacing {self.label_of(action.get('onto'))}{paying}"
        if kind == "hero":
            return f"Play the Hero {name}{paying}"
        if kind == "villain":
            return f"Play the Villain {name} into the {action.get('arena')} arena{paying}"
        if kind == "equip":
            return f"Play {name} onto {self.label_of(action.get('to'))}{paying}"
        if kind == "happen":
            return f"Play {name}{paying}"
        if kind == "location":
            return f"Play the Location {name} into the {action.get('arena')} arena{paying}"
        if kind == "contest":
            ids = action.get("with") or []
            who = ", ".join(self.label(i) for i in ids if self.is_card(i))
            arena = _arena(action.get("arena"))
            villain = self.villain_in(arena) if arena is not None else None
            what = f"a Villain contest against {self.label(villain)}" if villain is not None else "a contest"
            return f"Start {what} in the {arena} arena with {who}"
        if kind == "manual.tap":
            return f"[manual] Tap or untap {name}"
        if kind == "manual.attach":
            return f"[manual] Attach {name} to {self.label_of(action.get('to'))}"
        return str(kind)

    def card_view(self, iid: int) -> dict[str, Any]:
        card, prog = self.cards[iid], self.progs[iid]
        where = self.where[iid]
        unknown = [{"field": f.name, "label": f.label, "message": f.flag()}
                   for f in self.VALUE_FIELDS if f.name in self.unknown(iid)]
        # a Villain's own stat is not asked for by the values form; a contest against it says so itself
        if where in ARENA_SET and prog.type in ("Basic Neopet", "Experienced Neopet", "Hero") \
                and prog.stats[where] is None and self.villain_in(where) is not None:
            unknown.append({"field": where, "label": where, "message": f"{where} unknown — set it for this game"})
        if not prog.text_known:
            unknown.append({"field": "text", "label": "rules text",
                            "message": "rules text not in the catalogue — not automated (set it for this game, or use manual moves)"})
        view = {
            "id": iid, "key": card.key, "name": self.names[iid], "type": prog.type, "text": card.text,
            "species": prog.species, "faerie": prog.faerie, "stats": dict(prog.stats),
            "bonus": dict(prog.bonus) if prog.type in ("Item", "Equipment") else None,
            "tap_to_play": prog.tap,
            "automated": prog.automation, "manual_text": list(prog.manual_text), "unknown": unknown,
            "session_values": sorted(k for k, v in card.provenance.items() if v == "session"),
        }
        if prog.type in ("Item", "Equipment", None):  # only these are banked: no "Bank" on a Neopet's tile
            view["bank_value"] = prog.bank
        if where in ARENA_SET:
            view["tapped"] = self.tapped[iid]
            if self.host[iid] >= 0:
                view["attached_to"] = self.host[iid]
            if iid in self.attached:
                view["equipment"] = list(self.attached[iid])
            if prog.neopet or prog.type in ("Hero", "Villain"):
                view["arena_stat"] = self.stat(iid, where)
        return view

    def _named(self, iid: int | None) -> dict[str, Any] | None:
        """A card in an arena as the board names it (its name, never its id)."""
        return None if iid is None else {"id": iid, "name": self.names[iid]}

    def extra_view(self) -> dict[str, Any]:
        arenas = {}
        for a in ARENAS:
            ids = self.zones[a]
            location = next((i for i in ids if self.progs[i].type == "Location"), None)
            villain = self.villain_in(a)
            arenas[a] = {"villain": self._named(villain), "location": self._named(location),
                         "contested_this_turn": a in self.contested, "contest_block": self.contest_block(a),
                         "dummy": []}
        missing: dict[str, list[str]] = {}
        for i in range(len(self.cards)):
            gaps = self.unknown(i)
            if gaps:
                missing.setdefault(self.cards[i].key, gaps)
        return {"neopets_tcg": {
            "points": self.counters["points"], "points_to_win": WIN_POINTS, "neopets_in_play": len(self.neopets()),
            "first": self.first, "turn_limit": self.turn_limit, "arenas": arenas,
            "bankable_in_hand": self.bankable(), "missing_values": missing,
            "dummy": "the dummy's arenas stay empty and it never plays a card",
        }}

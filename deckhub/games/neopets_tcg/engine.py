"""Neopets TCG goldfish (the advanced game of the Battle for Meridell rulebook, GUIDE §5): your side
follows the rules; the dummy's four arenas stay empty and it never plays a card, so a regular
contest you start is won at once (rulebook "Contests": no rivals, you win automatically). Win at 21
banked points; lose when you must draw from an empty deck, or when the turn limit passes.

Unknown card facts are never guessed (see deckhub.core.session_values): a card's type, species,
stats, bank value or tapping cost the catalogue does not know must be supplied for the game with
the `card_values` option; until then the rules actions that would need it are not offered (the
view says why) and manual moves let the player go on.

Rules actions (JSON), main phase:
  {"kind": "move", "card": n, "arena": a}         tap an untapped Neopet, move it with its Equipment
  {"kind": "trade_in", "card": n}                 tap it, discard its Equipment, Basic -> bottom of the
                                                  Neopet Stack / Experienced -> discard; flip a new one
  {"kind": "replace", "card": e, "onto": n}       an Experienced Neopet onto one of the same species
  {"kind": "hero", "card": h, "tap": n}           tap a Neopet; the Hero enters its arena untapped
  {"kind": "villain", "card": v, "arena": a}      into an arena without a Villain
  {"kind": "equip", "card": q, "to": t[, "tap": n]}  Equipment onto a Neopet or Hero (tapping a Neopet
                                                  when the card requires it)
  {"kind": "happen", "card": s[, "tap": n]}       a Something Has Happened! card: resolve, discard
  {"kind": "location", "card": l, "arena": a[, "tap": n]}  replaces the arena's Location
  {"kind": "contest", "arena": a, "with": [ids]}  tap those untapped Neopets/Heroes of that arena: a
                                                  Villain contest if a Villain is there, else a regular
                                                  one (one per arena per turn)
  {"kind": "end_turn"}
Choices (the core's "choose"/"decline"): the arena a flipped Neopet goes into; after a contest won
on your turn, bank an Item or Equipment from your hand or draw (or neither); the Item for a Villain
contest; card effects. Manual moves: the core's, plus "manual.tap" {"card"} and "manual.attach"
{"card": equipment, "to": neopet or hero}.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from deckhub.core.engine import (Action, Choice, CounterSpec, Engine, EngineError, IllegalAction, OptionSpec,
                                 State, ZoneSpec)
from deckhub.core.session_values import ValueField, card_values_option
from deckhub.games.neopets_tcg.contest import ARENAS, Side, resolve
from deckhub.games.neopets_tcg.effects import FAERIES, TAP_CHOICES, TYPES, Program, compile_card, coverage

WIN_POINTS = 21
MAX_NEOPETS = 3
ARENA_SET = frozenset(ARENAS)
_SUBSETS_UP_TO = 6  # contest participant sets listed in full up to this many candidates


class NeopetsState(State):
    ZONES = (
        ZoneSpec("deck", "Deck", hidden=True),
        ZoneSpec("hand", "Hand"),
        ZoneSpec("stack", "Neopet Stack", hidden=True),
        ZoneSpec("strength", "Strength arena"),
        ZoneSpec("agility", "Agility arena"),
        ZoneSpec("magic", "Magic arena"),
        ZoneSpec("intelligence", "Intelligence arena"),
        ZoneSpec("limbo", "Being played", manual_target=False),
        ZoneSpec("discard", "Discard pile"),
        ZoneSpec("bank", "Bank"),
    )
    COUNTERS = (CounterSpec("points", "Bank points", initial=0, minimum=0),)
    PHASES = ("before", "draw", "untap", "flip", "main", "end")

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
        """What an automated goldfish needs to know about a card. Stats matter only in a contest
        against a Villain (the dummy has no Neopets), so they are asked for there, not here."""
        prog = compile_card(card)
        if prog.type is None:
            return ("type",)
        if prog.type in ("Basic Neopet", "Experienced Neopet"):
            return ("species",)
        if prog.type == "Item":
            return ("bank_value",)
        if prog.type == "Equipment":
            return ("bank_value",) + (() if prog.tap is not None else ("tap_to_play",))
        return ()

    # -- setup (rulebook: Setup) ------------------------------------------------------------------
    def setup(self, deck, catalogue) -> None:
        split, base = _dealable(type(self), deck, catalogue)
        order = list(range(len(base)))
        self.rng.shuffle(order)  # shuffle first, then number the instances: an id tells nothing
        pool = [base[i] for i in order]
        self.cards = [p[0] for p in pool]
        self.where = [p[1] for p in pool]
        for zone in ("stack", "deck"):
            self.zones[zone] = [i for i, p in enumerate(pool) if p[1] == zone]
        self.progs: list[Program] = [p[2] for p in pool]
        self.names: list[str] = [p[3] for p in pool]
        self.missing: list[tuple[str, ...]] = [p[4] for p in pool]  # needed values still unknown (fixed for a game)
        n = len(pool)
        self.tapped = [False] * n
        self.host = [-1] * n  # the Neopet or Hero an Equipment is attached to
        self.attached: dict[int, list[int]] = {}  # host -> its Equipment
        self.contested: set[str] = set()  # arenas with a regular contest this turn
        self.first = bool(self.options["first"])
        self.turn_limit = int(self.options["turn_limit"])
        deck_ids = self.zones["deck"]
        for _ in range(min(4, len(deck_ids))):
            self.move(deck_ids[-1], "hand")
        stack_n = len(self.zones["stack"])
        self.note(f"shuffled a Neopet Stack of {stack_n} and a deck of {len(deck_ids) + len(self.zones['hand'])}, "
                  f"drew {len(self.zones['hand'])}; you go {'first' if self.first else 'second'}"
                  + ("; one-section list: its Basic Neopets form the Neopet Stack" if split else ""))
        missing = sorted({self.names[i] for i in range(n) if self.missing[i]})
        if missing:
            self.note(f"values unknown for {len(missing)} cards (set them for this game with card_values): {', '.join(missing[:8])}"
                      + (" ..." if len(missing) > 8 else ""))
        self.push((("begin_turn",),))

    def copy_extra(self, new: "NeopetsState") -> None:
        new.tapped = self.tapped.copy()
        new.host = self.host.copy()
        new.attached = {k: v.copy() for k, v in self.attached.items()}
        new.contested = self.contested.copy()

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
                if prog.species is not None:
                    for n in neopets:
                        if progs[n].species == prog.species:
                            actions.append({"kind": "replace", "card": h, "onto": n})
            elif kind == "Hero":
                for n in untapped:
                    actions.append({"kind": "hero", "card": h, "tap": n})
            elif kind == "Villain":
                for a in ARENAS:
                    if self.villain_in(a) is None:
                        actions.append({"kind": "villain", "card": h, "arena": a})
            elif kind in ("Equipment", "Something Has Happened!", "Location"):
                payers = self.tappers(prog.tap)
                if payers is None or (prog.tap != "none" and not payers):
                    continue
                if kind == "Equipment":
                    targets = [{"kind": "equip", "card": h, "to": t} for t in hosts]
                elif kind == "Location":
                    targets = [{"kind": "location", "card": h, "arena": a} for a in ARENAS]
                else:
                    targets = [{"kind": "happen", "card": h}]
                for action in targets:
                    if payers:
                        actions.extend(dict(action, tap=n) for n in payers)
                    else:
                        actions.append(action)
        for a in ARENAS:
            if self.villain_in(a) is None and a in self.contested:
                continue
            for s in self.contest_sets(a):
                actions.append({"kind": "contest", "arena": a, "with": s})
        actions.append({"kind": "end_turn"})
        return actions

    def check_rule(self, action: Action) -> str | None:
        """The common actions checked directly (agrees with `rule_actions`, pinned by a test); the
        rest by looking them up in the list."""
        kind = action.get("kind")
        if self.phase == "main":
            if kind == "end_turn" and len(action) == 1:
                return None
            if kind == "contest" and len(action) == 3:
                arena, ids = _arena(action.get("arena")), action.get("with")
                if arena is not None and type(ids) is list and all(type(i) is int for i in ids) \
                        and (arena not in self.contested or self.villain_in(arena) is not None) \
                        and ids in self.contest_sets(arena):
                    return None
                return self.explain_illegal(action)
        return super().check_rule(action)

    def explain_illegal(self, action: Action) -> str:
        kind = action.get("kind")
        known = ("move", "trade_in", "replace", "hero", "villain", "equip", "happen", "location", "contest", "end_turn")
        if kind not in known:
            return f"{kind!r} is not an action of the Neopets TCG (actions: {', '.join(known)}, and manual moves)"
        if self.phase != "main":
            return f"{kind} is possible only in your main phase (now: {self.phase or 'setup'})"
        extra = set(action) - {"kind", *_FIELDS[kind]}
        if extra:
            return f"{kind} takes no field {', '.join(sorted(map(repr, extra)))} (its fields: {', '.join(_FIELDS[kind]) or 'none'})"
        for name in ("arena",):
            if name in _FIELDS[kind] and _arena(action.get(name)) is None:
                return f"there is no arena {action.get(name)!r} (arenas: {', '.join(ARENAS)})"
        card = action.get("card")
        if kind != "contest" and kind != "end_turn":
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < len(self.cards):
                return f"there is no card #{card!r} in this game"
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
                    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < len(self.cards) \
                            or not self.in_play(to) or not (self.progs[to].neopet or self.progs[to].type == "Hero"):
                        return f"Equipment goes onto one of your Neopets or Heroes in play; #{to!r} is not one"
                if kind == "hero":
                    payer = action.get("tap")
                    if payer not in [i for i in self.neopets() if not self.tapped[i]] or isinstance(payer, bool):
                        return f"playing a Hero taps one of your untapped Neopets; #{payer!r} is not one"
                if kind == "replace":
                    onto = action.get("onto")
                    if not isinstance(onto, int) or isinstance(onto, bool) or not 0 <= onto < len(self.cards) \
                            or onto not in self.neopets():
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
            gaps = self.stat_gaps([i for i in ids if isinstance(i, int) and 0 <= i < len(self.cards)], arena)
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
            self.note(f"moved {self._label(iid)} from the {self.where[iid]} arena to the {action['arena']} arena (tapped)")
            self._to_arena(iid, action["arena"])
        elif kind == "trade_in":
            self.note(f"traded in {self._label(iid)}")
            self._leave_play(iid, discard=True)
            self.push((("flip", "trade in"),))
        elif kind == "replace":
            self._replace(iid, action["onto"])
        elif kind == "hero":
            payer = action["tap"]
            self.tapped[payer] = True
            arena = self.where[payer]
            self.move(iid, arena)
            self.tapped[iid] = False
            self.note(f"tapped {self._label(payer)} to play the Hero {self._label(iid)} into the {arena} arena (untapped)")
            self._played(iid)
        else:
            if "tap" in action:
                self.tapped[action["tap"]] = True
            paid = f" (tapping {self._label(action['tap'])})" if "tap" in action else ""
            if kind == "villain":
                self.move(iid, action["arena"])
                self.tapped[iid] = False
                self.note(f"played the Villain {self._label(iid)} into the {action['arena']} arena")
                self._played(iid)
            elif kind == "equip":
                target = action["to"]
                self._attach(iid, target)
                self.note(f"played {self._label(iid)} onto {self._label(target)}{paid}")
                self._played(iid)
            elif kind == "location":
                arena = action["arena"]
                for old in [i for i in self.zones[arena] if self.progs[i].type == "Location"]:
                    self.move(old, "discard")
                    self.note(f"{self._label(old)} is replaced and discarded")
                self.move(iid, arena)
                self.note(f"played the Location {self._label(iid)} into the {arena} arena{paid}")
                self._played(iid)
            elif kind == "happen":
                self.move(iid, "limbo")
                self.note(f"played {self._label(iid)}{paid}")
                self.push((("to_discard", iid),))
                self._played(iid)

    def end_phase(self, manual: bool) -> None:
        self.push((("end_turn",),))

    # -- rules primitives ---------------------------------------------------------------------------
    def _label(self, iid: int) -> str:
        return f"{self.names[iid]} (#{iid})"

    def _played(self, iid: int) -> None:
        """Run what the card says when played; flag text the engine does not do."""
        prog = self.progs[iid]
        if prog.on_play:
            self.push(prog.on_play, iid)
        if not prog.text_known:
            if prog.type in ("Something Has Happened!", "Location"):
                self.note(f"{self.names[iid]}'s text is not in the catalogue: do what it says with manual moves")
        elif prog.manual_text:
            self.note(f"{self.names[iid]}: not automated, use manual moves: {' '.join(prog.manual_text)}")

    def _to_arena(self, iid: int, arena: str) -> None:
        """Move a card in play (with its Equipment) to another arena."""
        self.move(iid, arena)
        for e in self.attached.get(iid, ()):
            self.move(e, arena)

    def _attach(self, equipment: int, target: int) -> None:
        old = self.host[equipment]
        if old >= 0:
            self.attached[old].remove(equipment)
            if not self.attached[old]:
                del self.attached[old]
        self.host[equipment] = target
        self.attached.setdefault(target, []).append(equipment)
        if self.where[equipment] != self.where[target]:
            self.move(equipment, self.where[target])
        self.tapped[equipment] = False

    def _detach(self, equipment: int) -> None:
        old = self.host[equipment]
        if old >= 0:
            self.attached[old].remove(equipment)
            if not self.attached[old]:
                del self.attached[old]
            self.host[equipment] = -1

    def _discard(self, iid: int) -> None:
        """Discard a card: a Basic Neopet goes to the bottom of the Neopet Stack (glossary: discard)."""
        if self.progs[iid].type == "Basic Neopet":
            self.move(iid, "stack", bottom=True)
        else:
            self.move(iid, "discard")
        self.tapped[iid] = False

    def _leave_play(self, iid: int, discard: bool, to: str | None = None, bottom: bool = False) -> None:
        """A card leaves the arenas: its Equipment is discarded (FAQ), an Equipment is detached."""
        for e in self.attached.pop(iid, []):
            self.host[e] = -1
            self._discard(e)
            self.note(f"{self._label(e)} is discarded with it")
        self._detach(iid)
        if discard:
            self._discard(iid)
        else:
            self.move(iid, to, bottom=bottom)
            self.tapped[iid] = False

    def _replace(self, new: int, old: int) -> None:
        """An Experienced Neopet replaces one of the same species: same arena, same tapped state, keeps
        the Equipment; the old one to the bottom of the Stack (Basic) or the discard pile."""
        arena = self.where[old]
        zone = self.zones[arena]
        self.zones["hand"].remove(new)
        zone.insert(zone.index(old), new)
        self.where[new] = arena
        self.tapped[new] = self.tapped[old]
        equipment = self.attached.pop(old, [])
        for e in equipment:
            self.host[e] = new
        if equipment:
            self.attached[new] = equipment
        self._discard(old)
        self.note(f"{self._label(new)} replaces {self._label(old)} in the {arena} arena"
                  + (" (tapped)" if self.tapped[new] else "") + (f", keeping {len(equipment)} Equipment" if equipment else ""))
        self._played(new)

    def _draw(self, n: int) -> bool:
        deck = self.zones["deck"]
        for _ in range(n):
            if not deck:
                self.lose("you had to draw from an empty deck (rulebook: Running Out of Cards)")
                return False
            iid = deck[-1]
            self.move(iid, "hand")
            self.note(f"drew {self._label(iid)}")
        return True

    def _bank(self, iid: int) -> None:
        value = self.progs[iid].bank
        self.move(iid, "bank")
        self.counters["points"] += value
        self.note(f"banked {self._label(iid)} for {value} points (bank: {self.counters['points']})")
        if self.counters["points"] >= WIN_POINTS:
            self.win(f"{self.counters['points']} points in the bank")
            return
        if self.progs[iid].on_bank:
            self.push(self.progs[iid].on_bank, iid)

    def _contest(self, arena: str, ids: list[int]) -> None:
        for i in ids:
            self.tapped[i] = True
        who = ", ".join(self._label(i) for i in ids)
        villain = self.villain_in(arena)
        if villain is None:
            self.contested.add(arena)
            self.note(f"started {'an' if arena[0] in 'aeiou' else 'a'} {arena} contest with {who}: the dummy has no Neopets or Heroes there, you win automatically")
            self.push((("won", arena, tuple(ids)),))
            return
        self.note(f"started a Villain contest in the {arena} arena with {who} against {self._label(villain)}")
        items = [i for i in self.zones["hand"] if self.progs[i].type == "Item" and self.progs[i].bonus[arena] is not None]
        if items:
            options = [(i, f"play {self.names[i]} ({self.progs[i].bonus[arena]:+d} {arena})") for i in items]
            self.ask(f"Villain contest: play an Item? (you may play 1; decline to play none)", options,
                     ("villain_item", arena, tuple(ids), villain), optional=True)
        else:
            self.push((("villain_roll", arena, tuple(ids), villain, -1),))

    # -- ops ------------------------------------------------------------------------------------------
    def run_op(self, op: tuple, source: int | None) -> None:
        _OPS[op[0]](self, op, source)

    def resolve_choice(self, choice: Choice, value: Any) -> None:
        _RESOLVE[choice.op[0]](self, choice.op, choice.source, value)

    def run(self) -> None:
        super().run()
        if self.outcome is None and self.counters["points"] >= WIN_POINTS:  # (a manual counter or move)
            self.win(f"{self.counters['points']} points in the bank")

    def _op_begin_turn(self, op, source):
        if self.turn >= self.turn_limit:
            self.lose(f"no win within the turn limit of {self.turn_limit} turns")
            return
        self.turn += 1
        self.contested.clear()
        self.phase = "before"
        self.note(f"turn {self.turn} begins")
        steps = [("turn_draw",), ("untap_all",), ("start_flip",), ("phase", "main")]
        self.push(steps)
        progs = self.progs
        for a in reversed(ARENAS):  # "before your turn" effects come first (rulebook: Before Your Turn)
            for i in reversed(self.zones[a]):
                if progs[i].before_turn:
                    self.push(progs[i].before_turn, i)

    def _op_turn_draw(self, op, source):
        self.phase = "draw"
        if self.first and self.turn == 1:
            self.note("the first player does not draw on the first turn (rulebook: On Your Turn)")
            return
        self._draw(1)

    def _op_untap_all(self, op, source):
        self.phase = "untap"
        tapped = self.tapped
        for a in ARENAS:
            for i in self.zones[a]:
                tapped[i] = False

    def _op_start_flip(self, op, source):
        self.phase = "flip"
        if len(self.neopets()) < MAX_NEOPETS:
            self._op_flip(("flip", "fewer than 3 Neopets in play"), None)

    def _op_flip(self, op, source):
        stack = self.zones["stack"]
        if not stack:
            self.note("the Neopet Stack is empty: no Neopet to flip")
            return
        iid = stack[-1]
        self.move(iid, "limbo")
        self.note(f"flipped {self._label(iid)} from the Neopet Stack ({op[1]})")
        self.ask(f"Put {self.names[iid]} into which arena (it enters tapped)?",
                 [(a, f"the {a} arena") for a in ARENAS], ("flip_to", iid), iid)

    def _gone(self, iid: int, zone: str) -> bool:
        """A card a pending choice named has since been moved by hand: say so and skip it."""
        if self.where[iid] == zone:
            return False
        self.note(f"{self._label(iid)} is no longer in {self.zone_label(zone)}: nothing happens")
        return True

    def _res_flip_to(self, op, source, value):
        iid = op[1]
        if self._gone(iid, "limbo"):
            return
        self.move(iid, value)
        self.tapped[iid] = True
        self.note(f"put {self._label(iid)} into the {value} arena, tapped")

    def _op_phase(self, op, source):
        self.phase = op[1]

    def _op_end_turn(self, op, source):
        self.phase = "end"
        for a in ARENAS:
            for h in [i for i in self.zones[a] if self.progs[i].type == "Hero"]:
                self.note(f"the Hero {self._label(h)} is discarded at the end of the turn")
                self._leave_play(h, discard=True)
        self.push((("begin_turn",),))

    def _op_to_discard(self, op, source):
        iid = op[1]
        if self.where[iid] == "limbo":
            self.move(iid, "discard")

    def _op_won(self, op, source):
        """After a contest won on your turn: bank an Item or Equipment from your hand, or draw
        (rulebook: The End of a Contest); then "when ... wins a contest" effects."""
        _, arena, ids = op
        triggers = [(self.progs[i].on_win, i) for i in ids if self.in_play(i) and self.progs[i].on_win]
        triggers += [(self.progs[e].on_win, e) for i in ids for e in self.attached.get(i, ()) if self.progs[e].on_win]
        for ops, src in reversed(triggers):
            self.push(ops, src)
        options: list[tuple[Any, str]] = [(i, f"bank {self.names[i]} ({self.progs[i].bank} points)") for i in self.bankable()]
        if self.zones["deck"]:
            options.append(("draw", "draw a card"))
        unknown = sorted({f"{self.names[i]} ({'card type' if self.progs[i].type is None else 'bank value'} unknown)"
                          for i in self.zones["hand"]
                          if self.progs[i].type in ("Item", "Equipment", None) and self.progs[i].bank is None})
        prompt = f"You won the {arena} contest: bank an Item or Equipment, or draw a card"
        if unknown:
            prompt += f"; not bankable until set for this game: {', '.join(unknown)}"
        if options:
            self.ask(prompt, options, ("bank_or_draw", arena), optional=True)
        else:
            self.note("won the contest, but there is nothing to bank and no card to draw")

    def _res_bank_or_draw(self, op, source, value):
        if value is None:
            self.note("chose neither to bank nor to draw")
        elif value == "draw":
            self._draw(1)
        elif not self._gone(value, "hand"):
            self._bank(value)

    def _res_villain_item(self, op, source, value):
        _, arena, ids, villain = op
        item = -1
        if value is not None and not self._gone(value, "hand"):
            item = value
            self.move(item, "limbo")
            self.note(f"played the Item {self._label(item)}")
        self.push((("villain_roll", arena, ids, villain, item),))
        if item >= 0:
            self._played(item)

    def _op_villain_roll(self, op, source):
        """A Villain contest (rulebook: Contests Against Villains): the Villain's owner does not roll or
        play cards; if you win, the Villain is discarded and you neither bank nor draw."""
        _, arena, ids, villain, item = op
        ids = [i for i in ids if self.where[i] == arena]
        gaps = self.stat_gaps(ids, arena) if ids else []
        if item >= 0 and self.where[item] != "limbo":
            item = -1
        if self.where[villain] != arena or not ids or gaps:
            why = (f"{self._label(villain)} has left the arena" if self.where[villain] != arena else
                   "no one of yours is left in it" if not ids else f"these are unknown: {', '.join(gaps)}")
            self.note(f"the Villain contest cannot be added up ({why}): it ends; use manual moves for the outcome")
            if item >= 0:
                self._op_to_discard(("to_discard", item), None)
            return
        you = Side(stats=tuple(self.progs[i].stats[arena] for i in ids),
                   equipment=tuple(self.progs[e].bonus[arena] for i in ids for e in self.attached.get(i, ())),
                   item=self.progs[item].bonus[arena] if item >= 0 else 0)
        rival = Side(stats=(self.progs[villain].stats[arena],), rolls=False)
        result = resolve(you, rival, lambda: self.rng.randint(1, 6))
        if item >= 0:
            self.move(item, "discard")
        if result.winner == "you":
            self.note(f"won the Villain contest ({result.describe()}): {self._label(villain)} is discarded")
            self._leave_play(villain, discard=True)
            triggers = [(self.progs[i].on_win, i) for i in ids if self.progs[i].on_win]
            for ops, src in reversed(triggers):
                self.push(ops, src)
        else:
            self.note(f"lost the Villain contest ({result.describe()})")

    # card effects
    def _op_draw(self, op, source):
        self._draw(op[1])

    def _op_may(self, op, source):
        self.ask(f"{self.names[source]}: you may {op[1]}" if source is not None else f"you may {op[1]}",
                 [("yes", "Yes")], op, source, optional=True)

    def _res_may(self, op, source, value):
        if value == "yes":
            self.push(op[2], source)

    def _op_bank_from_hand(self, op, source):
        options = [(i, f"bank {self.names[i]} ({self.progs[i].bank} points)") for i in self.bankable()]
        if options:
            self.ask(f"{self.names[source]}: bank an Item or Equipment from your hand", options, op, source, optional=True)

    def _res_bank_from_hand(self, op, source, value):
        if value is not None and not self._gone(value, "hand"):
            self._bank(value)

    def _op_bank_top(self, op, source):
        deck = self.zones["deck"]
        for _ in range(op[1]):
            if not deck:
                return
            iid = deck[-1]
            prog = self.progs[iid]
            if prog.type in ("Item", "Equipment") and prog.bank is not None:
                self._bank(iid)
            else:
                self.move(iid, "bank")
                self.note(f"banked {self._label(iid)} from the top of the deck; its bank value is unknown: "
                          f"adjust the points by hand once you know it")
            if self.outcome is not None:
                return

    def _op_move_free(self, op, source):
        options = [([i, a], f"move {self.names[i]} to the {a} arena") for i in self.neopets() for a in ARENAS
                   if a != self.where[i]]
        if options:
            self.ask(f"{self.names[source]}: move one of your Neopets (without tapping it)", options, op, source)

    def _res_move_free(self, op, source, value):
        iid, arena = value
        if self.where[iid] not in ARENA_SET:
            self.note(f"{self._label(iid)} is no longer in play: nothing happens")
            return
        self.note(f"moved {self._label(iid)} to the {arena} arena")
        self._to_arena(iid, arena)

    def _op_untap_one(self, op, source):
        options = [(i, f"untap {self.names[i]}") for i in self.neopets() if self.tapped[i]]
        if options:
            self.ask(f"{self.names[source]}: untap one of your Neopets", options, op, source)

    def _res_untap_one(self, op, source, value):
        if self.where[value] not in ARENA_SET:
            return
        self.tapped[value] = False
        self.note(f"untapped {self._label(value)}")

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
        kind = action["kind"]
        if kind not in ("manual.tap", "manual.attach"):
            raise IllegalAction(f"unknown action kind {kind!r}", action)
        self._only(action, ("card",) if kind == "manual.tap" else ("card", "to"))
        iid = action.get("card")
        if isinstance(iid, bool) or not isinstance(iid, int) or not 0 <= iid < len(self.cards):
            raise IllegalAction(f"there is no card #{iid!r} in this game", action)
        if kind == "manual.tap":
            if self.where[iid] not in ARENA_SET or self.progs[iid].type == "Equipment":
                raise IllegalAction(f"only cards in the arenas (not Equipment) can be tapped; {self.name_of(iid)} is in "
                                    f"{self.zone_label(self.where[iid])}", action)
            self.tapped[iid] = not self.tapped[iid]
            return f"{'tapped' if self.tapped[iid] else 'untapped'} {self._label(iid)}"
        target = action.get("to")
        if self.progs[iid].type != "Equipment" or self.where[iid] not in ("hand", "discard"):
            raise IllegalAction(f"manual.attach takes an Equipment from your hand or discard pile; {self.name_of(iid)} is not one", action)
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < len(self.cards) \
                or self.where[target] not in ARENA_SET or not (self.progs[target].neopet or self.progs[target].type == "Hero"):
            raise IllegalAction(f"Equipment attaches to one of your Neopets or Heroes in play; #{target!r} is not one", action)
        src = self.where[iid]
        self._attach(iid, target)
        return f"attached {self._label(iid)} from {self.zone_label(src)} to {self._label(target)}"

    # -- text and views -------------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        kind = action.get("kind")
        card = action.get("card")
        name = self._label(card) if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(self.cards) else repr(card)
        tap = action.get("tap")
        paying = f", tapping {self._label(tap)}" if isinstance(tap, int) and 0 <= tap < len(self.cards) else ""
        if kind == "end_turn":
            return "End the turn"
        if kind == "move":
            return f"Move {name} to the {action.get('arena')} arena (taps it)"
        if kind == "trade_in":
            return f"Trade in {name}"
        if kind == "replace":
            onto = action.get("onto")
            return f"Play {name} replacing {self._label(onto) if isinstance(onto, int) and 0 <= onto < len(self.cards) else onto}"
        if kind == "hero":
            return f"Play the Hero {name}{paying}"
        if kind == "villain":
            return f"Play the Villain {name} into the {action.get('arena')} arena"
        if kind == "equip":
            to = action.get("to")
            return f"Play {name} onto {self._label(to) if isinstance(to, int) and 0 <= to < len(self.cards) else to}{paying}"
        if kind == "happen":
            return f"Play {name}{paying}"
        if kind == "location":
            return f"Play the Location {name} into the {action.get('arena')} arena{paying}"
        if kind == "contest":
            ids = action.get("with") or []
            who = ", ".join(self._label(i) for i in ids if isinstance(i, int) and 0 <= i < len(self.cards))
            arena = _arena(action.get("arena"))
            villain = self.villain_in(arena) if arena is not None else None
            what = f"a Villain contest against {self._label(villain)}" if villain is not None else "a contest"
            return f"Start {what} in the {arena} arena with {who}"
        if kind == "manual.tap":
            return f"[manual] Tap or untap {name}"
        if kind == "manual.attach":
            to = action.get("to")
            return f"[manual] Attach {name} to {self._label(to) if isinstance(to, int) and 0 <= to < len(self.cards) else to}"
        return str(kind)

    def card_view(self, iid: int) -> dict[str, Any]:
        card, prog = self.cards[iid], self.progs[iid]
        where = self.where[iid]
        unknown = [{"field": f.name, "label": f.label, "message": f.flag()}
                   for f in self.VALUE_FIELDS if f.name in self.unknown(iid)]
        if where in ARENA_SET and prog.type in ("Basic Neopet", "Experienced Neopet", "Hero", "Villain") \
                and prog.stats[where] is None and self.villain_in(where) is not None:
            unknown.append({"field": where, "label": where, "message": f"{where} unknown — set it for this game"})
        if not prog.text_known:
            unknown.append({"field": "text", "label": "rules text",
                            "message": "rules text not in the catalogue — not automated (set it for this game, or use manual moves)"})
        view = {
            "id": iid, "key": card.key, "name": self.names[iid], "type": prog.type, "text": card.text,
            "species": prog.species, "faerie": prog.faerie, "stats": dict(prog.stats),
            "bonus": dict(prog.bonus) if prog.type in ("Item", "Equipment") else None,
            "bank_value": prog.bank, "tap_to_play": prog.tap,
            "automated": prog.automation, "manual_text": prog.manual_text, "unknown": unknown,
            "session_values": sorted(k for k, v in card.provenance.items() if v == "session"),
        }
        if where in ARENA_SET:
            view["tapped"] = self.tapped[iid]
            if self.host[iid] >= 0:
                view["attached_to"] = self.host[iid]
            if iid in self.attached:
                view["equipment"] = list(self.attached[iid])
            if prog.neopet or prog.type in ("Hero", "Villain"):
                view["arena_stat"] = self.stat(iid, where)
        return view

    def extra_view(self) -> dict[str, Any]:
        arenas = {}
        for a in ARENAS:
            ids = self.zones[a]
            location = next((i for i in ids if self.progs[i].type == "Location"), None)
            arenas[a] = {"villain": self.villain_in(a), "location": location,
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


_DEALABLE: dict[tuple, tuple] = {}


def _dealable(cls, deck, catalogue) -> tuple[bool, list[tuple]]:
    """(split, [(card, zone, program, name, unknown values)] per copy) for a deck, cached per catalogue
    and list: dealing a game then only shuffles. `split`: a one-section (basic-game) list whose Basic
    Neopets form the Neopet Stack."""
    sections = {name: entries for name, entries in deck.sections.items() if entries}
    key = (id(catalogue), cls, tuple((name, tuple(entries.items())) for name, entries in sections.items()))
    cached = _DEALABLE.get(key)
    if cached is not None and cached[0] is catalogue:
        return cached[1]
    split = False
    if sections.get("Neopet Stack"):
        stack_entries, deck_entries = sections["Neopet Stack"], sections.get("Deck", {})
    elif len(sections) == 1:
        stack_entries, deck_entries, split = {}, next(iter(sections.values())), True
    else:
        raise EngineError(f"a Neopets TCG deck has a Neopet Stack and a Deck; this one has {', '.join(sections) or 'no cards'}")
    pool: list[tuple] = []
    for entries, zone in ((stack_entries, "stack"), (deck_entries, "deck")):
        for card_key, qty in entries.items():
            card = catalogue.get(card_key)
            if card is None:
                raise EngineError(f"card {card_key!r} is not in the Neopets TCG catalogue")
            prog = compile_card(card)
            where = ("stack" if prog.type == "Basic Neopet" else "deck") if split else zone
            gaps = tuple(f for f in cls.needed_values(card) if not _known(card, f))
            pool.extend([(card, where, prog, card.display_name, gaps)] * qty)
    if not pool:
        raise EngineError("the deck has no cards")
    if len(_DEALABLE) > 512:
        _DEALABLE.clear()
    _DEALABLE[key] = (catalogue, (split, pool))
    return split, pool


_FIELDS = {"move": ("card", "arena"), "trade_in": ("card",), "replace": ("card", "onto"), "hero": ("card", "tap"),
           "villain": ("card", "arena"), "equip": ("card", "to", "tap"), "happen": ("card", "tap"),
           "location": ("card", "arena", "tap"), "contest": ("arena", "with"), "end_turn": ()}


def _a(word: str | None) -> str:
    word = word or "card of unknown type"
    return f"{'an' if word[0].lower() in 'aeiou' else 'a'} {word}"


def _arena(value: Any) -> str | None:
    return value if isinstance(value, str) and value in ARENA_SET else None


def _known(card, name: str) -> bool:
    if name == "type":
        return compile_card(card).type is not None
    if name == "tap_to_play":
        return compile_card(card).tap is not None
    if name == "text":
        return card.text is not None
    return card.attrs.get(name) is not None


_OPS = {name[4:]: fn for name, fn in vars(NeopetsState).items() if name.startswith("_op_")}
_RESOLVE = {name[5:]: fn for name, fn in vars(NeopetsState).items() if name.startswith("_res_")}


# --- the built-in policy -------------------------------------------------------------------------------

def _free_arena(state: NeopetsState, exclude: str | None = None) -> str | None:
    """An arena without your Neopets or Heroes or a Villain (the best place for a new Neopet)."""
    best, best_score = None, None
    for a in ARENAS:
        if a == exclude:
            continue
        score = (len(state.participants(a)), state.villain_in(a) is not None)
        if best_score is None or score < best_score:
            best, best_score = a, score
    return best


def _answer(state: NeopetsState, choice: Choice) -> Action:
    op = choice.op
    kind = op[0]
    deck_left = len(state.zones["deck"])
    if kind == "flip_to":
        arena = _free_arena(state)
        return {"kind": "choose", "option": arena}
    if kind in ("bank_or_draw", "bank_from_hand"):
        banks = [v for v, _ in choice.options if v != "draw"]
        can_draw = any(v == "draw" for v, _ in choice.options) and deck_left > 1
        if banks:
            best = max(banks, key=lambda i: (state.progs[i].bank, -i))
            if state.counters["points"] + state.progs[best].bank >= WIN_POINTS or not can_draw:
                return {"kind": "choose", "option": best}
            # more contests are coming this turn than there are cards to bank: draw first, bank later
            # (the same number of draws, but a drawn Item or Equipment can still be banked this turn)
            later = sum(1 for a in ARENAS if a not in state.contested and state.villain_in(a) is None
                        and any(not state.tapped[i] for i in state.participants(a)))
            if len(banks) <= later:
                return {"kind": "choose", "option": "draw"}
            return {"kind": "choose", "option": best}
        if any(v == "draw" for v, _ in choice.options) and deck_left > 1:
            return {"kind": "choose", "option": "draw"}
        return {"kind": "decline"}
    if kind == "villain_item":
        arena, ids, villain = op[1], op[2], op[3]
        mine = sum(state.stat(i, arena) or 0 for i in ids)
        need = (state.progs[villain].stats[arena] or 0) + 1 - mine  # the die must make up the rest
        if need <= 5:
            return {"kind": "decline"}  # winnable without spending an Item (it is worth points banked)
        best = max(choice.options, key=lambda o: state.progs[o[0]].bonus[arena])
        return {"kind": "choose", "option": best[0]}
    if kind == "may":
        draws = any(o[0] in ("draw",) for o in op[2])
        return {"kind": "decline"} if draws and deck_left <= 3 else {"kind": "choose", "option": "yes"}
    return {"kind": "choose", "option": choice.options[0][0]}


def policy(state: NeopetsState) -> Action:
    """A greedy goldfish player: spread the Neopets over the arenas, contest in every arena each
    turn, bank the most valuable known Item or Equipment (else draw), play cards whose automated
    text draws or banks, and leave Villains (they would only block your own arenas) in the hand."""
    choice = state.pending
    if choice is not None:
        return _answer(state, choice)
    if state.phase != "main":
        return {"kind": "end_turn"}
    progs, tapped = state.progs, state.tapped
    neopets = state.neopets()
    # 1. Experienced Neopets onto a Neopet of their species
    for h in state.zones["hand"]:
        prog = progs[h]
        if prog.type == "Experienced Neopet" and prog.species is not None:
            for n in neopets:
                if progs[n].species == prog.species and progs[n].type == "Basic Neopet":
                    return {"kind": "replace", "card": h, "onto": n}
    # 2. a contest in every arena where one can start (against a Villain only when the numbers are known)
    for a in ARENAS:
        ready = sorted(i for i in state.participants(a) if not tapped[i])
        if not ready:
            continue
        villain = state.villain_in(a)
        if villain is None:
            if a in state.contested:
                continue
            if len(ready) > 1 and not any(progs[i].type == "Hero" for i in ready):
                spread = _free_arena(state, exclude=a)
                if spread is not None and not state.participants(spread) and state.villain_in(spread) is None:
                    return {"kind": "contest", "arena": a, "with": ready[:1]}  # the others spread out below
            return {"kind": "contest", "arena": a, "with": ready}
        sets = state.contest_sets(a)
        if sets:
            return {"kind": "contest", "arena": a, "with": max(sets, key=len)}
    # 3. untapped Neopets that cannot contest where they are move to an arena of their own
    for n in neopets:
        if tapped[n]:
            continue
        here = state.where[n]
        spread = _free_arena(state, exclude=here)
        if spread is not None and not state.participants(spread) and state.villain_in(spread) is None:
            return {"kind": "move", "card": n, "arena": spread}
    # 4. cards whose automated text draws or banks, while the deck can afford it
    if len(state.zones["deck"]) > 3:
        for h in state.zones["hand"]:
            prog = progs[h]
            if prog.type == "Something Has Happened!" and prog.useful_play and prog.tap is not None:
                payers = state.tappers(prog.tap)
                if prog.tap == "none":
                    return {"kind": "happen", "card": h}
                if payers:
                    return {"kind": "happen", "card": h, "tap": payers[0]}
    return {"kind": "end_turn"}


# --- sample decks (test fixtures) ----------------------------------------------------------------------

# TEST FIXTURE VALUES, not facts. The catalogue knows no bank value and the types of few cards, so the
# published decks (the two theme decks, the two starter lists) cannot bank a point as they stand. The
# generic invariant test and the goldfish benchmark play them with these invented session card_values,
# exactly as a player would enter them: deliberately uniform numbers (every Item 2 points, every
# Equipment 3 and +1 to all stats, every Basic Neopet 5 in every stat), types and texts chosen to reach
# every rule. They are never written into data/, never offered to a player's own game, and show with
# provenance "session".
def _sample_values() -> dict[str, dict[str, Any]]:
    items = ("tomatoes meaty-pie stale-bread usica-berries peachpa essence-of-brain chocolate-korbats cheese "
             "faerie-pancakes healing-potion starberry strawberries puppyblew slumberberry-potion "
             "petpet-growth-syrup asparagus chokato potion-of-strength magic-lottery-ticket potatoes pinanna "
             "potion-of-speed kauvaras-potion elixir-of-thieves hasee meowclops stone-snowball gigantic-snowball "
             "icy-snowball light-faerie-token water-faerie-token dark-faerie-token fire-faerie-token "
             "air-faerie-token earth-faerie-token")
    equipment = ("eyrie-breastplate makeshift-sword kass-charm jerans-armour jerans-sword lishas-charm "
                 "sceptre-of-banishing escape-rope bubble-gun moon-charm wooden-blocking-shield defence-shield-v1-0 "
                 "ice-scimitar illusens-charm shadow-breeze warf")
    happenings = "secret-passage library-visit chomp oubliette spooky-beans"
    heroes = "blumaroo-squire count-boris eyrie-guard general-kass drackonack quiggle-scout"
    pets = ("blue-blumaroo yellow-blumaroo green-eyrie red-eyrie blue-skeith green-skeith green-quiggle "
            "yellow-quiggle red-zafara yellow-zafara blue-scorchio green-acara red-korbat blue-mynci red-aisha yellow-eyrie")
    values: dict[str, dict[str, Any]] = {}
    for key in items.split():
        values[key] = {"type": "Item", "bank_value": 2, **{f"{a}_bonus": 2 for a in ARENAS}}
    for key in equipment.split():
        values[key] = {"type": "Equipment", "bank_value": 3, "tap_to_play": "any", **{f"{a}_bonus": 1 for a in ARENAS}}
    for key in happenings.split():
        values[key] = {"type": "Something Has Happened!", "text": "Draw a card."}
    for key in heroes.split():
        values[key] = {"type": "Hero", **{a: 6 for a in ARENAS}}
    for key in pets.split():
        values[key] = {a: 5 for a in ARENAS}
    for key in ("the-thieves-code", "beyond-neopia"):
        values[key] = {"bank_value": 2}
    values["warf"] = {"type": "Equipment", "bank_value": 3, "tap_to_play": "any", "strength_bonus": 1,
                      "agility_bonus": 1, "magic_bonus": 1}  # (its intelligence +2 is the catalogue's)
    values["darigan-skeith"] = {"type": "Experienced Neopet", "species": "Skeith", **{a: 7 for a in ARENAS}}
    values["quiggle-runner"] = {"species": "Quiggle", **{a: 7 for a in ARENAS}}
    values["marketplace"] = {"type": "Location"}
    values["draik-skeleton"] = {a: 9 for a in ARENAS}
    values["morguss"] = {"strength": 9, "agility": 9, "intelligence": 9}  # (magic 18 is the catalogue's)
    for key in ("jeran-meridell-knight", "kayla", "morris"):
        values[key] = {a: 6 for a in ARENAS}
    return values


SAMPLE_CARD_VALUES = _sample_values()

ENGINE = Engine(
    game="neopets-tcg",
    state_class=NeopetsState,
    policy=policy,
    coverage=coverage,
    options=(
        OptionSpec("first", "bool", True, "go first (no draw on your first turn) or second (rulebook: On Your Turn)"),
        OptionSpec("turn_limit", "int", 40, "the game is lost if it is not won by the end of this turn", minimum=1, maximum=500),
        card_values_option("values for cards whose facts the catalogue lacks, for this game only, e.g. "
                           '{"tomatoes": {"type": "Item", "bank_value": 2}}'),
    ),
    description="Neopets TCG (advanced game) against a dummy whose arenas stay empty",
    sample_options={"card_values": SAMPLE_CARD_VALUES},
)

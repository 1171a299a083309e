"""Kaijudo goldfish: your side follows the rules (Kaijudo 3, 5, 7-13); the dummy has 5 shields,
an unlimited deck, no creatures, and never acts (GUIDE §5).

Rules actions (JSON):
  {"kind": "charge", "card": i}                  mana phase, once a turn (Kaijudo 10B)
  {"kind": "summon", "card": i}                  main phase; an evolution adds "onto": [base] or
                                                 [base1, base2] (Vortex) (Kaijudo 8)
  {"kind": "cast", "card": i}                    main phase (Kaijudo 9)
  {"kind": "attack", "card": i}                  attack phase: attack the dummy (Kaijudo 10D)
  {"kind": "next"}                               end the mana / main / attack phase
plus the core's answers to pending choices and its manual moves, and "manual.tap" (tap or untap a
card in the battle or mana zone).
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from deckhub.core.engine import (Action, Choice, CounterSpec, Engine, EngineError, IllegalAction, OptionSpec,
                                 State, ZoneSpec)
from deckhub.games.kaijudo.effects import (MANUAL, NOOP, Program, compile_card, coverage, match_all, matches)

PHASE_LABELS = {"mana": "End the mana phase", "main": "Go to the attack phase", "attack": "End the turn"}
_CIV_NAMES = {"light": "Light", "water": "Water", "darkness": "Darkness", "fire": "Fire", "nature": "Nature"}


_DECKS: dict[tuple, tuple] = {}


def _compiled_deck(entries: dict[str, int], catalogue) -> list[tuple]:
    """(card, program, name) per copy of a deck section, cached: dealing a game only shuffles."""
    key = (id(catalogue), tuple(entries.items()))
    cached = _DECKS.get(key)
    if cached is not None and cached[0] is catalogue:  # (the catalogue is kept, so its id stays its own)
        return cached[1]
    if True:
        found = []
        for card_key, qty in entries.items():
            card = catalogue.get(card_key)
            if card is None:
                raise EngineError(f"card {card_key!r} is not in the Kaijudo catalogue")
            found.extend([(card, compile_card(card), card.display_name)] * qty)
        if not found:
            raise EngineError("the deck has no cards in its Deck section")
        if len(_DECKS) > 512:
            _DECKS.clear()
        _DECKS[key] = (catalogue, found)
    return found


class KaijudoState(State):
    ZONES = (
        ZoneSpec("deck", "Deck", hidden=True),
        ZoneSpec("hand", "Hand"),
        ZoneSpec("shields", "Shields", hidden=True),
        ZoneSpec("mana", "Mana zone"),
        ZoneSpec("battle", "Battle zone"),
        ZoneSpec("casting", "Being cast", manual_target=False),
        ZoneSpec("discard", "Discard pile"),
    )
    COUNTERS = (CounterSpec("dummy_shields", "Dummy's shields", initial=5, minimum=0),)
    PHASES = ("beginning", "mana", "main", "attack", "end")

    # -- setup (Kaijudo 3) ---------------------------------------------------------------------
    def setup(self, deck, catalogue) -> None:
        section = "Deck" if "Deck" in deck.sections or len(deck.sections) != 1 else next(iter(deck.sections))
        base = _compiled_deck(deck.sections.get(section, {}), catalogue)
        order = list(range(len(base)))
        self.rng.shuffle(order)  # shuffle first, then number the instances: an id tells nothing
        cards = [base[i] for i in order]
        n = len(cards)
        self.cards = [c for c, _, _ in cards]
        self.progs: list[Program] = [p for _, p, _ in cards]
        self.names: list[str] = [name for _, _, name in cards]
        self.where = ["deck"] * n
        self.zones["deck"] = list(range(n))
        self.granters = 0
        n = len(cards)
        self.tapped = [False] * n
        self.entered = [-1] * n
        self.under: dict[int, list[int]] = {}  # top of an evolution stack -> the cards beneath it
        self.beneath: dict[int, int] = {}  # a card beneath a stack -> the stack's top
        self.boosts: dict[int, list[tuple]] = {}  # until the end of the turn
        self.untap_used: set[int] = set()
        self.attacked: set[int] = set()
        self.turn_triggers: list[tuple] = []  # ("ally_attack", ops, source) until the end of the turn
        self.attacking: int | None = None
        self.charged = False
        self.first = bool(self.options["first"])
        self.turn_limit = int(self.options["turn_limit"])
        deck_ids = self.zones["deck"]
        for zone in ("shields", "hand"):  # 5 shields from the top, then a hand of 5 (Kaijudo 3)
            dealt = deck_ids[-5:][::-1]
            del deck_ids[-5:]
            self.zones[zone] = dealt
            for i in dealt:
                self.where[i] = zone
        self.note(f"shuffled {n} cards, set 5 shields, drew {len(self.zones['hand'])}; you go {'first' if self.first else 'second'}")
        self.push((("begin_turn",),))

    def copy_extra(self, new: "KaijudoState") -> None:
        new.tapped = self.tapped.copy()
        new.entered = self.entered.copy()
        new.under = {k: v.copy() for k, v in self.under.items()}
        new.beneath = self.beneath.copy()
        new.boosts = {k: v.copy() for k, v in self.boosts.items()}
        new.untap_used = self.untap_used.copy()
        new.attacked = self.attacked.copy()
        new.turn_triggers = self.turn_triggers.copy()

    # -- queries --------------------------------------------------------------------------------
    def creatures(self) -> list[int]:
        """Your creatures: the battle zone without the cards beneath evolution creatures (a new list)."""
        beneath = self.beneath
        if not beneath:
            return self.zones["battle"].copy()
        return [i for i in self.zones["battle"] if i not in beneath]

    def move(self, iid: int, to: str, bottom: bool = False) -> None:
        src = self.where[iid]
        State.move(self, iid, to, bottom)
        if self.progs[iid].grants:  # how many cards granting abilities are in play (a cheap "none" test)
            self.granters += (to == "battle") - (src == "battle")

    def unlocked(self) -> set[str]:
        """Civilizations with a card in the mana zone (Kaijudo 5)."""
        progs = self.progs
        return {c for i in self.zones["mana"] for c in progs[i].civs}

    def untapped_mana(self) -> int:
        tapped = self.tapped
        return sum(1 for i in self.zones["mana"] if not tapped[i])

    def cost(self, iid: int) -> int:
        """Level, less "tap N less mana" reductions of your creatures; never below 1."""
        prog = self.progs[iid]
        level = prog.level
        if prog.creature:
            for t in self.creatures():
                for filt, amount in self.progs[t].cost_mods:
                    if match_all(prog, filt):
                        level -= amount
            for cond, amount in prog.self_cost:
                kind = cond[0]
                if kind == "at_least":
                    _, zone, filt, n = cond
                    if len(self._candidates(zone, filt)) >= n:
                        level -= amount
                elif kind == "dummy_shields_le":
                    if self.counters["dummy_shields"] <= cond[1]:
                        level -= amount
                elif kind == "per":
                    level -= amount * len(self._candidates(cond[1], cond[2]))
        return max(1, level) if prog.level > 0 else 0

    def _boost(self, iid: int, kind: str) -> int:
        return sum(v for k, v in self.boosts.get(iid, ()) if k == kind)

    def _cond(self, iid: int, cond: tuple) -> bool:
        """A "while ..." condition of the creature's own text."""
        kind = cond[0]
        if kind == "has":
            _, filt, another = cond
            return any(match_all(self.progs[t], filt) for t in self.creatures() if not (another and t == iid))
        if kind == "alone":
            return self.creatures() == [iid]
        if kind == "empty_hand":
            return not self.zones["hand"]
        if kind == "mana_all":
            mana = self.zones["mana"]
            return bool(mana) and all(cond[1] in self.progs[i].civs for i in mana)
        if kind == "attacking":
            return self.attacking == iid
        return False

    def statics(self, iid: int, kind: str, with_power_filters: bool = True) -> list[int]:
        """Values of `kind` ("fast", "breaker", "powerful_attack", "extra_break", "attack_players",
        "power") the creature has from its own "while ..." text and from your creatures' grants."""
        found: list[int] = []
        prog = self.progs[iid]
        for cond, items in prog.cond_self:
            for k, value in items:
                if k == kind and self._cond(iid, cond):
                    found.append(value)
        if not self.granters:
            return found
        progs = self.progs
        for t in self.zones["battle"]:
            grants = progs[t].grants
            if not grants or t in self.beneath:
                continue
            for filt, k, value in grants:
                if k != kind:
                    continue
                ok = True
                for pair in filt:
                    if pair[0] == "other":
                        ok = t != iid
                    elif pair[0] == "cond":
                        ok = self._cond(t, pair[1])
                    elif pair[0] == "min_power_now":
                        ok = with_power_filters and self.power(iid, with_grants=False) >= pair[1]
                    else:
                        ok = matches(prog, pair)
                    if not ok:
                        break
                if ok:
                    found.append(value)
        return found

    def power(self, iid: int, with_grants: bool = True) -> int:
        prog = self.progs[iid]
        value = prog.power
        for t in self.creatures():
            for filt, amount, others_only in self.progs[t].buffs:
                if others_only and t == iid:
                    continue
                if match_all(prog, filt):
                    value += amount
        value += self._boost(iid, "power")
        if prog.cond_self or (with_grants and self.granters):
            value += sum(self.statics(iid, "power", with_power_filters=False))
        if self.attacking == iid:
            value += prog.powerful_attack + self._boost(iid, "powerful_attack")
            if with_grants:
                value += sum(self.statics(iid, "powerful_attack", with_power_filters=False))
        return value

    def breaks(self, iid: int) -> int:
        """Shields this creature breaks: its best Breaker, plus any "additional shield" (Kaijudo 10D, 12)."""
        prog = self.progs[iid]
        if not self.granters and not prog.cond_breakers and not prog.cond_self and iid not in self.boosts:
            return prog.breaker
        best = max([prog.breaker] + [v for k, v in self.boosts.get(iid, ()) if k == "breaker"]
                   + self.statics(iid, "breaker"))
        if prog.cond_breakers:
            power = self.power(iid)
            best = max([best] + [b for need, b in prog.cond_breakers if power >= need])
        return best + self._boost(iid, "extra_break") + sum(self.statics(iid, "extra_break"))

    def sick(self, iid: int) -> bool:
        """Entered this turn and may not attack yet (Kaijudo 8: evolution creatures and Fast Attack may)."""
        prog = self.progs[iid]
        if self.entered[iid] != self.turn or prog.evolution is not None or prog.fast:
            return False
        return not self._boost(iid, "fast") and not self.statics(iid, "fast")

    def attack_block(self, iid: int) -> str | None:
        """Why this creature cannot attack the dummy now, or None when it can."""
        prog = self.progs[iid]
        if self.where[iid] != "battle" or iid in self.beneath:
            return f"{self.names[iid]} is not a creature in your battle zone"
        if self.tapped[iid]:
            return f"{self.names[iid]} is tapped"
        if prog.guard:
            return f"{self.names[iid]} has Guard: it can't attack (Kaijudo 12)"
        if prog.skirmisher and not self._boost(iid, "attack_players") and not self.statics(iid, "attack_players"):
            return f"{self.names[iid]} has Skirmisher: it can attack only creatures, and the dummy has none (Kaijudo 12)"
        if self.sick(iid):
            return f"{self.names[iid]} entered the battle zone this turn: it can't attack yet (Kaijudo 8; Fast Attack and evolution creatures can)"
        return None

    def evolution_bases(self, iid: int) -> list[list[int]]:
        """The creatures (or pairs, for Vortex) an evolution creature can be put on (Kaijudo 8)."""
        count, matchers = self.progs[iid].evolution
        progs = self.progs
        ok = [t for t in self.creatures()
              if progs[t].evolution_wildcard or any(matches(progs[t], m) for m in matchers)]
        if count == 1:
            return [[t] for t in ok]
        return [list(pair) for pair in combinations(sorted(ok), count)]

    def cast_block(self, iid: int) -> str | None:
        """Why this card cannot be summoned or cast from the hand now, or None."""
        prog = self.progs[iid]
        if self.where[iid] != "hand":
            return f"{self.name_of(iid)} is not in your hand"
        if self.phase != "main":
            return f"creatures are summoned and spells cast in the main phase (now: {self.phase}) (Kaijudo 10C)"
        missing = [c for c in prog.civs if c not in self.unlocked()]
        if missing:
            return (f"{self.names[iid]} needs {' and '.join(_CIV_NAMES.get(c, c) for c in prog.civs)} unlocked; "
                    f"no {' or '.join(_CIV_NAMES.get(c, c) for c in missing)} card in your mana zone (Kaijudo 5)")
        cost, have = self.cost(iid), self.untapped_mana()
        if cost > have:
            return f"{self.names[iid]} costs {cost} mana; you have {have} untapped (Kaijudo 8)"
        if prog.evolution is not None and not self.evolution_bases(iid):
            return f"{self.names[iid]} is an evolution creature and none of your creatures is one it evolves onto (Kaijudo 8)"
        return None

    # -- the rules' actions ---------------------------------------------------------------------
    def rule_actions(self) -> list[Action]:
        phase = self.phase
        actions: list[Action] = []
        if phase == "mana":
            if not self.charged:
                actions = [{"kind": "charge", "card": i} for i in self.zones["hand"]]
        elif phase == "main":
            hand = self.zones["hand"]
            if hand:
                unlocked = self.unlocked()
                have = self.untapped_mana()
                progs = self.progs
                reducing = any(progs[t].cost_mods for t in self.zones["battle"])
                for i in hand:
                    prog = progs[i]
                    if prog.level > have and not reducing and not prog.self_cost:
                        continue
                    if any(c not in unlocked for c in prog.civs) or ((reducing or prog.self_cost) and self.cost(i) > have):
                        continue
                    if not prog.creature:
                        actions.append({"kind": "cast", "card": i})
                    elif prog.evolution is not None:
                        actions.extend({"kind": "summon", "card": i, "onto": b} for b in self.evolution_bases(i))
                    else:
                        actions.append({"kind": "summon", "card": i})
        elif phase == "attack":
            for i in self.creatures():
                if self.attack_block(i) is None:
                    actions.append({"kind": "attack", "card": i})
            if self._must_attack():
                return actions
        actions.append({"kind": "next"})
        return actions

    def _must_attack(self) -> int | None:
        for i in self.creatures():
            if self.progs[i].must_attack and self.attack_block(i) is None:
                return i
        return None

    def explain_illegal(self, action: Action) -> str:
        return self.check_rule(action) or f"{action.get('kind')!r} is not a legal action now"

    def check_rule(self, action: Action) -> str | None:
        """None when the rules action is legal now, else why not. Agrees with `rule_actions`
        (tests/test_kaijudo_engine.py checks it), without building the list."""
        kind = action.get("kind")
        if kind == "next":
            if len(action) != 1:
                return "next takes no other field"
            if self.phase == "attack":
                must = self._must_attack()
                if must is not None:
                    return f"{self.names[must]} attacks each turn if able: attack with it first"
            return None if self.phase in ("mana", "main", "attack") else f"the {self.phase} phase ends by itself"
        if kind not in ("charge", "summon", "cast", "attack"):
            return f"unknown action kind {kind!r} (Kaijudo actions: attack, cast, charge, next, summon; choose, decline and manual.*)"
        card = action.get("card")
        if card.__class__ is not int or not 0 <= card < len(self.cards):
            return f"there is no card #{card!r} in this game"
        if len(action) != 2 and (kind != "summon" or len(action) != 3 or "onto" not in action):
            extra = sorted(set(action) - {"kind", "card"})
            return f"{kind} takes no field {', '.join(map(repr, extra))}"
        if kind == "charge":
            if self.phase != "mana":
                return f"mana is charged only in the mana phase (now: {self.phase}) (Kaijudo 10B)"
            if self.charged:
                return "you have already charged mana this turn (Kaijudo 10B: once a turn)"
            return None if self.where[card] == "hand" else f"{self.name_of(card)} is not in your hand"
        if kind == "attack":
            if self.phase != "attack":
                return f"creatures attack in the attack phase (now: {self.phase}) (Kaijudo 10D)"
            return self.attack_block(card)
        block = self.cast_block(card)
        if block:
            return block
        prog = self.progs[card]
        if kind == "cast":
            return f"{self.names[card]} is a creature: summon it" if prog.creature else None
        if not prog.creature:
            return f"{self.names[card]} is a spell: cast it"
        onto = action.get("onto")
        if prog.evolution is None:
            return None if onto is None else f"{self.names[card]} is not an evolution creature: give no \"onto\""
        bases = self.evolution_bases(card)
        if onto in bases and all(b.__class__ is int for b in onto):
            return None
        return (f"{self.names[card]} must go onto one of: "
                f"{'; '.join(' + '.join(self.names[b] + f' (#{b})' for b in pair) for pair in bases)}"
                " (give \"onto\": [ids])")

    def apply_rule(self, action: Action) -> None:
        kind = action["kind"]
        if kind == "next":
            self.end_phase(manual=False)
            return
        iid = action["card"]
        name = self.names[iid]
        if kind == "charge":
            self.move(iid, "mana")
            self.tapped[iid] = self.progs[iid].mana_tapped
            self.charged = True
            self.note(f"charged {name} (#{iid}) as mana" + (" (enters tapped)" if self.tapped[iid] else ""))
        elif kind == "summon":
            cost = self.cost(iid)
            self._pay(cost)
            onto = action.get("onto")
            if onto:
                self.note(f"summoned {name} (#{iid}) for {cost} mana, evolving onto "
                          f"{' + '.join(f'{self.names[b]} (#{b})' for b in onto)}")
                self._evolve(iid, onto)
            else:
                self.note(f"summoned {name} (#{iid}) for {cost} mana")
                self._enter(iid)
        elif kind == "cast":
            cost = self.cost(iid)
            self._pay(cost)
            self.move(iid, "casting")
            self.note(f"cast {name} (#{iid}) for {cost} mana")
            self._cast(iid)
        elif kind == "attack":
            self._attack(iid)

    def end_phase(self, manual: bool) -> None:
        phase = self.phase
        if phase == "mana":
            self.phase = "main"
        elif phase == "main":
            self.phase = "attack"
        elif phase == "attack":
            self.push((("end_turn",),))
        elif phase == "beginning":
            self.phase = "mana"
        else:
            self.push((("begin_turn",),))

    # -- moving cards ---------------------------------------------------------------------------
    def _pay(self, cost: int) -> None:
        tapped = self.tapped
        # tap single-civilization cards last: it does not matter which cards pay (Kaijudo 8)
        for i in self.zones["mana"]:
            if cost <= 0:
                break
            if not tapped[i]:
                tapped[i] = True
                cost -= 1

    def _reset(self, iid: int, to: str) -> None:
        self.entered[iid] = self.turn if to == "battle" else -1
        self.tapped[iid] = self.progs[iid].mana_tapped if to == "mana" else False
        self.boosts.pop(iid, None)

    def _leave(self, top: int, to: str) -> None:
        """A creature leaves the battle zone; the cards beneath it go the same way (Kaijudo 8)."""
        stack = self.under.pop(top, [])
        for i in stack:
            self.beneath.pop(i, None)
        for i in stack + [top]:
            self.move(i, to)
            self._reset(i, to)

    def _enter(self, iid: int) -> None:
        self.move(iid, "battle")
        self._reset(iid, "battle")
        prog = self.progs[iid]
        if prog.enters_tapped:
            self.tapped[iid] = True
        self._entered_triggers(iid)

    def _evolve(self, iid: int, bases: list[int]) -> None:
        self.move(iid, "battle")
        self._reset(iid, "battle")
        stack: list[int] = []
        tapped = False
        for b in bases:
            stack.extend(self.under.pop(b, []))
            stack.append(b)
            tapped = tapped or self.tapped[b]
            self.boosts.pop(b, None)
        self.under[iid] = stack
        for i in stack:
            self.beneath[i] = iid
        self.tapped[iid] = tapped  # evolving from a tapped creature: enters tapped (Kaijudo 8)
        self._entered_triggers(iid)

    def _entered_triggers(self, iid: int) -> None:
        prog = self.progs[iid]
        self._flag_manual(iid)
        ops = []
        etb = prog.triggers.get("etb")
        if etb:
            ops.append((etb, iid))
        for t in self.creatures():
            if t != iid:
                for filt, t_ops in self.progs[t].other_etb:
                    if match_all(prog, filt):
                        ops.append((t_ops, t))
        for trigger_ops, source in reversed(ops):
            self.push(trigger_ops, source)

    def _flag_manual(self, iid: int) -> None:
        prog = self.progs[iid]
        if prog.automation != "full":
            self.note(f"{self.names[iid]}: not automated: {' / '.join(prog.manual_text)} (use manual moves if it applies)")

    def _cast(self, iid: int) -> None:
        self._flag_manual(iid)
        triggers = [(self.progs[t].triggers["cast_spell"], t) for t in self.creatures() if "cast_spell" in self.progs[t].triggers]
        for ops, source in reversed(triggers):
            self.push(ops, source)
        self.push(self.progs[iid].spell + (("spell_done", iid),), iid)

    def _attack(self, iid: int) -> None:
        prog = self.progs[iid]
        self.tapped[iid] = True
        self.note(f"{self.names[iid]} (#{iid}) attacks the dummy")
        if prog.untap_once and iid not in self.untap_used:
            self.untap_used.add(iid)
            self.tapped[iid] = False
            self.note(f"{self.names[iid]} untaps (first time tapped this turn)")
        self.attacking = iid
        self.attacked.add(iid)
        queued: list[tuple[tuple, int]] = []
        if "attack" in prog.triggers:
            queued.append((prog.triggers["attack"], iid))
        if prog.unleash and self.under.get(iid):
            queued.append(((("unleash", prog.unleash),), iid))
        for t in self.creatures():
            for filt, others_only, ops in self.progs[t].ally_attack:
                if others_only and t == iid:
                    continue
                if match_all(prog, filt):
                    queued.append((ops, t))
        for event, ops, t in self.turn_triggers:
            if event == "ally_attack":
                queued.append((ops, t))
        self.push((("resolve_attack", iid), ("attack_end", iid)), iid)
        for ops, source in reversed(queued):
            self.push(ops, source)

    def banish(self, iid: int) -> None:
        prog = self.progs[iid]
        dest = prog.replace_banish or next(iter(self.statics(iid, "replace_banish")), None) or "discard"
        if dest != "discard":
            self.note(f"{self.names[iid]} would be banished: goes to the {self.zone_label(dest).lower()} instead")
            self._leave(iid, dest)
            return
        self.note(f"{self.names[iid]} is banished")
        self._leave(iid, "discard")
        if "banished" in prog.triggers:
            self.push(prog.triggers["banished"], iid)

    def _draw(self, n: int) -> bool:
        deck = self.zones["deck"]
        for _ in range(n):
            if not deck:
                self.lose("had to draw from an empty deck (Kaijudo 7)")
                return False
            iid = deck[-1]
            self.move(iid, "hand")
            self.note(f"drew {self.names[iid]} (#{iid})")
            for t in self.creatures():
                ops = self.progs[t].triggers.get("draw")
                if ops:
                    self.push(ops, t)
        return True

    # -- ops ------------------------------------------------------------------------------------
    def _label(self, iid: int) -> str:
        return f"{self.names[iid]} (#{iid})"

    def _prompt(self, source: int | None, text: str) -> str:
        return f"{self.names[source]}: {text}" if source is not None else text

    def run_op(self, op: tuple, source: int | None) -> None:
        name = op[0]
        handler = _OPS.get(name)
        if handler is None:
            raise RuntimeError(f"unknown op {name!r}")
        handler(self, op, source)

    def resolve_choice(self, choice: Choice, value: Any) -> None:
        _RESOLVE[choice.op[0]](self, choice.op, choice.source, value)

    # phase flow
    def _op_begin_turn(self, op, source):
        if self.turn >= self.turn_limit:
            self.lose(f"no win within the turn limit of {self.turn_limit} turns")
            return
        self.turn += 1
        self.phase = "beginning"
        self.charged = False
        self.untap_used.clear()
        self.attacked.clear()
        self.note(f"turn {self.turn} begins")
        starts = [(self.progs[t].triggers["start_turn"], t) for t in self.creatures() if "start_turn" in self.progs[t].triggers]
        if not starts:  # the usual case, without a trip through the queue: untap, draw (Kaijudo 10A)
            self._op_untap_all(op, source)
            self._op_turn_draw(op, source)
            self.phase = "mana"
            return
        self.push((("untap_all",), ("turn_draw",), ("phase", "mana")))
        for t_ops, t in reversed(starts):
            self.push(t_ops, t)

    def _op_untap_all(self, op, source):
        tapped = self.tapped
        for zone in ("battle", "mana"):
            for i in self.zones[zone]:
                tapped[i] = False

    def _op_turn_draw(self, op, source):
        if self.first and self.turn == 1:
            self.note("the first player skips the draw on turn 1 (Kaijudo 3)")
            return
        self._draw(1)

    def _op_phase(self, op, source):
        self.phase = op[1]

    def _op_end_turn(self, op, source):
        self.phase = "end"
        self.attacking = None
        ends = [(self.progs[t].triggers["end_turn"], t) for t in self.creatures() if "end_turn" in self.progs[t].triggers]
        self.push((("cleanup",), ("begin_turn",)))
        for t_ops, t in reversed(ends):
            self.push(t_ops, t)

    def _op_cleanup(self, op, source):
        self.boosts.clear()
        self.turn_triggers.clear()

    def _op_this_turn(self, op, source):
        self.turn_triggers.append((op[1], op[2], source))

    # effects
    def _op_noop(self, op, source):
        pass

    def _op_draw(self, op, source):
        self._draw(op[1])

    def _op_may(self, op, source):
        self.ask(self._prompt(source, f"{op[1]}?"), (("yes", "Yes"),), op, source, optional=True)

    def _res_may(self, op, source, value):
        if value == "yes":
            self.push(op[2], source)

    def _op_draw_upto(self, op, source):
        n = min(op[1], len(self.zones["deck"]))
        self.ask(self._prompt(source, f"draw up to {op[1]} cards"), [(k, f"draw {k}") for k in range(n + 1)], op, source)

    def _res_draw_upto(self, op, source, value):
        self._draw(value)

    def _op_top_to(self, op, source):
        _, dest, n = op
        deck = self.zones["deck"]
        for _ in range(n):
            if not deck:
                return
            iid = deck[-1]
            self.move(iid, dest)
            self._reset(iid, dest)
            self.note(f"put {self._label(iid) if dest != 'shields' else 'the top card'} from the deck into the {self.zone_label(dest).lower()}")

    def _op_top_to_upto(self, op, source):
        n = min(op[2], len(self.zones["deck"]))
        self.ask(self._prompt(source, f"put up to {op[2]} cards from the top of your deck into your {self.zone_label(op[1]).lower()}"),
                 [(k, str(k)) for k in range(n + 1)], op, source)

    def _res_top_to_upto(self, op, source, value):
        if value:
            self._op_top_to(("top_to", op[1], value), source)

    def _candidates(self, zone: str, filt: tuple) -> list[int]:
        progs = self.progs
        ids = self.creatures() if zone == "battle" else self.zones[zone]
        return [i for i in ids if match_all(progs[i], filt)]

    def _op_pick(self, op, source):
        _, src, dst, filt, count, optional, then = op
        found = self._candidates(src, filt)
        if not found:
            if src != "hand" or dst != "discard":
                self.note(self._prompt(source, f"no card to take from the {self.zone_label(src).lower()}"))
            return
        labels = [(i, f"shield #{i}" if src == "shields" else self._label(i)) for i in found]
        verb = "discard" if dst == "discard" and src == "hand" else f"put into your {self.zone_label(dst).lower()}"
        self.ask(self._prompt(source, f"choose a card from your {self.zone_label(src).lower()} to {verb}"), labels, op, source, optional)

    def _res_pick(self, op, source, value):
        _, src, dst, filt, count, optional, then = op
        if value is None:
            return
        self._put(value, dst, source)
        if count > 1:
            self.push((("pick", src, dst, filt, count - 1, optional, then),), source)
        elif then:
            self.push(then, source)

    def _put(self, iid: int, dst: str, source: int | None) -> None:
        src = self.where[iid]
        if src == "battle":
            self._leave(self.beneath.get(iid, iid), dst)
            return
        if dst == "battle":
            self.note(f"put {self._label(iid)} from the {self.zone_label(src).lower()} into the battle zone")
            self._enter(iid)
            return
        shown = self._label(iid) if dst != "shields" else "a card"
        self.move(iid, dst)
        self._reset(iid, dst)
        self.note(f"put {shown} from the {self.zone_label(src).lower()} into the {self.zone_label(dst).lower()}")

    def _op_all_to(self, op, source):
        _, src, dst, filt = op
        for iid in self._candidates(src, filt):
            self._put(iid, dst, source)

    def _op_discard_hand(self, op, source):
        for iid in list(self.zones["hand"]):
            self._put(iid, "discard", source)

    def _op_shuffle(self, op, source):
        self.shuffle("deck")
        self.note("shuffled the deck")

    def _who(self, who: str, source: int | None) -> list[int] | None:
        """Fixed targets of a boost, or None when the player chooses."""
        if who == "self":
            return [source] if source is not None and self.where[source] == "battle" and source not in self.beneath else []
        if who == "all":
            return self.creatures()
        if who == "all_other":
            return [t for t in self.creatures() if t != source]
        return None

    def _op_boost(self, op, source):
        _, who, items = op
        targets = self._who(who, source)
        if targets is not None:
            for t in targets:
                self.boosts.setdefault(t, []).extend(items)
            if targets:
                self.note(f"{', '.join(self.names[t] for t in targets)}: {_items_text(items)} until the end of the turn")
            return
        found = self.creatures()
        if who == "choose_other":
            found = [t for t in found if t != source]
        elif who == "choose_skirmisher":
            found = [t for t in found if t != source and self.progs[t].skirmisher]
        if not found:
            return
        self.ask(self._prompt(source, f"choose a creature to get {_items_text(items)}"),
                 [(t, self._label(t)) for t in found], op, source)

    def _res_boost(self, op, source, value):
        if self.where[value] != "battle":  # moved by hand meanwhile
            return
        self.boosts.setdefault(value, []).extend(op[2])
        self.note(f"{self.names[value]}: {_items_text(op[2])} until the end of the turn")

    def _op_untap(self, op, source):
        _, who, filt = op
        targets = self._who(who, source)
        if targets is None:
            found = [t for t in self.creatures() if self.tapped[t] and match_all(self.progs[t], filt)
                     and (who != "choose_other" or t != source)]
            if who == "choose_weaker":
                if source is None or self.where[source] != "battle":
                    return
                limit = self.power(source)
                found = [t for t in found if self.power(t) < limit]
            if found:
                self.ask(self._prompt(source, "choose one of your creatures to untap"),
                         [(t, self._label(t)) for t in found], op, source)
            return
        for t in targets:
            if match_all(self.progs[t], filt):
                self.tapped[t] = False

    def _res_untap(self, op, source, value):
        if self.where[value] == "battle":
            self.tapped[value] = False
            self.note(f"untapped {self._label(value)}")

    def _op_bounce(self, op, source):
        optional = op[1]
        dest = op[2] if len(op) > 2 else "hand"
        found = self.creatures()
        if not found:
            return
        self.ask(self._prompt(source, f"choose one of your creatures to return to your {self.zone_label(dest).lower()}"),
                 [(t, self._label(t)) for t in found], op, source, optional)

    def _res_bounce(self, op, source, value):
        if value is None or self.where[value] != "battle" or value in self.beneath:
            return
        dest = op[2] if len(op) > 2 else "hand"
        self.note(f"returned {self._label(value)} to the {self.zone_label(dest).lower()}")
        self._leave(value, dest)

    def _op_put_battle(self, op, source):
        _, src, filt, count, optional = op
        found = [i for i in self._candidates(src, filt) if self.progs[i].creature]
        if not found:
            return
        self.ask(self._prompt(source, f"choose a creature from your {self.zone_label(src).lower()} to put into the battle zone"),
                 [(i, self._label(i)) for i in found], op, source, optional)

    def _res_put_battle(self, op, source, value):
        _, src, filt, count, optional = op
        if value is None:
            return
        if count > 1:
            self.push((("put_battle", src, filt, count - 1, True),), source)
        self._put(value, "battle", source)

    def _op_look(self, op, source):
        _, n, specs, rest = op
        ids = tuple(reversed(self.zones["deck"][-n:]))
        if ids:
            self.note(self._prompt(source, f"looked at the top {len(ids)} card(s) of the deck"))
            self.push((("look_pick", ids, specs, rest),), source)

    def _op_look_pick(self, op, source):
        _, ids, specs, rest = op
        if not specs:
            left = [i for i in ids if self.where[i] == "deck"]
            for i in left:
                if rest == "bottom":
                    self.move(i, "deck", bottom=True)
                else:
                    self._put(i, rest, source)
            if left and rest == "bottom":
                self.note(f"put {len(left)} card(s) on the bottom of the deck")
            return
        dest, filt, count, optional = specs[0]
        progs = self.progs
        found = [i for i in ids if self.where[i] == "deck" and match_all(progs[i], filt)
                 and (dest != "battle" or progs[i].creature)]
        if not found:
            self.push((("look_pick", ids, specs[1:], rest),), source)
            return
        self.ask(self._prompt(source, f"choose a card to put into your {self.zone_label(dest).lower()}"),
                 [(i, self._label(i)) for i in found], op, source, optional)

    def _res_look_pick(self, op, source, value):
        _, ids, specs, rest = op
        dest, filt, count, optional = specs[0]
        if value is None:
            self.push((("look_pick", ids, specs[1:], rest),), source)
            return
        if count > 1:
            self.push((("look_pick", ids, ((dest, filt, count - 1, optional),) + specs[1:], rest),), source)
        else:
            self.push((("look_pick", ids, specs[1:], rest),), source)
        self._put(value, dest, source)

    def _op_search(self, op, source):
        _, filt, dest, optional = op
        found = [i for i in self._candidates("deck", filt) if dest != "battle" or self.progs[i].creature]
        if not found:
            self._op_shuffle(op, source)
            return
        seen = {}
        for i in found:  # one option per distinct card: copies in a deck are interchangeable
            seen.setdefault(self.progs[i].key, i)
        self.ask(self._prompt(source, f"search your deck for a card to put into your {self.zone_label(dest).lower()}"),
                 [(i, self.names[i]) for i in seen.values()], op, source, optional)

    def _res_search(self, op, source, value):
        if value is not None:
            self._put(value, op[2], source)
        self._op_shuffle(op, source)

    def _op_peek_bottom(self, op, source):
        deck = self.zones["deck"]
        if deck:
            self.ask(self._prompt(source, f"put {self._label(deck[-1])} (top of your deck) on the bottom?"),
                     (("yes", "Yes"),), op, source, optional=True)

    def _res_peek_bottom(self, op, source, value):
        if value == "yes" and self.zones["deck"]:
            self.move(self.zones["deck"][-1], "deck", bottom=True)
            self.note("put the top card of the deck on the bottom")

    def _op_break(self, op, source):
        shields = self.counters["dummy_shields"]
        n = min(op[1], shields)
        self.counters["dummy_shields"] = shields - n
        if n:
            self.note(f"{self.names[source] if source is not None else 'an effect'} breaks {n} shield(s); the dummy has {shields - n} left")

    def _op_tap_self(self, op, source):
        if source is not None and self.where[source] == "battle":
            self.tapped[source] = True

    def _op_if(self, op, source):
        cond = op[1]
        if cond[0] == "count_other":
            ok = sum(1 for t in self.creatures() if t != source and match_all(self.progs[t], cond[1])) >= cond[2]
        elif cond[0] == "shields_le":
            ok = len(self.zones["shields"]) <= cond[1]
        elif cond[0] == "evolution_in_play":
            ok = any(self.progs[t].evolution is not None for t in self.creatures())
        else:
            ok = False
        if ok:
            self.push(op[2], source)

    def _op_mode(self, op, source):
        self.ask(self._prompt(source, "choose one"), [(k, text) for k, (text, _) in enumerate(op[1])], op, source)

    def _res_mode(self, op, source, value):
        self.push(op[1][value][1], source)

    def _op_unleash(self, op, source):
        beneath = self.under.get(source)
        if not beneath:
            return
        self.ask(self._prompt(source, "Unleash: put a card from under it into your discard pile"),
                 [(i, self._label(i)) for i in beneath], op, source, optional=True)

    def _res_unleash(self, op, source, value):
        if value is None or value not in self.under.get(source, ()):  # moved by hand meanwhile
            return
        self.under[source].remove(value)
        if not self.under[source]:
            del self.under[source]
        del self.beneath[value]
        self.move(value, "discard")
        self._reset(value, "discard")
        self.note(f"unleashed {self._label(value)} from under {self.names[source]}")
        self.push(op[1], source)

    def _op_spell_done(self, op, source):
        iid = op[1]
        if self.where[iid] == "casting":
            self.move(iid, "discard")

    def _op_resolve_attack(self, op, source):
        iid = op[1]
        if self.where[iid] != "battle" or iid in self.beneath:
            self.note(f"{self.names[iid]} left the battle zone: the attack ends")
            return
        shields = self.counters["dummy_shields"]
        if shields == 0:
            self.win(f"{self.names[iid]} attacked the dummy with no shields left (Kaijudo 10D)")
            return
        n = min(self.breaks(iid), shields)
        self.counters["dummy_shields"] = shields - n
        self.note(f"{self.names[iid]} breaks {n} shield(s); the dummy has {shields - n} left")

    def _op_attack_end(self, op, source):
        iid = op[1]
        self.attacking = None
        if self.progs[iid].banish_after_attack and self.where[iid] == "battle" and iid not in self.beneath:
            self.banish(iid)

    def _op_self_to(self, op, source):
        if source is not None and self.where[source] == "battle" and source not in self.beneath:
            self.note(f"{self.names[source]} returns to your {self.zone_label(op[1]).lower()}")
            self._leave(source, op[1])

    # -- manual moves -------------------------------------------------------------------------
    def manual_move(self, iid: int, to: str, bottom: bool) -> str:
        src = self.where[iid]
        label = self.name_of(iid, src)
        if src == "battle" and iid in self.under:
            self._leave(iid, to)
            text = f"moved {label} and the cards under it from the battle zone to {self.zone_label(to)}"
            return text
        if iid in self.beneath:
            top = self.beneath.pop(iid)
            self.under[top].remove(iid)
            if not self.under[top]:
                del self.under[top]
        self.move(iid, to, bottom=bottom)
        self._reset(iid, to)
        return f"moved {label} from {self.zone_label(src)} to {self.zone_label(to)}" + (" (bottom)" if bottom else "")

    def manual_move_error(self, iid: int, to: str) -> str | None:
        if to == "battle" and not self.progs[iid].creature:
            return f"{self.names[iid]} is a spell: only creatures go into the battle zone"
        return None

    def extra_manual_actions(self) -> list[Action]:
        beneath = self.beneath
        return [{"kind": "manual.tap", "card": i} for z in ("battle", "mana") for i in self.zones[z] if i not in beneath]

    def apply_extra_manual(self, action: Action) -> str:
        if action["kind"] != "manual.tap":
            raise IllegalAction(f"unknown action kind {action['kind']!r}", action)
        self._only(action, ("card",))
        iid = action.get("card")
        if isinstance(iid, bool) or not isinstance(iid, int) or not 0 <= iid < len(self.cards):
            raise IllegalAction(f"there is no card #{iid!r} in this game", action)
        if self.where[iid] not in ("battle", "mana") or iid in self.beneath:
            raise IllegalAction(f"only cards in the battle zone or the mana zone can be tapped; {self.name_of(iid)} is in {self.zone_label(self.where[iid])}", action)
        self.tapped[iid] = not self.tapped[iid]
        return f"{'tapped' if self.tapped[iid] else 'untapped'} {self._label(iid)}"

    # -- text and views -------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        kind = action.get("kind")
        if kind == "next":
            return PHASE_LABELS.get(self.phase, "Next phase")
        if kind == "manual.tap":
            iid = action.get("card")
            return f"[manual] {'Untap' if isinstance(iid, int) and 0 <= iid < len(self.tapped) and self.tapped[iid] else 'Tap'} #{iid}"
        iid = action.get("card")
        if not isinstance(iid, int) or isinstance(iid, bool) or not 0 <= iid < len(self.cards):
            return repr(action)
        name = self._label(iid)
        if kind == "charge":
            return f"Charge {name} as mana"
        if kind == "summon":
            onto = action.get("onto")
            if onto:
                return f"Summon {name} onto {' + '.join(self._label(b) for b in onto if isinstance(b, int) and 0 <= b < len(self.cards))}"
            return f"Summon {name} ({self.cost(iid)} mana)"
        if kind == "cast":
            return f"Cast {name} ({self.cost(iid)} mana)"
        if kind == "attack":
            return f"Attack the dummy with {name} (breaks {self.breaks(iid)})"
        return repr(action)

    def card_view(self, iid: int) -> dict[str, Any]:
        card = self.cards[iid]
        prog = self.progs[iid]
        view = {
            "id": iid, "key": card.key, "name": self.names[iid], "type": card.type, "text": card.text,
            "level": prog.level, "civilizations": list(card.attrs.get("civilizations") or []),
            "race": list(card.attrs.get("race") or []), "printed_power": card.attrs.get("power"),
            "automated": prog.automation, "manual_text": prog.manual_text,
            "tapped": self.tapped[iid] if self.where[iid] in ("battle", "mana") else False,
            "keywords": _keywords(prog),
        }
        if self.where[iid] == "battle" and iid not in self.beneath:
            block = self.attack_block(iid)
            view.update(power=self.power(iid), breaks=self.breaks(iid), sick=self.sick(iid),
                        can_attack=self.phase == "attack" and block is None, attack_block=block,
                        under=[self.card_view(b) for b in self.under.get(iid, ())])
        if self.where[iid] == "hand":
            view.update(cost=self.cost(iid), playable=self.phase == "main" and self.cast_block(iid) is None)
        return view

    def view(self) -> dict[str, Any]:
        data = super().view()
        battle = data["zones"]["battle"]
        battle["cards"] = [self.card_view(i) for i in self.creatures()]
        return data

    def extra_view(self) -> dict[str, Any]:
        return {"kaijudo": {
            "unlocked": sorted(_CIV_NAMES[c] for c in self.unlocked()),
            "mana": {"untapped": self.untapped_mana(), "total": len(self.zones["mana"])},
            "charged_this_turn": self.charged, "first": self.first, "turn_limit": self.turn_limit,
            "dummy": {"shields": self.counters["dummy_shields"], "creatures": 0},
        }}


def _keywords(prog) -> list[str]:
    """The card's printed keywords as players name them, for its tile on the board."""
    words = [word for flag, word in ((prog.evolution is not None, "Evolution"), (prog.blocker, "Blocker"),
                                     (prog.fast, "Fast Attack"), (prog.guard, "Guard"),
                                     (prog.skirmisher, "Skirmisher"), (prog.slayer, "Slayer")) if flag]
    if prog.breaker > 1:
        words.append({2: "Double Breaker", 3: "Triple Breaker"}.get(prog.breaker, f"breaks {prog.breaker}"))
    if prog.powerful_attack:
        words.append(f"Powerful Attack +{prog.powerful_attack}")
    return words


def _items_text(items: tuple) -> str:
    parts = []
    for kind, value in items:
        parts.append({"power": f"+{value} power", "fast": "Fast Attack", "breaker": f"breaks {value}",
                      "powerful_attack": f"Powerful Attack +{value}", "attack_players": "may attack players",
                      "extra_break": "breaks an additional shield"}.get(kind, kind))
    return ", ".join(parts)


_OPS = {name[4:]: fn for name, fn in vars(KaijudoState).items() if name.startswith("_op_")}
_RESOLVE = {name[5:]: fn for name, fn in vars(KaijudoState).items() if name.startswith("_res_")}


# --- the built-in policy --------------------------------------------------------------------

def card_value(state: KaijudoState, iid: int) -> int:
    """How much a card is worth to a goldfish race (higher: keep it, play it)."""
    prog = state.progs[iid]
    if not prog.creature:
        return 4 + prog.level if prog.useful and prog.spell else 0
    if prog.guard or prog.skirmisher:
        return 2 + prog.level // 2
    return 10 + 2 * prog.level + 4 * prog.breaker + (6 if prog.fast else 0) + (3 if prog.evolution else 0)


def _charge_score(state: KaijudoState, iid: int, unlocked: set[str], mana: int) -> float:
    prog = state.progs[iid]
    score = 0.0
    new_civs = [c for c in prog.civs if c not in unlocked]
    score += 30 * len(new_civs)
    if not prog.useful or (not prog.creature and not prog.spell):
        score += 60
    if prog.creature and (prog.guard or prog.skirmisher):
        score += 25
    if prog.level > mana + 2:
        score += 2 * prog.level
    elif prog.level <= mana + 1 and not new_civs:
        score -= 15
    if prog.mana_tapped and state.turn > 1:
        score -= 4
    return score


def _choice_value(state: KaijudoState, choice: Choice, value: Any) -> float:
    op = choice.op
    kind = op[0]
    if kind == "pick":
        src, dst = op[1], op[2]
        if dst in ("discard", "shields") and src == "hand":
            return -card_value(state, value)
        if dst == "mana":
            return _charge_score(state, value, state.unlocked(), len(state.zones["mana"]))
        return card_value(state, value)
    if kind in ("put_battle", "look_pick", "search"):
        return card_value(state, value)
    if kind == "bounce":
        return -card_value(state, value)
    if kind == "boost":
        return (0 if state.tapped[value] else 10) + (5 if state.sick(value) else 0) + state.progs[value].breaker
    if kind == "mode":
        ops = op[1][value][1]
        return 0 if all(o == NOOP for o in ops) else 10 - value
    if kind in ("draw_upto", "top_to_upto"):
        return value if len(state.zones["deck"]) - value > 3 else -value
    return 0


def _answer(state: KaijudoState, choice: Choice) -> Action:
    op = choice.op
    kind = op[0]
    deck_left = len(state.zones["deck"])
    if kind == "peek_bottom":
        return {"kind": "choose", "option": "yes"} if card_value(state, state.zones["deck"][-1]) < 8 else {"kind": "decline"}
    if kind in ("may", "unleash"):
        if kind == "may" and deck_left <= 3 and any(o[0] in ("draw", "pick") for o in op[2]):
            return {"kind": "decline"}
        if kind == "may":
            return {"kind": "choose", "option": "yes"}
    if kind == "pick" and choice.optional and op[2] == "discard" and deck_left <= 3:
        return {"kind": "decline"}
    if kind == "bounce" and choice.optional:
        return {"kind": "decline"}
    best = max(choice.options, key=lambda o: _choice_value(state, choice, o[0]))
    return {"kind": "choose", "option": best[0]}


def policy(state: KaijudoState) -> Action:
    """A greedy goldfish player: charge for colours and curve, play the biggest threats, attack with
    the biggest breakers first. It reads the state directly (no list of actions is built)."""
    choice = state.pending
    if choice is not None:
        return _answer(state, choice)
    phase = state.phase
    if phase == "mana":
        hand = state.zones["hand"]
        mana = len(state.zones["mana"])
        if hand and not state.charged and (mana < 7 or len(hand) >= 3):
            unlocked = state.unlocked()
            return {"kind": "charge", "card": max(hand, key=lambda i: _charge_score(state, i, unlocked, mana))}
    elif phase == "main":
        hand = state.zones["hand"]
        if hand:
            unlocked = state.unlocked()
            have = state.untapped_mana()
            best, best_value = None, 0
            for iid in hand:
                prog = state.progs[iid]
                if any(c not in unlocked for c in prog.civs) or state.cost(iid) > have:
                    continue
                if not prog.creature:
                    if prog.spell and prog.useful and 5 + prog.level > best_value:
                        best, best_value = {"kind": "cast", "card": iid}, 5 + prog.level
                    continue
                value = card_value(state, iid) + state.cost(iid)
                if prog.evolution is None:
                    if value > best_value:
                        best, best_value = {"kind": "summon", "card": iid}, value
                    continue
                for onto in state.evolution_bases(iid):
                    v = value + sum(8 if state.sick(b) or state.attack_block(b) else -card_value(state, b) // 4 for b in onto)
                    if v > best_value:
                        best, best_value = {"kind": "summon", "card": iid, "onto": onto}, v
            if best is not None:
                return best
    elif phase == "attack":
        best, most = None, 0
        for iid in state.creatures():
            if state.attack_block(iid) is None:
                breaks = state.breaks(iid)
                if breaks > most:
                    best, most = iid, breaks
        if best is not None:
            return {"kind": "attack", "card": best}
    return {"kind": "next"}


ENGINE = Engine(
    game="kaijudo",
    state_class=KaijudoState,
    policy=policy,
    coverage=coverage,
    options=(
        OptionSpec("first", "bool", True, "go first (no draw on turn 1) or second (Kaijudo 3)"),
        OptionSpec("turn_limit", "int", 40, "the game is lost if it is not won by the end of this turn", minimum=1, maximum=500),
    ),
    description="Kaijudo against a dummy with 5 shields that never acts",
)

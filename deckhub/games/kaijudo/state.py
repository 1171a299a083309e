"""The engine's State: setup, queries, the rules' actions, manual moves and views."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from deckhub.core.actions import RuleAction
from deckhub.core.ops import LOSE_WHEN_EMPTY
from deckhub.core.state import Action, CounterSpec, IllegalAction, State, ZoneSpec
from deckhub.core.tables import cache, fixed
from deckhub.core.tiles import Flag, Stat, Tile
from deckhub.games.kaijudo.common import PHASE_LABELS, _CIV_NAMES, _compiled_deck
from deckhub.games.kaijudo.effects import Program, match_all, matches
from deckhub.games.kaijudo.ops import KaijudoOps


@dataclass
class KaijudoTable:
    """Everything a Kaijudo game adds to the core's State, by instance id where it is a list
    (the one declaration `State.clone` copies)."""

    progs: list[Program] = fixed()  # each instance's compiled card
    names: list[str] = fixed()
    first: bool
    first_drawn: bool  # the turn order was drawn at random (the `first` option)
    turn_limit: int
    granters: int  # how many cards granting abilities are in the battle zone (a cheap "none" test)
    reducers: int  # how many cards making creatures cost less are in the battle zone (the same)
    tapped: list[bool]
    entered: list[int]  # the turn each instance entered the battle zone (-1: not in it)
    under: dict[int, list[int]]  # top of an evolution stack -> the cards beneath it
    beneath: dict[int, int]  # a card beneath a stack -> the stack's top
    boosts: dict[int, list[tuple]]  # power and ability boosts until the end of the turn
    untap_used: set[int]
    attacked: set[int]  # creatures that attacked this turn
    turn_triggers: list[tuple]  # ("ally_attack", ops, source) until the end of the turn
    attacking: int | None
    charged: bool
    unlocked_civs: frozenset[str] | None = cache()  # `unlocked()`, until a card enters or leaves the mana zone


class KaijudoState(KaijudoOps, State):
    TABLE = KaijudoTable
    UNPLAYED_ZONES = ("mana", "shields")  # charged as mana is not played (Kaijudo 10B)
    ZONES = (
        ZoneSpec("deck", "Deck", hidden=True),
        ZoneSpec("hand", "Hand"),
        ZoneSpec("shields", "Shields", hidden=True),
        ZoneSpec("mana", "Mana zone", pile=True),
        ZoneSpec("battle", "Battle zone"),
        ZoneSpec("casting", "Being cast", manual_target=False),
        ZoneSpec("discard", "Discard pile", pile=True),
    )
    COUNTERS = (CounterSpec("dummy_shields", "Dummy's shields", initial=5, minimum=0),)
    PHASES = ("beginning", "mana", "main", "attack", "end")
    EMPTY_DECK = (LOSE_WHEN_EMPTY, "your deck ran out of cards: an empty deck loses at once (Kaijudo 7)")
    MAY_PROMPT = "{}?"
    FIRST_DRAW_SKIPPED = "the first player skips the draw on turn 1 (Kaijudo 3)"
    GAME_NAME = "Kaijudo"
    TILE = Tile(stats=(Stat("level", "Lv"), Stat("cost", "Cost"), Stat("power", "Power")),
                flags=(Flag("tapped", "tapped", turned=True), Flag("attack_block", line=True, css="attack-block")),
                beside_type=("civilizations",), lines=("keywords",))
    RULE_ACTIONS = (
        RuleAction("charge", ("card",), phases=("mana",), rule="Kaijudo 10B",
                   text="put a card from your hand into your mana zone, once a turn"),
        RuleAction("summon", ("card",), ("onto",), phases=("main",), rule="Kaijudo 10C",
                   text="summon a creature from your hand; an evolution creature names the creatures it goes onto"),
        RuleAction("cast", ("card",), phases=("main",), rule="Kaijudo 10C", text="cast a spell from your hand"),
        RuleAction("attack", ("card",), phases=("attack",), rule="Kaijudo 10D", text="attack the dummy with a creature"),
        RuleAction("next", phases=("mana", "main", "attack"), text="end the phase"),
    )
    EXTRA_MANUAL = (RuleAction("manual.tap", ("card",), text="tap or untap a card in the battle or mana zone"),)

    # -- setup (Kaijudo 3) ---------------------------------------------------------------------
    def setup(self, deck, catalogue) -> None:
        section = "Deck" if "Deck" in deck.sections or len(deck.sections) != 1 else next(iter(deck.sections))
        cards = _compiled_deck(deck.sections.get(section, {}), catalogue).copy()
        self.shuffle_items(cards)  # shuffle first, then number the instances: an id tells nothing
        n = len(cards)
        self.new_instances([card for card, _, _ in cards], "deck")
        self.progs = [prog for _, prog, _ in cards]
        self.names = [name for _, _, name in cards]
        self.granters = self.reducers = 0
        self.tapped = [False] * n
        self.entered = [-1] * n
        self.under = {}
        self.beneath = {}
        self.boosts = {}
        self.untap_used = set()
        self.attacked = set()
        self.turn_triggers = []
        self.attacking = None
        self.charged = False
        self.unlocked_civs = None
        self.first = self.draw_turn_order()
        self.turn_limit = int(self.options["turn_limit"])
        self.deal(5, "shields")  # 5 shields from the top, then a hand of 5 (Kaijudo 3)
        self.deal(5)
        self.note(f"shuffled {n} cards, set 5 shields, drew {len(self.zones['hand'])}; {self.turn_order_words(self.first)}")
        self.push((("begin_turn",),))

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
        prog = self.progs[iid]
        if prog.grants:  # how many cards granting abilities are in play (a cheap "none" test)
            self.granters += (to == "battle") - (src == "battle")
        if prog.cost_mods:
            self.reducers += (to == "battle") - (src == "battle")
        if to == "mana" or src == "mana":
            self.unlocked_civs = None

    def unlocked(self) -> frozenset[str]:
        """Civilizations with a card in the mana zone (Kaijudo 5). Kept until the mana zone's cards
        change: the policy and the checks ask for it several times a turn."""
        civs = self.unlocked_civs
        if civs is None:
            progs = self.progs
            civs = self.unlocked_civs = frozenset([c for i in self.zones["mana"] for c in progs[i].civs])
        return civs

    def untapped_mana(self) -> int:
        tapped = self.tapped
        n = 0
        for i in self.zones["mana"]:  # (a plain loop: faster here than map, sum or count)
            if not tapped[i]:
                n += 1
        return n

    def label(self, iid: int) -> str:
        return f"{self.names[iid]} (#{iid})"  # (the core's, from the names dealt once)

    def cost(self, iid: int) -> int:
        """Level, less "tap N less mana" reductions of your creatures; never below 1."""
        prog = self.progs[iid]
        level = prog.level
        if prog.creature and (self.reducers or prog.self_cost):
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
        return level if level > 0 else 0  # (nothing reduces it)

    def _boost(self, iid: int, kind: str) -> int:
        boosts = self.boosts.get(iid)
        if not boosts:  # (most creatures, most of the time: no generator for nothing)
            return 0
        return sum([v for k, v in boosts if k == kind])

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
        if self.entered[iid] == self.turn and self.sick(iid):  # (only a creature that entered this turn is)
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
        unlocked = self.unlocked()
        missing = [c for c in prog.civs if c not in unlocked]
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
                reducing = self.reducers > 0
                for i in hand:
                    prog = progs[i]
                    if prog.level > have and not reducing and not prog.self_cost:
                        continue
                    if not unlocked.issuperset(prog.civs) or ((reducing or prog.self_cost) and self.cost(i) > have):
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

    def check_game_rule(self, action: Action) -> str | None:
        """None when a well-formed rules action is legal now, else why not. Agrees with
        `rule_actions` (tests/test_kaijudo_engine.py checks it), without building the list."""
        kind = action["kind"]
        if kind == "next":
            if self.phase == "attack":
                must = self._must_attack()
                if must is not None:
                    return f"{self.names[must]} attacks each turn if able: attack with it first"
            return None
        card = action["card"]
        if kind == "charge":
            if self.charged:
                return "you have already charged mana this turn (Kaijudo 10B: once a turn)"
            return None if self.where[card] == "hand" else f"{self.name_of(card)} is not in your hand"
        if kind == "attack":
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
        iid = action["card"]  # manual.tap, the one declared
        if self.where[iid] not in ("battle", "mana") or iid in self.beneath:
            raise IllegalAction(f"only cards in the battle zone or the mana zone can be tapped; {self.name_of(iid)} is in {self.zone_label(self.where[iid])}", action)
        self.tapped[iid] = not self.tapped[iid]
        return f"{'tapped' if self.tapped[iid] else 'untapped'} {self.label(iid)}"

    # -- text and views -------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        kind = action.get("kind")
        if kind == "next":
            return PHASE_LABELS.get(self.phase, "Next phase")
        if kind == "manual.tap":
            iid = action.get("card")
            return f"[manual] {'Untap' if self.is_card(iid) and self.tapped[iid] else 'Tap'} #{iid}"
        iid = action.get("card")
        if not self.is_card(iid):
            return repr(action)
        name = self.label(iid)
        if kind == "charge":
            return f"Charge {name} as mana"
        if kind == "summon":
            onto = action.get("onto")
            if onto:
                return f"Summon {name} onto {' + '.join(self.label(b) for b in onto if self.is_card(b))}"
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
            "automated": prog.automation, "manual_text": list(prog.manual_text),
            "tapped": self.tapped[iid] if self.where[iid] in ("battle", "mana") else False,
            "keywords": keywords(prog),
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


def keywords(prog) -> list[str]:
    """The card's printed keywords as players name them, for its tile on the board."""
    words = [word for flag, word in ((prog.evolution is not None, "Evolution"), (prog.blocker, "Blocker"),
                                     (prog.fast, "Fast Attack"), (prog.guard, "Guard"),
                                     (prog.skirmisher, "Skirmisher"), (prog.slayer, "Slayer")) if flag]
    if prog.breaker > 1:
        words.append({2: "Double Breaker", 3: "Triple Breaker"}.get(prog.breaker, f"breaks {prog.breaker}"))
    if prog.powerful_attack:
        words.append(f"Powerful Attack +{prog.powerful_attack}")
    return words

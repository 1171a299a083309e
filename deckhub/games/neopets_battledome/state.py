"""The engine's State: setup, queries, the rules' actions, manual moves and views."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from deckhub.core.actions import RuleAction
from deckhub.core.state import Action, CounterSpec, EngineError, State, ZoneSpec
from deckhub.core.session_values import ValueField
from deckhub.core.tables import fixed
from deckhub.core.tiles import Stat, Tile
from deckhub.games.neopets_battledome import dice
from deckhub.games.neopets_battledome.common import BATTLE_STATS, CODESTONE_CAP, NOT_FOUND, PLAYER_PHASES, ROUNDS_TO_WIN, _BONUS_ZONES, _MOD, _STAT_LIMITS, _compiled, _fight_view_of, _section
from deckhub.games.neopets_battledome.effects import STATS, STAT_LABELS, Program, needed
from deckhub.games.neopets_battledome.ops import BattledomeOps


@dataclass
class BattledomeTable:
    """Everything a Battledome game adds to the core's State (the one declaration `State.clone` copies)."""

    progs: list[Program] = fixed()  # each instance's compiled card
    names: list[str] = fixed()
    bonuses: list[dict[str, int]] = fixed()  # each instance's stat bonuses
    dummy: dict[str, Any] = fixed()  # the training dummy's name and stats
    hp_can_drop: bool  # HP can reach 0 without damage only through negative HP modifiers
    first: bool
    first_drawn: bool  # the turn order was drawn at random (the `first` option)
    turn_limit: int
    dummy_attacks: bool
    round: int
    whose: str  # "you" | "dummy": whose turn it is
    trained: bool
    prepped: bool
    mulliganed: bool
    unresolved: int  # battles that could not be worked out for unknown values
    turn_mods: dict[str, int]  # this turn's modifiers (Potions, Legends, Food); "reduction" too
    shields: dict[int, int]  # "reduce the next damage" not yet used: source card -> amount
    borrowed: dict[str, int]  # Petpet values taken for this battle
    borrow_used: set[str]  # stats borrowed this round (notes §2b)
    face_down: set[int]  # Round Results cards of rounds you lost
    fight: dict[str, Any] | None  # the battle being resolved (its dice lists are changed in place)
    last_battle: Mapping[str, Any] | None  # the last battle's summary: replaced, never changed


class BattledomeState(BattledomeOps, State):
    TABLE = BattledomeTable
    ZONES = (
        ZoneSpec("deck", "Main Deck", hidden=True),
        ZoneSpec("inventory", "Inventory"),
        ZoneSpec("neopet", "Your Neopet"),
        ZoneSpec("codestones", "Codestones"),
        ZoneSpec("equipment", "Equipment"),
        ZoneSpec("faerie", "Faerie slot"),
        ZoneSpec("play_area", "Play Area"),
        ZoneSpec("neopet_deck", "Neopet Deck"),
        ZoneSpec("rainbow_pool", "Rainbow Pool"),
        ZoneSpec("round_results", "Round Results", pile=True),
        ZoneSpec("discard", "Discard pile", pile=True),
        ZoneSpec("void", "Void", pile=True),
    )
    COUNTERS = (
        CounterSpec("damage", "Damage on your Neopet"),
        CounterSpec("dummy_damage", "Damage on the dummy"),
        CounterSpec("rounds_won", "Rounds you won"),
        CounterSpec("dummy_rounds_won", "Rounds the dummy won"),
        CounterSpec("attack_mod", "Attack modifier (manual)", minimum=None),
        CounterSpec("defence_mod", "Defence modifier (manual)", minimum=None),
        CounterSpec("agility_mod", "Agility modifier (manual)", minimum=None),
        CounterSpec("hp_mod", "HP modifier (manual)", minimum=None),
    )
    PHASES = ("setup", "draw", "train", "prep", "battle", "dummy")
    DECK_ZONE = "deck"
    HAND_ZONE = "inventory"
    LIMIT = ("turn_limit", "no match win within the turn limit of {limit} turns")
    GAME_NAME = "Battledome"
    TILE = Tile(stats=(Stat("level_requirement", "Lv req"),))
    RULE_ACTIONS = (
        RuleAction("train", ("card",), phases=("train",), rule="Turn: Train",
                   text="attach a Codestone to your Neopet, once each turn"),
        RuleAction("play", ("card",), phases=(*PLAYER_PHASES, "dummy"), rule="Turn: Prep",
                   text="play your one card of the Prep phase, or eat a Food"),
        RuleAction("borrow", ("stat",), phases=("battle", "dummy"), rule="notes §2b",
                   text="take your Petpet's Attack, Defence or Agility for this battle"),
        RuleAction("attack", phases=("battle",), rule="Turn: Battle", text="attack the dummy"),
        RuleAction("next", phases=("train", "prep", "battle", "dummy"), text="end the phase"),
    )

    VALUE_FIELDS = (
        ValueField("type", "card type", "choice", ("Neopet", "Rainbow Pool Neopet", "Codestone", "Equipment", "Food",
                                                    "Faerie", "Legend", "Paint Brush", "Potion", "Location", "Map Piece",
                                                    "Hero", "Petpet", "Villain", "Faction")),
        ValueField("text", "rules text", "text"),
        ValueField("species", "species", "str"),
        ValueField("hp", "HP", "int", minimum=1, maximum=50),
        ValueField("attack", "Attack", "int", **_STAT_LIMITS),
        ValueField("defence", "Defence", "int", **_STAT_LIMITS),
        ValueField("agility", "Agility", "int", **_STAT_LIMITS),
        ValueField("level_requirement", "level requirement", "int", minimum=0, maximum=CODESTONE_CAP),
        ValueField("attack_bonus", "Attack bonus", "int", minimum=-10, maximum=10),
        ValueField("defence_bonus", "Defence bonus", "int", minimum=-10, maximum=10),
        ValueField("agility_bonus", "Agility bonus", "int", minimum=-10, maximum=10),
        ValueField("hp_bonus", "HP bonus", "int", minimum=-10, maximum=20),
        ValueField("heal", "healing", "int", minimum=0, maximum=50),
        ValueField("damage_reduction", "damage reduction", "int", minimum=0, maximum=50),
        ValueField("draw", "cards drawn", "int", minimum=0, maximum=10),
    )

    @classmethod
    def needed_values(cls, card) -> tuple[str, ...]:
        return needed(card)

    # -- setup (notes §3) ------------------------------------------------------------------------
    def setup(self, deck, catalogue) -> None:
        opts = self.options
        main = _section(deck, "Main Deck", "Main", "Deck")
        pets = _section(deck, "Neopet Deck", "Neopets")
        pool = _section(deck, "Rainbow Pool")
        main_cards = list(_compiled(main, catalogue))
        self.shuffle_items(main_cards)  # shuffle first, then number: an id says nothing (notes §3.1)
        pet_cards, pool_cards = _compiled(pets, catalogue), _compiled(pool, catalogue)
        if not any(p.role == "neopet" for _, p in pet_cards):
            raise EngineError("the Neopet Deck holds no Neopet: a game needs one to field (notes §3.4)")
        self.progs = []
        for zone, dealt in (("deck", main_cards), ("neopet_deck", pet_cards), ("rainbow_pool", pool_cards)):
            self.new_instances([c for c, _ in dealt], zone)
            self.progs.extend(p for _, p in dealt)
        self.names = [c.display_name for c in self.cards]
        self.bonuses = [dict(p.bonus) for p in self.progs]
        self.hp_can_drop = any(b.get("hp", 0) < 0 for b in self.bonuses)
        self.dummy = self._make_dummy(catalogue)
        self.first = self.draw_turn_order()
        self.turn_limit = int(opts["turn_limit"])
        self.dummy_attacks = bool(opts["dummy_attacks"])
        self.round = 1
        self.whose = ""
        self.trained = self.prepped = False
        self.turn_mods = {}
        self.shields = {}
        self.borrowed = {}
        self.borrow_used = set()
        self.face_down = set()
        self.fight = None
        self.last_battle = None
        self.mulliganed = False
        self.phase = "setup"
        hand = self.deal(int(opts["opening_hand"]))
        self.note(f"shuffled the Main Deck ({len(main_cards)} cards), set aside the Neopet Deck ({len(pet_cards)}) and "
                  f"Rainbow Pool ({len(pool_cards)}); opening inventory of {hand} (option; notes §3.5); "
                  f"the dummy: {self._dummy_text()}; {self.turn_order_words(self.first)}")
        unknown: dict[str, tuple] = {}
        for card, prog in (*main_cards, *pet_cards, *pool_cards):
            if prog.missing:
                unknown[card.display_name] = prog.missing
        if unknown:
            self.note("values unknown (the engine does not guess; give them for this game, or use "
                      "manual moves): " + "; ".join(f"{name}: {', '.join(f)}" for name, f in sorted(unknown.items())))
        self.unresolved = 0
        ops: list[tuple] = []
        if opts["mulligan"] and hand:
            ops.append(("mulligan",))
        ops.append(("start",))
        self.push(ops)

    def _make_dummy(self, catalogue) -> dict[str, Any]:
        opts = self.options
        key = (opts.get("dummy_neopet") or "").strip()
        if not key:
            return {"name": "Training dummy", "key": None, "hp": opts["dummy_hp"], "attack": opts["dummy_attack"],
                    "defence": opts["dummy_defence"], "agility": opts["dummy_agility"]}
        card = catalogue.get(key)
        if card is None:
            found = catalogue.lookup(key)
            card = found[0] if len(found) == 1 else None
        if card is None:
            raise EngineError(f"Dummy Neopet: no card {key!r} in the Neopets Battledome catalogue")
        if card.type not in ("Neopet", "Rainbow Pool Neopet"):
            raise EngineError(f"Dummy Neopet: {card.display_name} is a {card.type or 'card of unknown type'}, not a Neopet")
        wanted = ["hp", "defence", "agility"] + (["attack"] if opts["dummy_attacks"] else [])
        unknown = [s for s in wanted if not isinstance(card.attrs.get(s), int)]
        if unknown:
            raise EngineError(f"Dummy Neopet: {card.display_name}'s {', '.join(STAT_LABELS[s] for s in unknown)} "
                              f"unknown — set {'it' if len(unknown) == 1 else 'them'} for this game with card_values "
                              f"({{\"{card.key}\": {{\"{unknown[0]}\": N}}}})")
        return {"name": card.display_name, "key": card.key, "hp": card.attrs["hp"],
                "attack": card.attrs.get("attack") if isinstance(card.attrs.get("attack"), int) else 0,
                "defence": card.attrs["defence"], "agility": card.attrs["agility"]}

    def _dummy_text(self) -> str:
        d = self.dummy
        attack = f", Attack {d['attack']}, hits back" if self.dummy_attacks else ", never attacks"
        return f"{d['name']} (HP {d['hp']}, Defence {d['defence']}, Agility {d['agility']}{attack})"

    # -- queries -----------------------------------------------------------------------------------
    def active(self) -> int | None:
        """Your Neopet in the Battledome: the top card of its zone (a painted Neopet covers its base)."""
        zone = self.zones["neopet"]
        return zone[-1] if zone else None

    def level(self) -> int:
        """Level = the number of Codestones attached (Turn: Train)."""
        return len(self.zones["codestones"]) if self.active() is not None else 0

    def stat(self, name: str) -> int | None:
        """Your Neopet's Attack, Defence, Agility or HP now: printed (or a borrowed Petpet value), plus
        Codestones, Equipment, the Faerie slot, the Play Area, this turn's cards and the manual
        modifier (Turn: Battle, "Gather Attack Dice"). None when the printed value is unknown."""
        top = self.active()
        if top is None:
            return None
        base = self.borrowed.get(name)
        if base is None:
            base = self.progs[top].stat(name)
            if base is None:
                return None
        bonuses = self.bonuses
        zones = self.zones
        total = base + self.turn_mods.get(name, 0) + self.counters[_MOD[name]]
        for zone in _BONUS_ZONES:
            for i in zones[zone]:
                total += bonuses[i].get(name, 0)
        return total

    def unknown_stats(self, names=STATS) -> list[str]:
        top = self.active()
        if top is None:
            return list(names)
        return [s for s in names if self.borrowed.get(s) is None and self.progs[top].stat(s) is None]

    def playable_level(self, iid: int) -> str | None:
        prog = self.progs[iid]
        level = prog.level
        if level is not None and self.zones["neopet"] and level <= len(self.zones["codestones"]):
            return None  # the usual case, without building a message
        if level is None:
            return f"{self.names[iid]}'s level requirement is unknown — set it for this game (card_values)"
        if self.active() is None:
            return "you have no Neopet in the Battledome"
        if prog.level > self.level():
            return (f"{self.names[iid]} needs level {prog.level}; your Neopet is level {self.level()} "
                    f"({len(self.zones['codestones'])} Codestones) (Turn: Prep)")
        return None

    def food_block(self, iid: int) -> str | None:
        if self.where[iid] != "inventory":
            return f"{self.name_of(iid)} is not in your inventory"
        if self.progs[iid].role != "food":
            return None
        return self.playable_level(iid)

    def prep_block(self, iid: int) -> str | None:
        """Why this card cannot be your Prep card now, or None."""
        prog = self.progs[iid]
        name = self.names[iid]
        if self.where[iid] != "inventory":
            return f"{self.name_of(iid)} is not in your inventory"
        role = prog.role
        if role == "food":
            return self.food_block(iid)
        if role == "codestone":
            return f"{name} is a Codestone: attach it in the Train phase (Turn: Train)"
        if role == "neopet":
            return f"{name} is a Neopet: it does not come from the inventory"
        if role in ("unknown", "faction"):
            return (f"{name}'s card type is unknown — set it for this game (card_values)" if role == "unknown"
                    else f"{name} is a Faction: it is not played from the inventory")
        if self.prepped:
            return "you have already played your one card this turn (Turn: Prep: one card; Food does not count)"
        if self.phase != "prep":
            return f"one card is played in the Prep phase (now: {self.phase}) (Turn: Prep)"
        block = self.playable_level(iid)
        if block:
            return block
        replace = self.options["full_slot"] == "replace"
        if role in ("equipment", "petpet"):
            slots = int(self.options["equipment_slots"])
            if role == "petpet" and any(self.progs[i].role == "petpet" for i in self.zones["equipment"]):
                return "you already have a Petpet in play (at most 1, notes §2b)"
            if len(self.zones["equipment"]) >= slots and not replace:
                return f"your {slots} Equipment slots are full (notes §2b; option equipment_slots)"
        elif role == "slot":
            if self.zones["faerie"] and not replace:
                return (f"the Faerie slot (shared by Faeries, Heroes and Villains) holds "
                        f"{self.names[self.zones['faerie'][-1]]} (notes §2b)")
        elif role == "brush" and self.options["painting"] == "same_species" and not self.paint_targets():
            return f"no Rainbow Pool Neopet of your Neopet's species to paint into (option painting)"
        return None

    def paint_targets(self) -> list[int]:
        top = self.active()
        if top is None:
            return []
        species = self.progs[top].species
        if not species:
            return []
        return [i for i in self.zones["rainbow_pool"]
                if self.progs[i].role == "neopet" and self.progs[i].species == species]

    def train_block(self, iid: int) -> str | None:
        if self.where[iid] != "inventory":
            return f"{self.name_of(iid)} is not in your inventory"
        if self.progs[iid].role != "codestone":
            return f"{self.names[iid]} is not a Codestone"
        if self.trained:
            return "you have already attached a Codestone this turn (Turn: Train: once each turn)"
        if self.phase != "train":
            return f"Codestones are attached in the Train phase (now: {self.phase}) (Turn: Train)"
        if self.active() is None:
            return "you have no Neopet to attach it to"
        if len(self.zones["codestones"]) >= CODESTONE_CAP:
            return f"your Neopet already has {CODESTONE_CAP} Codestones, the most it can have (Turn: Train)"
        if self.progs[iid].missing:
            return f"{self.names[iid]}'s bonus is unknown — set it for this game (card_values)"
        return None

    def petpet(self) -> int | None:
        for i in self.zones["equipment"]:
            if self.progs[i].role == "petpet":
                return i
        return None

    def borrow_block(self, stat: Any) -> str | None:
        if stat not in BATTLE_STATS:
            return f"a Petpet lends Attack, Defence or Agility, not {stat!r}"
        if self.phase not in ("battle", "dummy"):
            return f"a Petpet's value is taken in a Battle phase (now: {self.phase}) (notes §2b)"
        pet = self.petpet()
        if pet is None:
            return "you have no Petpet in play"
        if self.progs[pet].stat(stat) is None:
            return f"{self.names[pet]}'s {STAT_LABELS[stat]} is unknown — set it for this game (card_values)"
        if stat in self.borrow_used:
            return f"{STAT_LABELS[stat]} was already taken from a Petpet this round (notes §2b)"
        return None

    def attack_block(self) -> str | None:
        if self.phase != "battle":
            return f"you attack in the Battle phase (now: {self.phase}) (Turn: Battle)"
        if self.active() is None:
            return "you have no Neopet in the Battledome"
        unknown = self.unknown_stats(("attack", "agility"))
        if unknown:
            return (f"{self.names[self.active()]}'s {' and '.join(STAT_LABELS[s] for s in unknown)} "
                    f"unknown — set {'it' if len(unknown) == 1 else 'them'} for this game (card_values)")
        return None

    def food_cards(self) -> list[int]:
        progs = self.progs
        return [i for i in self.zones["inventory"] if progs[i].role == "food" and self.food_block(i) is None]

    # -- the rules' actions --------------------------------------------------------------------------
    def rule_actions(self) -> list[Action]:
        phase = self.phase
        actions: list[Action] = []
        if phase == "train":
            if not self.trained:
                actions = [{"kind": "train", "card": i} for i in self.zones["inventory"] if self.train_block(i) is None]
        elif phase == "prep":
            if not self.prepped:
                actions = [{"kind": "play", "card": i} for i in self.zones["inventory"]
                           if self.progs[i].role != "food" and self.prep_block(i) is None]
        if phase in PLAYER_PHASES or phase == "dummy":
            actions.extend({"kind": "play", "card": i} for i in self.food_cards())
        if phase in ("battle", "dummy") and self.petpet() is not None:
            actions.extend({"kind": "borrow", "stat": s} for s in BATTLE_STATS if self.borrow_block(s) is None)
        if phase == "battle":
            actions.append({"kind": "attack"} if self.attack_block() is None else {"kind": "next"})
        elif phase in ("train", "prep", "dummy"):
            actions.append({"kind": "next"})
        return actions

    def check_game_rule(self, action: Action) -> str | None:
        """None when a well-formed rules action is legal now, else why not (agrees with `rule_actions`)."""
        kind = action["kind"]
        if kind == "attack":
            return self.attack_block()
        if kind == "next":
            if self.phase == "battle" and self.attack_block() is None:
                return "the Battle phase is not skipped: attack (Turn: Battle; Battle is compulsory, notes §4)"
            return None
        if kind == "borrow":
            return self.borrow_block(action["stat"])
        card = action["card"]
        if kind == "train":
            return self.train_block(card)
        if self.progs[card].role == "food":
            return self.food_block(card)
        return self.prep_block(card)

    def apply_rule(self, action: Action) -> None:
        kind = action["kind"]
        if kind == "next":
            self.end_phase(manual=False)
        elif kind == "attack":
            self.push((("battle", "you"), ("end_turn",)))
        elif kind == "borrow":
            stat = action["stat"]
            pet = self.petpet()
            self.borrowed[stat] = self.progs[pet].stat(stat)
            self.borrow_used.add(stat)
            self.note(f"your Neopet takes {self.names[pet]}'s {STAT_LABELS[stat]} of {self.borrowed[stat]} for this battle")
        elif kind == "train":
            self._train(action["card"])
        elif self.progs[action["card"]].role == "food":
            self._eat(action["card"])
        else:
            self._prep(action["card"])

    def end_phase(self, manual: bool) -> None:
        phase = self.phase
        if phase == "train":
            self.phase = "prep"
        elif phase == "prep":
            self.phase = "battle"
        elif phase == "battle":  # only by a manual move, or when the attack cannot be worked out
            if not manual:
                self.unresolved += 1
                self.note("no battle: " + (self.attack_block() or "it cannot be resolved"))
            self.push((("end_turn",),))
        elif phase == "dummy":
            if manual:
                self.push((("begin_turn",),))
            else:
                self.push((("battle", "dummy"), ("begin_turn",)))
        elif phase == "draw":
            self.phase = "train"

    # -- manual moves --------------------------------------------------------------------------------
    def manual_move_error(self, iid: int, to: str) -> str | None:
        if to == "neopet" and self.progs[iid].role != "neopet":
            return f"only a Neopet can be your Neopet; {self.names[iid]} is a {self.cards[iid].type or 'card of unknown type'}"
        return None

    def manual_move(self, iid: int, to: str, bottom: bool) -> str:
        self.face_down.discard(iid)
        return State.manual_move(self, iid, to, bottom)

    # -- text and views ------------------------------------------------------------------------------
    def _fight_view(self) -> dict[str, Any] | None:
        """The battle being resolved (during a reroll or cash-in choice): the dice as they stand."""
        return _fight_view_of(self.fight)

    def describe(self, action: Action) -> str:
        kind = action.get("kind")
        if kind == "next":
            return {"train": "End the Train phase (no Codestone)", "prep": "End the Prep phase",
                    "battle": "Skip the battle", "dummy": "Let the dummy attack"}.get(self.phase, "Next phase")
        if kind == "attack":
            a = self.stat("attack")
            return f"Attack the dummy ({dice.dice_pool(a or 0)} dice against {dice.dice_pool(self.dummy['defence'])})"
        if kind == "borrow":
            pet = self.petpet()
            stat = action.get("stat")
            if pet is not None and stat in BATTLE_STATS:
                return f"Take {self.names[pet]}'s {STAT_LABELS[stat]} ({self.progs[pet].stat(stat)}) for this battle"
            return repr(action)
        iid = action.get("card")
        if not self.is_card(iid):
            return repr(action)
        if kind == "train":
            return f"Attach {self.label(iid)}{self._bonus_text(self.progs[iid])}"
        if kind == "play":
            prog = self.progs[iid]
            verb = {"food": "Eat", "equipment": "Equip", "petpet": "Equip"}.get(prog.role, "Play")
            return f"{verb} {self.label(iid)}{self._bonus_text(prog)}"
        return repr(action)

    def card_view(self, iid: int) -> dict[str, Any]:
        card = self.cards[iid]
        prog = self.progs[iid]
        view: dict[str, Any] = {
            "id": iid, "key": card.key, "name": self.names[iid], "type": card.type, "text": card.text,
            "level_requirement": prog.level, "automated": prog.automation, "manual_text": list(prog.manual_text),
            "unknown": list(prog.missing), "session_values": sorted(k for k, v in card.provenance.items() if v == "session"),
        }
        if prog.role in ("neopet", "petpet"):
            view["stats"] = {s: prog.stat(s) for s in STATS}
            view["species"] = prog.species
        if prog.bonus:
            view["bonus"] = dict(prog.bonus)
        for name in ("heal", "reduction", "turn_reduction", "shield", "ward", "draw"):
            if getattr(prog, name):
                view[name] = getattr(prog, name)
        if not prog.behaviour_known:
            view["effect_unknown"] = True
        if self.where[iid] == "round_results":
            view["face_down"] = iid in self.face_down
        if self.where[iid] == "inventory":
            if prog.role == "codestone":
                view["playable"] = self.phase == "train" and self.train_block(iid) is None
            elif prog.role == "food":
                view["playable"] = (self.phase in PLAYER_PHASES or self.phase == "dummy") and self.food_block(iid) is None
            else:
                view["playable"] = self.phase == "prep" and self.prep_block(iid) is None
        return view

    def extra_view(self) -> dict[str, Any]:
        top = self.active()
        hp = self.stat("hp")
        you = {
            "neopet": self.card_view(top) if top is not None else None,
            "level": self.level(), "codestones": len(self.zones["codestones"]),
            "stats": {s: self.stat(s) for s in STATS},
            "dice": {s: (None if self.stat(s) is None else dice.dice_pool(self.stat(s))) for s in ("attack", "defence")},
            "hp": hp, "damage": self.counters["damage"],
            "hp_left": None if hp is None else max(0, hp - self.counters["damage"]),
            "this_turn": dict(self.turn_mods), "next_damage_reduced": sum(self.shields.values()),
            "borrowed": dict(self.borrowed), "borrowed_this_round": sorted(self.borrow_used),
            "trained_this_turn": self.trained, "prep_card_played": self.prepped,
        }
        d = self.dummy
        dummy = {"name": d["name"], "key": d["key"], "hp": d["hp"], "damage": self.counters["dummy_damage"],
                 "hp_left": max(0, d["hp"] - self.counters["dummy_damage"]), "defence": d["defence"],
                 "agility": d["agility"], "attack": d["attack"], "attacks": self.dummy_attacks,
                 "dice": {"defence": dice.dice_pool(d["defence"]), "attack": dice.dice_pool(d["attack"]) if self.dummy_attacks else 0}}
        return {"battledome": {
            "round": self.round, "rounds_won": self.counters["rounds_won"],
            "dummy_rounds_won": self.counters["dummy_rounds_won"], "rounds_to_win": ROUNDS_TO_WIN,
            "whose_turn": self.whose, "first": self.first, "turn_limit": self.turn_limit,
            "you": you, "dummy": dummy, "last_battle": self.last_battle, "battle_now": self._fight_view(),
            "not_found": dict(NOT_FOUND),
        }}

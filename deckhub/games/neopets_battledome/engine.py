"""Neopets Battledome goldfish: your Neopet fights a training dummy (GUIDE §5).

Sources: Upper Deck's article on a turn (`../shared/rules/neopets-battledome-turn.md`, the authority
for the battle arithmetic, cited "Turn: <phase>") and the sourced notes
(`../shared/rules/neopets-battledome-notes.md`, cited "notes §n", each point tagged with how sure
it is). Where the notes mark a point NOT FOUND the engine makes it an option with a documented
default (see OPTIONS below and `not_found` in the view).

The dummy is a Neopet that never plays cards: its HP, Defence and Agility (and Attack, when it hits
back) are options, or a real Neopet from the catalogue. It gathers defence dice, rolls and rerolls
as the rules say (when its Agility is higher it rerolls failed dice: a reroll of a failed die can
never lose). Each new round it comes back fresh.

Your side: the Main Deck shuffled, the Neopet Deck and Rainbow Pool set aside, an opening inventory
(option), a first Neopet chosen; then each of your turns (Turn: Draw, Train, Prep, Battle):
  draw            every turn, the first included (Turn: Draw)
  train phase     {"kind": "train", "card": i}: attach one Codestone, once a turn, at most 5;
                  level = Codestones (Turn: Train); the phase ends with it
  prep phase      {"kind": "play", "card": i}: one card whose level requirement is at most the
                  level (Turn: Prep): Equipment and a Petpet in the Equipment slots, a Faerie, Hero
                  or Villain in the one shared slot, Legends and Potions (to the discard pile, their
                  bonuses for this turn), Paint Brushes, Locations and Map Pieces (Play Area)
  any window      {"kind": "play", "card": i} with a Food: does not count as the Prep card, any
                  number, goes to the Void (Turn: Prep; notes §8b)
  battle phase    {"kind": "borrow", "stat": s}: take the Petpet's value (notes §2b)
                  {"kind": "attack"}: roll (Turn: Battle); then a reroll choice when your Agility
                  is higher: mark dice one by one ({"kind": "choose", "option": die index}), then
                  {"kind": "choose", "option": "done"}
  {"kind": "next"} ends the train or prep phase (and, on the dummy's turn, lets it attack).
A knock-out ends the round (Turn: End of Round): the winner's Neopet to Round Results face up, the
loser's face down, Equipment to the discard pile, Faeries to the Void, inventories kept, the next
Neopet in; two round wins win the match. The outcome's turn is your turn the match ended on.
"""
from __future__ import annotations

from typing import Any

from deckhub.core.engine import (Action, Choice, CounterSpec, Engine, EngineError, OptionSpec,
                                 State, ZoneSpec)
from deckhub.core.session_values import ValueField, card_values_option
from deckhub.games.neopets_battledome import dice
from deckhub.games.neopets_battledome.effects import (STAT_LABELS, STATS, Program, compile_card, coverage, needed)

CODESTONE_CAP = 5  # Turn: Train ("cannot exceed 5 Codestones")
ROUNDS_TO_WIN = 2  # Turn: End of Round ("2 round wins is the Champion")
PLAYER_PHASES = ("train", "prep", "battle")
_BONUS_ZONES = ("codestones", "equipment", "faerie", "play_area")  # where a card's bonus counts while it is there
_MOD = {s: f"{s}_mod" for s in ("attack", "defence", "agility", "hp")}
BATTLE_STATS = ("attack", "defence", "agility")

# The training dummy's defaults: the one Neopet with published stats (Acara: HP 8, Attack 3,
# Defence 2; data/neopets-battledome/cards.json) with the Agility of the Acara in Upper Deck's own
# example (Turn: Battle, "the defending Acara has an Agility of 5").
DUMMY_DEFAULTS = {"hp": 8, "attack": 3, "defence": 2, "agility": 5}

# What the sandbox shows next to the options: the points no source settles (notes §3, §7, §9).
NOT_FOUND = {
    "opening_hand": "opening inventory size: not found in any readable source (notes §3.5); default 5",
    "mulligan": "mulligan: not found (notes §3.6); default off",
    "deck_out": "drawing from an empty Main Deck: not found (notes §7); default: the draw is skipped",
    "equipment_slots": "Equipment limit 3: SI.com only (notes §2b, SECONDARY)",
    "full_slot": "playing into a full Faerie or Equipment slot: not found (notes §9.5-9.6); default: not allowed",
    "painting": "how a Paint Brush swaps in a Rainbow Pool Neopet: not found (notes §9.12); default: choose one of "
                "the same species, Codestones, Equipment and damage stay",
    "codestones_at_round_end": "Codestones at the end of a round: not in the article; they are part of the "
                               "Neopet (March 2025 update), so they go with it to Round Results",
}

_STAT_LIMITS = dict(minimum=0, maximum=30)


def _compiled(entries: dict[str, int], catalogue) -> list[tuple]:
    """(card, program) per copy of a deck section, kept on the catalogue: dealing only shuffles."""
    def build() -> list[tuple]:
        found: list[tuple] = []
        for card_key, qty in entries.items():
            card = catalogue.get(card_key)
            if card is None:
                raise EngineError(f"card {card_key!r} is not in the Neopets Battledome catalogue")
            found.extend([(card, catalogue.compiled(compile_card, card))] * qty)
        return found
    return catalogue.memo_each("neopets_battledome.decks", tuple(entries.items()), build, limit=512)


def _section(deck, *names: str) -> dict[str, int]:
    for name in names:
        if name in deck.sections:
            return deck.sections[name]
    return {}


class BattledomeState(State):
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
        ZoneSpec("round_results", "Round Results"),
        ZoneSpec("discard", "Discard pile"),
        ZoneSpec("void", "Void"),
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
        self.rng.shuffle(main_cards)  # shuffle first, then number: an id says nothing (notes §3.1)
        pet_cards, pool_cards = _compiled(pets, catalogue), _compiled(pool, catalogue)
        if not any(p.role == "neopet" for _, p in pet_cards):
            raise EngineError("the Neopet Deck holds no Neopet: a game needs one to field (notes §3.4)")
        cards = self.cards
        self.progs: list[Program] = []
        start = 0
        for zone, dealt in (("deck", main_cards), ("neopet_deck", pet_cards), ("rainbow_pool", pool_cards)):
            cards.extend(c for c, _ in dealt)
            self.progs.extend(p for _, p in dealt)
            self.zones[zone] = list(range(start, start + len(dealt)))
            self.where.extend([zone] * len(dealt))
            start += len(dealt)
        self.names = [c.display_name for c in cards]
        self.bonuses = [dict(p.bonus) for p in self.progs]
        # HP can reach 0 without damage only through negative HP modifiers
        self.hp_can_drop = any(b.get("hp", 0) < 0 for b in self.bonuses)
        self.dummy = self._make_dummy(catalogue)
        self.first = bool(opts["first"])
        self.turn_limit = int(opts["turn_limit"])
        self.dummy_attacks = bool(opts["dummy_attacks"])
        self.round = 1
        self.whose = ""  # "you" | "dummy": whose turn it is
        self.trained = self.prepped = False
        self.turn_mods: dict[str, int] = {}  # this turn's modifiers (Potions, Legends, Food); "reduction" too
        self.borrowed: dict[str, int] = {}  # Petpet values taken for this battle
        self.borrow_used: set[str] = set()  # stats borrowed this round (notes §2b)
        self.face_down: set[int] = set()  # Round Results cards of rounds you lost
        self.fight: dict[str, Any] | None = None  # the battle being resolved
        self.last_battle: dict[str, Any] | None = None
        self.mulliganed = False
        self.phase = "setup"
        hand = min(int(opts["opening_hand"]), len(self.zones["deck"]))
        self.draw(hand, quiet=True)
        self.note(f"shuffled the Main Deck ({len(main_cards)} cards), set aside the Neopet Deck ({len(pet_cards)}) and "
                  f"Rainbow Pool ({len(pool_cards)}); opening inventory of {hand} (option; notes §3.5); "
                  f"the dummy: {self._dummy_text()}; you go {'first' if self.first else 'second'}")
        unknown: dict[str, tuple] = {}
        for card, prog in (*main_cards, *pet_cards, *pool_cards):
            if prog.missing:
                unknown[card.display_name] = prog.missing
        if unknown:
            self.note("values unknown (the engine does not guess; set them for this game with card_values, or use "
                      "manual moves): " + "; ".join(f"{name}: {', '.join(f)}" for name, f in sorted(unknown.items())))
        self.unresolved = 0  # battles that could not be worked out for unknown values
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
            raise EngineError(f"dummy_neopet: no card {key!r} in the Neopets Battledome catalogue")
        if card.type not in ("Neopet", "Rainbow Pool Neopet"):
            raise EngineError(f"dummy_neopet: {card.display_name} is a {card.type or 'card of unknown type'}, not a Neopet")
        wanted = ["hp", "defence", "agility"] + (["attack"] if opts["dummy_attacks"] else [])
        unknown = [s for s in wanted if not isinstance(card.attrs.get(s), int)]
        if unknown:
            raise EngineError(f"dummy_neopet: {card.display_name}'s {', '.join(STAT_LABELS[s] for s in unknown)} "
                              f"unknown — set {'it' if len(unknown) == 1 else 'them'} for this game with card_values "
                              f"({{\"{card.key}\": {{\"{unknown[0]}\": N}}}})")
        return {"name": card.display_name, "key": card.key, "hp": card.attrs["hp"],
                "attack": card.attrs.get("attack") if isinstance(card.attrs.get("attack"), int) else 0,
                "defence": card.attrs["defence"], "agility": card.attrs["agility"]}

    def _dummy_text(self) -> str:
        d = self.dummy
        attack = f", Attack {d['attack']}, hits back" if self.dummy_attacks else ", never attacks"
        return f"{d['name']} (HP {d['hp']}, Defence {d['defence']}, Agility {d['agility']}{attack})"

    def copy_extra(self, new: "BattledomeState") -> None:
        new.turn_mods = self.turn_mods.copy()
        new.borrowed = self.borrowed.copy()
        new.borrow_used = self.borrow_used.copy()
        new.face_down = self.face_down.copy()
        new.dummy = dict(self.dummy)
        new.fight = _copy_fight(self.fight)
        new.last_battle = self.last_battle  # replaced, never mutated

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

    def check_rule(self, action: Action) -> str | None:
        """None when the rules action is legal now, else why not (agrees with `rule_actions`)."""
        kind = action.get("kind")
        phase = self.phase
        if kind in ("next", "attack"):
            if len(action) != 1:
                return f"{kind} takes no other field"
            if kind == "attack":
                return self.attack_block()
            if phase == "battle":
                if self.attack_block() is None:
                    return "the Battle phase is not skipped: attack (Turn: Battle; Battle is compulsory, notes §4)"
                return None
            return None if phase in ("train", "prep", "dummy") else f"the {phase or 'setup'} phase ends by itself"
        if kind == "borrow":
            if set(action) != {"kind", "stat"}:
                return "borrow takes one field, \"stat\""
            return self.borrow_block(action.get("stat"))
        if kind not in ("train", "play"):
            return (f"unknown action kind {kind!r} (Battledome actions: train, play, borrow, attack, next; "
                    "choose, decline and manual.*)")
        card = action.get("card")
        if card.__class__ is not int or not 0 <= card < len(self.cards):
            return f"there is no card #{card!r} in this game"
        if len(action) != 2:
            return f"{kind} takes no field {', '.join(sorted(map(repr, set(action) - {'kind', 'card'})))}"
        if kind == "train":
            return self.train_block(card)
        if self.progs[card].role == "food":
            if phase not in PLAYER_PHASES and phase != "dummy":
                return f"no card can be played now (phase: {phase})"
            return self.food_block(card)
        return self.prep_block(card)

    def explain_illegal(self, action: Action) -> str:
        return self.check_rule(action) or f"{action.get('kind')!r} is not a legal action now"

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

    # -- playing cards ------------------------------------------------------------------------------
    def _train(self, iid: int) -> None:
        self.move(iid, "codestones")
        self.trained = True
        bonus = ", ".join(f"{v:+d} {STAT_LABELS[k]}" for k, v in self.progs[iid].bonus) or "no bonus"
        self.note(f"attached {self.label(iid)} ({bonus}): level {self.level()}")
        self.phase = "prep"  # "That concludes the Train phase" (Turn: Train)

    def _prep(self, iid: int) -> None:
        prog = self.progs[iid]
        role = prog.role
        self.prepped = True
        if role in ("equipment", "petpet"):
            if len(self.zones["equipment"]) >= int(self.options["equipment_slots"]):
                old = self.zones["equipment"][0]
                self.move(old, "discard")
                self.note(f"{self.label(old)} makes room: to the discard pile (option full_slot)")
            self.move(iid, "equipment")
            self.note(f"equipped {self.label(iid)}{self._bonus_text(prog)}")
            self._enter_effects(iid)
        elif role == "slot":
            if self.zones["faerie"]:
                old = self.zones["faerie"][-1]
                self.move(old, "void")
                self.note(f"{self.label(old)} leaves the Faerie slot: to the Void (option full_slot)")
            self.move(iid, "faerie")
            self.note(f"played {self.label(iid)} into the Faerie slot{self._bonus_text(prog)}")
            self._enter_effects(iid)
        elif role == "one_shot":
            self.move(iid, "discard")
            self.note(f"played {self.label(iid)}{self._bonus_text(prog, ' this turn')}")
            self._turn_effects(iid)
        elif role == "brush":
            self.move(iid, "discard")
            self.note(f"played {self.label(iid)}")
            if self.options["painting"] == "same_species":
                self.push((("paint", iid),), iid)
            else:
                self.note("painting is left to manual moves (option painting): move a Rainbow Pool Neopet onto your Neopet")
        elif role == "play_area":
            self.move(iid, "play_area")
            self.note(f"put {self.label(iid)} into the Play Area{self._bonus_text(prog)}")
            self._enter_effects(iid)
        self._flag_manual(iid)
        if self.phase == "prep":
            self.phase = "battle"  # "Now that you have played your card for the turn" (Turn: Prep)

    def _eat(self, iid: int) -> None:
        prog = self.progs[iid]
        self.move(iid, "void")  # every Food goes to the Void once it resolves (notes §8b)
        self.note(f"ate {self.label(iid)} (Food: not your Prep card){self._bonus_text(prog, ' this turn')}; to the Void")
        self._turn_effects(iid)
        self._flag_manual(iid)

    @staticmethod
    def _bonus_text(prog: Program, when: str = "") -> str:
        parts = [f"{v:+d} {STAT_LABELS[k]}" for k, v in prog.bonus]
        if prog.reduction and prog.role in ("food", "one_shot"):
            parts.append(f"{prog.reduction} less damage")
        return f": {', '.join(parts)}{when}" if parts else ""

    def _enter_effects(self, iid: int) -> None:
        prog = self.progs[iid]
        if prog.heal:
            self._heal(prog.heal, iid)
        if prog.draw:
            self.draw(prog.draw)

    def _turn_effects(self, iid: int) -> None:
        prog = self.progs[iid]
        mods = self.turn_mods
        for k, v in prog.bonus:
            mods[k] = mods.get(k, 0) + v
        if prog.reduction:
            mods["reduction"] = mods.get("reduction", 0) + prog.reduction
        if prog.heal:
            self._heal(prog.heal, iid)
        if prog.draw:
            self.draw(prog.draw)

    def _heal(self, amount: int, source: int) -> None:
        before = self.counters["damage"]
        self.counters["damage"] = max(0, before - amount)
        self.note(f"{self.names[source]} heals {before - self.counters['damage']} damage (now {self.counters['damage']})")

    def _flag_manual(self, iid: int) -> None:
        prog = self.progs[iid]
        if prog.manual_text:
            self.note(f"{self.names[iid]}: not automated: {' / '.join(prog.manual_text)} (use manual moves if it applies)")
        elif not prog.behaviour_known:
            self.note(f"{self.names[iid]}: what it does is not in the catalogue (set its values for this game, "
                      "or use manual moves)")

    # -- the queue ---------------------------------------------------------------------------------
    def run(self) -> None:
        """Run queued ops, checking between them for knock-outs, round wins and a missing Neopet
        (so a knock-out by a battle, a card or a manual counter ends the round at once)."""
        queue = self.queue
        while self.pending is None and self.outcome is None:
            if self._check():
                continue
            if not queue:
                return
            op, source = queue.pop()
            self.run_op(op, source)

    def _check(self) -> bool:
        counters = self.counters
        if counters["rounds_won"] >= ROUNDS_TO_WIN:
            self.win(f"won {counters['rounds_won']} rounds: Champion of the Battledome (Turn: End of Round)")
            return True
        if counters["dummy_rounds_won"] >= ROUNDS_TO_WIN:
            self.lose(f"the dummy won {counters['dummy_rounds_won']} rounds (Turn: End of Round)")
            return True
        top = self.active()
        if top is not None and (counters["damage"] or self.hp_can_drop or counters["hp_mod"] < 0):  # printed HP is at least 1
            hp = self.stat("hp")
            if hp is not None and counters["damage"] >= hp:
                self._end_round("dummy")
                return True
        if counters["dummy_damage"] >= self.dummy["hp"]:
            self._end_round("you")
            return True
        if top is None:
            ready = [i for i in self.zones["neopet_deck"] if self.progs[i].role == "neopet"]
            if not ready:
                self.lose("no Neopet left in your Neopet Deck to field")
                return True
            if len(ready) == 1:
                self._field(ready[0])
            else:
                self.ask("Choose the Neopet to send into the Battledome",
                         [(i, self._neopet_label(i)) for i in ready], ("field",))
            return True
        return False

    def _neopet_label(self, iid: int) -> str:
        prog = self.progs[iid]
        stats = ", ".join(f"{STAT_LABELS[s]} {prog.stat(s) if prog.stat(s) is not None else '?'}"
                          for s in ("hp", "attack", "defence", "agility"))
        return f"{self.names[iid]} (#{iid}): {stats}"

    def _field(self, iid: int) -> None:
        self.move(iid, "neopet")
        self.note(f"{self.label(iid)} enters the Battledome (round {self.round})"
                  + ("" if not self.progs[iid].missing else
                     f"; unknown: {', '.join(self.progs[iid].missing)} — set for this game (card_values)"))

    def _end_round(self, winner: str) -> None:
        """Turn: End of Round: the winner's Neopet face up to Round Results, the loser's face down;
        Equipment to the discard pile, Faeries to the Void; inventories kept; the next Neopet in."""
        counters = self.counters
        you_won = winner == "you"
        counters["rounds_won" if you_won else "dummy_rounds_won"] += 1
        if you_won:
            self.note(f"KNOCK-OUT: {self.dummy['name']} takes {counters['dummy_damage']} damage (HP {self.dummy['hp']}): "
                      f"you win round {self.round} ({counters['rounds_won']}-{counters['dummy_rounds_won']})")
        else:
            top = self.active()
            self.note(f"KNOCK-OUT: {self.names[top] if top is not None else 'your Neopet'} takes {counters['damage']} "
                      f"damage: the dummy wins round {self.round} ({counters['rounds_won']}-{counters['dummy_rounds_won']})")
        for iid in list(self.zones["neopet"]) + list(self.zones["codestones"]):
            self.move(iid, "round_results")
            if not you_won:
                self.face_down.add(iid)
        for iid in list(self.zones["equipment"]):
            self.move(iid, "discard")
        for iid in list(self.zones["faerie"]):
            self.move(iid, "void")
        for name in ("damage", "dummy_damage", "attack_mod", "defence_mod", "agility_mod", "hp_mod"):
            counters[name] = 0
        self.turn_mods.clear()
        self.borrowed.clear()
        self.borrow_used.clear()
        self.round += 1
        if counters["rounds_won"] >= ROUNDS_TO_WIN or counters["dummy_rounds_won"] >= ROUNDS_TO_WIN:
            return
        self.note(f"round {self.round} begins: a fresh {self.dummy['name']}; Equipment to the discard pile, "
                  "Faeries to the Void, your inventory kept")
        if not self.queue and self.phase in PLAYER_PHASES:
            self.push((("end_turn",),))  # the next player in turn order goes on (Turn: End of Round)
        elif not self.queue and self.phase == "dummy":
            self.push((("begin_turn",),))

    # turn flow
    def _op_mulligan(self, op, source):
        n = len(self.zones["inventory"])
        self.ask(f"Keep your opening inventory of {n} cards? (option mulligan: once, before the first turn)",
                 (("keep", "Keep it"), ("mulligan", f"Shuffle it into the Main Deck and draw {n} new cards")), op)

    def _res_mulligan(self, op, source, value):
        if value != "mulligan":
            self.note("kept the opening inventory")
            return
        n = len(self.zones["inventory"])
        for iid in list(self.zones["inventory"]):
            self.move(iid, "deck")
        self.shuffle("deck")
        self.draw(n, quiet=True)
        self.mulliganed = True
        self.note(f"mulligan: shuffled the inventory back and drew {n} new cards")

    def _res_field(self, op, source, value):
        self._field(value)

    def _op_start(self, op, source):
        if self.first:
            self.push((("begin_turn",),))
        else:
            self.push((("dummy_turn",),))

    def _op_begin_turn(self, op, source):
        if self.limit_reached(f" ({self.unresolved} of your battles could not be resolved: values unknown, see card_values)"
                              if self.unresolved else ""):
            return
        self.turn += 1
        self.whose = "you"
        self.phase = "draw"
        self.trained = self.prepped = False
        self.turn_mods.clear()
        self.borrowed.clear()
        self.note(f"turn {self.turn} begins (round {self.round})")
        deck = self.zones["deck"]
        if deck:
            iid = deck[-1]
            self.move(iid, "inventory")  # every turn, the first included (Turn: Draw)
            self.note(f"drew {self.label(iid)}")
        else:
            self._deck_out()
        if self.outcome is None:
            self.phase = "train"

    def _deck_out(self) -> None:
        mode = self.options["deck_out"]
        if mode == "skip":
            self.note("the Main Deck is empty: no draw (option deck_out; no rule found, notes §7)")
        elif mode == "damage":
            self.counters["damage"] += 1
            self.note("the Main Deck is empty: your Neopet takes 1 damage (option deck_out)")
        elif mode == "lose_round":
            self.note("the Main Deck is empty: you lose the round (option deck_out)")
            if self.active() is not None:
                self.counters["damage"] = max(self.counters["damage"], self.stat("hp") or 0)
            self._end_round("dummy")
        else:
            self.lose("had to draw from an empty Main Deck (option deck_out: lose the match)")

    def _op_end_turn(self, op, source):
        self.turn_mods.clear()  # "cards played this turn" stop counting (Turn: Battle)
        self.borrowed.clear()
        self.push((("dummy_turn",),))

    def _op_dummy_turn(self, op, source):
        self.whose = "dummy"
        if self.dummy_attacks:
            self.phase = "dummy"  # a window for Food before the dummy attacks; "next" lets it attack
        else:
            self.push((("begin_turn",),))

    # the battle (Turn: Battle)
    def _op_battle(self, op, source):
        attacker = op[1]
        d = self.dummy
        if attacker == "you":
            att, deff, att_ag, def_ag = self.stat("attack"), d["defence"], self.stat("agility"), d["agility"]
        else:
            unknown = self.unknown_stats(("defence", "agility")) if self.active() is not None else ["neopet"]
            if unknown:
                self.note("the dummy's attack is not resolved: " + (
                    "you have no Neopet in the Battledome" if unknown == ["neopet"] else
                    f"your Neopet's {' and '.join(STAT_LABELS[s] for s in unknown)} unknown (card_values)"))
                return
            att, deff, att_ag, def_ag = d["attack"], self.stat("defence"), d["agility"], self.stat("agility")
        n_att, n_def = dice.dice_pool(att), dice.dice_pool(deff)
        attack, defence = dice.roll(self.rng, n_att), dice.roll(self.rng, n_def)
        who, diff = dice.rerolls(att_ag, def_ag)
        side = None if who is None else (attacker if who == "attacker" else ("dummy" if attacker == "you" else "you"))
        fight = {"attacker": attacker, "attack_value": att, "defence_value": deff, "agility": [att_ag, def_ag],
                 "attack": attack, "defence": defence, "rolled": {"attack": list(attack), "defence": list(defence)},
                 "reroller": side, "reroll_limit": 0, "marked": [], "rerolled": []}
        self.fight = fight
        self.note(f"{'you attack' if attacker == 'you' else self.dummy['name'] + ' attacks'}: {n_att} attack dice "
                  f"({att}{' capped at 10' if att > dice.MAX_DICE else ''}) against {n_def} defence dice: "
                  f"attack {_dice_text(attack)}, defence {_dice_text(defence)}")
        self.push((("damage",),))
        if side is None:
            return
        own = attack if side == attacker else defence
        limit = min(diff, len(own))
        fight["reroll_limit"] = limit
        if limit <= 0:
            return
        role = "attacker" if side == attacker else "defender"
        if side == "you":
            self._ask_reroll()
        else:
            other = defence if role == "attacker" else attack
            picks = dice.greedy_rerolls(role, own, other, limit)
            self._reroll(picks)

    def _ask_reroll(self) -> None:
        fight = self.fight
        own_key = "attack" if fight["reroller"] == fight["attacker"] else "defence"
        own = fight[own_key]
        marked = fight["marked"]
        limit = fight["reroll_limit"]
        options: list[tuple[Any, str]] = [(i, f"mark die {i + 1} (shows {d}) to reroll")
                                          for i, d in enumerate(own) if i not in marked]
        options.append(("done", f"reroll the {len(marked)} marked dice" if marked else "keep the dice as rolled"))
        self.ask(f"Higher Agility: you may reroll up to {limit} of your {own_key} dice and must keep the new results "
                 f"({len(marked)} marked; Turn: Battle, Compare Agility)", options, ("reroll",))

    def _res_reroll(self, op, source, value):
        fight = self.fight
        if value != "done":
            fight["marked"].append(value)
            if len(fight["marked"]) < fight["reroll_limit"]:
                self._ask_reroll()
                return
        self._reroll(fight["marked"])

    def _reroll(self, picks: list[int]) -> None:
        fight = self.fight
        if not picks:
            return
        key = "attack" if fight["reroller"] == fight["attacker"] else "defence"
        before = [fight[key][i] for i in picks]
        fight[key] = dice.reroll(self.rng, fight[key], picks)
        fight["rerolled"] = sorted(picks)
        who = "you" if fight["reroller"] == "you" else self.dummy["name"]
        self.note(f"{who} reroll{'s' if who != 'you' else ''} {len(picks)} {key} "
                  f"{'die' if len(picks) == 1 else 'dice'} ({_dice_text(before)} -> "
                  f"{_dice_text([fight[key][i] for i in picks])}): {key} now {_dice_text(fight[key])}")

    def _op_damage(self, op, source):
        fight = self.fight
        result = dice.resolve(fight["attack"], fight["defence"])
        fight["result"] = result
        amount = result.damage
        if fight["attacker"] == "dummy":
            shield = self.turn_mods.get("reduction", 0)
            if shield and amount:
                cut = min(shield, amount)
                amount -= cut
                self.turn_mods["reduction"] = shield - cut
                self.note(f"this turn's cards reduce the damage by {cut}")
            cards = [i for z in ("equipment", "faerie", "play_area") for i in self.zones[z] if self.progs[i].reduction]
            if amount and cards:
                fight["pending_damage"] = amount
                self.ask(f"The dummy's attack deals {amount} damage: cash in a card to reduce it?",
                         [(i, f"cash in {self.label(i)}: {self.progs[i].reduction} less damage") for i in cards],
                         ("cash_in",), optional=True)
                return
        self._apply_damage(amount)

    def _res_cash_in(self, op, source, value):
        amount = self.fight["pending_damage"]
        if value is not None:
            cut = min(amount, self.progs[value].reduction)
            self.move(value, "discard")
            self.note(f"cashed in {self.label(value)}: {cut} less damage")
            amount -= cut
        self._apply_damage(amount)

    def _apply_damage(self, amount: int) -> None:
        fight = self.fight
        result = fight["result"]
        target = "dummy_damage" if fight["attacker"] == "you" else "damage"
        self.counters[target] += amount
        who = self.dummy["name"] if target == "dummy_damage" else "your Neopet"
        extra = f" ({result.damage - amount} prevented)" if amount != result.damage else ""
        self.note(f"{result.explain()}{extra}: {who} has {self.counters[target]} damage")
        self.last_battle = {
            "attacker": fight["attacker"], "attack_value": fight["attack_value"],
            "defence_value": fight["defence_value"], "agility": fight["agility"], "rolled": fight["rolled"],
            "reroller": fight["reroller"], "reroll_limit": fight["reroll_limit"], "rerolled": fight["rerolled"],
            "final": {"attack": list(fight["attack"]), "defence": list(fight["defence"])},
            "criticals": result.criticals, "successes": result.successes, "blocks": result.blocks,
            "damage": result.damage, "damage_taken": amount, "turn": self.turn,
        }
        self.fight = None
        self.borrowed.clear()

    def _op_paint(self, op, source):
        targets = self.paint_targets()
        if not targets:
            self.note("no Rainbow Pool Neopet of your Neopet's species to paint into")
            return
        self.ask(f"{self.names[op[1]]}: paint your Neopet into a Rainbow Pool Neopet of its species? "
                 "(option painting: it covers the base; Codestones, Equipment and damage stay)",
                 [(i, self._neopet_label(i)) for i in targets], op, op[1], optional=True)

    def _res_paint(self, op, source, value):
        if value is None:
            return
        base = self.active()
        self.move(value, "neopet")
        self.note(f"painted {self.label(base)} into {self.label(value)}")

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
        if iid.__class__ is not int or not 0 <= iid < len(self.cards):
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
        for name in ("heal", "reduction", "draw"):
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
            "this_turn": dict(self.turn_mods), "borrowed": dict(self.borrowed), "borrowed_this_round": sorted(self.borrow_used),
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


def _fight_view_of(fight) -> dict[str, Any] | None:
    if fight is None:
        return None
    return {"attacker": fight["attacker"], "attack": list(fight["attack"]), "defence": list(fight["defence"]),
            "rolled": {k: list(v) for k, v in fight["rolled"].items()}, "agility": list(fight["agility"]),
            "reroller": fight["reroller"], "reroll_limit": fight["reroll_limit"], "marked": list(fight["marked"]),
            "damage_before_cash_in": fight.get("pending_damage")}


def _dice_text(values) -> str:
    return "[" + " ".join(str(v) for v in values) + "]" if values else "[]"


def _copy_fight(fight):
    if fight is None:
        return None
    new = dict(fight)
    new["attack"] = list(fight["attack"])
    new["defence"] = list(fight["defence"])
    new["marked"] = list(fight["marked"])
    return new




# --- the built-in policy ------------------------------------------------------------------------

_STAT_WEIGHT = {"attack": 3, "agility": 2, "defence": 1, "hp": 1}


def card_value(state: BattledomeState, iid: int) -> float:
    """How much a card adds to a race against the dummy (higher: play it first)."""
    prog = state.progs[iid]
    weights = dict(_STAT_WEIGHT)
    if state.dummy_attacks:
        weights.update(defence=2, hp=2)
    value = sum(weights[k] * v for k, v in prog.bonus)
    if state.dummy_attacks or state.counters["damage"]:
        value += prog.heal * (1 if state.counters["damage"] else 0) + prog.reduction * (1 if state.dummy_attacks else 0)
    value += prog.draw * 1.5
    return value


def _neopet_score(state: BattledomeState, iid: int) -> float:
    prog = state.progs[iid]
    stats = {s: prog.stat(s) for s in STATS}
    if any(v is None for v in stats.values()):
        return -100
    return 3 * stats["attack"] + 2 * stats["agility"] + stats["hp"] + stats["defence"] * (2 if state.dummy_attacks else 0.5)


def _answer(state: BattledomeState, choice: Choice) -> Action:
    kind = choice.op[0]
    values = [v for v, _ in choice.options]
    if kind in ("field", "paint"):
        return {"kind": "choose", "option": max(values, key=lambda i: _neopet_score(state, i))}
    if kind == "mulligan":
        has_stone = any(state.progs[i].role == "codestone" for i in state.zones["inventory"])
        return {"kind": "choose", "option": "keep" if has_stone else "mulligan"}
    if kind == "reroll":
        fight = state.fight
        role = "attacker" if fight["reroller"] == fight["attacker"] else "defender"
        own = fight["attack"] if role == "attacker" else fight["defence"]
        other = fight["defence"] if role == "attacker" else fight["attack"]
        picks = dice.greedy_rerolls(role, own, other, fight["reroll_limit"])
        for i in picks:
            if i not in fight["marked"]:
                return {"kind": "choose", "option": i}
        return {"kind": "choose", "option": "done"}
    if kind == "cash_in":
        return {"kind": "choose", "option": max(values, key=lambda i: state.progs[i].reduction)}
    return {"kind": "choose", "option": values[0]} if values else {"kind": "decline"}


def policy(state: BattledomeState) -> Action:
    """A greedy goldfish player: the best Neopet first, a Codestone every turn (the biggest bonus),
    the most useful card in Prep, Food when it helps, attack every turn, reroll failed dice."""
    choice = state.pending
    if choice is not None:
        return _answer(state, choice)
    phase = state.phase
    inventory = state.zones["inventory"]
    if phase in PLAYER_PHASES or phase == "dummy":
        for iid in inventory:  # Food that helps now: healing when hurt, bonuses before your attack
            prog = state.progs[iid]
            if prog.role != "food":
                continue
            if state.food_block(iid) is not None:
                continue
            if (prog.heal and state.counters["damage"] >= min(prog.heal, 2)) or \
               (phase == "battle" and (prog.bonus_of("attack") > 0 or prog.draw)) or \
               (phase == "dummy" and (prog.reduction or prog.bonus_of("defence") > 0)):
                return {"kind": "play", "card": iid}
    if phase == "train":
        if not state.trained:
            stones = [i for i in inventory if state.progs[i].role == "codestone" and state.train_block(i) is None]
            if stones:
                return {"kind": "train", "card": max(stones, key=lambda i: card_value(state, i))}
    elif phase == "prep":
        if not state.prepped:
            best, best_value = None, 0.0
            for iid in inventory:
                prog = state.progs[iid]
                if prog.role in ("food", "codestone") or state.prep_block(iid) is not None:
                    continue
                value = card_value(state, iid)
                if prog.role in ("equipment", "slot", "play_area"):
                    value *= 2  # lasts the round
                elif prog.role == "brush":
                    targets = state.paint_targets()
                    top = state.active()
                    value = max((_neopet_score(state, t) for t in targets), default=0) - _neopet_score(state, top)
                elif prog.role == "petpet":
                    value = 1 + max((prog.stat(s) or 0) - (state.stat(s) or 0) for s in ("attack", "agility"))
                if value > best_value:
                    best, best_value = iid, value
            if best is not None:
                return {"kind": "play", "card": best}
    elif phase == "battle":
        pet = state.petpet()
        if pet is not None:
            for stat in ("attack", "agility"):
                printed = state.progs[state.active()].stat(stat)
                if state.borrow_block(stat) is None and printed is not None and state.progs[pet].stat(stat) > printed:
                    return {"kind": "borrow", "stat": stat}
        if state.attack_block() is None:
            return {"kind": "attack"}
    return {"kind": "next"}


# --- sample decks (test fixtures) ----------------------------------------------------------------

# TEST FIXTURE VALUES, not facts: the catalogue knows one Neopet's stats (Acara) and one Codestone's
# bonus (Mau). The generic invariant test and the benchmark play sample decks of real cards, so every
# other value they need is supplied here as session card_values, exactly as a player would enter
# them. They are invented, never written into data/, and shown with provenance "session".
SAMPLE_CARD_VALUES: dict[str, dict[str, Any]] = {
    "starry-acara": {"hp": 9, "attack": 4, "defence": 3, "agility": 7},
    "fire-uni": {"hp": 10, "attack": 4, "defence": 2, "agility": 4},
    "regulation-meridellian-crossbow": {"level_requirement": 2, "attack_bonus": 2},
    "regulation-meridellian-lance": {"level_requirement": 1, "attack_bonus": 1},
    "regulation-meridellian-lowers": {"level_requirement": 1, "defence_bonus": 1},
    "regulation-meridellian-shield": {"level_requirement": 2, "defence_bonus": 2},
    "skarls-sceptre": {"level_requirement": 3, "attack_bonus": 2, "agility_bonus": 1},
    "green-knight-shield": {"level_requirement": 3, "hp_bonus": 2},
    "red-scorchstone": {"level_requirement": 1, "damage_reduction": 2},
    "potato": {"level_requirement": 0, "heal": 1},
    "super-juicy-berry": {"level_requirement": 1, "heal": 2},
    "hot-dog-of-justice": {"level_requirement": 1, "attack_bonus": 1},
    "teeny-hot-dog": {"level_requirement": 0, "text": "Draw a card."},
    "neovian-strength-potion": {"level_requirement": 2, "attack_bonus": 2},
    "kauvaras-marvellous-potion": {"type": "Potion", "level_requirement": 3, "attack_bonus": 3},
    "alton-moughbry": {"level_requirement": 1, "agility_bonus": 2},
    "green-knight": {"level_requirement": 2, "text": "+1 Attack and +1 Defence."},
    "bank-manager": {"level_requirement": 1, "draw": 1},
    "pant-devils-evil-twin": {"level_requirement": 3},  # effect left unknown on purpose
    "shop-wizard": {"level_requirement": 2, "text": "Search your deck for a Codestone."},  # not automated
    "turtum": {"level_requirement": 1, "attack": 5, "defence": 2, "agility": 6},
    # "hubert" stays unknown (no type): the engine must cope with a card it cannot play
}


def sample_decks():
    from deckhub.core.decklist import Deck

    main = {"mau": 12, "regulation-meridellian-crossbow": 2, "regulation-meridellian-lance": 2,
            "regulation-meridellian-lowers": 2, "regulation-meridellian-shield": 2, "skarls-sceptre": 2,
            "green-knight-shield": 2, "red-scorchstone": 2, "potato": 2, "super-juicy-berry": 2,
            "hot-dog-of-justice": 2, "teeny-hot-dog": 2, "neovian-strength-potion": 2,
            "kauvaras-marvellous-potion": 2, "alton-moughbry": 2, "green-knight": 2, "bank-manager": 2,
            "pant-devils-evil-twin": 2, "shop-wizard": 2, "turtum": 1, "hubert": 1}
    codestones = dict(main, mau=20, **{"pant-devils-evil-twin": 0, "shop-wizard": 0, "green-knight-shield": 0, "hubert": 0})
    codestones = {k: v for k, v in codestones.items() if v}
    codestones["mau"] += 50 - sum(codestones.values())
    return [
        ("fixture: Meridell equipment (test fixture values)",
         Deck("neopets-battledome", {"Main Deck": main, "Neopet Deck": {"acara": 1, "fire-uni": 1, "starry-acara": 1}},
              name="Battledome test fixture: Meridell equipment")),
        ("fixture: Codestone-heavy, Rainbow Pool (test fixture values)",
         Deck("neopets-battledome", {"Main Deck": codestones, "Neopet Deck": {"acara": 1, "fire-uni": 1},
                                     "Rainbow Pool": {"starry-acara": 1}},
              name="Battledome test fixture: Codestones and a Rainbow Pool")),
    ]


ENGINE = Engine(
    game="neopets-battledome",
    state_class=BattledomeState,
    policy=policy,
    coverage=coverage,
    options=(
        OptionSpec("dummy_hp", "int", DUMMY_DEFAULTS["hp"], "the training dummy's HP (default: Acara's 8)", minimum=1, maximum=50),
        OptionSpec("dummy_defence", "int", DUMMY_DEFAULTS["defence"], "the training dummy's Defence: its defence dice (at most 10 are rolled)", minimum=0, maximum=30),
        OptionSpec("dummy_agility", "int", DUMMY_DEFAULTS["agility"], "the training dummy's Agility (the higher Agility rerolls the difference)", minimum=0, maximum=30),
        OptionSpec("dummy_attack", "int", DUMMY_DEFAULTS["attack"], "the training dummy's Attack, used when it attacks back", minimum=0, maximum=30),
        OptionSpec("dummy_attacks", "bool", False, "the dummy attacks back on its turns (off: pure goldfish)"),
        OptionSpec("dummy_neopet", "str", "", "a Neopet from the catalogue (key or name) as the dummy; its stats replace the dummy_* values"),
        OptionSpec("first", "bool", True, "you take the first turn (RB 1.4: the winner of a random draw chooses)"),
        OptionSpec("opening_hand", "int", 5, "cards in your opening inventory (NOT FOUND in the sources: a setting)", minimum=0, maximum=20),
        OptionSpec("mulligan", "bool", False, "offer one mulligan of the opening inventory (NOT FOUND in the sources)"),
        OptionSpec("deck_out", "choice", "skip", "drawing from an empty Main Deck (NOT FOUND): skip the draw, take 1 damage, "
                   "lose the round, or lose the match", choices=("skip", "damage", "lose_round", "lose_match")),
        OptionSpec("equipment_slots", "int", 3, "Equipment slots (3: SI.com only); a Petpet takes one", minimum=1, maximum=10),
        OptionSpec("full_slot", "choice", "blocked", "a full Faerie or Equipment slot (NOT FOUND): blocks the card, or the "
                   "new card replaces the oldest", choices=("blocked", "replace")),
        OptionSpec("painting", "choice", "same_species", "Paint Brushes (procedure NOT FOUND): choose a Rainbow Pool Neopet "
                   "of your Neopet's species to cover it, or leave it to manual moves", choices=("same_species", "manual")),
        OptionSpec("turn_limit", "int", 40, "the match is lost if it is not won by the end of this turn", minimum=1, maximum=500),
        card_values_option("values for cards the catalogue does not know, for this game only: "
                           '{"card-key": {"level_requirement": 2, "attack_bonus": 1}}; fields: hp, attack, defence, agility, '
                           "level_requirement, attack_bonus, defence_bonus, agility_bonus, hp_bonus, heal, damage_reduction, "
                           "draw, type, species, text"),
    ),
    description="Neopets Battledome against a training dummy: Draw, Train, Prep, Battle with the real dice; two round wins",
    sample_decks=sample_decks,
    sample_options={"card_values": SAMPLE_CARD_VALUES},
)

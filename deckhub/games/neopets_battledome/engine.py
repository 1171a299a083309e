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

from deckhub.core.engine import Engine
from deckhub.core.options import OptionSpec, turn_limit_option, turn_order_option
from deckhub.core.session_values import card_values_option
from deckhub.games.neopets_battledome.common import DUMMY_DEFAULTS
from deckhub.games.neopets_battledome.effects import coverage
from deckhub.games.neopets_battledome.policy import policy
from deckhub.games.neopets_battledome.state import BattledomeState


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
        OptionSpec("dummy_hp", "int", DUMMY_DEFAULTS["hp"], "8 by default, an Acara's", minimum=1, maximum=50,
                   title="Training dummy's HP"),
        OptionSpec("dummy_defence", "int", DUMMY_DEFAULTS["defence"], "how many defence dice it rolls (at most 10)",
                   minimum=0, maximum=30, title="Dummy's Defence", more=True),
        OptionSpec("dummy_agility", "int", DUMMY_DEFAULTS["agility"], "the side with more Agility rerolls the difference",
                   minimum=0, maximum=30, title="Dummy's Agility", more=True),
        OptionSpec("dummy_attack", "int", DUMMY_DEFAULTS["attack"], "used when it attacks back", minimum=0, maximum=30,
                   title="Dummy's Attack", more=True),
        OptionSpec("dummy_attacks", "bool", False, "the dummy attacks back on its turns (off: it never acts)"),
        OptionSpec("dummy_neopet", "str", "", "a Neopet's name: the dummy takes its stats instead of the ones above",
                   title="Dummy Neopet", more=True),
        turn_order_option("the winner of a random draw chooses who takes the first turn (RB 1.4)"),
        OptionSpec("opening_hand", "int", 5, "cards in your opening inventory; the rulebook gives no number",
                   minimum=0, maximum=20, more=True),
        OptionSpec("mulligan", "bool", False, "offer one mulligan of the opening inventory (a house rule)", more=True),
        OptionSpec("deck_out", "choice", "skip", "when you must draw from an empty Main Deck: skip the draw, take 1 "
                   "damage, lose the round, or lose the match (the rulebook does not say)",
                   choices=("skip", "damage", "lose_round", "lose_match"), title="Empty Main Deck", more=True),
        OptionSpec("equipment_slots", "int", 3, "3 in the publisher's online rules; a Petpet takes one",
                   minimum=1, maximum=10, more=True),
        OptionSpec("full_slot", "choice", "blocked", "a new Faerie or Equipment card is blocked, or replaces the oldest "
                   "(a house rule)", choices=("blocked", "replace"), title="When a slot is full", more=True),
        OptionSpec("painting", "choice", "same_species", "cover your Neopet with a Rainbow Pool Neopet of its species, "
                   "or play Paint Brushes with manual moves", choices=("same_species", "manual"),
                   title="Paint Brushes", more=True),
        turn_limit_option("match"),
        card_values_option("values for cards the catalogue does not know, for this game only: "
                           '{"card-key": {"level_requirement": 2, "attack_bonus": 1}}; fields: hp, attack, defence, agility, '
                           "level_requirement, attack_bonus, defence_bonus, agility_bonus, hp_bonus, heal, damage_reduction, "
                           "draw, type, species, text"),
    ),
    description="Neopets Battledome against a training dummy: Draw, Train, Prep, Battle with the real dice; two round wins",
    sample_decks=sample_decks,
    sample_options={"card_values": SAMPLE_CARD_VALUES},
)

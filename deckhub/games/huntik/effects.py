"""Huntik card text as data: one small program per card, keyed by card key (GUIDE §3: fireplace's
table of card behaviour, without its metaclasses).

Secrets and Seekers has 144 heroes and action cards; their text is short and varied, so each is
written out here once instead of being parsed by pattern. A program holds:

- static facts: unblockable, how far the hero may move, "can't move on my own", self bonuses;
- triggered text: when played from the hand, when it comes into play, at the start of a round,
  and events ("when I start a combat", "whenever I play a Hyperstride card" ...);
- action powers (`Power`): exhaust, free or combat, with conditions and costs;
- for action cards, the effect and its speed.

Effects are tuples ("ops") the engine runs one by one (`HuntikState.run_op`); an op that needs a
decision asks the player. A target spec is a tuple of atoms ("hero", "friendly", "minor", "here",
("within", 2), ("def_le", 2), "stunned", "not_me", ("not_named", "Metzi"), "in_combat" ...); stunned
cards are never targets unless the spec says "stunned" (Huntik 407).

Each paragraph of a card's text has a status for the coverage report: automated, no effect (it
only concerns enemy heroes, the opponent's hand or the opponent's actions, and the defending
player of a goldfish game has none of those: a card that needs such a target cannot be played,
Huntik 704), or manual (left to manual moves).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from deckhub.core import effects as core_effects
from deckhub.core.effects import AUTO, MANUAL, NO_EFFECT

# --- program shapes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Power:
    """An action power: on a hero in play, granted by a feature or a modifier, or usable from the
    discard pile. `ops` run after the speed's cost (an exhaust power exhausts its card first)."""

    name: str  # the slug actions name it by
    label: str
    speed: str  # "exhaust" | "free" | "combat"
    ops: tuple
    cond: tuple = ()  # conditions to use it (HuntikState.cond)
    where: str = "play"  # "play" | "discard"
    printed: bool = True  # printed on the card (Bull's Adrenaline Surge looks at printed exhaust actions)
    once: str | None = None  # "combat": once per combat


@dataclass
class Program(core_effects.Program):
    key: str
    name: str
    kind: str  # "major" | "minor" | "legendary" | "action" | "amulet" | "feature" | "mission" | "other"
    atk: int = 0
    def_: int = 0
    team: str | None = None
    tags: tuple = ()
    speed: str | None = None  # action cards: "exhaust" | "free" | "combat"
    unblockable: bool = False
    move_max: int = 2
    fwd_max: int | None = None  # "I can move up to 3 zones forward"
    object_move_max: int | None = None  # "I can move up to 3 zones while I have an object"
    lazy: bool = False  # "I can't move on my own"
    statics: frozenset = frozenset()
    play_zones: tuple = ()  # extra zones a hero may be played into: "round_zone", "with_hero_r3"
    play_cond: tuple = ()  # action cards: conditions on the hero exhausted / the game
    on_play: tuple = ()  # "when you play me from your hand"
    on_enter: tuple = ()  # "when I come into play"
    start_round: tuple = ()  # "at the start of each round"
    start_if: tuple = ()  # "at the start of each round, if ...": conditions read as it triggers (Huntik 702)
    round_start: dict = field(default_factory=dict)  # "at the start of round N" -> ops
    triggers: dict = field(default_factory=dict)  # event -> ops
    powers: tuple = ()
    effect: tuple = ()  # an action card's effect
    go_again: bool = False
    abilities: tuple = ()  # ((text, Status), ...)
    useful: bool = True  # an action card worth playing for its automated effect in a goldfish game
    # a major, minor or legendary hero; a plain attribute set once, for speed (the engine and its
    # policy ask it ~500 times a game, a property is a function call each time); `kind` never changes
    hero: bool = field(init=False)

    def __post_init__(self) -> None:
        self.hero = self.kind in ("major", "minor", "legendary")


def needs_of(ops: Iterable[tuple]) -> tuple:
    """Target specs a play must find a candidate for (Huntik 704: targets are chosen as it is played)."""
    found = []
    for op in ops:
        if op[0] == "target" and not op[3]:
            found.append(op[1])
        elif op[0] == "if":
            found.extend(needs_of(op[2]))
    return tuple(found)


# --- the text of heroes and actions -----------------------------------------------------------

GO = ("go_again",)
DRAW = ("draw", 1)
ENEMY_HERO = ("hero", "enemy")
ENEMY_MINOR = ("hero", "enemy", "minor")


def _p(name: str, label: str, speed: str, *ops, cond: tuple = (), where: str = "play", once: str | None = None) -> Power:
    return Power(name, label, speed, tuple(ops), cond, where, True, once)


# key -> (statuses by paragraph, fields)
_TABLE: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    # ---- Good major heroes
    "caliban-dantes-titan": ((AUTO,), dict(start_round=(("discard_or_elim", "Caliban"),))),
    "cherit-loks-best-friend": ((AUTO,), dict(powers=(
        _p("charge-up", "Charge Up", "exhaust", ("target", ("hero", "friendly"), ("boost", 2, 0), False), GO),))),
    "dante-vale-private-investigator": ((AUTO, AUTO), dict(
        triggers={"i_play:Hyperstride": (("ready_me",),)},
        powers=(_p("megapunch", "Megapunch", "exhaust", ("target", ("hero", "here"), "ko", False)),))),
    "freelancer-knightly-titan": ((AUTO,), dict(start_round=(("discard_or_elim", "Caliban"),))),
    "furoji-calm-center": ((AUTO,), dict(on_play=(DRAW,))),
    "gybolg-force-of-nature": ((AUTO,), dict(triggers={"start_combat": (("add_attacks", 4),)})),
    "ignatius-walking-volcano": ((AUTO,), dict(powers=(
        _p("burn", "Burn", "free", ("discard", 1), ("boost_me", 2, 2), cond=(("hand_min", 1), "not_in_combat")),))),
    "kallipolitan-judge-and-jury": ((NO_EFFECT,), dict(powers=(
        _p("rule-of-law", "Rule of Law", "exhaust", ("target", ("hero", "enemy", ("away", 1)), "control", False), GO),))),
    "kilthane-the-black-knight": ((AUTO,), dict(play_zones=("with_hero_r3",))),
    "king-basilisk-strength-and-fury": ((AUTO,), dict(powers=(
        _p("dread-stare", "Dread Stare", "exhaust", ("target", ("hero",), "ko", False), cond=(("zone", 5),)),))),
    "kyroptero-stone-guardian": ((AUTO, AUTO), dict(lazy=True, powers=(
        _p("start-combat", "Start a combat", "exhaust", ("start_combat_here",), cond=("enemy_here",)),))),
    "lindorm-raging-titan": ((AUTO, NO_EFFECT), dict(unblockable=True, triggers={
        "move_into": (("target", ENEMY_HERO + ("here",), ("put_back", 1), True),)})),
    "metagolem-icon-of-history": ((AUTO, AUTO), dict(unblockable=True, on_enter=(("elim_if", "hand_nonempty"),))),
    "montehue-friendly-competitor": ((AUTO,), dict(triggers={"i_play_exhaust": (("counter_me", 1),)})),
    "peque-mayan-princess": ((AUTO,), dict(powers=(
        _p("healer", "Healer", "exhaust", ("return_me_hand",), ("target", ("hero", "exhausted", "not_me"), "ready", False)),))),
    "ponderous-rocky-dino": ((AUTO, AUTO), dict(unblockable=True, on_enter=(("elim_if", "round_1"),))),
    "sabriel-sophies-titan": ((AUTO,), dict(statics=frozenset({"survival"}))),
    "sandra-lambert-retired-seeker": ((AUTO,), dict(on_play=(
        ("target", ("hero", "friendly", "minor", "exhausted"), "ready", True),))),
    "santiago-stealthy-bodyguard": ((AUTO, NO_EFFECT), dict(unblockable=True, triggers={
        "start_combat": (("target", ENEMY_MINOR + ("in_combat",), "stun", True),)})),
    "sentinel-stoic-protector": ((AUTO,), dict(powers=(
        _p("stoneshield", "Stoneshield", "combat", ("exhaust_me",), ("remove_enemy_attacks", 2), cond=("me_ready",)),))),
    "shinobi-smoke-ninja": ((AUTO,), dict(fwd_max=3)),
    "sophie-casterwill-heir-to-the-casterwills": ((AUTO,), dict(start_round=(("reveal_top", ("action",), "hand", "discard"),))),
    "wolf-knight-noble-werewolf": ((AUTO,), dict(triggers={"you_play_combat": (("if", "me_in_combat", (("add_attacks", 3),)),)})),
    "zhalia-moon-mysterious-ally": ((AUTO, AUTO), dict(unblockable=True, triggers={
        "i_play:Spidertouch": (("ready_me",), DRAW)})),
    # ---- Evil major heroes
    "ammit-heart-eater-rassimovs-pet": ((), {}),
    "battlemaster-titan-warlord": ((AUTO, NO_EFFECT), dict(unblockable=True, powers=(
        _p("artillery", "Artillery", "free", ("target", ENEMY_HERO + (("within", 1),), "stun", False), ("stun_me",)),))),
    "brahe-lubering-hulk": ((AUTO, NO_EFFECT), dict(unblockable=True)),
    "breaker-griers-titan": ((AUTO, NO_EFFECT), dict(unblockable=True, on_enter=(("discard_or_elim", None),), powers=(
        _p("grapple", "Grapple", "combat", ("target", ENEMY_HERO + ("in_combat",), "no_attacks", False), ("exhaust_me",),
           cond=("me_ready",)),))),
    "defoe-organization-lieutenant": ((AUTO, AUTO), dict(statics=frozenset({"protect_suit"}), powers=(
        _p("scapegoat", "Scapegoat", "free", ("discard_filter", ("name_has", "Suit")), ("ready_me",),
           cond=(("hand_has", ("name_has", "Suit")), "me_exhausted")),))),
    "fan-dancer-fast-and-furious": ((AUTO,), dict(powers=(
        _p("lead-the-charge", "Lead the Charge", "exhaust", ("hand_to_play", ("hero",), "zone1", False, False),
           ("put_me", "fwd1")),))),
    "fireblade-friend-in-the-shadows": ((AUTO,), dict(powers=(
        _p("fiery-inspiration", "Fiery Inspiration", "exhaust", ("from_discard", ("minor",), "hand", False),
           cond=("alone",)),))),
    "gar-ghoul-gothic-terror": ((AUTO, AUTO), dict(unblockable=True, triggers={"start_combat": (("no_ko_me",),)})),
    "grier-loyal-to-the-core": ((AUTO,), dict(start_round=(("reveal_top", ("name_has", "Suit"), "my_zone", "discard"),))),
    "hector-tomb-raider": ((AUTO, AUTO, AUTO), dict(move_max=3, on_enter=(("elim_friendly", ("hero",), False),),
                                                    round_start={5: (("search", ("name_has", "Iron Monkey"), "my_zone", True),)})),
    "hydramaster-carved-colossus": ((AUTO,), dict(powers=(
        _p("triple-threat", "Triple Threat", "free", ("bottom_from_discard", ("action",), 3), ("ready_me",),
           cond=(("discard_has", ("action",), 3), "me_exhausted")),))),
    "iron-monkey-leaping-frenzy": ((AUTO, AUTO), dict(move_max=3, on_enter=(("elim_friendly", ("major", "not_me"), "me"),))),
    "janus-knight-dark-charger": ((), {}),
    "jokoul-icy-titan": ((AUTO,), dict(powers=(
        _p("ice-slide", "Ice Slide", "exhaust", ("target", ("hero",), ("put_step", 1), False)),))),
    "kerosan-flame-artist": ((AUTO,), dict(powers=(
        _p("dragon-burst", "Dragon Burst", "exhaust", ("target", ("hero", ("def_eq", 1)), "ko", False)),))),
    "klaus-mad-scientist": ((AUTO, AUTO), dict(
        triggers={"you_play:Strikemode": (("if", "me_in_combat", (("boost_me_combat", 0, 4),)),)},
        powers=(_p("experiment", "Experiment", "exhaust", ("target", ("hero", "friendly"), "swap", False)),))),
    "kreutalk-defoes-titan": ((AUTO,), dict(object_move_max=3)),
    "mindrone-unblinking-eye": ((AUTO,), dict(powers=(
        _p("mindzap", "Mindzap", "exhaust", ("return_me_hand",), ("target", ("hero", "minor"), "ko", False)),))),
    "morgan-the-knife-shady-dealer": ((AUTO,), dict(powers=(
        _p("investigate", "Investigate", "exhaust", DRAW, cond=(("zone", 2),)),))),
    "nighlurker-creeper-in-the-shadow": ((AUTO,), dict(unblockable=True, triggers={
        "start_combat": (("target", ENEMY_MINOR + ("in_combat",), "stun", True),)})),
    "the-professor-leader-of-the-organization": ((AUTO, NO_EFFECT), dict(
        triggers={"i_play:Slipstream": (("ready_me",),),
                  "start_combat": (("target", ENEMY_HERO + ("in_combat",), "stun", True),)})),
    "rassimov-dangerous-mind": ((AUTO,), dict(powers=(
        _p("survivor", "Survivor", "free", ("discard_filter", ("not_name_has", "Rassimov")), ("me_to_hand",),
           cond=(("hand_has", ("not_name_has", "Rassimov")),), where="discard"),))),
    "sekhmet-feline-assassin": ((AUTO, NO_EFFECT), dict(unblockable=True, triggers={
        "move_into": (("target", ENEMY_MINOR + ("here",), "return_hand", True),)})),
    "slitherfang-serpent-from-the-nile": ((AUTO,), dict(powers=(
        _p("squeeze", "Squeeze", "free", ("target", ("hero", "here"), "stun", False)),))),
    "sunhawk-mighty-wings": ((AUTO,), dict(powers=(
        _p("airlift", "Airlift", "free", ("target", ("hero", "friendly", "not_me", "elsewhere"), "put_my_zone", False),
           cond=("alone",)),))),
    "ymir-frost-giant": ((AUTO,), dict(on_enter=(("discard_or_elim", None),), start_round=(("ice_creatures",),))),
    # ---- Good minor heroes
    "daktari-seeker": ((AUTO,), dict(play_zones=("round_zone",))),
    "enderby-casterwill-tutor": ((), {}),
    "enfluxion-wave-walker": ((AUTO,), dict(statics=frozenset({"zone_atk"}))),
    "ferryman-watcher-at-the-river": ((AUTO,), dict(on_play=(("from_discard", (), "top", False),))),
    "feyone-celtic-warrior": ((AUTO, NO_EFFECT), dict(unblockable=True, triggers={
        "move_into": (("target", ENEMY_HERO + ("here",), ("put_back", 1), True),)})),
    "fire-kappa-beacon-for-a-beating": ((AUTO,), dict(statics=frozenset({"defender"}))),
    "gareon-invisible-scout": ((AUTO, AUTO), dict(unblockable=True, triggers={
        "move_into": (("target", ("hero", "here", "not_me", "ready"), "exhaust", True),)})),
    "giantkiller-growing-warrior": ((AUTO,), dict(triggers={"i_play_exhaust": (("counter_me", 1),)})),
    "hoozoto-aztec-guardian": ((AUTO,), dict(statics=frozenset({"object_bonus"}))),
    "hoplite-lionhearted": ((AUTO,), dict(statics=frozenset({"teamwork"}))),
    "icarus-master-aerialist": ((AUTO, NO_EFFECT), dict(unblockable=True, powers=(
        _p("swoop", "Swoop", "free", ("target", ENEMY_HERO + ("here",), ("put_back", 1), False)),))),
    "jean-louis-extreme-sportsman": ((AUTO,), dict(powers=(
        _p("stunt", "Stunt", "exhaust", ("elim_me",), ("target", ("hero", ("def_le", 2), "not_me"), "ko", False)),))),
    "kipperin-flight-in-the-night": ((AUTO,), dict(unblockable=True, statics=frozenset({"all_unblockable"}))),
    "leblanche-prim-and-proper": ((AUTO,), dict(on_play=(("if", ("round_ge", 3), (("extra_major",),)),))),
    "lok-lambert-courageous-novice": ((AUTO,), dict(powers=(
        _p("call-freelancer", "Call a Freelancer", "combat", ("hand_to_play", ("name_has", "Freelancer"), "my_zone", False, False),
           cond=("me_in_combat", ("hand_has", ("name_has", "Freelancer")))),))),
    "pan-friend-of-animals": ((NO_EFFECT,), dict(triggers={
        "start_combat": (("target", ENEMY_MINOR + ("in_combat",), "stun", True),)})),
    "the-riderless-chariot-unstoppable-force": ((AUTO,), dict(powers=(
        _p("taxi", "Taxi", "exhaust", ("play_into", ("minor",))),))),
    "riverjaw-crocodile-guardian": ((AUTO, AUTO), dict(lazy=True, powers=(
        _p("start-combat", "Start a combat", "exhaust", ("start_combat_here",), cond=("enemy_here",)),))),
    "scolopen-centipede-neck": ((AUTO,), dict(on_play=(("search_or_discard", ("name_has", "Scolopen")),))),
    "solwing-eye-in-the-sky": ((AUTO, AUTO), dict(unblockable=True, move_max=3)),
    "springer-trapspringer": ((), {}),
    "tersly-foundation-scholar": ((NO_EFFECT,), dict(powers=(
        _p("raid-your-pockets", "Raid Your Pockets", "exhaust", ("draw", 2), cond=("enemy_hero_here",)),))),
    "tolivane-little-helper": ((AUTO,), dict(powers=(
        _p("inspiration", "Inspiration", "exhaust", ("target", ("hero", "minor"), ("boost", 1, 1), False), GO),))),
    "tremayne-tricky-fairy": ((AUTO,), dict(powers=(
        _p("pixie-dust", "Pixie Dust", "free", ("target", ("hero", "here", "ready"), "exhaust", False)),))),
    "venadek-scruffy-scrapper": ((AUTO, AUTO), dict(unblockable=True, start_if=("other_minors",), start_round=(("elim_me",),))),
    # ---- Evil minor heroes
    "akamaru-incan-snake-spirit": ((AUTO,), dict(powers=(
        _p("poison-cloud", "Poison Cloud", "combat", ("elim_me",), ("end_combat",), cond=("me_in_combat",)),))),
    "akmen-meo-spirit-guide": ((AUTO,), dict(powers=(
        _p("loremaster", "Loremaster", "exhaust", DRAW, ("discard", 1)),))),
    "bellona-lion-gladiator": ((), {}),
    "derenzar-unruly-titan": ((AUTO,), dict(on_play=(("mill", 3),))),
    "enforcer-three-eyed-menace": ((AUTO,), dict(powers=(
        _p("buzzjump", "Buzzjump", "free", ("put_me", "zone5_combat"), cond=(("zone", 3),)),))),
    "ferric-warbringer-spiked-warrior": ((AUTO,), dict(triggers={"you_play_action": (("ferric",),)})),
    "gawain-forest-warrior": ((AUTO,), dict(triggers={"discarded": (("target", ("hero", "exhausted"), "ready", False),)})),
    "ice-creature-minion-of-ymir": ((NO_EFFECT,), dict(triggers={
        "ko": (("target", ENEMY_HERO + ("here",), "stun", True),)})),
    "invisible-knight-fearless-and-arrogant": ((AUTO,), dict(on_play=(
        ("target", ("hero", "friendly", ("not_named", "Invisible Knight")), "return_hand", True),))),
    "jeweled-colossus-heart-of-stone": ((AUTO,), dict(powers=(
        _p("finishing-move", "Finishing Move", "free", ("elim_me",), ("ko_stunned_here",), cond=("stunned_hero_here",)),))),
    "madea-master-of-illusions": ((NO_EFFECT,), dict(powers=(
        _p("mind-lure", "Mind Lure", "exhaust", ("target", ENEMY_HERO + (("within", 2),), "put_my_zone", False)),))),
    "metzi-moon-titan": ((AUTO,), dict(powers=(
        _p("moon-mojo", "Moon Mojo", "exhaust", ("target", ("hero", "minor", "exhausted", ("not_named", "Metzi")), "ready", False)),))),
    "neptunia-living-torpedo": ((AUTO,), dict(powers=(
        _p("aquablast", "Aquablast", "free", ("elim_me",), ("target", ("hero", ("away", 1)), "return_hand", False)),))),
    "numbers-datahead": ((AUTO,), dict(round_start={3: (("search", ("name_has", "Hector"), "my_zone", True),)})),
    "redcap-claws-and-teeth": ((AUTO,), dict(triggers={"moved": (GO,)})),
    "salamandrake-firestarter": ((NO_EFFECT,), dict(on_play=(
        ("target", ENEMY_HERO + (("def_le", 2),), ("put_step", 1), True),))),
    "storm-gladiator-wind-and-metal": ((AUTO, AUTO), dict(unblockable=True, statics=frozenset({"enters_exhausted"}))),
    "strix-swarm-fighter": ((AUTO,), dict(powers=(
        _p("sting", "Sting", "exhaust", ("target", ("hero", "minor", "ready"), "exhaust", False)),))),
    "suit-mr-mactavish-prague-agent": ((AUTO,), dict(powers=(
        _p("headhunter", "Headhunter", "exhaust", ("suits_to_top",)),))),
    "suit-mr-steel-venice-agent": ((AUTO,), dict(powers=(
        _p("call-partner", "Call Partner", "combat", ("hand_to_play", ("minor",), "my_zone", True, True),
           cond=("me_in_combat", ("hand_has", ("minor",)))),))),
    "suit-ms-thorpe-venice-agent": ((), {}),
    "wormwalker-shambling-terror": ((AUTO,), dict(move_max=1)),
    # ---- Good actions
    "boltflare": ((NO_EFFECT,), dict(effect=(DRAW, ("target", ENEMY_MINOR + ("in_combat",), "stun", False)))),
    "honorguard": ((AUTO,), dict(effect=(("remove_enemy_attacks", 2),))),
    "quick-getaway": ((AUTO,), dict(effect=(("target", ("hero", "friendly", "in_combat"), "getaway", False),))),
    "rear-guard": ((AUTO,), dict(effect=(("target", ("hero", "friendly", "in_combat"), ("put_back", 1), False),))),
    "retaliation": ((AUTO,), dict(effect=(("retaliation",),))),
    "avoidance": ((AUTO,), dict(effect=(DRAW, ("unblockable_friendly",)))),
    "breakspell": ((NO_EFFECT, NO_EFFECT), dict(play_cond=("never",))),
    "call-for-backup": ((AUTO, AUTO), dict(effect=(DRAW, ("hand_to_play", ("minor",), "my_zone", True, False), GO))),
    "copyform": ((AUTO, AUTO, AUTO), dict(effect=(("copyform", "$card"), GO))),
    "darksleep": ((AUTO,), dict(effect=(("target", ("hero", ("within", 2)), "return_hand", False),))),
    "decoding": ((AUTO,), dict(effect=(("from_discard", ("action",), "hand", False),))),
    "everfight": ((AUTO,), dict(effect=(("from_discard", ("hero", ("def_le", 3)), "zone1", False),))),
    "hyperstride": ((AUTO, AUTO), dict(effect=(DRAW, ("move_me", 2, False), GO))),
    "quick-strike": ((AUTO,), dict(effect=(DRAW, ("target", ("hero", "here"), "ko", False)))),
    "rapid-charge": ((AUTO,), dict(effect=(DRAW, ("move_me", 3, True)))),
    "research": ((AUTO,), dict(effect=(("look_top", 4),))),
    "spidertouch": ((AUTO, AUTO), dict(effect=(("exhaust_upto", 2), GO))),
    "bring-in-the-big-guns": ((AUTO, AUTO), dict(effect=(("hand_to_play", ("hero",), "zone1", False, False), GO))),
    "earthtide": ((AUTO,), dict(effect=(("grant_round", "all", "earthtide"),))),
    "second-wind": ((AUTO,), dict(effect=(("unstun_ready_all",),))),
    "sprint": ((AUTO, AUTO), dict(effect=(("target", ("hero", "friendly"), ("put_step", 1), False), GO))),
    "switchsoul": ((NO_EFFECT, NO_EFFECT), dict(effect=(("target", ("hero", "friendly"), "noop", False),
                                                         ("target", ENEMY_HERO, "noop", False), GO))),
    "take-the-initiative": ((AUTO,), dict(effect=(("initiative",),))),
    # ---- Evil actions
    "poisonfang": ((NO_EFFECT,), dict(effect=(("target", ENEMY_HERO + ("in_combat",), ("put_back", 1), False),))),
    "reinforcements": ((AUTO,), dict(effect=(("reinforce",),))),
    "skingrip": ((NO_EFFECT,), dict(effect=(("note", "the defending player's hand holds nothing to discard"),))),
    "stalemate": ((AUTO,), dict(effect=(("end_combat",),))),
    "strikemode": ((AUTO,), dict(effect=(("add_attacks", 4),))),
    "ace-in-the-hole": ((AUTO,), dict(effect=(("search", ("major",), "hand", False),))),
    "acidheart": ((AUTO, AUTO), dict(play_cond=("major_me", ("round_ge", 3)), effect=(("target", ("hero",), "ko", False),))),
    "augerfrost": ((AUTO, AUTO), dict(effect=(("target", ("hero", "minor"), "ko", False), GO))),
    "bladestorm": ((AUTO,), dict(effect=(("if", ("zone_in", (4, 5)), (("bladestorm",),)),))),
    "flashbulb": ((NO_EFFECT,), dict(effect=(DRAW, ("target", ENEMY_HERO, "stun", False)))),
    "raypulse": ((NO_EFFECT, NO_EFFECT), dict(effect=(("target", ENEMY_HERO, ("put_step", 2), False), GO))),
    "set-a-trap": ((AUTO,), dict(effect=(DRAW, ("trap_zone",)))),
    "simplemind": ((NO_EFFECT,), dict(effect=(("target", ENEMY_MINOR + ("here",), "control", False),))),
    "slipstream": ((AUTO,), dict(effect=(DRAW, ("put_me", "any")))),
    "trailblazer": ((AUTO, AUTO), dict(effect=(DRAW, ("play_into", ("hero",)), GO))),
    "zoom": ((AUTO, AUTO), dict(effect=(DRAW, ("unblockable_me",), ("move_me", 2, False)))),
    "blasteater": ((AUTO,), dict(effect=(("target", ("hero", "friendly"), ("boost", 0, 3), False), GO))),
    "designated-hitter": ((AUTO, AUTO), dict(effect=(("designated_hitter",), GO))),
    "double-your-effort": ((AUTO,), dict(effect=(("grant_round", "friendly", "double-your-effort"),))),
    "get-back-to-work": ((AUTO, AUTO), dict(
        effect=(("target", ("hero", "minor", "exhausted"), "ready", False),),
        powers=(_p("back-to-work", "Get Back to Work! (from the discard pile)", "free", ("bottom_from_discard", "$self4", 5),
                   ("target", ("hero", "minor", "exhausted"), "ready", False),
                   cond=(("discard_has", (), 5),), where="discard"),))),
    "outsourcing": ((AUTO,), dict(effect=(("outsourcing",),))),
    "regroup": ((AUTO, AUTO), dict(effect=(("regroup",), GO))),
    "shadowspeed": ((AUTO,), dict(effect=(("target", ("hero", "exhausted"), "ready", False),))),
    "thundercut": ((AUTO,), dict(effect=(("target", ("hero",), ("grant", "thundercut"), False),))),
}

# Powers that action cards give heroes for a round (Huntik 704.3: their targets are chosen when used).
GRANTED: dict[str, Power] = {
    "earthtide": Power("earthtide", "Earthtide: stun target hero", "exhaust",
                       (("target", ("hero",), "stun", False),), printed=False),
    "thundercut": Power("thundercut", "Thundercut: KO a hero with DEF up to the round number", "exhaust",
                        (("target", ("hero", "def_le_round"), "ko", False),), printed=False),
    "double-your-effort": Power("double-your-effort", "Double Your Effort: ready me", "free",
                                (("bottom_from_discard", ("name_has", "Double Your Effort"), 1), ("ready_me",)),
                                cond=(("discard_has", ("name_has", "Double Your Effort"), 1), "me_exhausted"), printed=False),
}

_UNBLOCKABLE = re.compile(r"\bunblockable\b", re.I)
_TAGS = re.compile(r"<[^>]+>")


def plain(text: str | None) -> str:
    """Card text without its <b>/<i> markup."""
    return _TAGS.sub("", text or "").replace("\u2014", "-").strip()


def paragraphs(text: str | None) -> list[str]:
    return [p.strip() for p in plain(text).split("\n") if p.strip()]


def _kind(card) -> str:
    t = (card.type or "").lower()
    if t in ("major hero", "minor hero", "legendary hero"):
        return t.split()[0]
    if t in ("action", "amulet", "feature", "mission"):
        return t
    return "other"


def _speed(card) -> str | None:
    tags = " ".join(card.attrs.get("tags") or ()) + " " + str(card.attrs.get("subtype") or "")
    for speed in ("combat", "exhaust", "free"):
        if f"{speed} action" in tags.lower():
            return speed
    return None


def compile_card(card) -> Program:
    """The program of one card. Engines keep it on the catalogue (`Catalogue.compiled`), so it is
    dropped with the catalogue it was compiled from."""
    attrs = card.attrs
    kind = _kind(card)
    prog = Program(key=card.key, name=card.display_name, kind=kind, atk=int(attrs.get("atk") or 0),
                   def_=int(attrs.get("def") or 0), team=attrs.get("team"), tags=tuple(attrs.get("tags") or ()),
                   speed=_speed(card) if kind == "action" else None)
    texts = paragraphs(card.text)
    entry = _TABLE.get(card.key)
    if entry is not None:
        statuses, fields = entry
        for name, value in fields.items():
            setattr(prog, name, value)
        if len(statuses) != len(texts):  # the text changed since the table was written: trust nothing
            statuses = (MANUAL,) * len(texts)
            prog.on_play = prog.on_enter = prog.start_round = prog.effect = prog.powers = ()
            prog.triggers, prog.round_start = {}, {}
        prog.abilities = tuple(zip(texts, statuses))
    elif kind in ("feature", "mission"):
        prog.abilities = tuple((t, AUTO) for t in texts)  # the missions module encodes them
    else:
        # a card this table does not know (another set): keywords only, the rest by hand
        prog.unblockable = any(_UNBLOCKABLE.fullmatch(t.rstrip(".")) for t in texts) or "Unblockable" in (attrs.get("keywords") or ())
        prog.abilities = tuple((t, AUTO if _UNBLOCKABLE.fullmatch(t.rstrip(".")) else MANUAL) for t in texts)
    if prog.kind == "action" and any(op == ("go_again",) for op in prog.effect):
        prog.go_again = True
    statuses = [s for _, s in prog.abilities]
    if prog.kind == "action":
        prog.useful = any(s == AUTO for s in statuses) and "never" not in prog.play_cond
    return prog


def phrase_of(text: str) -> str:
    words = plain(text).split()
    return " ".join(words[:6]) + (" ..." if len(words) > 6 else "")

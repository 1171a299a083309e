"""What a Battledome card does, compiled once from its facts (fireplace's idea: behaviour is a
table keyed by card, not code per card).

The catalogue holds almost no rules text (see ../shared/data/neopets-battledome/README.md), so a
card's behaviour comes from two places:

- structured values, from the catalogue or entered by the player for a session (`card_values`):
  `attack_bonus`, `defence_bonus`, `agility_bonus`, `hp_bonus` (a Codestone's printed bonus, an
  Equipment's or Faerie's while it is in play, a Potion's, Legend's or Food's for the turn it is
  played), `heal` (remove that much damage from your Neopet), `damage_reduction` (Red Scorchstone's
  pattern: cash the card in when the opponent's attack hits, to take that much less damage; on a
  Food, the damage of this turn's battle is reduced), `draw` (draw that many cards);
- rules text, when a player adds it: the common patterns are read ("+2 Attack", "gains 1 Defence",
  "heal 2 damage", "reduce the damage ... by 2", "draw a card"); anything else is listed as not
  automated, for the manual moves.

`needed(card)` is what the engine must know to *play* a card at all (its type; a Neopet's four
stats; a Codestone's bonus; a level requirement), as deckhub.core.session_values expects.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from deckhub.core import effects as core_effects
from deckhub.core.effects import AUTO, MANUAL, open_ledger, pattern

STATS = ("attack", "defence", "agility", "hp")
STAT_LABELS = {"attack": "Attack", "defence": "Defence", "agility": "Agility", "hp": "HP"}
BONUS_FIELDS = tuple(f"{s}_bonus" for s in STATS)
EFFECT_FIELDS = (*BONUS_FIELDS, "heal", "damage_reduction", "draw")

NEOPET_TYPES = ("Neopet", "Rainbow Pool Neopet")
SLOT_TYPES = ("Faerie", "Hero", "Villain")  # one slot, shared (notes §2b, §9.5)
PREP_TYPES = ("Equipment", "Petpet", "Faerie", "Hero", "Villain", "Legend", "Potion", "Paint Brush",
              "Location", "Map Piece")  # the one card of the Prep phase (article "Prep"; notes §4)
ONE_SHOT_TYPES = ("Legend", "Potion")  # resolve, then to the discard pile (notes §2b, INFERRED)
PLAY_AREA_TYPES = ("Location", "Map Piece")  # the Play Area, outside the Battledome (March 2025)



@dataclass(frozen=True)
class Program(core_effects.Program):
    """A card's compiled behaviour. `role`: neopet, codestone, equipment, petpet, slot, one_shot,
    food, brush, play_area, faction or unknown (type not known)."""

    role: str
    level: int | None = None  # level requirement (None: unknown)
    stats: tuple[tuple[str, int], ...] = ()  # a Neopet's (or Petpet's) printed stats that are known
    bonus: tuple[tuple[str, int], ...] = ()  # (stat, amount)
    heal: int = 0
    reduction: int = 0
    draw: int = 0
    turn_bonus: tuple[tuple[str, int], ...] = ()  # an Equipment's / Faerie's "this turn" bonus: the turn it is played
    ward: int = 0  # "reduce the damage your Neopet would take by N": every hit, while the card is in play
    missing: tuple[str, ...] = ()  # needed values still unknown
    behaviour_known: bool = True  # False: no text and no effect values (what it does is unknown)
    abilities: tuple[tuple[str, str], ...] = ()  # (sentence, AUTO | MANUAL)
    accounts: tuple = ()  # one core `Account` per sentence: what each pattern read, which words were left
    species: str | None = None

    def stat(self, name: str) -> int | None:
        for k, v in self.stats:
            if k == name:
                return v
        return None

    def bonus_of(self, name: str) -> int:
        return sum(v for k, v in self.bonus if k == name)

    @property
    def automation(self) -> str:
        """full / partial / none, as the sandbox and the coverage report show it: a card also needs
        its values (level, stats, bonus) known and what it does known to be full."""
        if not self.missing and self.behaviour_known and not self.manual_text:
            return "full"
        some = self.useful if self.role != "neopet" else bool(self.stats)
        return "partial" if some and self.behaviour_known or any(s == AUTO for _, s in self.abilities) else "none"

    @property
    def useful(self) -> bool:
        return bool(self.bonus or self.heal or self.reduction or self.draw or self.turn_bonus or self.ward)


def role_of(card_type: str | None) -> str:
    if card_type is None:
        return "unknown"
    if card_type in NEOPET_TYPES:
        return "neopet"
    if card_type in SLOT_TYPES:
        return "slot"
    return {"Codestone": "codestone", "Equipment": "equipment", "Petpet": "petpet", "Legend": "one_shot",
            "Potion": "one_shot", "Food": "food", "Paint Brush": "brush", "Location": "play_area",
            "Map Piece": "play_area", "Faction": "faction"}.get(card_type, "unknown")


def needed(card: Any) -> tuple[str, ...]:
    """The values the engine needs to play this card by the rules (known or not)."""
    role = role_of(card.type)
    if role == "unknown":
        return ("type",)
    if role == "neopet":
        return ("hp", "attack", "defence", "agility")
    if role == "codestone":
        # each Codestone prints one stat bonus (notes §2b); which stat is part of the fact
        if any(card.attrs.get(f) is not None for f in BONUS_FIELDS):
            return ()
        return ("attack_bonus", "defence_bonus", "agility_bonus")
    if role == "petpet":
        return ("level_requirement", "attack", "defence", "agility")
    if role == "faction":
        return ()
    return ("level_requirement",)


# --- rules text ----------------------------------------------------------------------------------

_NUM = r"(\d+|a|an|one|two|three|four|five)"
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_STAT = r"(attack|defence|defense|agility|hp|hit points?)"
_PATTERNS: tuple[tuple[core_effects.TrackedPattern, str], ...] = (
    (pattern(rf"^(?:your neopet |this neopet |it )?(?:gets |gains |has )?([+-]\d+) {_STAT}(?: (?:this turn|until (?:the )?end of (?:the )?turn))?$"), "bonus"),
    (pattern(rf"^(?:your neopet |this neopet |it )?(?:gets|gains) {_NUM} {_STAT}(?: (?:this turn|until (?:the )?end of (?:the )?turn))?$"), "gain"),
    (pattern(rf"^(?:heal|remove|recover) {_NUM} (?:damage|hp|hit points?)(?: from your neopet)?$"), "heal"),
    (pattern(rf"^(?:heal|recover) your neopet(?:'s)? (?:by |for )?{_NUM}(?: damage| hp)?$"), "heal"),
    (pattern(rf"^(?:reduce|prevent) (?:the )?(?:next )?(?:damage (?:your neopet would take|taken|dealt to your neopet)(?: this turn)? by {_NUM}|{_NUM} damage)(?: this turn)?$"), "reduce"),
    (pattern(rf"^draw {_NUM} cards?$"), "draw"),
)


def _number(text: str) -> int:
    return _WORDS.get(text, None) or int(text)


def _stat_name(text: str) -> str:
    text = text.lower()
    if text.startswith("def"):
        return "defence"
    if text.startswith("hp") or text.startswith("hit"):
        return "hp"
    return text


def sentences(text: str | None) -> list[str]:
    if not text:
        return []
    parts = re.split(r"(?<=[.!])\s+|\n+", text.strip())
    return [p.strip() for p in parts if p.strip()]


def read_sentence(sentence: str) -> list[tuple[str, Any]] | None:
    """The effects of one sentence of rules text, or None when it is not a pattern the engine knows."""
    s = sentence.lower().strip().rstrip(".!").replace("’", "'")
    s = re.sub(r"\s+", " ", s)
    # "+1 Attack and +1 Defence" / "+1 Attack, +1 Agility"
    pieces = [p.strip() for p in re.split(r",? and |, ", s) if p.strip()]
    found: list[tuple[str, Any]] = []
    for piece in pieces:
        for pattern, kind in _PATTERNS:
            m = pattern.match(piece)
            if not m:
                continue
            # "this turn" is kept: on a card that stays in play, the bonus lasts only the turn it is played
            bonus_kind = "turn_bonus" if re.search(r"this turn|end of (?:the )?turn", piece) else "bonus"
            if kind == "bonus":
                found.append((bonus_kind, (_stat_name(m.group(2)), int(m.group(1)))))
            elif kind == "gain":
                found.append((bonus_kind, (_stat_name(m.group(2)), _number(m.group(1)))))
            elif kind == "heal":
                found.append(("heal", _number(m.group(1))))
            elif kind == "reduce":
                amount = _number(next(g for g in m.groups() if g))
                if "would take" in piece and "next" not in piece and "this turn" not in piece:
                    found.append(("ward", amount))  # every time, not once
                elif re.fullmatch(rf"prevent {_NUM} damage", piece):
                    found.append(("prevent", amount))  # when it ends is not said
                else:
                    found.append(("reduce", amount))
            elif kind == "draw":
                found.append(("draw", _number(m.group(1))))
            break
        else:
            return None
    return found or None


def compile_card(card: Any) -> Program:
    attrs = card.attrs
    role = role_of(card.type)
    bonus: dict[str, int] = {}
    for s in STATS:
        v = attrs.get(f"{s}_bonus")
        if isinstance(v, int) and not isinstance(v, bool) and v:
            bonus[s] = v
    heal = attrs.get("heal") or 0
    reduction = attrs.get("damage_reduction") or 0
    draw = attrs.get("draw") or 0
    turn_bonus: dict[str, int] = {}
    ward = 0
    stays = role in ("equipment", "petpet", "slot", "play_area")  # in play past the turn it is played
    abilities: list[tuple[str, str]] = []
    accounts = []
    for sentence in sentences(card.text):
        book = open_ledger(sentence)
        effects = read_sentence(sentence)
        if effects is not None and not stays and any(k in ("ward", "prevent") for k, _ in effects):
            # a one-turn card's damage prevention would end with your turn, before the dummy's
            # attack (its only use): how long it lasts is the card's, so it is left to manual moves
            effects = None
        status, account = book.settle(MANUAL if effects is None else AUTO)
        accounts.append(account)
        if status is MANUAL:  # not read, or a word no pattern read
            abilities.append((sentence, MANUAL))
            continue
        abilities.append((sentence, AUTO))
        for kind, value in effects:
            if kind == "turn_bonus" and stays:
                turn_bonus[value[0]] = turn_bonus.get(value[0], 0) + value[1]
            elif kind in ("bonus", "turn_bonus"):
                bonus[value[0]] = bonus.get(value[0], 0) + value[1]
            elif kind == "ward":
                ward += value
            elif kind == "prevent":
                reduction += value
            elif kind == "heal":
                heal += value
            elif kind == "reduce":
                reduction += value
            elif kind == "draw":
                draw += value
    stats = tuple((s, attrs[s]) for s in STATS if isinstance(attrs.get(s), int) and role in ("neopet", "petpet"))
    level = attrs.get("level_requirement")
    missing = tuple(f for f in needed(card) if (card.type if f == "type" else attrs.get(f)) is None)
    has_effect = bool(bonus or heal or reduction or draw or turn_bonus or ward or card.text)
    if role == "neopet":
        behaviour_known = True  # it fights with its stats; text, when there is some, is read above
    elif role == "codestone":
        behaviour_known = bool(bonus) or not missing
    elif role == "petpet":
        behaviour_known = has_effect or len(stats) == 3  # it lends its Attack, Defence or Agility (notes §2b)
    elif role in ("faction", "unknown"):
        behaviour_known = False
    else:
        behaviour_known = has_effect
    return Program(role=role, level=level if isinstance(level, int) else None, stats=stats,
                   bonus=tuple(bonus.items()), heal=int(heal), reduction=int(reduction), draw=int(draw),
                   turn_bonus=tuple(turn_bonus.items()), ward=ward,
                   missing=missing, behaviour_known=behaviour_known,
                   abilities=tuple(abilities), accounts=tuple(accounts), species=attrs.get("species"))


def phrase_of(sentence: str) -> str:
    """A short, number-free form of an unautomated sentence, to rank the commonest gaps."""
    s = re.sub(r"\d+", "N", sentence.lower())
    return " ".join(s.split()[:8])


def coverage(catalogue: Iterable[Any]) -> dict[str, Any]:
    """Distinct cards fully / partly / not automated, with what keeps the rest from automation."""
    missing_cards = unknown_behaviour = no_text = 0
    missing_fields: Counter = Counter()
    by_type: dict[str, Counter] = {}

    def rate(card, prog: Program) -> core_effects.Rated:
        nonlocal missing_cards, unknown_behaviour, no_text
        status = prog.automation
        no_text += not card.text
        by_type.setdefault(card.type or "(type unknown)", Counter())[status] += 1
        if prog.missing:
            missing_cards += 1
            missing_fields.update(prog.missing)
        gaps = ()
        if not prog.behaviour_known:
            unknown_behaviour += 1
            gaps = ("(what the card does is not in the catalogue: no text, no effect values)",)
        return core_effects.Rated(status, prog.abilities, not card.text and status == "full", gaps)

    result = core_effects.coverage("neopets-battledome", catalogue, compile_card, rate=rate, phrase=phrase_of)
    result["no_text"] = no_text
    result["missing_values"] = {"cards": missing_cards, "fields": dict(sorted(missing_fields.items()))}
    result["unknown_behaviour"] = unknown_behaviour
    result["by_type"] = {t: dict(c) for t, c in sorted(by_type.items())}
    result["notes"] = [
        "full = the engine knows everything it needs to play the card and automates all it does: a Neopet with its "
        "four stats, a Codestone with its bonus, a card with a level requirement and known effects",
        "vanilla: fully automated cards without rules text (a Neopet plays with its stats, a Codestone with its "
        "bonus); no_text counts every card without text in the catalogue: for this game that means the text is "
        "unknown, not that the card has none",
        "missing values (level requirement, stats, Codestone bonus, type) can be entered for a game with the "
        "card_values option; the effects (attack_bonus, heal, damage_reduction, draw...) too",
    ]
    return result

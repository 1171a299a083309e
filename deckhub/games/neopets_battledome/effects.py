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
  "heal 2 damage", "reduce the damage ... by 2", "draw a card") clause by clause; a clause only about
  the opponent's cards the training dummy does not have is of no effect on its own; a "this turn"
  that opens or closes a sentence covers every clause of it; a reduction lasts as written (every
  hit, this turn's, or the next damage only, used up without the card); anything else is listed as
  not automated, for the manual moves.

`needed(card)` is what the engine must know to *play* a card at all (its type; a Neopet's four
stats; a Codestone's bonus; a level requirement), as deckhub.core.session_values expects.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from deckhub.core import effects as core_effects
from deckhub.core.effects import AUTO, MANUAL, NO_EFFECT, open_ledger, pattern

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
    shield: int = 0  # "reduce the next damage ... by N": the next damage your Neopet takes, once
    turn_reduction: int = 0  # a card that stays in play: "... this turn", only the turn it is played
    missing: tuple[str, ...] = ()  # needed values still unknown
    behaviour_known: bool = True  # False: no text and no effect values (what it does is unknown)
    abilities: tuple[tuple[str, str], ...] = ()  # (sentence or clause, AUTO | NO_EFFECT | MANUAL)
    accounts: tuple = ()  # one core `Account` per ability: what each pattern read, which words were left
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
        if self.missing and self.role != "neopet":
            return "none"  # not playable at all until its type, level requirement or bonus is known
        some = self.useful if self.role != "neopet" else bool(self.stats)
        return "partial" if some and self.behaviour_known or any(s == AUTO for _, s in self.abilities) else "none"

    @property
    def useful(self) -> bool:
        return bool(self.bonus or self.heal or self.reduction or self.draw or self.turn_bonus or self.ward
                    or self.shield or self.turn_reduction)


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
    (pattern(rf"^(?:you )?draw {_NUM} cards?$"), "draw"),
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


_DURATION = r"(?:this turn|until (?:the )?end of (?:the )?turn)"
_SPLIT = re.compile(r",? and |, ", re.I)  # "+1 Attack and +1 Defence" / "+1 Attack, +1 Agility"
_OPPONENT = re.compile(r"\b(?:your opponent(?:'s|s')?|opponents?(?:'s|')?)(?=\W|$)")
_YOU = re.compile(r"\byou(?:r|rs)?\b")
_DUMMY_HAS = re.compile(r"\b(?:neopets?|damage|attack|defen[cs]e|agility|hp|hit points?|battle|rounds?)\b")
_LASTING = ("bonus", "reduce")  # the pattern kinds a duration changes


def _clean(sentence: str) -> str:
    return re.sub(r"\s+", " ", sentence.strip().rstrip(".!").replace("’", "'")).strip()


def _opponent_only(piece: str) -> bool:
    """A clause only about the opponent's cards the training dummy does not have (an inventory, a
    deck): of no effect. One about its Neopet, damage or stats matters, so it is not."""
    return bool(_OPPONENT.search(piece)) and not _YOU.search(_OPPONENT.sub(" ", piece)) \
        and not _DUMMY_HAS.search(piece)


def _match(piece: str) -> tuple[str, re.Match] | None:
    for regex, kind in _PATTERNS:
        m = regex.match(piece)
        if m:
            return ("bonus" if kind == "gain" else kind), m
    return None


def _effect(kind: str, m: re.Match, piece: str, turn: bool) -> tuple[str, Any] | None:
    """One clause's effect; `turn`: a "this turn" covers it (its own, or the sentence's)."""
    if kind == "bonus":
        amount = int(m.group(1)) if m.group(1)[0] in "+-" else _number(m.group(1))
        return ("turn_bonus" if turn else "bonus"), (_stat_name(m.group(2)), amount)
    if kind == "heal":
        return "heal", _number(m.group(1))
    if kind == "draw":
        return "draw", _number(m.group(1))
    amount = _number(next(g for g in m.groups() if g))
    if "next" in piece:
        return None if turn else ("shield", amount)  # the next damage only: used up once it reduces one
    if turn:
        return "turn_reduce", amount  # this turn's damage: it expires at the end of the turn
    if re.fullmatch(rf"(?:reduce|prevent) {_NUM} damage", piece):
        return "prevent", amount  # when it ends is not said
    return "ward", amount  # every hit, not once


def read_clauses(sentence: str) -> list[tuple[str, tuple[str, Any] | None | bool]]:
    """A sentence's clauses as written, each with its effect: an effect, False (of no effect against
    the dummy) or None (no pattern reads it: manual). A "this turn" that opens or closes the sentence
    covers every clause of it ("+2 Attack and +1 Agility this turn"); one inside it covers its own
    clause, and one that a later bonus or reduction may or may not share leaves the sentence manual."""
    text = _clean(sentence)
    lead = re.match(rf"{_DURATION},? ", text, re.I)
    raw = [p.strip() for p in _SPLIT.split(text[lead.end():] if lead else text) if p.strip()]
    low = [p.lower() for p in raw]
    if not low:
        return []
    if lead:
        raw[0] = lead.group(0) + raw[0]  # the clause keeps its words; the pattern reads it without them
    whole = bool(lead) or bool(re.search(rf" {_DURATION}$", low[-1]))
    found: list[tuple[str, Any]] = []
    seen_own = False
    for text, piece in zip(raw, low):
        own = bool(re.search(_DURATION, piece))
        hit = _match(piece)
        if hit is not None and hit[0] in _LASTING and seen_own and not own and not whole:
            return [(" ".join(raw), None)]  # "+2 Attack this turn and +1 Agility": how long is the +1?
        seen_own = seen_own or own
        if hit is not None:
            found.append((text, _effect(hit[0], hit[1], piece, whole or own)))
        else:
            opponents = _opponent_only(piece)
            if opponents:
                core_effects.read_all(piece, "about the opponent only")  # the whole clause is theirs
            found.append((text, False if opponents else None))
    return found


def _status(effect: Any) -> Any:
    return AUTO if effect else NO_EFFECT if effect is False else MANUAL


def read_sentence(sentence: str) -> list[tuple[str, Any]] | None:
    """The effects of one sentence of rules text, or None when a clause of it is not a pattern the
    engine knows (clauses of no effect against the dummy add nothing)."""
    clauses = read_clauses(sentence)
    if not clauses or any(effect is None for _, effect in clauses):
        return None
    return [effect for _, effect in clauses if effect]


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
    turn_reduction = shield = 0
    abilities: list[tuple[str, Any]] = []
    accounts = []
    for sentence in sentences(card.text):
        book = open_ledger(sentence)
        read: list[tuple[str, Any]] = []
        for text, effect in read_clauses(sentence):
            if effect and not stays and effect[0] in ("ward", "prevent"):
                # a one-turn card's damage prevention would end with your turn, before the dummy's
                # attack (its only use): how long it lasts is the card's, so it is left to manual moves
                effect = None
            read.append((text, effect))
        statuses = {_status(effect) for _, effect in read}
        # one ability when every clause has the same status, else one per clause, each settled on its
        # own words: a word no pattern read leaves it manual and what it compiled to unplayed
        parts = [(sentence, read)] if len(statuses) == 1 else [(text, [(text, effect)]) for text, effect in read]
        played = []
        for text, clauses in parts:
            status, account = book.settle(_status(clauses[0][1]), part=text)
            abilities.append((text, status))
            accounts.append(account)
            if status is AUTO:
                played.extend(effect for _, effect in clauses)
        for kind, value in played:
            if kind == "turn_bonus" and stays:
                turn_bonus[value[0]] = turn_bonus.get(value[0], 0) + value[1]
            elif kind in ("bonus", "turn_bonus"):
                bonus[value[0]] = bonus.get(value[0], 0) + value[1]
            elif kind == "ward":
                ward += value
            elif kind == "shield":
                shield += value
            elif kind == "turn_reduce" and stays:
                turn_reduction += value
            elif kind in ("prevent", "turn_reduce"):
                reduction += value  # on a card that stays: cashed in; on a one-turn card: this turn's
            elif kind == "heal":
                heal += value
            elif kind == "draw":
                draw += value
    stats = tuple((s, attrs[s]) for s in STATS if isinstance(attrs.get(s), int) and role in ("neopet", "petpet"))
    level = attrs.get("level_requirement")
    missing = tuple(f for f in needed(card) if (card.type if f == "type" else attrs.get(f)) is None)
    has_effect = bool(bonus or heal or reduction or draw or turn_bonus or ward or shield or turn_reduction or card.text)
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
                   turn_bonus=tuple(turn_bonus.items()), ward=ward, shield=shield, turn_reduction=turn_reduction,
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
        "four stats, a Codestone with its bonus, a card with a level requirement and known effects; none = nothing of "
        "it is automated, or a value it needs to be played at all is unknown (type, level requirement, a Codestone's "
        "bonus): only manual moves can play it",
        "vanilla: fully automated cards without rules text (a Neopet plays with its stats, a Codestone with its "
        "bonus); no_text counts every card without text in the catalogue: for this game that means the text is "
        "unknown, not that the card has none",
        "missing values (level requirement, stats, Codestone bonus, type) can be entered for a game with the "
        "card_values option; the effects (attack_bonus, heal, damage_reduction, draw...) too",
    ]
    return result

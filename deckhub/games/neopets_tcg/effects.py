"""Neopets TCG card facts and text, compiled once per card into a `Program` the engine runs.

The catalogue knows very little (data/neopets-tcg/cards.json: no rules text at all, a few stats,
three stat bonuses, no bank values). Everything here reads only what is known - the catalogue's
facts or values the player supplied for the session (deckhub.core.session_values) - and leaves
the rest as None ("unknown"), never a guess.

Text patterns automated (sentence by sentence; text comes from the catalogue or from a session
value, so the same patterns work as soon as text is known):
  stat bonuses       "+2 intelligence", "strength +3", "+1 to all stats" (Equipment: while attached;
                     Item: to the contest total)
  draw effects       "draw a card", "draw 2 cards", "you and your opponent each draw 2 cards" (you draw;
                     the dummy's draw cannot matter)
  bank effects       "put an Item or Equipment from your hand into your bank", "bank the top card of
                     your deck" (its value counts when known)
  movement effects   "move 1 of your Neopets to another arena" (the glossary's move: tap an untapped
                     Neopet and put it in a new arena), "... without tapping it" (any of them, left
                     as it is), "untap 1 of your Neopets"; a group is kept whole ("1 of your Neopets
                     or Heroes" offers both)
  timing             "before your turn, ...", "when you bank this card, ...", "when this Neopet (or
                     Hero) wins a contest, ...", "when you play this card, ..." and plain sentences
                     of Something Has Happened! cards and Locations (on play); "you may ..." asks.
  play costs         "tap 1 of your Neopets to play this", "tap a Fire Neopet to play this", on every
                     card kind played from the hand (a Hero's cost is the rules' own)
  mixed effects      a sentence is read clause by clause ("draw 2 cards and your opponent discards a
                     card"): each clause is automated, of no effect or manual on its own
  no effect          a clause only about the opponent's cards or rivals: the dummy has none.
Anything else is left to manual moves and counted by `deckhub coverage`. A sentence that looks like a
stat bonus or a tapping cost but that no pattern read leaves that bonus or cost unknown (None), never
a silent 0 or "no cost".
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from deckhub.core import effects as core_effects
from deckhub.core.effects import AUTO, MANUAL, NO_EFFECT, open_ledger, pattern
from deckhub.games.neopets_tcg.contest import ARENAS

FAERIES = ("Air", "Dark", "Earth", "Fire", "Light", "Water")
TYPES = ("Basic Neopet", "Experienced Neopet", "Hero", "Villain", "Item", "Equipment",
         "Something Has Happened!", "Location")
NEOPET_TYPES = ("Basic Neopet", "Experienced Neopet")
TAP_CHOICES = ("none", "any") + FAERIES
# the kinds played from the hand whose own text may give a tapping cost (a Hero's is the rules')
PAID_TYPES = ("Experienced Neopet", "Villain", "Equipment", "Item", "Something Has Happened!", "Location")

_NUMBERS = {"a": 1, "an": 1, "one": 1, "1": 1, "two": 2, "2": 2, "three": 3, "3": 3, "four": 4, "4": 4, "five": 5, "5": 5}
_N = r"(a|an|one|two|three|four|five|\d)"


@dataclass
class Program(core_effects.Program):
    """What the engine knows about one card. None always means "unknown"."""

    type: str | None
    species: str | None
    faerie: str | None
    stats: dict[str, int | None]  # printed stats by arena (Neopets, Heroes, Villains)
    bonus: dict[str, int | None]  # Equipment (while attached) / Item (in a contest) bonus by arena
    bank: int | None  # bank value (points in the coin)
    tap: str | None  # what playing it taps: "none", "any" or a faerie type; None when unknown
    text_known: bool
    on_play: tuple = ()
    on_bank: tuple = ()
    on_win: tuple = ()
    before_turn: tuple = ()
    abilities: list[tuple[str, str]] = field(default_factory=list)  # (sentence, AUTO | NO_EFFECT | MANUAL)
    unread: tuple = ()  # "stat bonus" / "tapping cost": text that looks like one but that no pattern read

    def __post_init__(self) -> None:
        self.neopet = self.type in NEOPET_TYPES  # a Basic or Experienced Neopet (not Heroes, not Villains)
        self.contester = self.neopet or self.type == "Hero"  # can start and join your contests

    @property
    def automation(self) -> str:
        """"full": text known and every sentence automated (or of no effect against the dummy);
        "partial": some of it; "none": text unknown, or nothing of it automated."""
        if not self.text_known:
            return "none"
        statuses = [s for _, s in self.abilities]
        if all(s != MANUAL for s in statuses):
            return "full"
        return "partial" if any(s == AUTO for s in statuses) else "none"

    @property
    def useful_play(self) -> bool:
        """Playing it does something the policy can count on (a draw, a bank, a free move)."""
        return any(op[0] in ("draw", "bank_from_hand", "bank_top", "may") for op in self.on_play)


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def _sentences(text: str) -> list[str]:
    text = text.replace("\u2019", "'").replace("\n", " ")
    parts = re.split(r"(?<=[.!])\s+(?=[^a-z\s])", text.strip())  # "+2 strength. +2 agility." is two
    return [p.strip() for p in parts if p.strip()]


_BONUS_FRONT = pattern(r"^(?:(?:this neopet or hero|this neopet|this hero|it|you) (?:gets|get|has|have) )?([+-]\d+) (?:to )?(all stats|strength|agility|magic|intelligence)(?: (?:in|for) (?:this|the) contest)?\.?$", re.I)
_BONUS_BACK = pattern(r"^(?:(?:this neopet or hero|this neopet|this hero|it) (?:gets|has) )?(all stats|strength|agility|magic|intelligence)\s*([+-]\d+)\.?$", re.I)
_DRAW = pattern(rf"^(?:you and your opponent each |you )?draw {_N} cards?\.?$", re.I)
_BANK_HAND = pattern(r"^(?:put|bank) (?:1|one|an|a) item or equipment(?: card)? from your hand(?: into your bank)?\.?$", re.I)
_BANK_TOP = pattern(rf"^(?:put|bank) the top {_N}? ?cards? of your deck(?: into your bank)?\.?$", re.I)
_GROUP = r"(neopets or heroes|heroes or neopets|neopets|heroes)"  # kept whole: "Neopets or Heroes" offers both
_MOVE = pattern(rf"^move (?:1|one) of your (?:untapped )?{_GROUP} (?:to|into) (?:another|any other|a different|any|a new) arena( without tapping it)?\.?$", re.I)
# what a bonus or a tapping cost looks like, to tell "no pattern read it" from "the card has none"
_BONUS_HINT = re.compile(r"[+-]\d|\b(?:strength|agility|magic|intelligence|all stats)\b", re.I)
_TAP_HINT = re.compile(r"\btap\b.*\bto play\b|\bto play this\b.*\btap\b", re.I)
_UNTAP = pattern(rf"^untap (?:1|one) of your {_GROUP}\.?$", re.I)
_TAP_COST = pattern(r"^(?:to play this(?: card)?, )?tap (?:1|one|a|an) (?:of your )?(?:untapped )?(air |dark |earth |fire |light |water )?neopets?(?: to play this(?: card)?)?\.?$", re.I)
_MAY = pattern(r"^you may (.+)$", re.I)
_TRIGGERS = (
    ("before_turn", pattern(r"^before your turn,\s*(.+)$", re.I)),
    ("on_bank", pattern(r"^(?:when|whenever|after) you bank this card,\s*(.+)$", re.I)),
    ("on_win", pattern(r"^(?:when|whenever) this (?:neopet or hero|neopet|hero)(?: or hero)? wins a contest(?: on your turn)?,\s*(.+)$", re.I)),
    ("on_play", pattern(r"^(?:when|whenever) you (?:play|attach) this(?: card| item| equipment)?,\s*(.+)$", re.I)),
)
_OPPONENT = re.compile(r"\b(?:your opponent(?:'s|s')?|opponents?(?:'s|')?|rivals?(?:'s|')?)(?=\W|$)", re.I)
# the core's significant words, and the verbs of what a sentence can do for you: left unread, it is not played
WORDS = core_effects.significant(("effect", r"\b(?:draw|bank|move|untap)s?\b"))
_YOU = re.compile(r"\byou(?:r|rs)?\b", re.I)
# where a sentence splits into clauses: "then", or "and" before a new subject or command
_CLAUSE = re.compile(r"(?:,? and)? then |; |,? and (?=(?:your opponent|each player|you|draw|bank|put|move|untap|tap|"
                     r"discard|shuffle|return|search|look|reveal|flip|play|trade)\b)", re.I)


def group_of(text: str) -> str:
    """The cards a group names, as the ops take it: "neopets", "heroes" or "both"."""
    text = text.lower()
    return "both" if " or " in text else text


def _effect(body: str) -> tuple | None:
    """One effect clause as an op, or None when no pattern matches."""
    body = body.strip().rstrip(".").strip()
    m = _MAY.match(body)
    if m:
        inner = _effect(m.group(1))
        return ("may", m.group(1), (inner,)) if inner else None
    m = _DRAW.match(body)
    if m:
        return ("draw", _NUMBERS.get(m.group(1).lower(), 1) if not m.group(1).isdigit() else int(m.group(1)))
    if _BANK_HAND.match(body):
        return ("bank_from_hand",)
    m = _BANK_TOP.match(body)
    if m:
        word = (m.group(1) or "1").lower()
        return ("bank_top", int(word) if word.isdigit() else _NUMBERS.get(word, 1))
    m = _MOVE.match(body)
    if m:
        return ("move_free" if m.group(2) else "move_one", group_of(m.group(1)))
    m = _UNTAP.match(body)
    if m:
        return ("untap_one", group_of(m.group(1)))
    return None


def _opponent_only(clause: str) -> bool:
    """A clause only about the opponent's cards or rivals (no "you" or "your" of yours in it)."""
    return bool(_OPPONENT.search(clause)) and not _YOU.search(_OPPONENT.sub(" ", clause))


def _clause(text: str) -> tuple[tuple | None, Any]:
    op = _effect(text)
    if op is not None:
        return op, AUTO
    if _opponent_only(text):
        core_effects.read_all(text, "about the opponent only")  # the whole clause is theirs
        return None, NO_EFFECT
    return None, MANUAL


def read_body(body: str) -> list[tuple[str, tuple | None, Any]]:
    """An effect read clause by clause: [(clause, op or None, status)]. The whole text is tried first
    ("you and your opponent each draw 2 cards" is one clause); a "you may" covers every clause after
    it, so it is one choice, automated only when no clause of it is manual."""
    body = body.strip().rstrip(".").strip()
    op = _effect(body)
    if op is not None:
        return [(body, op, AUTO)]
    m = _MAY.match(body)
    if m:
        parts = read_body(m.group(1))
        ops = tuple(op for _, op, _ in parts if op is not None)
        if ops and all(s is not MANUAL for _, _, s in parts):
            return [(body, ("may", m.group(1), ops), AUTO)]
        return [(body, None, MANUAL)]
    clauses = [c.strip(" ,") for c in _CLAUSE.split(body) if c.strip(" ,")]
    if len(clauses) == 1 or any(" " not in c for c in clauses):  # one clause, or "You and your opponent each ..."
        return [(body, *_clause(body))]
    return [(c, *_clause(c)) for c in clauses]


def _bonus(sentence: str) -> tuple[str, int] | None:
    s = sentence.strip().rstrip(".")
    m = _BONUS_FRONT.match(s)
    if m:
        return m.group(2).lower(), int(m.group(1))
    m = _BONUS_BACK.match(s)
    if m:
        return m.group(1).lower(), int(m.group(2))
    return None


def _unread_arenas(sentence: str) -> set[str]:
    """The arenas a bonus-like sentence no pattern read may give a bonus to (all when it names none)."""
    named = {a for a in ARENAS if re.search(rf"\b{a}\b", sentence, re.I)}
    return named if named and not re.search(r"all stats", sentence, re.I) else set(ARENAS)


def compile_card(card: Any) -> Program:
    """The Program of a Card. Engines keep it on the catalogue (`Catalogue.compiled`): session
    cards and corrected cards are new values of a new catalogue, compiled afresh."""
    return _compile(card)


def _compile(card: Any) -> Program:
    attrs = card.attrs
    ctype = card.type if card.type in TYPES else None
    faerie = attrs.get("faerie")
    tap = attrs.get("tap_to_play")
    prog = Program(
        type=ctype, species=attrs.get("species") or None, faerie=faerie if faerie in FAERIES else None,
        stats={a: _int(attrs.get(a)) for a in ARENAS},
        bonus={a: _int(attrs.get(f"{a}_bonus")) for a in ARENAS},
        bank=_int(attrs.get("bank_value")), tap=tap if tap in TAP_CHOICES else None,
        text_known=card.text is not None,
    )
    if ctype == "Hero":
        prog.tap = "any"  # the rules' own cost: tap one of your Neopets
    elif ctype in ("Basic Neopet", "Experienced Neopet", "Villain", "Location", "Item", "Something Has Happened!") and prog.tap is None:
        prog.tap = "none"  # the rules give these no tapping cost; a card's own cost is its text
    if not prog.text_known:
        return prog
    triggers: dict[str, list[tuple]] = {"on_play": [], "on_bank": [], "on_win": [], "before_turn": []}
    text_bonus: dict[str, int] = {}
    text_tap: str | None = None
    plain_is_play = ctype in ("Something Has Happened!", "Location")
    unread_bonus: set[str] = set()
    unread_tap = False
    accounts = []
    for sentence in _sentences(card.text or ""):
        book = open_ledger(sentence, WORDS)
        bonus = _bonus(sentence) if ctype in ("Equipment", "Item") else None
        tapm = _TAP_COST.match(sentence.rstrip(". "))
        if bonus is not None or (tapm is not None and ctype not in ("Hero",)):
            when, read = None, [(sentence, (), AUTO)]  # a bonus, or a tapping cost
        else:
            when, read = _timed(sentence, plain_is_play)
        parts = []
        for text, ops, status in read:  # each ability settled on its own words: one left unread, it is played by hand
            status, account = book.settle(status, part=text)
            parts.append((text, status))
            accounts.append(account)
            if status is not AUTO:
                continue
            if bonus is not None:
                arena, amount = bonus
                for a in (ARENAS if arena == "all stats" else (arena,)):
                    text_bonus[a] = text_bonus.get(a, 0) + amount
            elif when is None:
                text_tap = (tapm.group(1) or "").strip().capitalize() or "any"
            else:
                triggers[when].extend(ops)
        if any(s is MANUAL for _, s in parts):
            if ctype in ("Equipment", "Item") and _BONUS_HINT.search(sentence):
                unread_bonus.update(_unread_arenas(sentence))
            if ctype in PAID_TYPES and _TAP_HINT.search(sentence):
                unread_tap = True
        prog.abilities.extend(parts)
    if ctype in ("Equipment", "Item"):
        # the whole text is known: an arena it names no bonus for gets none (attrs still win), unless
        # a sentence no pattern read may name one: that arena's bonus stays unknown
        for a in ARENAS:
            if prog.bonus[a] is None and a not in unread_bonus:
                prog.bonus[a] = text_bonus.get(a, 0)
    if attrs.get("tap_to_play") not in TAP_CHOICES:  # a value set for the card wins over its text
        if unread_tap:
            prog.tap = None  # a cost no pattern read is unknown, not "none"
        elif text_tap is not None:
            prog.tap = text_tap
        elif ctype == "Equipment":
            prog.tap = "none"  # the whole text is known and names no tapping cost
    prog.accounts = tuple(accounts)
    prog.unread = (("stat bonus",) if unread_bonus else ()) + (("tapping cost",) if unread_tap else ())
    prog.on_play, prog.on_bank = tuple(triggers["on_play"]), tuple(triggers["on_bank"])
    prog.on_win, prog.before_turn = tuple(triggers["on_win"]), tuple(triggers["before_turn"])
    return prog


def _timed(sentence: str, plain_is_play: bool) -> tuple[str | None, list[tuple[str, tuple, Any]]]:
    """A sentence's timing ("when you play this card, ...", or a plain sentence of a card played for
    its effect) and its abilities with their ops: its body clause by clause. One ability when every
    clause has the same status; else one per clause (the first keeps the timing words), so an
    opponent-only clause is no effect on its own and a clause of yours no pattern read stays manual
    on its own."""
    when, body = None, sentence
    for name, timing in _TRIGGERS:
        m = timing.match(sentence)
        if m:
            when, body = name, m.group(1)
            break
    else:
        if plain_is_play:
            when = "on_play"
    parts = read_body(body)
    if when is None:  # an effect with no timing the engine knows: played by hand
        parts = [(text, None, MANUAL if op is not None else status) for text, op, status in parts]
    statuses = {status for _, _, status in parts}
    if len(statuses) == 1:
        return when, [(sentence, tuple(op for _, op, _ in parts if op is not None), statuses.pop())]
    lead = sentence[:len(sentence) - len(body)]
    return when, [((lead + text) if n == 0 else text, () if op is None else (op,), status)
                  for n, (text, op, status) in enumerate(parts)]


_VALUE_WORDS = {"type": "card type", "species": "species", "bank_value": "bank value", "tap_to_play": "tapping cost"}


def missing(prog: Program) -> tuple[str, ...]:
    """The values the engine needs to play this card at all that are unknown (see `needed`)."""
    known = {"type": prog.type, "species": prog.species, "bank_value": prog.bank, "tap_to_play": prog.tap}
    return tuple(f for f in needed(prog) if known[f] is None)


def needed(prog: Program) -> tuple[str, ...]:
    """What an automated goldfish needs to know about a card. Stats matter only in a contest
    against a Villain (the dummy has no Neopets), so they are asked for there, not here."""
    if prog.type is None:
        return ("type",)
    cost = () if prog.tap is not None else ("tap_to_play",)  # a cost its text has but no pattern read
    if prog.type in NEOPET_TYPES:
        return ("species",) + cost
    if prog.type in ("Item", "Equipment"):
        return ("bank_value",) + cost
    return cost


def phrase_of(sentence: str) -> str:
    """A short key for grouping similar unautomated sentences (numbers and names blurred)."""
    s = re.sub(r"\d+", "N", sentence.lower())
    return " ".join(s.split()[:6])


def coverage(catalogue: Iterable[Any]) -> dict[str, Any]:
    """Distinct cards by how much of them the engine automates, and what is missing (honestly: the
    catalogue holds no rules text, so no card is fully automated from the catalogue alone)."""
    known = Counter()
    unplayable: Counter = Counter()  # cards of a known type the engine cannot play, by the values they lack
    cards = 0

    def rate(card, prog: Program) -> core_effects.Rated:
        nonlocal cards
        cards += 1
        gaps = []
        lacks = missing(prog)  # a card the engine cannot play at all counts as none, whatever its text
        if prog.text_known:
            known["text"] += 1
            rated = core_effects.Rated("none" if lacks else prog.automation, tuple(prog.abilities), prog.abilities == [])
        else:
            gaps.append("(rules text not in the catalogue)")
            # what the rules alone let the engine do with a card of a known type and the values it needs
            rated = core_effects.Rated("none" if lacks else "partial", (), False)
        if prog.type is not None and lacks:
            unplayable[" and ".join(_VALUE_WORDS[f] for f in lacks)] += 1
        if prog.type is None:
            gaps.append("(card type unknown)")
        else:
            known["type"] += 1
        if prog.type in ("Item", "Equipment"):
            known["bankable"] += 1
            if prog.bank is None:
                gaps.append("(bank value unknown)")
            else:
                known["bank"] += 1
        if prog.type == "Experienced Neopet" and prog.species is None:
            gaps.append("(species unknown)")
        if any(v is not None for v in prog.bonus.values()):
            known["bonus"] += 1
        if any(v is not None for v in prog.stats.values()):
            known["stats"] += 1
        return rated._replace(gaps=tuple(gaps))

    result = core_effects.coverage("neopets-tcg", catalogue, compile_card, rate=rate, phrase=phrase_of,
                                   checks=lambda prog: tuple(f"{what} no pattern read (unknown)" for what in prog.unread))
    result["known"] = {"text": known["text"], "type": known["type"], "bankable": known["bankable"],
                       "bank_value": known["bank"], "stat_bonus": known["bonus"], "stats": known["stats"]}
    result["notes"] = [
        f"the catalogue holds rules text for {known['text']} of {cards} cards, a card type for {known['type']}, "
        f"a bank value for {known['bank']} of {known['bankable']} Items and Equipment, stats for {known['stats']}, "
        f"stat bonuses for {known['bonus']}",
        "full = text known and every sentence automated or of no effect against the dummy; partial = the card's type "
        "and the values the engine needs to play it are known, so the rules for its type are automated, but its text "
        "is not (or only partly); none = the type is unknown, or a value the engine needs to play the card at all is "
        "(an Item's or Equipment's bank value, an Experienced Neopet's species), so only manual moves can play it",
        *(f"{n} card{'s' if n != 1 else ''} of a known type count as none: {what} unknown"
          for what, n in sorted(unplayable.items())),
        "values and text a player supplies for a game (the card_values option) are compiled by the same patterns: "
        "stat bonuses, draw, bank and movement effects, before-your-turn, on-bank, on-win and on-play timing",
    ]
    return result

"""Deck lists in and out: pasted text, OCTGN `.o8d` XML, and the project's JSON deck format.

`read_decklist` recognises the format by content (a `<` starts XML, `{` or `[` JSON, anything
else is a text list), never raises on bad input, and returns a `DeckParse`: the deck built from
every line that could be read, line-numbered errors for the rest (with up to three likely cards for
a name it could not place), and notices for names it read as a different spelling.

Text lists (the format players paste and the Neopets TCG rulebook prints):
- `3 Name`, `3x Name`, `3 x Name`; a positive whole quantity first;
- a section header on its own line, by the game's section names or their aliases, case-insensitive,
  with an optional trailing colon and/or count (`Neopet Stack:`, `Deck (40)`, `Main Deck: 50`);
  lines before any header go to the game's main section;
- `#` and `//` comments (whole lines, or after a space at the end of a line; `#238` with a digit is
  part of a name), blank lines;
- a trailing note in parentheses (`(foil)`) does not change the card;
- Huntik versions as `Name, Version` or `Name - Version`;
- a printing after the name, `Name (SET) NUMBER` (set code or name, collector number), which is how
  a list names one of two cards that share a name (the Huntik missions "Defeat Ymir: Frost King");
- names match ignoring case, accents, curly vs straight quotes and punctuation, or by a printed
  alias; a close misspelling of exactly one card is accepted with a notice;
- a first line that is neither a card nor a section (`Darigan Deck`) is the deck's name.
"""
from __future__ import annotations

import bisect
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from deckhub.core.cards import Card, Catalogue, normalize_name
from deckhub.core.decklist import Deck, cards_printed, find_set, needs_printing, printing_label, split_printing
from deckhub.core.spec import GameSpec

DECK_FORMAT = "deckhub-deck"
DECK_FORMAT_VERSION = 1
MAX_QTY = 999
FUZZY_ACCEPT = 90.0  # Indel similarity (0-100) of normalized names for an unasked-for match

_QTY_LINE = re.compile(r"^(?P<qty>[+-]?\d+(?:[.,]\d+)?)\s*(?:[x\u00d7]\s+|\s)\s*(?P<name>\S.*)$", re.I)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what editors number lines by (not str.splitlines' \x0c, \u2028...)
_NUMERIC_START = re.compile(r"^[+-]?\d")
_TRAILING_COMMENT = re.compile(r"\s+(?://|#(?!\d)).*$")  # "Evil Sloth Clone #238" is a name, not a comment
_TRAILING_NOTE = re.compile(r"\s*\([^()]*\)\s*$")
_HEADER = re.compile(r"^(?P<name>.*?)\s*(?::\s*)?(?:\(\s*\d+\s*\)|\[\s*\d+\s*\]|-?\s*\d+)?\s*:?\s*$")
_HEADER_HINT = re.compile(r"(?::\s*$)|(?:\(\s*\d+\s*\)\s*:?\s*$)|(?:\[\s*\d+\s*\]\s*:?\s*$)")
# headers other card games' lists use: never taken for a deck name
_OTHER_HEADERS = {"sideboard", "side", "side deck", "side board", "maybeboard", "maybe", "extra deck",
                  "considering", "tokens", "commander", "reserve"}


@dataclass(frozen=True)
class LineError:
    """A problem on one line (1-based) of the input, with likely cards when a name is unknown."""

    line: int
    message: str
    suggestions: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "message": self.message, "suggestions": list(self.suggestions)}

    def __str__(self) -> str:
        hint = f" (did you mean: {'; '.join(self.suggestions)}?)" if self.suggestions else ""
        return f"line {self.line}: {self.message}{hint}"


@dataclass
class DeckParse:
    deck: Deck
    errors: list[LineError] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    kind: str = "text"  # "text", "o8d" or "json"

    @property
    def ok(self) -> bool:
        return not self.errors


OtherCatalogues = Callable[[str], Catalogue]


class _Resolver:
    """Card names (as typed) -> one card, or an error with suggestions; notices for respellings."""

    def __init__(self, game: GameSpec, catalogue: Catalogue, others: OtherCatalogues | None,
                 games: Sequence[GameSpec]):
        self.game = game
        self.catalogue = catalogue
        self.others = others
        self.games = games

    def resolve(self, raw: str, line: int, errors: list[LineError], notices: list[str]) -> Card | None:
        typed = raw.strip()
        candidates = [typed]
        stripped = typed
        while True:
            shorter = _TRAILING_NOTE.sub("", stripped)
            if shorter == stripped or not shorter:
                break
            stripped = shorter
            candidates.append(stripped)
        for name in candidates:
            found = self.catalogue.lookup(name)
            if len(found) == 1:
                card = found[0]
                if normalize_name(name) not in (normalize_name(card.name), normalize_name(card.display_name)):
                    notices.append(f"line {line}: {stripped!r} read as {card.display_name}")
                return card
            if len(found) > 1:
                errors.append(LineError(line, f"{stripped!r} could be several cards ({len(found)}); name one "
                                              f"as written below", tuple(_name(c.key, self.catalogue) for c in found[:6])))
                return None
            printing = split_printing(name)
            if printing is not None:
                if find_set(self.catalogue, printing[1]) is not None:
                    return self._printed(printing, line, errors)
                unknown_set = printing[1]
                sets = ", ".join(s.code for s in list(self.catalogue.sets.values())[:8])
                errors.append(LineError(line, f"{self.game.name} has no set {unknown_set!r} (its sets include "
                                              f"{sets}), and no card is called {name!r}"))
                return None
        if not normalize_name(stripped):
            errors.append(LineError(line, f"no card name in {typed!r}"))
            return None
        card = self._close_match(stripped)
        if card is not None:
            notices.append(f"line {line}: {stripped!r} read as {card.display_name}")
            return card
        suggestions = tuple(c.display_name for c, _ in self.catalogue.suggest(stripped, limit=3))
        other = self._other_game(stripped)
        if other:
            errors.append(LineError(line, f"{stripped!r} is a {other} card, not a {self.game.name} card", suggestions))
        else:
            errors.append(LineError(line, f"unknown {self.game.name} card {stripped!r}", suggestions))
        return None

    def _printed(self, printing: tuple[str, str, str], line: int, errors: list[LineError]) -> Card | None:
        """The card a `Name (SET) NUMBER` line names, or an error saying which part names nothing."""
        name, set_text, number = printing
        found = cards_printed(self.catalogue, name, set_text, number) or []
        if len(found) == 1:
            return found[0]
        named = self.catalogue.lookup(name)
        if not named:
            suggestions = tuple(c.display_name for c, _ in self.catalogue.suggest(name, limit=3))
            errors.append(LineError(line, f"unknown {self.game.name} card {name!r}", suggestions))
        elif not found:
            errors.append(LineError(line, f"{name!r} has no printing numbered {number!r} in {set_text!r}",
                                    tuple(printing_label(c) for c in named[:6])))
        else:
            errors.append(LineError(line, f"{name!r} is printed as {number!r} in {set_text!r} by several cards",
                                    tuple(c.key for c in found[:6])))
        return None

    def _close_match(self, name: str) -> Card | None:
        """The one card whose name is a close respelling of `name` ("Jeran's Armor"), else None."""
        from rapidfuzz import fuzz, process

        query = normalize_name(name)
        if len(query) < 4:
            return None
        hits = process.extract(query, self.catalogue.name_choices(), scorer=fuzz.ratio, limit=4,
                               score_cutoff=FUZZY_ACCEPT)
        cards = {c.key: c for choice, _score, _ in hits for c in self.catalogue.lookup(choice)}
        return next(iter(cards.values())) if len(cards) == 1 else None

    def _other_game(self, name: str) -> str | None:
        if self.others is None:
            return None
        for g in self.games:
            if g.slug == self.game.slug:
                continue
            try:
                if self.others(g.slug).lookup(name):
                    return g.name
            except Exception:  # another game's catalogue failing must not break this one's parse
                continue
        return None


def _decode(data: str | bytes) -> str | None:
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    text = text.lstrip("\ufeff")
    if "\x00" in text:
        return None
    return text


def read_decklist(data: str | bytes, game: GameSpec, catalogue: Catalogue, filename: str | None = None,
                  *, games: Sequence[GameSpec], others: OtherCatalogues | None = None) -> DeckParse:
    """Read a deck list of `game` in any supported format (recognised by content; never raises).

    `filename` only names the deck when the content does not; `games` are every game (the
    registry's `all_games()`), whose section names are headers, not a deck's name; `others(slug)`
    gives another of those games' catalogue, to say "X is a Huntik card" for a name this game does
    not know.
    """
    text = _decode(data)
    deck = Deck(game.slug)
    if text is None:
        return DeckParse(deck, [LineError(1, "not a text, .o8d or JSON deck list (binary data)")])
    resolver = _Resolver(game, catalogue, others, games)
    head = text.lstrip()
    if head.startswith("<"):
        result = _read_o8d(text, game, resolver)
    elif head.startswith(("{", "[")):
        result = _read_json(text, game, catalogue, resolver)
    else:
        result = _read_text(text, game, resolver)
    if not result.deck.name and filename:
        stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", filename.replace("\\", "/").rsplit("/", 1)[-1])
        result.deck.name = stem.replace("_", " ").strip()
    return result


# --------------------------------------------------------------------------- text

def _parse_header(line: str, game: GameSpec):
    m = _HEADER.match(line)
    name = (m.group("name") if m else line).strip().rstrip(":").strip()
    return (game.section(name) if name else None), name


def _is_header_elsewhere(header: str, games: Sequence[GameSpec]) -> bool:
    """A section name of any game, or a header other card games' lists use ("Sideboard")."""
    return normalize_name(header) in _OTHER_HEADERS or any(g.section(header) for g in games)


def _read_text(text: str, game: GameSpec, resolver: _Resolver) -> DeckParse:
    deck = Deck(game.slug)
    result = DeckParse(deck, kind="text")
    section = game.main_section
    seen_content = False
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or line.startswith("//"):
            continue
        line = _TRAILING_COMMENT.sub("", line).strip()
        if not line:
            continue
        m = _QTY_LINE.match(line)
        if m:
            seen_content = True
            qty_text, name = m.group("qty"), m.group("name")
            if not qty_text.isdecimal() or int(qty_text) < 1:
                result.errors.append(LineError(number, f"quantity {qty_text!r} is not a positive whole number"))
                continue
            qty = int(qty_text)
            if qty > MAX_QTY:
                result.errors.append(LineError(number, f"quantity {qty} is more than {MAX_QTY}"))
                continue
            card = resolver.resolve(name, number, result.errors, result.notices)
            if card is not None:
                deck.add(section, card.key, qty)
            continue
        if _NUMERIC_START.match(line):
            seen_content = True
            result.errors.append(LineError(number, f"{line!r}: a quantity must be a positive whole number "
                                                   f"followed by a card name"))
            continue
        spec, header = _parse_header(line, game)
        if spec is not None:
            section = spec.name
            seen_content = True
            continue
        sections = ", ".join(s.name for s in game.sections)
        if not seen_content and not _HEADER_HINT.search(line) and not _is_header_elsewhere(header, resolver.games) \
                and not resolver.catalogue.lookup(header):
            deck.name = line
            result.notices.append(f"line {number}: {line!r} read as the deck's name")
            seen_content = True
            continue
        seen_content = True
        if resolver.catalogue.lookup(_TRAILING_NOTE.sub("", line) or line):
            result.errors.append(LineError(number, f"no quantity before {line!r}; write it as '1 {line}'"))
        else:
            result.errors.append(LineError(number, f"unknown section {header or line!r}; {game.name} sections are "
                                                   f"{sections}"))
    return result


# --------------------------------------------------------------------------- OCTGN .o8d

def _line_finder(text: str) -> Callable[[int], int]:
    """pos -> 1-based line number, lines broken as editors break them (\r\n, \r or \n)."""
    starts = [m.end() for m in _LINE_BREAK.finditer(text)]
    return lambda pos: bisect.bisect_right(starts, pos) + 1


def _octgn_sections(game: GameSpec) -> dict[str, str]:
    return dict((game.file_formats.get("octgn") or {}).get("sections") or {})


def _read_o8d(text: str, game: GameSpec, resolver: _Resolver) -> DeckParse:
    deck = Deck(game.slug)
    result = DeckParse(deck, kind="o8d")
    try:
        root = SafeET.fromstring(re.sub(r"^\s*<\?xml[^>]*\?>", "", text))
    except ET.ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else 1
        result.errors.append(LineError(max(1, line), f"not a readable .o8d deck: {exc}"))
        return result
    except (DefusedXmlException, ValueError) as exc:
        result.errors.append(LineError(1, f"refused XML: {exc}"))
        return result
    if root.tag != "deck":
        result.errors.append(LineError(1, f"expected an OCTGN <deck>, found <{root.tag}>"))
        return result
    octgn = {normalize_name(v): k for k, v in _octgn_sections(game).items()}
    line_of = _line_finder(text)
    section_lines = [line_of(m.start()) for m in re.finditer(r"<section\b", text)]
    card_lines = [line_of(m.start()) for m in re.finditer(r"<card\b", text)]
    sections = root.findall("section")
    cards_all = [c for s in sections for c in s.findall("card")]
    if len(section_lines) != len(sections):
        section_lines = [1] * len(sections)
    if len(card_lines) != len(cards_all):
        card_lines = [1] * len(cards_all)
    card_index = 0
    for s_index, node in enumerate(sections):
        s_name = (node.get("name") or "").strip()
        spec = game.section(s_name) if s_name else None
        target = spec.name if spec else octgn.get(normalize_name(s_name))
        cards = node.findall("card")
        lines = card_lines[card_index:card_index + len(cards)]
        card_index += len(cards)
        if target is None:
            if cards:
                result.errors.append(LineError(section_lines[s_index], f"unknown section {s_name!r}; {game.name} "
                                               f"sections are {', '.join(s.name for s in game.sections)}"))
            continue
        for c, line in zip(cards, lines):
            qty_text = (c.get("qty") or "1").strip()
            name = (c.text or "").strip()
            if not qty_text.isdecimal() or not 1 <= int(qty_text) <= MAX_QTY:
                result.errors.append(LineError(line, f"quantity {qty_text!r} of {name or 'a card'!r} is not a "
                                                     f"positive whole number"))
                continue
            card = None
            cid = (c.get("id") or "").strip()
            if cid:
                card = resolver.catalogue.by_source_id(cid)
            if card is None:
                if not name:
                    result.errors.append(LineError(line, f"card id {cid!r} is not in the {game.name} catalogue "
                                                         f"and the line names no card"))
                    continue
                card = resolver.resolve(name, line, result.errors, result.notices)
            if card is not None:
                deck.add(target, card.key, int(qty_text))
    return result


# --------------------------------------------------------------------------- JSON

def _read_json(text: str, game: GameSpec, catalogue: Catalogue, resolver: _Resolver) -> DeckParse:
    deck = Deck(game.slug)
    result = DeckParse(deck, kind="json")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        result.errors.append(LineError(max(1, exc.lineno), f"not a readable JSON deck: {exc.msg}"))
        return result
    except (ValueError, RecursionError) as exc:
        result.errors.append(LineError(1, f"not a readable JSON deck: {exc}"))
        return result
    if not isinstance(doc, dict) or not isinstance(doc.get("sections"), dict):
        result.errors.append(LineError(1, "a JSON deck is an object with \"sections\""))
        return result
    if doc.get("format") not in (None, DECK_FORMAT):
        result.errors.append(LineError(1, f"not a {DECK_FORMAT} file (format {doc.get('format')!r})"))
        return result
    if doc.get("game") not in (None, game.slug):
        result.errors.append(LineError(1, f"this is a {doc.get('game')!r} deck, not a {game.slug} deck"))
        return result
    if isinstance(doc.get("name"), str):
        deck.name = doc["name"]
    line_of = _line_finder(text)
    card_lines = [line_of(m.start()) for m in re.finditer(r'"card"\s*:', text)]
    section_lines = {}
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"\s*:\s*\[', text):
        try:
            section_lines.setdefault(json.loads(f'"{m.group(1)}"'), line_of(m.start()))
        except ValueError:
            continue
    i = 0
    for s_name, entries in doc["sections"].items():
        s_line = section_lines.get(s_name, 1)
        spec = game.section(s_name) if isinstance(s_name, str) and s_name.strip() else None
        if not isinstance(entries, list):
            result.errors.append(LineError(s_line, f"section {s_name!r} is not a list of cards"))
            continue
        if spec is None and entries:
            result.errors.append(LineError(s_line, f"unknown section {s_name!r}; {game.name} sections are "
                                                   f"{', '.join(s.name for s in game.sections)}"))
        for e in entries:
            line = s_line
            if isinstance(e, dict) and "card" in e:
                line = card_lines[i] if i < len(card_lines) else s_line
                i += 1
            if spec is None:
                continue
            if not isinstance(e, dict):
                result.errors.append(LineError(line, f"an entry of {s_name!r} is not an object"))
                continue
            qty = e.get("qty", 1)
            if isinstance(qty, bool) or not isinstance(qty, int) or not 1 <= qty <= MAX_QTY:
                result.errors.append(LineError(line, f"quantity {qty!r} is not a positive whole number"))
                continue
            key = e.get("card")
            card = catalogue.get(key) if isinstance(key, str) else None
            if card is None and isinstance(e.get("name"), str) and e["name"].strip():
                card = resolver.resolve(e["name"], line, result.errors, result.notices)
                if card is None:
                    continue
            if card is None:
                result.errors.append(LineError(line, f"card {key!r} is not in the {game.name} catalogue"))
                continue
            deck.add(spec.name, card.key, qty)
    return result


# --------------------------------------------------------------------------- writers

def _name(key: str, catalogue: Catalogue) -> str:
    """The card's name, with its printing only where the name alone would be ambiguous."""
    card = catalogue.get(key)
    if card is None:
        return key
    return printing_label(card) if needs_printing(catalogue, card) else card.display_name


def write_text(deck: Deck, catalogue: Catalogue) -> str:
    """The deck as a text list: a header per section, then `N Name` lines (reads back the same)."""
    lines = []
    if deck.name:
        lines.append(f"# {deck.name}")
    for section, cards in deck.sections.items():
        if not cards:
            continue
        if lines:
            lines.append("")
        lines.append(f"{section} ({sum(cards.values())})")
        lines.extend(f"{qty} {_name(key, catalogue)}" for key, qty in cards.items())
    return "\n".join(lines) + "\n"


def write_o8d(deck: Deck, catalogue: Catalogue, game: GameSpec) -> str:
    """The deck as an OCTGN .o8d file; a card's id is its printing's source id (OCTGN GUID) when known."""
    octgn = game.file_formats.get("octgn") or {}
    names = octgn.get("sections") or {}
    root = ET.Element("deck")
    if octgn.get("game"):
        root.set("game", octgn["game"])
    for section, cards in deck.sections.items():
        node = ET.SubElement(root, "section", name=names.get(section, section), shared="False")
        for key, qty in cards.items():
            card = catalogue.get(key)
            el = ET.SubElement(node, "card", qty=str(qty))
            source_id = next((p.source_id for p in card.printings if p.source_id), None) if card else None
            if source_id:
                el.set("id", source_id)
            el.text = card.name if card is None or not card.version else card.display_name
            if card is None:
                el.text = key
    notes = ET.SubElement(root, "notes")
    notes.text = ""
    ET.indent(root, "  ")
    return '<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_json(deck: Deck, catalogue: Catalogue | None = None) -> str:
    """The deck in the project's JSON deck format (lossless); with a catalogue, names ride along."""
    doc = {"format": DECK_FORMAT, "version": DECK_FORMAT_VERSION, **deck.to_json()}
    if catalogue is not None:
        for entries in doc["sections"].values():
            for e in entries:
                card = catalogue.get(e["card"])
                if card is not None:
                    e["name"] = card.display_name
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"

"""Every format a deck exports to, in one table: DeckHub's text list, OCTGN's .o8d, DeckHub's JSON,
Untap's plain list and a Tabletop Simulator saved object. The deck page, `GET /api/decks/<id>/export`
and `deckhub export-deck` all write through `EXPORTS`, so a format is added once.

The Tabletop Simulator object points at sprite sheets the site serves (its caller says where):
`tts_sheets` lays a deck's distinct cards out on them, 70 to a 10 × 7 sheet, in the order both the
object and the sheets use.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from deckhub.core.cards import Catalogue
from deckhub.core.decklist import Deck, needs_printing, printing_label
from deckhub.core.spec import GameSpec
from deckhub.importers.decklists import write_json, write_o8d, write_text

SHEET_COLUMNS, SHEET_ROWS = 10, 7
SHEET_CARDS = SHEET_COLUMNS * SHEET_ROWS


@dataclass(frozen=True)
class TableImages:
    """Where a Tabletop Simulator object finds its pictures: sheet N (from 1) at `sheet_url(N)`."""

    sheet_url: Callable[[int], str]
    back_url: str


@dataclass(frozen=True)
class ExportFormat:
    name: str
    label: str
    mimetype: str
    extension: str
    write: Callable[[Deck, Catalogue, GameSpec, TableImages | None], str]
    needs_images: bool = False


def write_untap(deck: Deck, catalogue: Catalogue) -> str:
    """The plain `N Card Name` list Untap's deck import reads: no title and no counts; a deck with more
    than one section names each before its cards (`Neopet Stack:`), as Untap's own lists name a
    `Sideboard:`. A name shared by two cards carries its printing, so DeckHub reads it back the same."""
    filled = [(section, cards) for section, cards in deck.sections.items() if cards]
    lines: list[str] = []
    for section, cards in filled:
        if len(filled) > 1:
            if lines:
                lines.append("")
            lines.append(f"{section}:")
        for key, qty in cards.items():
            card = catalogue.get(key)
            name = key if card is None else (
                printing_label(card) if needs_printing(catalogue, card) else card.display_name)
            lines.append(f"{qty} {name}")
    return "\n".join(lines) + "\n"


def tts_sheets(deck: Deck) -> list[list[str]]:
    """The deck's distinct cards, in deck order, 70 to a sprite sheet."""
    keys = list(dict.fromkeys(key for cards in deck.sections.values() for key, qty in cards.items() if qty))
    return [keys[i:i + SHEET_CARDS] for i in range(0, len(keys), SHEET_CARDS)]


def _transform(x: float) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def write_tts(deck: Deck, catalogue: Catalogue, game: GameSpec, images: TableImages) -> str:
    """A Tabletop Simulator saved object: one face-down custom deck per section of the deck, side by
    side, whose cards are cut from the sprite sheets at `images` (card id = sheet × 100 + place)."""
    sheets = tts_sheets(deck)
    ids = {key: (n + 1) * 100 + i for n, keys in enumerate(sheets) for i, key in enumerate(keys)}
    custom = {str(n + 1): {"FaceURL": images.sheet_url(n + 1), "BackURL": images.back_url,
                           "NumWidth": SHEET_COLUMNS, "NumHeight": SHEET_ROWS, "BackIsHidden": True,
                           "UniqueBack": False, "Type": 0} for n in range(len(sheets))}
    objects = []
    for section, cards in deck.sections.items():
        dealt = [key for key, qty in cards.items() for _ in range(qty)]
        if not dealt:
            continue
        used = {str(ids[key] // 100) for key in dealt}
        cards_json = []
        for key in dealt:
            card = catalogue.get(key)
            cards_json.append({"Name": "Card", "Nickname": card.display_name if card else key,
                               "Description": (card.type or "") if card else "", "CardID": ids[key],
                               "Transform": _transform(0.0),
                               "CustomDeck": {str(ids[key] // 100): custom[str(ids[key] // 100)]}})
        objects.append({"Name": "DeckCustom", "Transform": _transform(len(objects) * 3.0),
                        "Nickname": f"{deck.name} · {section}" if deck.name else section,
                        "Description": f"{game.name}: {section} ({len(dealt)} cards), from DeckHub",
                        "DeckIDs": [ids[key] for key in dealt],
                        "CustomDeck": {n: custom[n] for n in sorted(used, key=int)},
                        "ContainedObjects": cards_json})
    doc = {"SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
           "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
           "VersionNumber": ""}
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


EXPORTS: dict[str, ExportFormat] = {f.name: f for f in (
    ExportFormat("text", "text", "text/plain; charset=utf-8", "txt",
                 lambda deck, catalogue, game, images: write_text(deck, catalogue)),
    ExportFormat("o8d", "OCTGN .o8d", "application/xml", "o8d",
                 lambda deck, catalogue, game, images: write_o8d(deck, catalogue, game)),
    ExportFormat("json", "JSON", "application/json", "json",
                 lambda deck, catalogue, game, images: write_json(deck, catalogue)),
    ExportFormat("untap", "Untap", "text/plain; charset=utf-8", "untap.txt",
                 lambda deck, catalogue, game, images: write_untap(deck, catalogue)),
    ExportFormat("tts", "Tabletop Simulator", "application/json", "tts.json",
                 lambda deck, catalogue, game, images: write_tts(deck, catalogue, game, images), needs_images=True),
)}


class ExportError(ValueError):
    pass


def export_deck(deck: Deck, catalogue: Catalogue, game: GameSpec, format_name: str,
                images: TableImages | None = None) -> tuple[ExportFormat, str]:
    """(the format, the deck written in it); ExportError for a format DeckHub does not write."""
    fmt = EXPORTS.get(format_name)
    if fmt is None:
        raise ExportError(f"Decks export as {', '.join(EXPORTS)}; not {format_name[:40]!r}.")
    if fmt.needs_images and images is None:
        raise ExportError(f"The {fmt.label} export needs the address of the site serving its pictures.")
    return fmt, fmt.write(deck, catalogue, game, images)

"""A game's catalogue from its `data/<game>/` folder, and the project's catalogue JSON format.

`data/<game>/` holds any number of
- `*.json` files in the project's catalogue format (written by `write_catalogue_json`):
  `{"format": "deckhub-catalogue", "version": 1, "game": SLUG, "sets": [CardSet...], "cards": [Card...]}`
  where a card is `Card.to_json()` and a set is `CardSet.to_json()`;
- `sets/*.xml` OCTGN set files, joined into cards by name (a reprint is one card, several printings).
Files are read in name order; a bad file raises CatalogueFileError naming every bad record.
A file format knows no game: the games registry passes each game's OCTGN card reader in
(`deckhub.games.load_catalogue`, `read_game_catalogue`).
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from deckhub.core.cards import Card, CardSet, Catalogue, CatalogueData, slugify
from deckhub.importers import CatalogueFileError, RecordError
from deckhub.importers.octgn_set import OctgnSet, ReadCard, parse_octgn_set

FORMAT = "deckhub-catalogue"
FORMAT_VERSION = 1
_CARD_FIELDS = {"key": str, "name": str, "version": (str, type(None)), "type": (str, type(None)),
                "text": (str, type(None)), "attrs": dict, "provenance": dict, "sources": list,
                "aliases": list, "printings": list}


def data_root() -> Path:
    """DECKHUB_DATA_DIR, else the shipped `data/` (in the installed package, or the checkout's)."""
    from deckhub import shipped_dir
    return Path(os.environ.get("DECKHUB_DATA_DIR") or shipped_dir("data"))


_PLACED: dict[str, Path] = {}  # games whose data folder is not under data_root() (deckhub.games.extra_game)


def place_game_data(game: str, folder: Path | None) -> None:
    """Read `game`'s data from `folder` from now on (None: from `data_root()/<game>/` again)."""
    if folder is None:
        _PLACED.pop(game, None)
    else:
        _PLACED[game] = folder


def game_folder(game: str) -> Path:
    """The folder of a game's card data and published decks: `data/<game>/`, unless placed elsewhere."""
    return _PLACED.get(game) or data_root() / game


def read_catalogue_json(data: bytes, filename: str, game: str) -> CatalogueData:
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CatalogueFileError([RecordError(filename, "-", "json", f"cannot be read: {exc}")]) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CatalogueFileError([RecordError(filename, "-", "format", f"not a {FORMAT} file")])
    if doc.get("game") != game:
        raise CatalogueFileError([RecordError(filename, "-", "game", f"is {doc.get('game')!r}, expected {game!r}")])
    errors: list[RecordError] = []
    sets: list[CardSet] = []
    for i, s in enumerate(doc.get("sets") or [], start=1):
        if not isinstance(s, dict) or not s.get("code") or not s.get("name"):
            errors.append(RecordError(filename, f"set {i}", "code/name", "missing"))
            continue
        if s.get("size") is not None and (not isinstance(s["size"], int) or s["size"] < 0):
            errors.append(RecordError(filename, f"set {i}", "size", "not a whole number"))
            continue
        sets.append(CardSet(s["code"], s["name"], s.get("size"), s.get("position", i), s.get("booster")))
    set_codes = {s.code for s in sets}
    cards: list[Card] = []
    keys: set[str] = set()
    for i, c in enumerate(doc.get("cards") or [], start=1):
        where = f"card {i}" + (f" ({c.get('name')})" if isinstance(c, dict) and c.get("name") else "")
        if not isinstance(c, dict):
            errors.append(RecordError(filename, where, "card", "not an object"))
            continue
        bad = False
        for name, kind in _CARD_FIELDS.items():
            if name in ("key", "name"):
                if not isinstance(c.get(name), str) or not c[name].strip():
                    errors.append(RecordError(filename, where, name, "missing"))
                    bad = True
            elif name in c and not isinstance(c[name], kind):
                errors.append(RecordError(filename, where, name, "has the wrong type"))
                bad = True
        if bad:
            continue
        if c["key"] in keys:
            errors.append(RecordError(filename, where, "key", f"{c['key']!r} is used twice"))
            continue
        for p in c.get("printings") or []:
            if not isinstance(p, dict) or p.get("set") not in set_codes:
                errors.append(RecordError(filename, where, "printings", f"unknown set {p.get('set') if isinstance(p, dict) else p!r}"))
                bad = True
                break
        if bad:
            continue
        keys.add(c["key"])
        cards.append(Card.from_json(game, c))
    if errors:
        raise CatalogueFileError(errors)
    return CatalogueData(game, sets, cards, list(doc.get("warnings") or []))


def write_catalogue_json(data: CatalogueData, path: Path) -> None:
    doc = {"format": FORMAT, "version": FORMAT_VERSION, "game": data.game,
           "sets": [s.to_json() for s in data.sets], "cards": [c.to_json() for c in data.cards],
           "warnings": data.warnings}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def join_octgn_sets(game: str, octgn_sets: Iterable[OctgnSet]) -> CatalogueData:
    """Join OCTGN printings into cards by name: the first printing read gives the card's facts."""
    result = CatalogueData(game)
    by_name: dict[str, dict[str, Any]] = {}
    for octgn_set in octgn_sets:
        known = sum(1 for _ in octgn_set.records)
        result.sets.append(CardSet(octgn_set.card_set.code, octgn_set.card_set.name, known,
                                   octgn_set.card_set.position, octgn_set.card_set.booster))
        result.warnings.extend(octgn_set.warnings)
        for rec in octgn_set.records:
            entry = by_name.get(rec.name)
            if entry is None:
                by_name[rec.name] = {"rec": rec, "printings": [rec.printing]}
            else:
                entry["printings"].append(rec.printing)
                first = entry["rec"]
                if (first.type, first.attrs, first.text) != (rec.type, rec.attrs, rec.text):
                    result.warnings.append(f"{rec.printing.set_code}: {rec.name}: the reprint's facts differ; kept the first printing's")
    keys: set[str] = set()
    for name, entry in by_name.items():
        rec = entry["rec"]
        key = slugify(name)
        if key in keys:  # "Hover Talon" and "Hover-Talon": the source spells them as two cards
            key = f"{key}-{slugify(rec.printing.set_code)}"
            result.warnings.append(f"{rec.printing.set_code}: {name}: differs from another card only in punctuation; kept as its own card")
        keys.add(key)
        result.cards.append(Card(
            key=key, game=game, name=name, type=rec.type, text=rec.text, attrs=rec.attrs,
            provenance={k: "imported" for k in ("type", "text", *rec.attrs)},
            sources=("OCTGN set file",), printings=tuple(entry["printings"]),
        ))
    return result


def merge(game: str, parts: Iterable[CatalogueData]) -> CatalogueData:
    """Several files of one game into one catalogue; a card key seen twice joins printings."""
    result = CatalogueData(game)
    cards: dict[str, Card] = {}
    for part in parts:
        result.sets.extend(part.sets)
        result.warnings.extend(part.warnings)
        for card in part.cards:
            if card.key in cards:
                old = cards[card.key]
                cards[card.key] = Card(old.key, game, old.name, old.version, old.type, old.text, old.attrs,
                                       old.provenance, old.sources, old.aliases, old.printings + card.printings)
            else:
                cards[card.key] = card
    result.cards = list(cards.values())
    return result


def read_octgn_files(game: str, paths: Iterable[Path], read_card: ReadCard | None) -> CatalogueData:
    """OCTGN set files of `game`, each card read by the game's `read_card` (its package's
    `octgn.read_card`; None for a game that has no OCTGN set files)."""
    paths = list(paths)
    if read_card is None:
        raise CatalogueFileError([RecordError(p.name, "-", "game", f"{game} has no OCTGN set files") for p in paths])
    return join_octgn_sets(game, [parse_octgn_set(p.read_bytes(), p.name, read_card, i) for i, p in enumerate(paths, 1)])


def read_folder(game: str, folder: Path, read_card: ReadCard | None) -> CatalogueData:
    """Every catalogue file in a game's data folder, joined (its OCTGN set files read by `read_card`).
    Raises CatalogueFileError on the first bad file."""
    parts = [read_catalogue_json(p.read_bytes(), p.name, game) for p in sorted(folder.glob("*.json"))]
    xml = sorted((folder / "sets").glob("*.xml"))
    if xml:
        parts.append(read_octgn_files(game, xml, read_card))
    return merge(game, parts)


@lru_cache(maxsize=None)
def folder_catalogue(game: str, folder: Path, read_card: ReadCard | None) -> Catalogue:
    """The catalogue of a game's data folder, read once (no database): for the CLI and tests."""
    data = read_folder(game, folder, read_card)
    return Catalogue(game, data.cards, data.sets)

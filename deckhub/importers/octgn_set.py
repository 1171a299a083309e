"""OCTGN set XML -> cards and printings, for a game whose package reads OCTGN card properties.

A set file is OCTGN's own shape: `<set name>`, its `<packaging>` (booster packs) and
`<cards><card name id><property name value/>...`. The set, the booster, the card's name and id and
its printed `Number` are read here; what the other properties mean (a type, a level, a rarity) is
the game's: its package's `octgn.read_card(props)` (found through the games registry) gives the
fields of an `OctgnCard`. Kaijudo's
reads the shipped `data/kaijudo/sets/` and any set file a user loads with `deckhub load-cards --octgn`.
Files are parsed with defusedxml, so entity expansion and external entities are refused.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException
from xml.etree.ElementTree import ParseError

from deckhub.core.cards import CardSet, Printing, slugify
from deckhub.importers import CatalogueFileError, RecordError


@dataclass
class OctgnCard:
    """What a game reads from one card's properties: its facts, the printing's rarity (or promo
    code), and per property what is wrong (`errors`: the card is refused) or how it was read (`notes`)."""

    type: str | None = None
    text: str | None = None
    attrs: dict[str, Any] = field(default_factory=dict)
    rarity: str | None = None
    promo_code: str | None = None
    errors: list[tuple[str, str]] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)


ReadCard = Callable[[dict[str, str]], dict[str, Any]]  # a card's properties -> OctgnCard's fields


@dataclass
class OctgnCardRecord:
    """One `<card>` of a set file: the card's facts and this printing."""

    name: str
    type: str | None
    text: str | None
    attrs: dict[str, Any]
    printing: Printing


@dataclass
class OctgnSet:
    card_set: CardSet
    records: list[OctgnCardRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _booster(packaging) -> dict[str, Any] | None:
    """The `<packaging>` block as data: fixed picks plus weighted options of picks."""
    if packaging is None:
        return None
    packs = []
    for pack in packaging.findall("pack"):
        def picks(node):
            return [{"qty": int(p.get("qty", "1")), "key": p.get("key"), "value": p.get("value")}
                    for p in node.findall("pick")]
        options = [{"probability": float(o.get("probability", "0")), "picks": picks(o)}
                   for opts in pack.findall("options") for o in opts.findall("option")]
        packs.append({"name": pack.get("name"), "picks": picks(pack), "options": options})
    return {"packs": packs} if packs else None


def parse_octgn_set(data: bytes, filename: str, read_card: ReadCard, position: int = 0) -> OctgnSet:
    """Parse one OCTGN set file, each card's properties read by the game's `read_card`; raise
    CatalogueFileError listing every bad record."""
    try:
        root = SafeET.fromstring(data)
    except (ParseError, DefusedXmlException) as exc:
        raise CatalogueFileError([RecordError(filename, "-", "xml", f"cannot be read: {exc}")]) from None
    if root.tag != "set":
        raise CatalogueFileError([RecordError(filename, "-", "root", f"expected <set>, found <{root.tag}>")])
    set_name = (root.get("name") or "").strip()
    errors: list[RecordError] = []
    if not set_name:
        errors.append(RecordError(filename, "set", "name", "missing"))
    code = slugify(Path(filename).stem) if set_name == "" else slugify(set_name)
    result = OctgnSet(CardSet(code=code, name=set_name, position=position, booster=_booster(root.find("packaging"))))
    seen_numbers: dict[str, str] = {}
    cards = root.find("cards")
    for index, node in enumerate(cards.findall("card") if cards is not None else [], start=1):
        name = (node.get("name") or "").strip()
        where = f"card {index}" + (f" ({name})" if name else "")
        props = {p.get("name"): (p.get("value") or "").strip() for p in node.findall("property")}
        record_errors = []
        if not name:
            record_errors.append(RecordError(filename, where, "name", "missing"))
        if not node.get("id"):
            record_errors.append(RecordError(filename, where, "id", "missing"))
        card = OctgnCard(**read_card(props))
        record_errors.extend(RecordError(filename, where, prop, problem) for prop, problem in card.errors)
        if record_errors:
            errors.extend(record_errors)
            continue
        result.warnings.extend(f"{filename}:{where}: {prop}: {note}" for prop, note in card.notes)
        number = props.get("Number") or None
        if number and card.promo_code is None:
            if number in seen_numbers:
                result.warnings.append(f"{filename}:{where}: Number: {number} is also {seen_numbers[number]}'s (kept as published)")
            seen_numbers.setdefault(number, name)
        result.records.append(OctgnCardRecord(
            name=name, type=card.type, text=card.text, attrs=card.attrs,
            printing=Printing(code, number, card.rarity, card.promo_code, node.get("id")),
        ))
    if errors:
        raise CatalogueFileError(errors)
    return result

"""OCTGN set XML (the format of OCTGN's Kaijudo game definition) -> cards and printings.

A user who has another OCTGN set file loads it with `deckhub load-cards --octgn FILE`; the shipped
Kaijudo catalogue in `data/kaijudo/sets/` is read by this same code. Files are parsed with
defusedxml, so entity expansion and external entities are refused.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException
from xml.etree.ElementTree import ParseError

from deckhub.core.cards import CardSet, Printing, slugify
from deckhub.importers import CatalogueFileError, RecordError

KAIJUDO_RARITIES = ("Common", "Uncommon", "Rare", "Very Rare", "Super Rare")
CIVILIZATIONS = ("Light", "Water", "Darkness", "Fire", "Nature")
_SPLIT = re.compile(r"\s*/[\s.]*")


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


def parse_octgn_set(data: bytes, filename: str, position: int = 0) -> OctgnSet:
    """Parse one OCTGN set file; raise CatalogueFileError listing every bad record."""
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
        level = props.get("Level", "")
        if level and not level.isdecimal():
            record_errors.append(RecordError(filename, where, "Level", f"not a whole number: {level!r}"))
        power = props.get("Power", "")
        if power and not re.fullmatch(r"\d+\+?", power):
            record_errors.append(RecordError(filename, where, "Power", f"not a power value: {power!r}"))
        civs = [c for c in _SPLIT.split(props.get("Civilization", "")) if c]
        bad = [c for c in civs if c not in CIVILIZATIONS]
        if bad:
            record_errors.append(RecordError(filename, where, "Civilization", f"unknown civilization {bad[0]!r}"))
        if record_errors:
            errors.extend(record_errors)
            continue
        if "/." in props.get("Civilization", ""):
            result.warnings.append(f"{filename}:{where}: Civilization: read {props['Civilization']!r} as {' / '.join(civs)}")
        rarity = props.get("Rarity") or None
        promo = None
        if rarity and rarity not in KAIJUDO_RARITIES:
            rarity, promo = None, rarity
        number = props.get("Number") or None
        if number and promo is None:
            if number in seen_numbers:
                result.warnings.append(f"{filename}:{where}: Number: {number} is also {seen_numbers[number]}'s (kept as published)")
            seen_numbers.setdefault(number, name)
        attrs: dict[str, Any] = {
            "level": int(level) if level else None,
            "civilizations": civs,
            "race": [r for r in _SPLIT.split(props.get("Race", "")) if r],
            "power": power or None,
            "power_value": int(power.rstrip("+")) if power else None,
        }
        text = props.get("Rules", "").replace("\r\n", "\n").replace("\r", "\n") or None
        result.records.append(OctgnCardRecord(
            name=name, type=props.get("Type") or None, text=text,
            attrs={k: v for k, v in attrs.items() if v not in (None, [])},
            printing=Printing(code, number, rarity, promo, node.get("id")),
        ))
    if errors:
        raise CatalogueFileError(errors)
    return result

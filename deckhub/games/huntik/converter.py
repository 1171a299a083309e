"""Huntik's converter from the raw card facts in `../shared/data/` to its catalogue in `data/`.

Found by `deckhub.importers.sources.build_data` (`deckhub build-data`) through the games registry; the one
module of a game package that reads files, at build time only (the site reads the committed output).

**huntik** (`cards.json`): the 184 Secrets and Seekers records, one card and one printing each.
A card is its name plus its version (Huntik 201): key = slug of "name version". Two records that
would still share a key (the missions "Defeat Ymir: Frost King", SAS 145 and 151, whose texts
differ) keep their names and get the collector number appended to the key. attrs: team (absent
= the card has no team tag: missions, features), atk/def (absent where the card has none),
keywords, flavour, subtype and tags = [subtype] (tribe, Seeker, action kind, feature kind,
mission kind). Missions 145-148 carry the subtype "Structure", a source encoding slip: their
mission kind is left unknown (no subtype, no tags). Text is kept as given, markup included.
Rarity is not known (null).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from deckhub.core.cards import Card, CardSet, CatalogueData, Printing, slugify
from deckhub.importers.catalogue import write_catalogue_json
from deckhub.importers.sources import SourceDataError, load_json


HUNTIK_SOURCE = "Valyriam/huntik_tcg_sim (commit e294eb9), Secrets and Seekers card files"
HUNTIK_SET = CardSet("SAS", "Secrets and Seekers", 184, 1)
_HUNTIK_REQUIRED = ("number", "name", "type")
# The README's note: these missions' subtype "Structure" is a source encoding slip.
HUNTIK_MISSION_KIND_UNKNOWN = {"145", "146", "147", "148"}
HUNTIK_CORRECTIONS = {
    "003": "Huntik TCG Comprehensive Rules 1.2: its example names \"Dante Vale, Private Investigator\" "
           "(the source file had the version \"Dante's Titan\", a copy slip from Caliban)",
}


def huntik_catalogue(records: list[dict[str, Any]], filename: str = "secrets-and-seekers.json") -> CatalogueData:
    data = CatalogueData("huntik", sets=[HUNTIK_SET])
    for i, rec in enumerate(records, start=1):
        missing = [f for f in _HUNTIK_REQUIRED if not rec.get(f)]
        if missing:
            raise SourceDataError(f"{filename}:record {i}: {missing[0]}: missing")
        if rec.get("set", "SAS") != "SAS":
            raise SourceDataError(f"{filename}:record {i}: set: {rec['set']!r} is not SAS")
    def base_key(rec):
        return slugify(f"{rec['name']} {rec.get('version') or ''}")
    counts: dict[str, int] = {}
    for rec in records:
        counts[base_key(rec)] = counts.get(base_key(rec), 0) + 1
    for rec in records:
        number = str(rec["number"])
        key = base_key(rec)
        if counts[key] > 1:
            data.warnings.append(f"SAS {number}: {rec['name']}: another card has the same name and version "
                                 f"(different text): kept as its own card, key {key}-{slugify(number)}")
            key = f"{key}-{slugify(number)}"
        attrs: dict[str, Any] = {}
        subtype = rec.get("subtype")
        if rec["type"] == "mission" and number in HUNTIK_MISSION_KIND_UNKNOWN:
            data.warnings.append(f"SAS {number}: {rec['name']}: the source's subtype {subtype!r} is not a "
                                 f"mission kind (an encoding slip): mission kind left unknown")
            subtype = None
        if subtype:
            attrs["tags"] = [subtype]
            attrs["subtype"] = subtype
        for field in ("team", "atk", "def", "keywords", "flavour"):
            value = rec.get(field)
            if value is None or value == "":
                continue
            attrs[field] = list(value) if field == "keywords" else value
        provenance = {"type": "imported"}
        if rec.get("version"):
            provenance["version"] = "imported"
        if rec.get("text") is not None:
            provenance["text"] = "imported"
        provenance.update({k: "imported" for k in attrs})
        sources = [HUNTIK_SOURCE]
        if number in HUNTIK_CORRECTIONS:
            sources.append(HUNTIK_CORRECTIONS[number])
        data.cards.append(Card(
            key=key, game="huntik", name=rec["name"], version=rec.get("version") or None, type=rec["type"],
            text=rec.get("text"), attrs=attrs, provenance=provenance, sources=tuple(sources),
            printings=(Printing("SAS", number, None),),
        ))
    if len(records) != HUNTIK_SET.size:
        data.warnings.append(f"SAS: {len(records)} records for a set of {HUNTIK_SET.size}")
    return data


def build(shared: Path, out: Path) -> list[str]:
    path = shared / "huntik" / "secrets-and-seekers.json"
    records = load_json(path)
    if not isinstance(records, list):
        raise SourceDataError(f"{path}: expected a list of records")
    data = huntik_catalogue(records, path.name)
    write_catalogue_json(data, out / "huntik" / "cards.json")
    return data.warnings

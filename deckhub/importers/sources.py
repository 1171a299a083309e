"""The project's own converter from the raw card facts in `../shared/data/` to the catalogues in `data/`.

    python -m deckhub.importers.sources ../shared/data data      (or: deckhub build-data)

`build_data(shared_data_dir, data_dir)` writes every game's catalogue and returns the warnings per
game (oddities of real data that are kept, never silently "fixed"). The site never reads
`../shared` at run time: the output is committed, and a test checks that running this again
reproduces the committed files byte for byte. The rulebooks are read from `<shared>/../rules/`.

What each game gets
-------------------
- **kaijudo**: the 14 OCTGN set files and 10 OCTGN decks, copied unchanged into `data/kaijudo/`
  (the project reads OCTGN set XML as a feature, `deckhub load-cards --octgn`).
- **huntik** (`cards.json`): the 184 Secrets and Seekers records, one card and one printing each.
  A card is its name plus its version (Huntik 201): key = slug of "name version". Two records that
  would still share a key (the missions "Defeat Ymir: Frost King", SAS 145 and 151, whose texts
  differ) keep their names and get the collector number appended to the key. attrs: team (absent
  = the card has no team tag: missions, features), atk/def (absent where the card has none),
  keywords, flavour, subtype and tags = [subtype] (tribe, Seeker, action kind, feature kind,
  mission kind). Missions 145-148 carry the subtype "Structure", a source encoding slip: their
  mission kind is left unknown (no subtype, no tags). Text is kept as given, markup included.
  Rarity is not known (null).
- **neopets-tcg** (`cards.json`, `decks/`): the 11 official checklists (1,410 printings), reprints
  joined into one card by name, compared with `normalize_name` (the checklists themselves spell
  three reprints with and without an apostrophe: "Illusens Glade" / "Illusen's Glade", "Fyoras
  Wand" / "Fyora's Wand", "Fyoras Blessing" / "Fyora's Blessing"; the card takes the spelling
  with the apostrophe and keeps the other as an alias). Set codes are `slugify(set name)`, sizes
  are the published ones (so a checklist can say "23 of 140"). The `facts` of a record are
  imported with their `sources`; a record's `notes` become the card's `note`.
  From the Battle for Meridell rulebook (`neopets-tcg-rulebook.md`), imported with the rulebook
  as source: the two theme decks' Neopet Stacks name Basic Neopets; its text names Heroes (Jeran,
  Meridell Knight; Kayla; Morris), Villains (Draik Skeleton; Morguss, whose magic it gives as 18),
  an Experienced Neopet (Quiggle Runner), Items (The Thieves' Code, Beyond Neopia) and one
  Equipment: Warf, shown attached to a Neopet in the second contest example (only Equipment
  attaches; the glossary calls a Petpet a type of Equipment). Wand of Nova's quoted text suggests
  Equipment too, but the rulebook never says so: not recorded. The strategy text's "Green
  Zafaras have a whopping 8 magic" names no checklist card (the Meridell stack has Red and Yellow
  Zafaras): not recorded, reported as a warning. Ranges ("7 or even 8 agility") are not stats.
  The theme decks are also written as deck text files, exactly as printed (names, "(foil)"), and
  the two First Edition starter decks are copied.
  Aliases: a name printed in the rulebook's deck lists or text, or in the starter decks, that is
  not a checklist name, is recorded as an alias of the checklist card it denotes: found by
  `normalize_name` when only punctuation differs ("The Thieves' Code", "Lisha's Charm"), and by
  the table SPELLINGS_IN_PRINT when the spelling differs ("Jeran's Armor", "Kass's Charm").
  A printed name that matches no card is a warning.

  **Derived types (the "<colour> <species>" rule).** Every Basic Neopet on the checklists is named
  "<basic colour> <species>". A card may get type "Basic Neopet" and its species with provenance
  "derived" (shown as derived, never as seen) when, conservatively:
    - its name is exactly two words, a basic colour and a species;
    - the basic colours are Blue, Green, Red and Yellow: the colours of every Basic Neopet the
      rulebook's Neopet Stacks name (checked against them at build time), and the four words
      that begin the most two-word checklist names (40-42 each; the next, "The", 19);
    - a word W counts as a species only if the checklist itself shows it as one: "<colour> W" is
      a checklist name for at least two different basic colours, W is not itself a card name
      (so the Petpets Warf, Meowclops and Mazzew are out), and W begins another checklist name
      ("Acara Acrobat", "Quiggle Runner": Neopet species have their own characters; Negg and
      Scorchstone, items sold in colours, never do). This misses a few real species (Usul,
      Kiko, Hissi, Lutari...): unknown is better than wrong;
    - no verified fact contradicts it: no imported type other than Basic Neopet, and the card is
      not in a theme deck's Deck section (a Deck holds no Basic Neopets).
  A card whose type "Basic Neopet" is imported (a theme deck's stack) may still get its species
  derived by the same rule. Nothing else is ever derived; unknown stats stay absent.
- **neopets-battledome** (`cards.json`): the records of `facts.json`, then the project's own
  `data/neopets-battledome/sources/public-rulings.json` (cards named by the Battledome rulings site
  and by Upper Deck's and others' rules pages, gathered for this project, each with its URL), with
  only what each source states (type, species, stats, attack_bonus, level_requirement(_at_most),
  finish, product, aliases, and the source's note as `note`). Records of one name are one card:
  its sources and notes are joined, and two sources that state different values for one field stop
  the build. Sets are the products of `products.json` (starter decks named "<name> starter deck"),
  sizes unknown. A card gets a printing in its product where one is stated (the starter decks'
  foil namesakes, King Skarl of Champions of Meridell); every other card gets one printing in the
  set "Unknown set", so players can collect it before its set is known. Records without a name
  (`name_as_described`: two pre-release promo Shoyrus) are left out with a warning: cards are
  matched by name everywhere (decklists, collections, copy limits), and any name given to them
  would be invented. Players add them once the printed name is known.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any, Iterable

from deckhub.core.cards import Card, CardSet, CatalogueData, Printing, normalize_name, slugify
from deckhub.importers.catalogue import read_octgn_files, write_catalogue_json


class SourceDataError(ValueError):
    """A raw source file that cannot be converted (names the file and the record)."""


# --------------------------------------------------------------------------------------------
# helpers


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceDataError(f"{path}: cannot be read: {exc}") from None


def _dedupe(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        if item not in seen:
            seen[item] = None
    return list(seen)


def _copy_files(files: Iterable[Path], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for src in sorted(files):
        dst = folder / src.name
        shutil.copyfile(src, dst)
        written.append(dst)
    return written


# --------------------------------------------------------------------------------------------
# Kaijudo: the OCTGN files themselves


def build_kaijudo(shared: Path, out: Path) -> list[str]:
    octgn = shared / "kaijudo" / "octgn"
    sets = _copy_files((octgn / "sets").glob("*.xml"), out / "kaijudo" / "sets")
    _copy_files((octgn / "decks").glob("*.o8d"), out / "kaijudo" / "decks")
    return read_octgn_files("kaijudo", sets).warnings


# --------------------------------------------------------------------------------------------
# Huntik

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


def build_huntik(shared: Path, out: Path) -> list[str]:
    path = shared / "huntik" / "secrets-and-seekers.json"
    records = _load_json(path)
    if not isinstance(records, list):
        raise SourceDataError(f"{path}: expected a list of records")
    data = huntik_catalogue(records, path.name)
    write_catalogue_json(data, out / "huntik" / "cards.json")
    return data.warnings


# --------------------------------------------------------------------------------------------
# Neopets TCG

NEOPETS_SETS = (  # name, published size, in release order (Promotional last)
    ("First Edition", 234), ("Battle for Meridell", 140), ("Return of Dr. Sloth", 100),
    ("Mystery Island", 100), ("Hannah and the Ice Caves", 150), ("Curse of Maraqua", 120),
    ("Lost Desert", 100), ("Darkest Faerie", 155), ("Travels in Neopia", 200),
    ("Haunted Woods", 100), ("Promotional", 11),
)
NEOPETS_RARITIES = ("C", "U", "R", "H")
NEOPETS_FACT_FIELDS = ("type", "species", "faerie", "strength", "agility", "magic", "intelligence",
                       "bank_value", "subtype", "strength_bonus", "agility_bonus", "magic_bonus",
                       "intelligence_bonus")
BASIC_COLOURS = ("Blue", "Green", "Red", "Yellow")
RULEBOOK = "Neopets TCG rulebook, Battle for Meridell edition"
RULEBOOK_FILE = "neopets-tcg-rulebook.md"
THEME_DECK_FILES = {"Darigan Deck": "darigan-theme-deck.txt", "Meridell Deck": "meridell-theme-deck.txt"}
# Printed spellings that differ from the checklist by more than punctuation: printed -> checklist.
SPELLINGS_IN_PRINT = {"Jeran's Armor": "Jeran's Armour", "Kass's Charm": "Kass Charm"}
# What the rulebook's text states about named cards: (name as printed, facts, where it says so).
# Each name is checked to occur in the rulebook at build time.
RULEBOOK_FACTS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("Jeran, Meridell Knight", {"type": "Hero"}, "Playing the Meridell Deck"),
    ("Kayla", {"type": "Hero"}, "Playing the Meridell Deck"),
    ("Morris", {"type": "Hero"}, "Playing the Meridell Deck"),
    ("Quiggle Runner", {"type": "Experienced Neopet"}, "Playing the Meridell Deck"),
    ("Draik Skeleton", {"type": "Villain"}, "Playing the Darigan Deck"),
    ("Morguss", {"type": "Villain", "magic": 18}, "Playing the Darigan Deck"),
    ("The Thieves' Code", {"type": "Item", "intelligence_bonus": 4}, "Contests, Example 2"),
    ("Beyond Neopia", {"type": "Item", "intelligence_bonus": 5}, "Contests, Example 2"),
    ("Warf", {"type": "Equipment", "intelligence_bonus": 2},
     "Contests, Example 2 (a Warf attached to a Neopet; only Equipment attaches)"),
)
RULEBOOK_WARNINGS = (
    "rulebook, Playing the Meridell Deck: \"Green Zafaras have a whopping 8 magic\" names no checklist card "
    "(the Meridell Neopet Stack lists Red and Yellow Zafaras): not recorded",
)
_DECK_LINE = re.compile(r"^(\d+)\s+(.+?)\s*$")
_FOIL = re.compile(r"\s*\(foil\)$", re.IGNORECASE)


def _card_name(line_name: str) -> str:
    return _FOIL.sub("", line_name).strip()


def parse_theme_decks(rulebook: str) -> dict[str, list[tuple[str, list[tuple[int, str]]]]]:
    """The theme deck lists of the rulebook: deck title -> [(section, [(qty, name as printed)])]."""
    start = rulebook.find("Battle for Meridell Theme Deck Lists")
    end = rulebook.find("Learning the Advanced Game", start)
    if start < 0 or end < 0:
        raise SourceDataError(f"{RULEBOOK_FILE}: the theme deck lists were not found")
    decks: dict[str, list[tuple[str, list[tuple[int, str]]]]] = {}
    current: list[tuple[str, list[tuple[int, str]]]] | None = None
    for raw in rulebook[start:end].splitlines()[1:]:
        line = raw.strip()
        if not line:
            continue
        if line in THEME_DECK_FILES:
            current = decks.setdefault(line, [])
        elif line in ("Neopet Stack", "Deck") and current is not None:
            current.append((line, []))
        elif (m := _DECK_LINE.match(line)) and current:
            current[-1][1].append((int(m.group(1)), m.group(2)))
    if set(decks) != set(THEME_DECK_FILES) or any(len(s) != 2 for s in decks.values()):
        raise SourceDataError(f"{RULEBOOK_FILE}: expected the Darigan and Meridell decks, each with a "
                              f"Neopet Stack and a Deck; found {sorted(decks)}")
    return decks


def theme_deck_text(title: str, sections: list[tuple[str, list[tuple[int, str]]]]) -> str:
    lines = [f"# Neopets TCG Battle for Meridell Theme Deck - {title} (deck list printed in the Battle for "
             f"Meridell rulebook). Card names and (foil) notes as printed."]
    for i, (header, entries) in enumerate(sections):
        if i:
            lines.append("")
        lines.append(header)
        lines.extend(f"{qty} {name}" for qty, name in entries)
    return "\n".join(lines) + "\n"


def _read_deck_names(path: Path) -> list[str]:
    names = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        m = _DECK_LINE.match(raw.strip())
        if m:
            names.append(_card_name(m.group(2)))
    return names


def checklist_species(names: Iterable[str]) -> set[str]:
    """The species words the checklist itself shows (see the module docstring for the rule)."""
    names = set(names)
    colours: dict[str, set[str]] = {}
    for name in names:
        words = name.split()
        if len(words) == 2 and words[0] in BASIC_COLOURS:
            colours.setdefault(words[1], set()).add(words[0])
    heads = {name.split()[0] for name in names if len(name.split()) > 1}
    return {w for w, cs in colours.items() if len(cs) >= 2 and w not in names and w in heads}


def neopets_tcg_catalogue(records: list[dict[str, Any]], rulebook: str, starter_decks: dict[str, list[str]],
                          filename: str = "checklists.json") -> tuple[CatalogueData, dict[str, str]]:
    """The catalogue, and the theme deck files (file name -> text)."""
    data = CatalogueData("neopets-tcg")
    set_codes = {name: slugify(name) for name, _ in NEOPETS_SETS}
    data.sets = [CardSet(slugify(name), name, size, i) for i, (name, size) in enumerate(NEOPETS_SETS, start=1)]

    # --- the checklists: group printings by normalized name -----------------------------------
    groups: dict[str, dict[str, Any]] = {}
    per_set: dict[str, dict[str, list[str]]] = {}
    for i, rec in enumerate(records, start=1):
        where = f"{filename}:record {i}"
        for f in ("set", "number", "name", "rarity"):
            if rec.get(f) in (None, ""):
                raise SourceDataError(f"{where}: {f}: missing")
        if rec["set"] not in set_codes:
            raise SourceDataError(f"{where}: set: unknown set {rec['set']!r}")
        if rec["rarity"] not in NEOPETS_RARITIES:
            raise SourceDataError(f"{where}: rarity: {rec['rarity']!r} is not one of {', '.join(NEOPETS_RARITIES)}")
        name = rec["name"].strip()
        number = str(rec["number"])
        group = groups.setdefault(normalize_name(name), {"spellings": [], "printings": [], "facts": {},
                                                         "provenance": {}, "sources": [], "notes": []})
        group["spellings"].append(name)
        group["printings"].append(Printing(set_codes[rec["set"]], number, rec["rarity"]))
        group["sources"].extend(rec.get("sources") or [])
        group["notes"].extend(f"{rec['set']} {number}: {note}" for note in rec.get("notes") or [])
        per_set.setdefault(rec["set"], {}).setdefault(number, []).append(name)
        for field, value in (rec.get("facts") or {}).items():
            if field not in NEOPETS_FACT_FIELDS:
                raise SourceDataError(f"{where} ({name}): facts: unknown field {field!r}")
            old = group["facts"].get(field)
            if old is not None and old != value:
                data.warnings.append(f"{name}: {field}: sources differ ({old!r}, {value!r}); kept {old!r}")
                continue
            group["facts"][field] = value
            group["provenance"][field] = "imported"

    for set_name, size in NEOPETS_SETS:
        numbers = per_set.get(set_name, {})
        count = sum(len(v) for v in numbers.values())
        if count != size:
            data.warnings.append(f"{slugify(set_name)}: {count} printings on the checklist for a set of {size}")
        for number, names in numbers.items():
            if len(names) > 1:
                data.warnings.append(f"{slugify(set_name)}: number {number} is printed for {len(names)} cards "
                                     f"({', '.join(names)}): kept as published on the official checklist")
        if set_name != "Promotional":
            ints = {int(n) for n in numbers if n.isdigit()}
            gaps = sorted(set(range(1, size + 1)) - ints)
            if gaps:
                data.warnings.append(f"{slugify(set_name)}: no card numbered {', '.join(map(str, gaps))} "
                                     f"on the official checklist (kept as published)")

    def spelling_for(group):
        with_apostrophe = [s for s in group["spellings"] if "'" in s]
        return (with_apostrophe or group["spellings"])[0]

    checklist_names = {s for g in groups.values() for s in g["spellings"]}
    for group in groups.values():
        group["name"] = spelling_for(group)
        group["aliases"] = _dedupe(s for s in group["spellings"] if s != group["name"])
        if group["aliases"]:
            data.warnings.append(f"{group['name']}: the checklists also spell it {', '.join(map(repr, group['aliases']))} "
                                 f"(kept as an alias)")

    def find(printed: str) -> dict[str, Any] | None:
        target = SPELLINGS_IN_PRINT.get(printed, printed)
        return groups.get(normalize_name(target))

    def note_alias(printed: str, where: str) -> dict[str, Any] | None:
        group = find(printed)
        if group is None:
            data.warnings.append(f"{where}: {printed!r} matches no checklist card")
            return None
        if printed != group["name"] and printed not in group["aliases"] and printed not in group["spellings"]:
            group["aliases"].append(printed)
        return group

    # --- the rulebook -----------------------------------------------------------------------
    decks = parse_theme_decks(rulebook)
    not_basic: set[str] = set()  # normalized names seen in a Deck section: verified not Basic Neopets
    for title, sections in decks.items():
        for header, entries in sections:
            for _, printed in entries:
                group = note_alias(_card_name(printed), f"rulebook, {title}")
                if group is None:
                    continue
                key = normalize_name(group["name"])
                if header == "Deck":
                    not_basic.add(key)
                    continue
                colour = group["name"].split()[0]
                if colour not in BASIC_COLOURS:
                    data.warnings.append(f"rulebook, {title}: Basic Neopet {group['name']!r} has a colour outside "
                                         f"the basic colours {', '.join(BASIC_COLOURS)}")
                _set_fact(data, group, "type", "Basic Neopet", f"{RULEBOOK}: {title} theme deck list, Neopet Stack")
    for printed, facts, section in RULEBOOK_FACTS:
        if printed not in rulebook:
            raise SourceDataError(f"{RULEBOOK_FILE}: {printed!r} does not occur in the rulebook")
        group = note_alias(printed, "rulebook")
        if group is None:
            continue
        for field, value in facts.items():
            _set_fact(data, group, field, value, f"{RULEBOOK}: {section}")
    data.warnings.extend(RULEBOOK_WARNINGS)
    for deck_name, names in starter_decks.items():
        for printed in names:
            note_alias(printed, f"decks/{deck_name}")
    unused = set(SPELLINGS_IN_PRINT) - {a for g in groups.values() for a in g["aliases"]}
    if unused:
        data.warnings.append(f"SPELLINGS_IN_PRINT: {', '.join(sorted(unused))} seen in no source read")

    # --- derived: "<basic colour> <species>" ------------------------------------------------------
    species = checklist_species(checklist_names)
    for key, group in groups.items():
        words = group["name"].split()
        if len(words) != 2 or words[0] not in BASIC_COLOURS or words[1] not in species:
            continue
        facts, provenance = group["facts"], group["provenance"]
        if key in not_basic or facts.get("type") not in (None, "Basic Neopet"):
            data.warnings.append(f"{group['name']}: named like a Basic Neopet, but a verified fact says otherwise: "
                                 f"nothing derived")
            continue
        if "type" not in facts:
            facts["type"], provenance["type"] = "Basic Neopet", "derived"
        if "species" not in facts:
            facts["species"], provenance["species"] = words[1], "derived"

    # --- the cards ------------------------------------------------------------------------------
    for group in groups.values():
        facts = dict(group["facts"])
        card_type = facts.pop("type", None)
        attrs = {f: facts[f] for f in NEOPETS_FACT_FIELDS if f in facts}
        provenance = {f: group["provenance"][f] for f in ("type", *attrs) if f in group["provenance"]}
        if group["notes"]:
            attrs["note"] = "; ".join(group["notes"])
            provenance["note"] = "imported"
        data.cards.append(Card(
            key=slugify(group["name"]), game="neopets-tcg", name=group["name"], type=card_type,
            attrs=attrs, provenance=provenance, sources=tuple(_dedupe(group["sources"])),
            aliases=tuple(group["aliases"]), printings=tuple(group["printings"]),
        ))
    deck_files = {THEME_DECK_FILES[title]: theme_deck_text(title, sections) for title, sections in decks.items()}
    return data, deck_files


def _set_fact(data: CatalogueData, group: dict[str, Any], field: str, value: Any, source: str) -> None:
    old = group["facts"].get(field)
    if old is not None and old != value:
        data.warnings.append(f"{group['name']}: {field}: {source} says {value!r}, another source {old!r}; kept {old!r}")
        return
    group["facts"][field] = value
    group["provenance"][field] = "imported"
    group["sources"].append(source)


def build_neopets_tcg(shared: Path, out: Path) -> list[str]:
    folder = shared / "neopets-tcg"
    records = _load_json(folder / "checklists.json")
    if not isinstance(records, list):
        raise SourceDataError(f"{folder / 'checklists.json'}: expected a list of records")
    rulebook_path = shared.parent / "rules" / RULEBOOK_FILE
    try:
        rulebook = rulebook_path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SourceDataError(f"{rulebook_path}: cannot be read: {exc}") from None
    starters = sorted((folder / "decks").glob("*.txt"))
    data, deck_files = neopets_tcg_catalogue(records, rulebook, {p.name: _read_deck_names(p) for p in starters})
    target = out / "neopets-tcg"
    write_catalogue_json(data, target / "cards.json")
    _copy_files(starters, target / "decks")
    for name, text in deck_files.items():
        (target / "decks" / name).write_text(text, encoding="utf-8")
    return data.warnings


# --------------------------------------------------------------------------------------------
# Neopets Battledome

BATTLEDOME_FIELDS = ("species", "hp", "attack", "defence", "agility", "attack_bonus",
                     "level_requirement", "level_requirement_at_most", "finish", "product")
_BATTLEDOME_KNOWN = {"name", "name_as_described", "type", "source", "note", "promo", "aliases", *BATTLEDOME_FIELDS}
# Facts DeckHub gathered itself from public rulings pages (kept in the project so the build is offline).
BATTLEDOME_RULINGS = Path("neopets-battledome") / "sources" / "public-rulings.json"
BATTLEDOME_UNKNOWN_SET = "Unknown set"


def _battledome_set_name(product: dict[str, Any]) -> str:
    name = product["name"].strip()
    kind = (product.get("kind") or "").lower()
    return f"{name} starter deck" if kind.startswith("starter deck") and "deck" not in name.lower() else name


def _battledome_join(card: dict[str, Any], rec: dict[str, Any], where: str) -> None:
    """Add one record's statements to a card met before; two sources that disagree stop the build."""
    for field in ("type", *BATTLEDOME_FIELDS):
        value = rec.get(field)
        if value is None:
            continue
        old = card["type"] if field == "type" else card["attrs"].get(field)
        if old is not None and old != value:
            raise SourceDataError(f"{where} ({card['name']}): {field}: {value!r} contradicts {old!r} from another source")
        if field == "type":
            card["type"] = value
        else:
            card["attrs"][field] = value
    if rec.get("note") and rec["note"] not in card["notes"]:
        card["notes"].append(rec["note"])
    if rec.get("source") and rec["source"] not in card["sources"]:
        card["sources"].append(rec["source"])
    for alias in rec.get("aliases") or ():
        if alias not in card["aliases"]:
            card["aliases"].append(alias)


def battledome_catalogue(facts: list[dict[str, Any]], products: dict[str, Any],
                         filename: str = "facts.json",
                         rulings: list[dict[str, Any]] | None = None,
                         rulings_filename: str = "public-rulings.json") -> CatalogueData:
    data = CatalogueData("neopets-battledome")
    seen = (products.get("products") or {}).get("sets_and_products_seen") or []
    for i, product in enumerate(seen, start=1):
        if not product.get("name"):
            raise SourceDataError(f"products.json:product {i}: name: missing")
        name = _battledome_set_name(product)
        data.sets.append(CardSet(slugify(name), name, None, i))
    set_codes = {s.code for s in data.sets}
    cards: dict[str, dict[str, Any]] = {}
    records = [(f"{filename}:record {i}", rec) for i, rec in enumerate(facts, start=1)]
    records += [(f"{rulings_filename}:card {i}", rec) for i, rec in enumerate(rulings or (), start=1)]
    for where, rec in records:
        if not isinstance(rec, dict):
            raise SourceDataError(f"{where}: not an object")
        unknown = set(rec) - _BATTLEDOME_KNOWN
        if unknown:
            raise SourceDataError(f"{where}: {sorted(unknown)[0]}: unknown field")
        name = (rec.get("name") or "").strip()
        if not name:
            described = rec.get("name_as_described")
            if not described:
                raise SourceDataError(f"{where}: name: missing")
            data.warnings.append(
                f"{where}: no card name, only a description ({described!r}, {rec.get('type') or 'type unknown'}"
                f"{', pre-release promo' if rec.get('promo') else ''}; {rec.get('source')}): left out, since a "
                f"name would be invented; add it once its printed name is known")
            continue
        if not rec.get("source"):
            raise SourceDataError(f"{where} ({name}): source: missing")
        key = slugify(name)
        if key in cards and cards[key]["name"] != name:
            raise SourceDataError(f"{where} ({name}): name: spelt {cards[key]['name']!r} by another source")
        card = cards.setdefault(key, {"name": name, "type": None, "attrs": {}, "notes": [], "sources": [],
                                      "aliases": [], "where": where})
        _battledome_join(card, rec, where)
    for key, c in cards.items():
        attrs = {f: c["attrs"][f] for f in BATTLEDOME_FIELDS if f in c["attrs"]}
        if c["notes"]:
            attrs["note"] = "; ".join(c["notes"])
        provenance = {f: "imported" for f in (("type",) if c["type"] else ()) + tuple(attrs)}
        printings: tuple[Printing, ...] = ()
        product = attrs.get("product")
        if product:
            if slugify(product) in set_codes:
                printings = (Printing(slugify(product), None, None),)
            else:
                data.warnings.append(f"{c['where']} ({c['name']}): product {product!r} is not in products.json: no printing")
        data.cards.append(Card(
            key=key, game="neopets-battledome", name=c["name"], type=c["type"], attrs=attrs,
            provenance=provenance, sources=tuple(c["sources"]), aliases=tuple(c["aliases"]), printings=printings,
        ))
    _battledome_unknown_set(data)
    return data


def _battledome_unknown_set(data: CatalogueData) -> None:
    """Cards no source places in a set get one printing in "Unknown set", so a collection can hold them."""
    setless = [i for i, c in enumerate(data.cards) if not c.printings]
    if not setless:
        return
    unknown = CardSet(slugify(BATTLEDOME_UNKNOWN_SET), BATTLEDOME_UNKNOWN_SET, None, len(data.sets) + 1)
    data.sets.append(unknown)
    for i in setless:
        c = data.cards[i]
        data.cards[i] = Card(c.key, c.game, c.name, c.version, c.type, c.text, c.attrs, c.provenance, c.sources,
                             c.aliases, (Printing(unknown.code, None, None),))


def build_neopets_battledome(shared: Path, out: Path, project_data: Path | None = None) -> list[str]:
    """The shared facts and the project's own gathered facts (`data/neopets-battledome/sources/`)."""
    from deckhub.importers.catalogue import data_root
    folder = shared / "neopets-battledome"
    facts = _load_json(folder / "facts.json")
    products = _load_json(folder / "products.json")
    if not isinstance(facts, list) or not isinstance(products, dict):
        raise SourceDataError(f"{folder}: facts.json must be a list and products.json an object")
    rulings_path = (project_data or data_root()) / BATTLEDOME_RULINGS
    rulings = _load_json(rulings_path)
    if not isinstance(rulings, dict) or not isinstance(rulings.get("cards"), list):
        raise SourceDataError(f"{rulings_path}: must be an object with a list of cards")
    data = battledome_catalogue(facts, products, rulings=rulings["cards"], rulings_filename=rulings_path.name)
    write_catalogue_json(data, out / "neopets-battledome" / "cards.json")
    return data.warnings


# --------------------------------------------------------------------------------------------


def build_data(shared_data_dir: Path, data_dir: Path) -> dict[str, list[str]]:
    """Write every game's catalogue from the raw facts; return the warnings per game."""
    shared, out = Path(shared_data_dir), Path(data_dir)
    return {
        "kaijudo": build_kaijudo(shared, out),
        "huntik": build_huntik(shared, out),
        "neopets-tcg": build_neopets_tcg(shared, out),
        "neopets-battledome": build_neopets_battledome(shared, out),
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 2 or any(a in ("-h", "--help") for a in args):
        print("usage: python -m deckhub.importers.sources [SHARED_DATA_DIR [DATA_DIR]]", file=sys.stderr)
        return 2
    from deckhub.importers.catalogue import data_root
    shared = Path(args[0]) if args else Path("../shared/data")
    out = Path(args[1]) if len(args) > 1 else data_root()
    try:
        result = build_data(shared, out)
    except SourceDataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for game, warnings in result.items():
        print(f"{game}: written to {out / game}" + (f" ({len(warnings)} warnings)" if warnings else ""))
        for w in warnings:
            print(f"  warning: {w}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

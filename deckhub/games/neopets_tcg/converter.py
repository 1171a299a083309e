"""Neopets TCG's converter from the raw card facts in `../shared/data/` to its catalogue in `data/`.

Found by `deckhub.importers.sources.build_data` (`deckhub build-data`) through the games registry; the one
module of a game package that reads files, at build time only (the site reads the committed output).

**neopets-tcg** (`cards.json`, `decks/`): the 11 official checklists (1,410 printings), reprints
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
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

from deckhub.core.cards import Card, CardSet, CatalogueData, Printing, normalize_name, slugify
from deckhub.importers.catalogue import write_catalogue_json
from deckhub.importers.sources import SourceDataError, load_json, dedupe, copy_files


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
            ints = {int(n) for n in numbers if n.isdecimal()}
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
        group["aliases"] = dedupe(s for s in group["spellings"] if s != group["name"])
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
            attrs=attrs, provenance=provenance, sources=tuple(dedupe(group["sources"])),
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


def build(shared: Path, out: Path) -> list[str]:
    folder = shared / "neopets-tcg"
    records = load_json(folder / "checklists.json")
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
    copy_files(starters, target / "decks")
    for name, text in deck_files.items():
        (target / "decks" / name).write_text(text, encoding="utf-8")
    return data.warnings

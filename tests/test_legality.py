"""Deck legality (issue 3): every rule passes a legal deck and fails one that breaks it, by rule id.

The Huntik, Neopets TCG and Battledome rules run on small TEST FIXTURE catalogues built below (the
shipped data lacks legendary heroes, amulets, Faeries, Map Pieces...); Kaijudo runs on its real
catalogue. Real-data decks are checked in test_check_cli.py.
"""
from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from deckhub.core.cards import Card, Catalogue, Printing, slugify
from deckhub.core.decklist import Deck
from deckhub.core.legality import ERROR, UNVERIFIED, WARNING, Format, Violation, check_deck
from conftest import TOY, with_toy
from deckhub.games import all_games, game_slugs, get_game, load_catalogue


# --------------------------------------------------------------------------- TEST FIXTURE catalogues
# Invented cards for tests only: names, types and attributes chosen to exercise each rule.

def _card(game: str, name: str, type: str | None, version: str | None = None, **attrs) -> Card:
    key = slugify(f"{name} {version}" if version else name)
    return Card(key=key, game=game, name=name, version=version, type=type, attrs=attrs)


def huntik_fixture() -> Catalogue:
    g = "huntik"
    cards = [_card(g, f"Good Hero {i}", "major hero", f"Version {i}", team="Good") for i in range(1, 8)]
    cards += [_card(g, f"Good Action {i}", "action", team="Good") for i in range(1, 6)]
    cards += [_card(g, "Evil Hero", "major hero", "Villain", team="Evil"),
              _card(g, "Evil Action", "action", team="Evil"),
              _card(g, "Plain Amulet", "amulet"),
              _card(g, "Suit", "minor hero", "Mr. Steel", team="Good"),
              _card(g, "Suit", "minor hero", "Ms. Thorpe", team="Good"),
              _card(g, "Suit", "minor hero", "Mr. Mactavish", team="Evil"),
              _card(g, "Training Mission", "mission"),
              _card(g, "Old Ruin", "feature"),
              _card(g, "Legend One", "legendary hero", "The First"),
              _card(g, "Legend Two", "legendary hero", "The Second")]
    return Catalogue(g, cards)


def neopets_fixture() -> Catalogue:
    g = "neopets-tcg"
    cards = [_card(g, "Blue Blumaroo", "Basic Neopet", species="Blumaroo"),
             _card(g, "Red Eyrie", "Basic Neopet", species="Eyrie"),
             _card(g, "Green Skeith", "Basic Neopet", species="Skeith"),
             _card(g, "Yellow Quiggle", "Basic Neopet", species="Quiggle"),
             _card(g, "Mystery Basic", "Basic Neopet"),  # species unknown
             _card(g, "Blumaroo Squire", "Experienced Neopet", species="Blumaroo"),
             _card(g, "Zafara Scout", "Experienced Neopet", species="Zafara"),
             _card(g, "Quiggle Runner", "Experienced Neopet"),  # species unknown
             _card(g, "Jeran", "Hero"), _card(g, "Kayla", "Hero"),
             _card(g, "Morguss", "Villain"), _card(g, "Chomp!", "Something Has Happened!"),
             _card(g, "Marketplace", "Location"), _card(g, "Oubliette", "Location"),
             _card(g, "Secret Passage", "Something Has Happened!"),
             _card(g, "Eyrie Breastplate", "Equipment"), _card(g, "Makeshift Sword", "Equipment"),
             _card(g, "Unknown Thing", None)]
    cards += [_card(g, f"Snack {i}", "Item") for i in range(1, 8)]
    return Catalogue(g, cards)


def battledome_fixture() -> Catalogue:
    g = "neopets-battledome"
    low = {"level_requirement": 1}  # for Petpet Battles' level cap
    cards = [_card(g, "Mau", "Codestone", **low), _card(g, "Kacheek Stone", "Codestone", **low),
             _card(g, "Fire Faerie", "Faerie"), _card(g, "Water Faerie", "Faerie"),
             _card(g, "Map of the Deep", "Map Piece", unique=True),
             _card(g, "Torn Map", "Map Piece", unique=False),
             _card(g, "Odd Map", "Map Piece"),  # uniqueness unknown
             _card(g, "Omelette", "Food", **low), _card(g, "Green Knight", "Legend"),
             _card(g, "Shop Wizard", "Legend", level_requirement_at_most=3),
             _card(g, "Paint Brush", "Paint Brush"), _card(g, "Healing Potion", "Potion", **low),
             _card(g, "Big Sword", "Equipment", level_requirement=5), _card(g, "Plain Shield", "Equipment"),
             _card(g, "Battledome Arena", "Location"),
             _card(g, "Hero Jeran", "Hero"), _card(g, "Turtum", "Petpet"), _card(g, "Lord Kass", "Villain"),
             _card(g, "Darigan Faction", "Faction"),
             _card(g, "Pool Starter", "Legend", starts_in_rainbow_pool=True),
             _card(g, "Mystery Card", None),
             _card(g, "Acara", "Neopet", species="Acara"), _card(g, "Starry Acara", "Neopet", species="Acara"),
             _card(g, "Fire Uni", "Neopet", species="Uni"), _card(g, "Kougra", "Neopet", species="Kougra"),
             _card(g, "Aisha", "Neopet", species="Aisha"), _card(g, "Lupe", "Neopet", species="Lupe"),
             _card(g, "Buzz", "Neopet", species="Buzz"), _card(g, "Nameless Pet", "Neopet"),
             # names on the Forbidden & Limited lists of formats.json (their types are invented here)
             _card(g, "Naia", "Faerie"), _card(g, "Nilo", "Legend"),
             Card("lab-ray-sci", g, "Scientist", type="Legend", aliases=("Lab Ray Scientist",)),
             _card(g, "Chocolate Jubjub", "Rainbow Pool Neopet", species="Jubjub"),
             _card(g, "Chocolate Kacheek", "Rainbow Pool Neopet", species="Kacheek"),
             _card(g, "Chocolate Mystery", None)]
    cards += [_card(g, f"Equipment {i}", "Equipment", **low) for i in range(1, 5)]
    cards += [_card(g, f"Rainbow Pet {i}", "Rainbow Pool Neopet", species="Acara") for i in range(1, 13)]
    # every card printed at Common (for Pauper), but one printed only at Ultra Rare, one of unknown rarity
    cards = [dataclasses.replace(c, printings=(Printing("fx", str(i), "Common"),)) for i, c in enumerate(cards, 1)]
    cards += [Card("shiny", g, "Shiny Sword", type="Equipment", printings=(Printing("fx", "98", "Ultra Rare"),)),
              Card("murky", g, "Murky Sword", type="Equipment", printings=(Printing("fx", "99"),))]
    return Catalogue(g, cards)


def fixture(slug: str) -> Catalogue:
    return {"huntik": huntik_fixture, "neopets-tcg": neopets_fixture,
            "neopets-battledome": battledome_fixture, "kaijudo": lambda: load_catalogue("kaijudo")}[slug]()


_CATALOGUES: dict[str, Catalogue] = {}


def cat(slug: str) -> Catalogue:
    if slug not in _CATALOGUES:
        _CATALOGUES[slug] = fixture(slug)
    return _CATALOGUES[slug]


def make_deck(slug: str, sections: dict[str, dict[str, int]]) -> Deck:
    """A deck from {section: {card name (or "Name, Version"): qty}} looked up in the catalogue."""
    c = cat(slug)
    deck = Deck(slug)
    for section, entries in sections.items():
        for name, qty in entries.items():
            found = c.lookup(name)
            assert len(found) == 1, f"test deck names {name!r}: {found}"
            deck.add(section, found[0].key, qty)
    return deck


# --------------------------------------------------------------------------- legal decks

KAIJUDO_CARDS = ["Aqua Seneschal", "Frogzooka", "Hydro Spy", "Hydrobot Crab", "Ice Blade", "King Nautilus",
                 "King Pontias", "Reef-Eye", "Spy Mission", "Teleport", "Bolt-Tail Dragon", "Pyro Trooper",
                 "Rock Bite", "Sprout"]

LEGAL = {
    ("kaijudo", "standard"): {"Deck": {**{n: 3 for n in KAIJUDO_CARDS[:13]}, KAIJUDO_CARDS[13]: 1}},
    ("huntik", "constructed"): {
        "Deck": {**{f"Good Hero {i}, Version {i}": 3 for i in range(1, 8)},
                 **{f"Good Action {i}": 3 for i in range(1, 5)}, "Plain Amulet": 3,
                 "Suit, Mr. Steel": 3, "Suit, Ms. Thorpe": 1},
        "Legendary Hero Pile": {"Legend One": 3, "Legend Two": 1}},
    ("huntik", "limited"): {
        "Deck": {"Good Hero 1": 10, "Evil Hero": 10, "Evil Action": 10, "Plain Amulet": 10},
        "Legendary Hero Pile": {"Legend One": 2}},
    ("neopets-tcg", "standard"): {
        "Neopet Stack": {"Blue Blumaroo": 3, "Red Eyrie": 3, "Green Skeith": 3, "Yellow Quiggle": 1},
        "Deck": {**{f"Snack {i}": 3 for i in range(1, 8)}, "Jeran": 3, "Blumaroo Squire": 2, "Morguss": 3,
                 "Chomp!": 3, "Marketplace": 3, "Eyrie Breastplate": 3, "Makeshift Sword": 2}},
    ("neopets-tcg", "starter"): {  # a starter deck as sold: 30 cards, its Neopets shuffled in, no stack
        "Deck": {"Blue Blumaroo": 1, "Red Eyrie": 1, "Green Skeith": 1, **{f"Snack {i}": 3 for i in range(1, 8)},
                 "Jeran": 3, "Chomp!": 3}},
    ("neopets-battledome", "standard"): {  # legal under the Forbidden & Limited lists too (Nilo at 1)
        "Main Deck": {"Mau": 15, "Kacheek Stone": 11, "Fire Faerie": 1, "Water Faerie": 1, "Map of the Deep": 1,
                      "Torn Map": 2, "Equipment 1": 2, "Equipment 2": 2, "Equipment 3": 2, "Omelette": 2,
                      "Shop Wizard": 2, "Paint Brush": 2, "Healing Potion": 2, "Battledome Arena": 2,
                      "Equipment 4": 2, "Nilo": 1},
        "Neopet Deck": {"Acara": 1, "Fire Uni": 1, "Kougra": 1},
        "Rainbow Pool": {**{f"Rainbow Pet {i}": 1 for i in range(1, 10)}, "Chocolate Jubjub": 1, "Pool Starter": 2}},
    ("neopets-battledome", "petpet-battles"): {
        "Main Deck": {"Mau": 8, "Kacheek Stone": 6, "Equipment 1": 1, "Equipment 2": 1, "Equipment 3": 1,
                      "Equipment 4": 1, "Omelette": 1, "Healing Potion": 1},
        "Neopet Deck": {"Turtum": 1}},
    ("neopets-battledome", "rb-1.4"): {
        "Main Deck": {"Mau": 16, "Kacheek Stone": 12, "Fire Faerie": 1, "Hero Jeran": 1, "Turtum": 1,
                      "Lord Kass": 1, "Map of the Deep": 1, "Torn Map": 2, "Equipment 1": 2, "Equipment 2": 2,
                      "Equipment 3": 2, "Omelette": 2, "Green Knight": 2, "Paint Brush": 2, "Healing Potion": 2,
                      "Equipment 4": 1},
        "Neopet Deck": {"Acara": 1, "Fire Uni": 1, "Kougra": 1, "Aisha": 1, "Lupe": 1},
        "Rainbow Pool": {**{f"Rainbow Pet {i}": 1 for i in range(1, 11)}, "Rainbow Pet 1": 2,
                         "Darigan Faction": 2, "Pool Starter": 1}},
}
# The formats built on Standard with a Forbidden & Limited list check the same legal deck.
FL_FORMATS = ("forbidden-limited", "forbidden-limited-earlier", "pauper", "brush-buff")
for _fmt in FL_FORMATS:
    LEGAL[("neopets-battledome", _fmt)] = LEGAL[("neopets-battledome", "standard")]
PACKS = {("huntik", "limited"): 8}


def run(slug: str, fmt_id: str, sections, packs=None):
    game = get_game(slug)
    packs = packs if packs is not None else PACKS.get((slug, fmt_id))
    return check_deck(make_deck(slug, sections), game, game.format(fmt_id), cat(slug), packs=packs)


@pytest.mark.parametrize("slug,fmt_id", sorted(LEGAL))
def test_legal_decks_have_no_violations(slug, fmt_id):
    report = run(slug, fmt_id, LEGAL[(slug, fmt_id)])
    assert report.violations == [], [v.message for v in report.violations]
    assert report.legal


# --------------------------------------------------------------------------- one broken rule each

def edit(slug, fmt_id, **changes):
    """The legal deck with changes: section=dict of name -> qty (0 removes; a new name adds)."""
    sections = copy.deepcopy(LEGAL[(slug, fmt_id)])
    for section, entries in changes.items():
        section = section.replace("_", " ")
        target = sections.setdefault(section, {})
        for name, qty in entries.items():
            if qty == 0:
                target.pop(name, None)
            else:
                target[name] = qty
    return sections


K, HC, HL = ("kaijudo", "standard"), ("huntik", "constructed"), ("huntik", "limited")
N, BS, BR = ("neopets-tcg", "standard"), ("neopets-battledome", "standard"), ("neopets-battledome", "rb-1.4")
BP = ("neopets-battledome", "petpet-battles")
NS = ("neopets-tcg", "starter")

BROKEN = [
    # (game/format, deck, rule, severity)
    (K, edit(*K, Deck={"Sprout": 0}), "kaijudo.4.deck-size", ERROR),
    (K, edit(*K, Deck={"Sprout": 4}), "kaijudo.4.copies", ERROR),
    (HC, edit(*HC, Deck={"Plain Amulet": 2}), "huntik.100.deck-size", ERROR),
    (HC, edit(*HC, Deck={"Training Mission": 1}), "huntik.100.deck-types", ERROR),
    (HC, edit(*HC, Deck={"Old Ruin": 1}), "huntik.100.deck-types", ERROR),
    (HC, edit(*HC, Deck={"Legend Two": 1}), "huntik.100.deck-types", ERROR),
    (HC, edit(*HC, Deck={"Evil Action": 1}), "huntik.100.teams", ERROR),
    (HC, edit(*HC, Deck={"Suit, Mr. Mactavish": 1}), "huntik.100.teams", ERROR),
    (HC, edit(*HC, Deck={"Good Action 1": 4}), "huntik.100.copies", ERROR),
    (HC, edit(*HC, Deck={"Suit, Ms. Thorpe": 4}), "huntik.100.copies", ERROR),
    (HC, edit(*HC, Legendary_Hero_Pile={"Good Hero 1": 1}), "huntik.100.pile-types", ERROR),
    (HC, edit(*HC, Legendary_Hero_Pile={"Legend One": 4}), "huntik.100.pile-copies", ERROR),
    (HL, edit(*HL, Deck={"Plain Amulet": 9}), "huntik.100.limited-deck-size", ERROR),
    (HL, edit(*HL, Deck={"Training Mission": 1}), "huntik.100.deck-types", ERROR),
    (HL, edit(*HL, Legendary_Hero_Pile={"Evil Hero": 1}), "huntik.100.pile-types", ERROR),
    (HL, edit(*HL, Legendary_Hero_Pile={"Legend One": 4}), "huntik.100.pile-copies", ERROR),
    (NS, edit(*NS, Deck={"Jeran": 2}), "neopets-tcg.starter.deck-size", ERROR),
    (NS, edit(*NS, Neopet_Stack={"Yellow Quiggle": 1}), "neopets-tcg.starter.no-stack", ERROR),
    (N, edit(*N, Deck={"Makeshift Sword": 1}), "neopets-tcg.building.deck-size", ERROR),
    (N, edit(*N, Deck={"Yellow Quiggle": 1}), "neopets-tcg.building.deck-no-basic", ERROR),
    (N, edit(*N, Neopet_Stack={"Yellow Quiggle": 0}), "neopets-tcg.building.stack-size", ERROR),
    (N, edit(*N, Neopet_Stack={"Kayla": 1}), "neopets-tcg.building.stack-basic", ERROR),
    (N, edit(*N, Deck={"Snack 1": 4}), "neopets-tcg.building.copies", ERROR),
    (N, edit(*N, Deck={"Blue Blumaroo": 1}), "neopets-tcg.building.copies", ERROR),  # 3 + 1 across sections
    (N, edit(*N, Deck={"Snack 1": 0, "Snack 2": 0, "Snack 3": 0, "Kayla": 3, "Secret Passage": 3, "Oubliette": 3}),
     "neopets-tcg.building.bankable-half", WARNING),
    (N, edit(*N, Deck={"Zafara Scout": 1, "Makeshift Sword": 1}), "neopets-tcg.building.experienced-species", WARNING),
    (BS, edit(*BS, Main_Deck={"Mau": 14}), "battledome.cr1.1.main-deck-size", ERROR),
    (BS, edit(*BS, Main_Deck={"Mau": 16}), "battledome.cr1.1.main-deck-size", ERROR),
    (BS, edit(*BS, Main_Deck={"Mau": 14, "Hero Jeran": 1}), "battledome.cr1.1.main-deck-types", ERROR),
    (BS, edit(*BS, Main_Deck={"Mau": 14, "Buzz": 1}), "battledome.cr1.1.main-deck-types", ERROR),
    (BS, edit(*BS, Main_Deck={"Equipment 4": 3, "Mau": 14}), "battledome.cr1.3.copies", ERROR),
    (BS, edit(*BS, Main_Deck={"Fire Faerie": 2, "Mau": 14}), "battledome.cr1.3.faerie", ERROR),
    (BS, edit(*BS, Main_Deck={"Map of the Deep": 2, "Mau": 14}), "battledome.cr1.3.unique-map-piece", ERROR),
    (BS, edit(*BS, Neopet_Deck={"Kougra": 0}), "battledome.cr1.4.neopet-deck-size", ERROR),
    (BS, edit(*BS, Neopet_Deck={"Aisha": 1, "Lupe": 1, "Buzz": 1}), "battledome.cr1.4.neopet-deck-size", ERROR),
    (BS, edit(*BS, Neopet_Deck={"Rainbow Pet 11": 1}), "battledome.cr1.4.neopet-deck-types", ERROR),
    (BS, edit(*BS, Neopet_Deck={"Starry Acara": 1}), "battledome.cr1.4.neopet-species", ERROR),
    (BS, edit(*BS, Neopet_Deck={"Kougra": 2}), "battledome.cr1.4.neopet-names", ERROR),
    (BS, edit(*BS, Rainbow_Pool={"Rainbow Pet 11": 1}), "battledome.cr1.4.rainbow-pool-size", ERROR),
    (BS, edit(*BS, Rainbow_Pool={"Darigan Faction": 1}), "battledome.cr1.4.rainbow-pool-types", ERROR),
    (BR, edit(*BR, Main_Deck={"Equipment 4": 0, "Battledome Arena": 1}), "battledome.rb1.4.main-deck-types", ERROR),
    (BR, edit(*BR, Main_Deck={"Equipment 4": 0}), "battledome.rb1.4.main-deck-size", ERROR),
    (BR, edit(*BR, Main_Deck={"Equipment 4": 0, "Hero Jeran": 2}), "battledome.rb1.4.one-copy", ERROR),
    (BR, edit(*BR, Main_Deck={"Equipment 4": 0, "Turtum": 2}), "battledome.rb1.4.one-copy", ERROR),
    (BR, edit(*BR, Main_Deck={"Equipment 4": 0, "Map of the Deep": 2}), "battledome.rb1.4.one-copy", ERROR),
    (BR, edit(*BR, Main_Deck={"Equipment 4": 0, "Equipment 1": 3}), "battledome.rb1.4.copies", ERROR),
    (BR, edit(*BR, Neopet_Deck={"Buzz": 1}), "battledome.rb1.4.neopet-deck-size", ERROR),
    (BR, edit(*BR, Neopet_Deck={"Lupe": 0, "Rainbow Pet 12": 1}), "battledome.rb1.4.neopet-deck-types", ERROR),
    (BR, edit(*BR, Neopet_Deck={"Lupe": 0, "Starry Acara": 1}), "battledome.rb1.4.neopet-species", ERROR),
    (BR, edit(*BR, Neopet_Deck={"Lupe": 0, "Aisha": 2}), "battledome.rb1.4.neopet-names", ERROR),
    (BR, edit(*BR, Rainbow_Pool={"Darigan Faction": 4}), "battledome.rb1.4.rainbow-pool-size", ERROR),
    (BR, edit(*BR, Rainbow_Pool={"Rainbow Pet 1": 1, "Rainbow Pet 11": 1}), "battledome.rb1.4.rainbow-pool-neopets", ERROR),
    (BR, edit(*BR, Rainbow_Pool={"Mau": 1, "Pool Starter": 0}), "battledome.rb1.4.rainbow-pool-types", ERROR),
    (BP, edit(*BP, Main_Deck={"Mau": 7}), "battledome.petpet.main-deck-size", ERROR),
    (BP, edit(*BP, Main_Deck={"Mau": 7, "Shop Wizard": 1, "Paint Brush": 1}), "battledome.petpet.main-deck-types", ERROR),
    (BP, edit(*BP, Main_Deck={"Mau": 7, "Equipment 1": 2}), "battledome.petpet.copies", ERROR),
    (BP, edit(*BP, Neopet_Deck={"Turtum": 0}), "battledome.petpet.petpet-count", ERROR),
    (BP, edit(*BP, Neopet_Deck={"Turtum": 0, "Acara": 1}), "battledome.petpet.petpet-type", ERROR),
    (BP, edit(*BP, Main_Deck={"Mau": 7, "Big Sword": 1}), "battledome.petpet.level-requirement", ERROR),
    (BP, edit(*BP, Main_Deck={"Mau": 7, "Plain Shield": 1}), "battledome.petpet.level-requirement", UNVERIFIED),
    (("neopets-battledome", "pauper"), edit(*BS, Main_Deck={"Equipment 4": 1, "Shiny Sword": 1}),
     "battledome.pauper.rarity", ERROR),
    (("neopets-battledome", "pauper"), edit(*BS, Main_Deck={"Equipment 4": 1, "Murky Sword": 1}),
     "battledome.pauper.rarity", UNVERIFIED),
]
# Every Standard rule still holds under the Forbidden & Limited formats, and each list's own rules
# fail: a banned card (Naia, on both lists), a limited card twice (Nilo), two Chocolate pets.
BROKEN += [(("neopets-battledome", fmt), deck, rule, severity)
           for fmt in FL_FORMATS for (game_fmt, deck, rule, severity) in list(BROKEN) if game_fmt == BS]
BROKEN += [(("neopets-battledome", fmt), deck, rule, severity) for fmt in FL_FORMATS for deck, rule, severity in [
    (edit(*BS, Main_Deck={"Water Faerie": 0, "Naia": 1}), "battledome.fl.banned", ERROR),
    (edit(*BS, Main_Deck={"Nilo": 2, "Mau": 14}), "battledome.fl.limited", ERROR),
    (edit(*BS, Rainbow_Pool={"Rainbow Pet 9": 0, "Chocolate Kacheek": 1}), "battledome.fl.brush-types", ERROR),
    (edit(*BS, Rainbow_Pool={"Rainbow Pet 9": 0, "Chocolate Mystery": 1}), "battledome.fl.brush-types", UNVERIFIED),
]]


def _id(case):
    (slug, fmt_id), _deck, rule, _sev = case
    return f"{fmt_id}:{rule}"


@pytest.mark.parametrize("case", BROKEN, ids=[_id(c) for c in BROKEN])
def test_each_rule_fails_a_deck_that_breaks_it(case):
    (slug, fmt_id), sections, rule, severity = case
    report = run(slug, fmt_id, sections)
    found = [v for v in report.violations if v.rule == rule]
    assert found, f"{rule} not reported; got {[(v.rule, v.severity) for v in report.violations]}"
    assert {v.severity for v in found} == {severity}
    assert report.legal is (severity != ERROR)
    for v in found:
        assert v.message and v.section in (None, *[s.name for s in get_game(slug).sections])


def declared_rules(fmt: Format) -> set[str]:
    rules = set()
    for s in fmt.sections:
        rules.update(c.rule for c in s.counts)
        if s.types:
            rules.add(s.types.rule)
    for c in fmt.copies:
        if c.default is not None:
            rules.add(c.rule)
        rules.update(r for lim, r in c.by_type.values() if lim is not None)
        rules.update(a.rule for a in c.by_attr)
    rules.update(c.rule for c in fmt.checks)
    return rules


def test_every_declared_rule_has_a_breaking_test():
    tested = {(slug, fmt_id, rule) for (slug, fmt_id), _d, rule, _s in BROKEN}
    missing = [(g.slug, f.id, r) for g in all_games() for f in g.formats for r in sorted(declared_rules(f))
               if (g.slug, f.id, r) not in tested]
    assert not missing
    assert {(g.slug, f.id) for g in all_games() for f in g.formats} == set(LEGAL)


# --------------------------------------------------------------------------- formats as data

@pytest.mark.parametrize("slug", with_toy(game_slugs()))
def test_formats_are_data_with_rule_ids_naming_the_game(request, slug):
    if slug == TOY:
        request.getfixturevalue("toy_game")
    game = get_game(slug)
    assert game.formats and game.formats[0].default
    assert game.format() is game.formats[0]
    prefix = game.formats[0].rule_prefix
    for fmt in game.formats:
        assert game.format(fmt.id) is fmt and game.format(fmt.name.upper()) is fmt
        for rule in declared_rules(fmt):
            assert rule.startswith(prefix + "."), rule
        for c in fmt.checks:
            assert c.name in game.checks
        for s in fmt.sections:
            assert game.section(s.section) is not None and game.section(s.section).name == s.section
        for c in fmt.copies:
            assert all(game.section(s) is not None for s in c.sections)
    with pytest.raises(LookupError, match="known formats"):
        game.format("no such format")


def test_guide_limits_as_declared():
    """Spot-check the GUIDE §4 numbers in the data (a typo in formats.json fails here)."""
    b = get_game("neopets-battledome").format("standard")
    main = next(s for s in b.sections if s.section == "Main Deck")
    assert (main.counts[0].min, main.counts[0].max) == (50, 50)
    assert b.copies[0].by_type["codestone"] == (None, "battledome.cr1.3.copies")
    rb = get_game("neopets-battledome").format("RB 1.4")
    pool = next(s for s in rb.sections if s.section == "Rainbow Pool")
    assert [c.max for c in pool.counts] == [15, 10]
    assert get_game("huntik").format("limited").needs_packs
    n = get_game("neopets-tcg").format()
    assert n.copies[0].sections == ("Deck", "Neopet Stack") and n.copies[0].default == 3


# --------------------------------------------------------------------------- reports

def test_report_lists_every_violation_at_once():
    sections = edit(*HC, Deck={"Plain Amulet": 0, "Good Action 2": 0, "Training Mission": 1, "Evil Action": 1,
                                  "Good Action 1": 4})
    report = run(*HC, sections)
    assert {"huntik.100.deck-size", "huntik.100.deck-types", "huntik.100.teams", "huntik.100.copies"} <= report.rules(ERROR)


def test_violation_json_is_exactly_the_issue_shape():
    report = run(*HC, edit(*HC, Deck={"Evil Action": 1}))
    v = next(v for v in report.violations if v.rule == "huntik.100.teams")
    d = v.to_json()
    assert list(d) == ["rule", "severity", "section", "message", "cards", "expected", "actual"]
    assert d["section"] == "Deck" and "Evil Action" in d["cards"] and "Good Hero 1, Version 1" in d["cards"]
    assert set(v.keys) >= {"evil-action"}
    json.dumps(report.to_json())
    assert set(report.to_json()) == {"game", "format", "legal", "verified", "counts", "violations"}
    assert report.to_json()["verified"] is True


def test_copies_count_name_and_version_in_huntik_but_name_elsewhere():
    ok = run(*HC, LEGAL[HC])  # Suit, Mr. Steel x3 and Suit, Ms. Thorpe x1: different cards
    assert "huntik.100.copies" not in ok.rules()
    report = run(*BS, edit(*BS, Neopet_Deck={"Acara": 1, "Starry Acara": 1}))
    assert "battledome.cr1.4.neopet-names" not in report.rules()  # different names, same species
    assert "battledome.cr1.4.neopet-species" in report.rules(ERROR)


def test_limited_allows_any_copies_and_mixed_teams():
    report = run(*HL, LEGAL[HL], packs=8)
    assert report.legal and report.counts["Deck"] == 40
    assert "huntik.100.limited-deck-size" in run(*HL, LEGAL[HL], packs=9).rules(ERROR)


def test_limited_without_a_pack_count_is_unverified_not_guessed():
    game = get_game("huntik")
    report = check_deck(make_deck("huntik", LEGAL[HL]), game, game.format("limited"), cat("huntik"))
    assert [v.severity for v in report.violations if v.rule == "huntik.100.limited-deck-size"] == [UNVERIFIED]
    assert report.legal


# --------------------------------------------------------------------------- unverified, never a guess

def test_unknown_type_in_the_deck_is_unverified_and_named():
    report = run(*N, edit(*N, Deck={"Makeshift Sword": 1, "Unknown Thing": 1}))
    v = [v for v in report.violations if v.rule == "neopets-tcg.building.deck-no-basic"]
    assert [x.severity for x in v] == [UNVERIFIED] and v[0].cards == ("Unknown Thing",)
    assert report.legal


def test_unknown_type_in_the_stack_is_unverified():
    report = run(*N, edit(*N, Neopet_Stack={"Yellow Quiggle": 0, "Unknown Thing": 1}))
    assert report.rules(UNVERIFIED) >= {"neopets-tcg.building.stack-basic"}
    assert report.legal


def test_unknown_species_makes_experienced_check_unverified():
    report = run(*N, edit(*N, Deck={"Quiggle Runner": 1, "Makeshift Sword": 1}))
    assert "neopets-tcg.building.experienced-species" in report.rules(UNVERIFIED)
    report = run(*N, edit(*N, Deck={"Zafara Scout": 1, "Makeshift Sword": 1},
                          Neopet_Stack={"Yellow Quiggle": 0, "Mystery Basic": 1}))
    assert "neopets-tcg.building.experienced-species" in report.rules(UNVERIFIED)
    assert "neopets-tcg.building.experienced-species" not in report.rules(WARNING)


def test_bankable_half_unverified_when_unknown_types_could_tip_it():
    report = run(*N, edit(*N, Deck={"Snack 1": 0, "Snack 2": 0, "Snack 3": 0, "Kayla": 3, "Secret Passage": 3,
                                    "Unknown Thing": 3}))
    assert report.counts["Deck"] == 40
    assert "neopets-tcg.building.bankable-half" in report.rules(UNVERIFIED)


def test_unknown_map_piece_uniqueness_and_unknown_type_are_unverified():
    report = run(*BS, edit(*BS, Main_Deck={"Odd Map": 2, "Mau": 13}))
    assert report.rules(UNVERIFIED) == {"battledome.cr1.3.unique-map-piece"} and report.legal
    report = run(*BS, edit(*BS, Main_Deck={"Mystery Card": 2, "Mau": 13}))
    assert report.rules(UNVERIFIED) == {"battledome.cr1.1.main-deck-types", "battledome.cr1.3.copies"}
    report = run(*BS, edit(*BS, Neopet_Deck={"Nameless Pet": 1}))
    assert report.rules(UNVERIFIED) == {"battledome.cr1.4.neopet-species"} and report.legal


def test_rainbow_pool_exemption_cr_1_5():
    report = run(*BS, edit(*BS, Rainbow_Pool={"Pool Starter": 2}))
    assert report.legal  # 10 Rainbow Pool Neopets plus 2 cards that start there
    assert "battledome.cr1.4.rainbow-pool-size" in run(*BS, edit(*BS, Rainbow_Pool={"Rainbow Pet 12": 1})).rules(ERROR)


# --------------------------------------------------------------------------- generic deck errors

def test_unknown_section_card_and_bad_quantity():
    game = get_game("kaijudo")
    deck = make_deck("kaijudo", LEGAL[K])
    deck.add("Sideboard", next(iter(deck.sections["Deck"])), 1)
    deck.add("Deck", "no-such-card", 1)
    deck.sections["Deck"][cat("kaijudo").lookup("Sprout")[0].key] = 0
    report = check_deck(deck, game, game.format(), cat("kaijudo"))
    assert {"kaijudo.deck.unknown-section", "kaijudo.deck.unknown-card", "kaijudo.deck.quantity"} <= report.rules(ERROR)
    assert report.counts["Sideboard"] == 1


def test_counts_name_every_section_of_the_game():
    report = run(*BS, {"Main Deck": {"Mau": 3}})
    assert report.counts == {"Main Deck": 3, "Neopet Deck": 0, "Rainbow Pool": 0}
    assert "battledome.cr1.4.neopet-deck-size" in report.rules(ERROR)


def test_check_is_repeatable_with_cached_facts():
    first = run(*K, edit(*K, Deck={"Sprout": 4}))
    second = run(*K, edit(*K, Deck={"Sprout": 4}))
    assert first.violations == second.violations


def test_violation_is_a_plain_value():
    v = Violation("x.y", ERROR, "Deck", "m", ("A",), {"max": 1}, 2)
    assert v.to_json()["cards"] == ["A"] and v == Violation("x.y", ERROR, "Deck", "m", ("A",), {"max": 1}, 2, ("k",))


def test_a_list_names_a_card_by_its_alias_too_and_counts_it_across_sections():
    """The earlier list limits "Lab Ray Scientist": the fixture card of that alias is limited."""
    sections = edit(*BS, Main_Deck={"Mau": 13, "Scientist": 2})
    report = run("neopets-battledome", "forbidden-limited-earlier", sections)
    limited = [v for v in report.violations if v.rule == "battledome.fl.limited"]
    assert [(v.cards, v.expected, v.actual) for v in limited] == [(("Scientist",), {"max": 1}, 2)]
    assert "earlier revision" in limited[0].message
    assert not [v for v in run("neopets-battledome", "forbidden-limited", sections).violations
                if v.rule == "battledome.fl.limited"]  # the later list no longer limits it
    across = edit(*BS, Main_Deck={"Water Faerie": 0}, Rainbow_Pool={"Naia": 1})
    banned = [v for v in run("neopets-battledome", "forbidden-limited", across).violations
              if v.rule == "battledome.fl.banned"]
    assert [(v.section, v.cards, v.actual) for v in banned] == [(None, ("Naia",), 1)]

"""The shipped catalogues in data/: counts and facts the issue fixes, and that they are reproducible.

Everything here reads data/ with `read_game_catalogue` (no database), once per game per session.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from defusedxml import ElementTree as SafeET

from deckhub.core.cards import Catalogue, normalize_name, slugify
from deckhub.games import read_game_catalogue
from deckhub.importers.sources import build_data

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SHARED = ROOT.parent / "shared" / "data"


@lru_cache(maxsize=None)
def data(game: str):
    return read_game_catalogue(game, DATA)


@lru_cache(maxsize=None)
def catalogue(game: str) -> Catalogue:
    d = data(game)
    return Catalogue(game, d.cards, d.sets)


def printings(game: str):
    return [(c, p) for c in data(game).cards for p in c.printings]


def one(game: str, name: str):
    found = catalogue(game).lookup(name)
    assert len(found) == 1, f"{name!r}: {[c.key for c in found]}"
    return found[0]


# ---------------------------------------------------------------------------------------------- Kaijudo

def test_kaijudo_counts():
    assert len(data("kaijudo").cards) == 1136
    assert len(printings("kaijudo")) == 1293
    assert len(data("kaijudo").sets) == 14


def test_kaijudo_two_civilization_cards_keep_both():
    assert one("kaijudo", "Aqua Strider").attrs["civilizations"] == ["Light", "Water"]
    # the source's typo "Light /.Nature" is read as two civilizations too
    assert one("kaijudo", "Fullmetal Lemon").attrs["civilizations"] == ["Light", "Nature"]
    assert sum(len(c.attrs.get("civilizations", ())) == 2 for c in data("kaijudo").cards) > 100


def test_kaijudo_power_keeps_its_plus():
    card = one("kaijudo", "Flametropus")
    assert card.attrs["power"] == "4000+" and card.attrs["power_value"] == 4000


def test_kaijudo_promo_codes_are_not_rarities():
    promos = [p for _, p in printings("kaijudo") if p.set_code == "promotional-cards"]
    assert len(promos) == 78
    assert all(p.promo_code and p.rarity is None for p in promos)
    assert {p.promo_code for p in promos} >= {"Y1PRM", "Y2PRM"}
    rarities = {p.rarity for _, p in printings("kaijudo") if p.set_code != "promotional-cards"}
    assert rarities <= {"Common", "Uncommon", "Rare", "Very Rare", "Super Rare"}


def test_kaijudo_booster_definitions_are_kept():
    sets = {s.code: s for s in data("kaijudo").sets}
    with_boosters = 0
    for path in sorted((DATA / "kaijudo" / "sets").glob("*.xml")):
        root = SafeET.parse(path).getroot()
        card_set = sets[slugify(root.get("name"))]
        packs = root.findall("packaging/pack")
        if not packs:
            assert card_set.booster is None
            continue
        with_boosters += 1
        assert [p["name"] for p in card_set.booster["packs"]] == [p.get("name") for p in packs]
        for kept, pack in zip(card_set.booster["packs"], packs):
            assert [(x["qty"], x["value"]) for x in kept["picks"]] == \
                [(int(x.get("qty")), x.get("value")) for x in pack.findall("pick")]
            assert [o["probability"] for o in kept["options"]] == \
                [float(o.get("probability")) for o in pack.findall("options/option")]
    assert with_boosters == 11


# ----------------------------------------------------------------------------------------------- Huntik

def test_huntik_counts():
    assert len(data("huntik").cards) == 184
    assert len(printings("huntik")) == 184
    (sas,) = data("huntik").sets
    assert (sas.code, sas.name, sas.size) == ("SAS", "Secrets and Seekers", 184)
    assert all(p.rarity is None for _, p in printings("huntik"))


def test_huntik_the_two_ymir_missions_are_two_cards():
    ymirs = catalogue("huntik").lookup("Defeat Ymir: Frost King")
    assert len(ymirs) == 2
    assert sorted(p.number for c in ymirs for p in c.printings) == ["145", "151"]
    assert len({c.key for c in ymirs}) == 2 and len({c.text for c in ymirs}) == 2
    assert all(c.type == "mission" for c in ymirs)


def test_huntik_versions():
    dante = one("huntik", "Dante Vale")
    assert dante.version == "Private Investigator"
    assert dante.display_name == "Dante Vale, Private Investigator"
    assert (dante.attrs["atk"], dante.attrs["def"], dante.attrs["team"]) == (5, 4, "Good")
    suits = catalogue("huntik").lookup("Suit")
    assert sorted(c.version for c in suits) == ["Mr. Mactavish, Prague Agent", "Mr. Steel, Venice Agent",
                                               "Ms. Thorpe, Venice Agent"]
    assert one("huntik", "Suit, Mr. Steel, Venice Agent").attrs["atk"] == 2


def test_huntik_tags_and_unknown_mission_kinds():
    caliban = one("huntik", "Caliban")
    assert caliban.attrs["tags"] == ["Meso-Titan"] and caliban.provenance["tags"] == "imported"
    by_number = {p.number: c for c, p in printings("huntik")}
    for number in ("145", "146", "147", "148"):  # subtype "Structure" is a source slip for a mission
        assert "tags" not in by_number[number].attrs and "subtype" not in by_number[number].attrs
    assert by_number["151"].attrs["tags"] == ["Mutual"]
    assert by_number["160"].attrs["tags"] == ["Object"]
    assert "<b>" in by_number["002"].text  # markup kept; the web escapes it


# ------------------------------------------------------------------------------------------ Neopets TCG

NEOPETS_SIZES = {"First Edition": 234, "Battle for Meridell": 140, "Return of Dr. Sloth": 100,
                 "Mystery Island": 100, "Hannah and the Ice Caves": 150, "Curse of Maraqua": 120,
                 "Lost Desert": 100, "Darkest Faerie": 155, "Travels in Neopia": 200, "Haunted Woods": 100,
                 "Promotional": 11}


def test_neopets_tcg_printings_and_sets():
    assert len(printings("neopets-tcg")) == 1410
    sets = {s.name: s for s in data("neopets-tcg").sets}
    assert {name: s.size for name, s in sets.items()} == NEOPETS_SIZES
    assert all(s.code == slugify(name) for name, s in sets.items())
    per_set = {}
    for _, p in printings("neopets-tcg"):
        per_set[p.set_code] = per_set.get(p.set_code, 0) + 1
    assert per_set["battle-for-meridell"] == 140
    assert per_set == {slugify(n): size for n, size in NEOPETS_SIZES.items()}
    assert {p.rarity for _, p in printings("neopets-tcg")} == {"C", "U", "R", "H"}


def test_neopets_tcg_reprints_are_one_card():
    multi = [c for c in data("neopets-tcg").cards if len({p.set_code for p in c.printings}) > 1]
    assert len(multi) == 196
    glade = one("neopets-tcg", "Illusen's Glade")
    assert sorted(p.set_code for p in glade.printings) == ["battle-for-meridell", "travels-in-neopia"]


def test_neopets_tcg_travels_numbering_is_kept_and_reported():
    numbers = [p.number for _, p in printings("neopets-tcg") if p.set_code == "travels-in-neopia"]
    assert numbers.count("104") == 2 and numbers.count("105") == 2
    assert "107" not in numbers and "110" not in numbers
    assert any("104" in w and "travels-in-neopia" in w for w in data("neopets-tcg").warnings)


@pytest.mark.parametrize("printed, checklist", [
    ("Jeran's Armor", "Jeran's Armour"),
    ("The Thieves' Code", "The Thieves Code"),
    ("Kass's Charm", "Kass Charm"),
    ("Lisha's Charm", "Lishas Charm"),
])
def test_neopets_tcg_spellings_in_print_resolve(printed, checklist):
    card = one("neopets-tcg", printed)
    assert card.name == checklist
    assert printed in card.aliases


def test_neopets_tcg_every_deck_card_resolves():
    decks = sorted((DATA / "neopets-tcg" / "decks").glob("*.txt"))
    assert [p.name for p in decks] == ["darigan-theme-deck.txt", "meridell-theme-deck.txt",
                                       "starter-set-deck-a.txt", "starter-set-deck-b.txt"]
    for path in decks:
        total = 0
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(r"(\d+) (.+?)( \(foil\))?$", line)
            if m:
                one("neopets-tcg", m.group(2))
                total += int(m.group(1))
        assert total == (30 if "starter" in path.name else 50), path.name


def test_neopets_tcg_theme_decks_as_printed():
    text = (DATA / "neopets-tcg" / "decks" / "meridell-theme-deck.txt").read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert lines[:5] == ["Neopet Stack", "2 Green Quiggle", "3 Yellow Quiggle", "3 Red Zafara", "2 Yellow Zafara"]
    assert lines[5] == "Deck" and "1 Jeran, Meridell Knight (foil)" in lines and "2 Jeran's Armor" in lines


def test_neopets_tcg_rulebook_facts():
    for name in ("Blue Blumaroo", "Green Skeith", "Yellow Zafara", "Green Quiggle"):
        card = one("neopets-tcg", name)
        assert card.type == "Basic Neopet" and card.provenance["type"] == "imported"
        assert any("rulebook" in s for s in card.sources)
    for name, kind in (("Jeran, Meridell Knight", "Hero"), ("Kayla", "Hero"), ("Morris", "Hero"),
                       ("Draik Skeleton", "Villain"), ("Morguss", "Villain"), ("The Thieves' Code", "Item"),
                       ("Beyond Neopia", "Item"), ("Warf", "Equipment")):
        card = one("neopets-tcg", name)
        assert (card.type, card.provenance["type"]) == (kind, "imported"), name
    assert one("neopets-tcg", "Morguss").attrs["magic"] == 18
    assert one("neopets-tcg", "The Thieves' Code").attrs["intelligence_bonus"] == 4


def test_neopets_tcg_verified_facts_keep_their_sources():
    mynci = one("neopets-tcg", "Blue Mynci")
    assert (mynci.attrs["agility"], mynci.attrs["intelligence"]) == (8, 5)
    assert mynci.provenance["agility"] == "imported"
    assert one("neopets-tcg", "Mau Codestone").attrs["subtype"] == "Codestone"
    assert one("neopets-tcg", "Travelling Library").type == "Something Has Happened!"
    assert any("cotd" in s for s in one("neopets-tcg", "The Bat-Thing").sources)


def test_neopets_tcg_derived_types_are_marked_derived():
    acara = one("neopets-tcg", "Green Acara")  # stats seen in the rules examples, type from its name
    assert acara.type == "Basic Neopet" and acara.provenance["type"] == "derived"
    assert acara.attrs["species"] == "Acara" and acara.provenance["species"] == "derived"
    assert acara.provenance["intelligence"] == "imported"
    derived = [c for c in data("neopets-tcg").cards if c.provenance.get("type") == "derived"]
    assert len(derived) > 100
    assert all(c.type == "Basic Neopet" and len(c.name.split()) == 2 for c in derived)
    # not species: Petpets that are cards of their own, items sold in colours
    for name in ("Blue Warf", "Green Meowclops", "Yellow Negg", "Red Scorchstone", "Blue Cocofizz"):
        card = one("neopets-tcg", name)
        assert card.type is None and "species" not in card.attrs, name
    # nothing else is ever derived, and no stat is invented
    for card in data("neopets-tcg").cards:
        assert set(v for k, v in card.provenance.items() if k not in ("type", "species")) <= {"imported"}


# ----------------------------------------------------------------------------------- Neopets Battledome

def test_battledome_facts():
    acara = one("neopets-battledome", "Acara")
    assert acara.type == "Neopet"
    assert {k: acara.attrs[k] for k in ("hp", "attack", "defence", "agility")} == \
        {"hp": 8, "attack": 3, "defence": 2, "agility": 6}
    assert [p.set_code for p in acara.printings] == ["unknown-set"]  # set not stated
    mau = one("neopets-battledome", "Mau")
    assert (mau.type, mau.attrs["attack_bonus"]) == ("Codestone", 1)
    assert one("neopets-battledome", "Green Knight").attrs["level_requirement_at_most"] == 3
    starry = one("neopets-battledome", "Starry Acara")
    assert [p.set_code for p in starry.printings] == ["starry-acara-starter-deck"]
    assert starry.attrs["finish"] == "foil" and "hp" not in starry.attrs
    assert one("neopets-battledome", "Hubert").type is None  # type not stated


def test_battledome_sets_and_unnamed_records():
    assert [s.name for s in data("neopets-battledome").sets] == [
        "Defenders of Neopia", "25 Year Anniversary Celebration Set", "Starry Acara starter deck",
        "Fire Uni starter deck", "Champions of Meridell", "Unknown set"]
    assert all(s.size is None for s in data("neopets-battledome").sets)
    # 24 from the shared facts, 30 more named by the public rulings pages (Green Knight is in both)
    assert len(data("neopets-battledome").cards) == 54
    assert not any("shoyru" in normalize_name(c.name) for c in data("neopets-battledome").cards)
    assert sum("Shoyru" in w for w in data("neopets-battledome").warnings) == 2


RULINGS = DATA / "neopets-battledome" / "sources" / "public-rulings.json"


def test_battledome_every_card_the_public_rulings_pages_name_is_in_the_catalogue_with_its_sources():
    import json
    raw = json.loads(RULINGS.read_text(encoding="utf-8"))
    assert len({r["name"] for r in raw["cards"]}) == 31
    for rec in raw["cards"]:
        card = one("neopets-battledome", rec["name"])
        assert rec["source"] in card.sources and rec["source"] in raw["pages"], rec
        assert card.printings, card.name  # collectable, in its set or in "Unknown set"
    assert not any(catalogue("neopets-battledome").lookup(n["name"]) for n in raw["not_cards"])
    # only what a page states: a type where one is given, nothing else guessed
    assert one("neopets-battledome", "Naia").type == "Faerie"
    assert one("neopets-battledome", "Jhudora").type == "Faerie"
    assert one("neopets-battledome", "Count Boris").type is None
    assert one("neopets-battledome", "Jhudora's Cursed Sword").attrs["level_requirement"] == 3
    assert one("neopets-battledome", "Breadmaster").name == "The Breadmaster"
    skarl = one("neopets-battledome", "King Skarl")
    assert [p.set_code for p in skarl.printings] == ["champions-of-meridell"]
    knight = one("neopets-battledome", "Green Knight")  # in the shared facts and on the ban list
    assert knight.type == "Legend" and len(knight.sources) == 2 and "banned" in knight.attrs["note"]
    count_boris = one("neopets-battledome", "Count Boris")
    assert len(count_boris.sources) == 3 and count_boris.provenance == {"note": "imported"}


def test_battledome_cards_without_a_known_set_are_printed_in_the_unknown_set():
    cards = data("neopets-battledome").cards
    unknown = [c for c in cards if [p.set_code for p in c.printings] == ["unknown-set"]]
    placed = {c.name for c in cards if c not in unknown}
    assert placed == {"Starry Acara", "Fire Uni", "King Skarl"}
    assert len(unknown) == 51 and all(p.number is None and p.rarity is None for c in unknown for p in c.printings)


def test_battledome_sources_that_disagree_stop_the_build():
    from deckhub.games.neopets_battledome.converter import battledome_catalogue
    from deckhub.importers.sources import SourceDataError
    products = {"products": {"sets_and_products_seen": []}}
    twice = [{"name": "Naia", "type": "Faerie", "source": "a"}]
    joined = battledome_catalogue(twice, products, rulings=[{"name": "Naia", "source": "b", "note": "n"}])
    assert [(c.type, c.sources, c.attrs["note"]) for c in joined.cards] == [("Faerie", ("a", "b"), "n")]
    with pytest.raises(SourceDataError, match="type: 'Legend' contradicts 'Faerie'"):
        battledome_catalogue(twice, products, rulings=[{"name": "Naia", "type": "Legend", "source": "b"}])
    with pytest.raises(SourceDataError, match="source: missing"):
        battledome_catalogue([], products, rulings=[{"name": "Naia"}])


# ------------------------------------------------------------------------------------ reproducibility

@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data is not present")
def test_build_data_reproduces_the_committed_files(tmp_path):
    warnings = build_data(SHARED, tmp_path)
    assert set(warnings) == {"kaijudo", "huntik", "neopets-tcg", "neopets-battledome"}
    built = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert len(built) > 30
    for rel in built:
        assert (DATA / rel).is_file(), f"data/{rel} is not committed"
        assert (DATA / rel).read_bytes() == (tmp_path / rel).read_bytes(), f"data/{rel} differs from a fresh build"

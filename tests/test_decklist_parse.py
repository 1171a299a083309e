"""Deck lists in and out (issue 3): text, OCTGN .o8d and JSON; round trips; a fuzzed parser.

Kaijudo uses its real catalogue; Huntik and Battledome use the TEST FIXTURE catalogues of
test_legality.py (the Huntik fixture has three "Suit" versions, Battledome has three sections).
"""
from __future__ import annotations

import glob
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckhub.core.cards import Card, Catalogue
from deckhub.core.decklist import Deck
from deckhub.games import all_games, get_game, load_catalogue
from deckhub.importers.decklists import LineError, read_decklist, write_json, write_o8d, write_text
from test_legality import cat as fixture_cat

KAIJUDO = get_game("kaijudo")
HUNTIK = get_game("huntik")
BATTLEDOME = get_game("neopets-battledome")
NEOPETS = get_game("neopets-tcg")


def kcat() -> Catalogue:
    return load_catalogue("kaijudo")


def key(catalogue, name):
    (card,) = catalogue.lookup(name)
    return card.key


def parse_k(text, **kw):
    return read_decklist(text, KAIJUDO, kcat(), **kw, games=all_games())


# --------------------------------------------------------------------------- text lists

def test_quantity_forms_and_default_section():
    p = parse_k("3 Hydro Spy\n3x Reef-Eye\n2 x Teleport\n1X Ice Blade\n")
    assert p.ok and p.kind == "text"
    c = kcat()
    assert p.deck.sections == {"Deck": {key(c, "Hydro Spy"): 3, key(c, "Reef-Eye"): 3, key(c, "Teleport"): 2,
                                        key(c, "Ice Blade"): 1}}


def test_headers_with_aliases_colons_and_counts_any_case():
    text = "Main Deck: 50\n2 Mau\nNEOPET DECK (3)\n1 Acara\nrainbow pool:\n1 Rainbow Pet 1\ndeck\n1 Omelette\n"
    p = read_decklist(text, BATTLEDOME, fixture_cat("neopets-battledome"), games=all_games())
    assert p.ok, p.errors
    assert {s: sum(v.values()) for s, v in p.deck.sections.items()} == {"Main Deck": 3, "Neopet Deck": 1,
                                                                        "Rainbow Pool": 1}


def test_comments_blank_lines_and_trailing_notes():
    p = parse_k("# my deck\n\n// a comment\n3 Hydro Spy (foil)  # three\n2 Teleport // two\n1 Sprout (foil) (promo)\n")
    assert p.ok, p.errors
    assert p.deck.count("Deck") == 6 and not p.notices


def test_names_with_numbers_and_hashes_are_not_comments_or_quantities():
    c = load_catalogue("neopets-tcg")
    p = read_decklist("Deck\n2 Evil Sloth Clone #238 # two of them\n1 105 Castle Secrets\n3x Rusty Sloth Clone #11\n",
                      NEOPETS, c, games=all_games())
    assert p.ok and not p.notices, p.errors
    assert p.deck.sections["Deck"] == {key(c, "Evil Sloth Clone #238"): 2, key(c, "105 Castle Secrets"): 1,
                                       key(c, "Rusty Sloth Clone #11"): 3}


def test_names_ignore_case_quotes_and_punctuation():
    p = parse_k("3 HYDRO SPY\n2 reef eye\n1 bolt tail dragon\n1 Om Nom Nom!\n")
    assert p.ok, p.errors
    assert p.deck.count("Deck") == 7 and not p.notices


def test_same_card_twice_adds_up():
    p = parse_k("1 Hydro Spy\n2 Hydro Spy\n")
    assert p.deck.sections["Deck"] == {key(kcat(), "Hydro Spy"): 3}


def test_huntik_versions_with_comma_or_dash_and_ambiguous_names():
    c = fixture_cat("huntik")
    p = read_decklist("3 Suit, Mr. Steel\n2 Suit - Ms. Thorpe\n1 Suit\n", HUNTIK, c, games=all_games())
    assert p.deck.sections["Deck"] == {key(c, "Suit, Mr. Steel"): 3, key(c, "Suit, Ms. Thorpe"): 2}
    (err,) = p.errors
    assert err.line == 3 and "several cards" in err.message
    assert set(err.suggestions) == {"Suit, Mr. Steel", "Suit, Ms. Thorpe", "Suit, Mr. Mactavish"}


def test_close_misspelling_of_one_card_is_accepted_with_a_notice():
    p = parse_k("3 Hydro Spyy\n")
    assert p.ok and p.deck.count("Deck") == 3
    assert p.notices == ["line 1: 'Hydro Spyy' read as Hydro Spy"]


def test_alias_is_accepted_with_a_notice():
    c = Catalogue("neopets-tcg", [Card("jerans-armour", "neopets-tcg", "Jeran's Armour", aliases=("Jeran's Armor",)),
                                  Card("kass-charm", "neopets-tcg", "Kass Charm")])  # TEST FIXTURE
    p = read_decklist("Deck\n2 Jeran's Armor\n1 Kass's Charm\n", NEOPETS, c, games=all_games())
    assert p.ok, p.errors
    assert p.notices == ["line 2: \"Jeran's Armor\" read as Jeran's Armour", "line 3: \"Kass's Charm\" read as Kass Charm"]


def test_unknown_name_is_an_error_with_up_to_three_suggestions():
    p = parse_k("3 Hydro Spy\n2 Hydro\n1 Zzzqqq Xxyy\n")
    assert [e.line for e in p.errors] == [2, 3]
    assert "unknown Kaijudo card 'Hydro'" in p.errors[0].message
    assert 1 <= len(p.errors[0].suggestions) <= 3 and len(p.errors[1].suggestions) <= 3
    assert p.deck.count("Deck") == 3  # the lines that parsed are kept for the user to choose


@pytest.mark.parametrize("line", ["0 Hydro Spy", "-1 Hydro Spy", "2.5 Hydro Spy", "1000 Hydro Spy", "3", "3x"])
def test_bad_quantities_are_line_numbered_errors(line):
    p = parse_k(f"1 Sprout\n{line}\n")
    assert [e.line for e in p.errors] == [2], p.errors
    assert p.deck.count("Deck") == 1


def test_unknown_section_and_missing_quantity():
    p = parse_k("1 Sprout\nSideboard:\n2 Teleport\nHydro Spy\n")
    assert [(e.line, e.message.split(";")[0]) for e in p.errors] == [
        (2, "unknown section 'Sideboard'"), (4, "no quantity before 'Hydro Spy'")]


def test_section_of_another_game_is_unknown():
    p = parse_k("Rainbow Pool\n1 Sprout\n")
    assert p.errors[0].line == 1 and "unknown section" in p.errors[0].message


def test_card_of_another_game_is_named_as_such():
    others = {"huntik": fixture_cat("huntik"), "neopets-battledome": fixture_cat("neopets-battledome"),
              "neopets-tcg": Catalogue("neopets-tcg", [])}
    p = parse_k("2 Plain Amulet\n", others=others.get)
    (err,) = p.errors
    assert err.line == 1 and "is a Huntik card, not a Kaijudo card" in err.message


def test_title_line_names_the_deck():
    p = parse_k("Water Rush\n\n3 Hydro Spy\n")
    assert p.ok and p.deck.name == "Water Rush"
    parsed = read_decklist("3 Hydro Spy\n", KAIJUDO, kcat(), filename="decks/Water_Rush.txt", games=all_games())
    assert parsed.deck.name == "Water Rush"


def test_binary_and_empty_input():
    p = read_decklist(b"\x00\x01\x02", KAIJUDO, kcat(), games=all_games())
    assert p.errors and p.errors[0].line == 1
    p = read_decklist("", KAIJUDO, kcat(), games=all_games())
    assert p.ok and p.deck.sections == {}
    p = read_decklist("3 Hydro Spy\n".encode("cp1252") + b"1 Tel\xe9port\n", KAIJUDO, kcat(), games=all_games())
    assert p.errors == [] or all(e.line == 2 for e in p.errors)


# --------------------------------------------------------------------------- OCTGN .o8d

O8D = sorted(glob.glob("data/kaijudo/decks/*.o8d"))


@pytest.mark.parametrize("path", O8D, ids=lambda p: p.rsplit("/", 1)[-1])
def test_published_o8d_decks_read_by_card_id(path):
    data = open(path, "rb").read()
    p = read_decklist(data, KAIJUDO, kcat(), filename=path, games=all_games())
    assert p.ok and p.kind == "o8d" and not p.notices
    assert p.deck.count("Deck") == 40 and list(p.deck.sections) == ["Deck"]


def test_o8d_falls_back_to_names_and_reports_lines():
    text = """<?xml version="1.0" encoding="utf-8"?>
<deck game="48bb61f4-5707-44bf-853e-0c473549ef50">
  <section name="Main" shared="False">
    <card qty="2" id="00000000-0000-0000-0000-000000000000">Hydro Spy</card>
    <card qty="3">Hydro Spyy</card>
    <card qty="zero" id="x">Teleport</card>
    <card qty="1">No Such Card At All</card>
  </section>
  <section name="Sideboard" shared="False">
    <card qty="1">Sprout</card>
  </section>
  <section name="Empty" shared="False" />
  <notes><![CDATA[]]></notes>
</deck>"""
    p = read_decklist(text, KAIJUDO, kcat(), games=all_games())
    assert p.deck.sections == {"Deck": {key(kcat(), "Hydro Spy"): 5}}
    assert [e.line for e in p.errors] == [6, 7, 9]
    assert p.notices == ["line 5: 'Hydro Spyy' read as Hydro Spy"]


@pytest.mark.parametrize("text,line", [
    ("<deck><section name='Main'><card qty='1'>Sprout</card></section>\n<oops", 2),
    ("<notadeck/>", 1),
    ("<!DOCTYPE d [<!ENTITY a 'aaaa'><!ENTITY b '&a;&a;&a;'>]><deck>&b;</deck>", 1),
    ('<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><deck>&x;</deck>', 1),
])
def test_bad_or_hostile_xml_is_an_error_not_a_crash(text, line):
    p = read_decklist(text, KAIJUDO, kcat(), games=all_games())
    assert p.errors and p.errors[0].line == line and not p.deck.sections


# --------------------------------------------------------------------------- JSON

def test_json_reads_back_and_reports_lines():
    c = kcat()
    text = json.dumps({"format": "deckhub-deck", "version": 1, "game": "kaijudo", "name": "J",
                       "sections": {"Deck": [{"card": key(c, "Sprout"), "qty": 2},
                                             {"card": "no-such-key", "qty": 1},
                                             {"card": "also-missing", "name": "Hydro Spy", "qty": 1},
                                             {"card": key(c, "Teleport"), "qty": 0}],
                                    "Side": [{"card": key(c, "Sprout"), "qty": 1}]}}, indent=1)
    p = read_decklist(text, KAIJUDO, c, games=all_games())
    assert p.kind == "json" and p.deck.name == "J"
    assert p.deck.sections == {"Deck": {key(c, "Sprout"): 2, key(c, "Hydro Spy"): 1}}
    lines = text.splitlines()
    assert [lines[e.line - 1].strip()[:12] for e in p.errors] == ['"card": "no-', '"card": "tel', '"Side": [']


@pytest.mark.parametrize("text", ['{"sections": 3}', '{"game": "huntik", "sections": {}}', "{ nope", "[1, 2]",
                                  '{"format": "other", "sections": {}}'])
def test_bad_json_is_an_error_with_a_line(text):
    p = read_decklist(text, KAIJUDO, kcat(), games=all_games())
    assert p.errors and all(e.line >= 1 for e in p.errors)


# --------------------------------------------------------------------------- writers and round trips

def sample_decks():
    k, h, b = kcat(), fixture_cat("huntik"), fixture_cat("neopets-battledome")
    kd = Deck("kaijudo", name="Water & Fire")
    for n, q in [("Hydro Spy", 3), ("Reef-Eye", 2), ("Om Nom Nom", 1), ("Bolt-Tail Dragon", 3)]:
        kd.add("Deck", key(k, n), q)
    hd = Deck("huntik", name="Suits")
    for n, q in [("Suit, Mr. Steel", 3), ("Suit, Ms. Thorpe", 2), ("Good Action 1", 3)]:
        hd.add("Deck", key(h, n), q)
    hd.add("Legendary Hero Pile", key(h, "Legend One"), 1)
    bd = Deck("neopets-battledome", name="Acara")
    bd.add("Main Deck", key(b, "Mau"), 20)
    bd.add("Main Deck", key(b, "Fire Faerie"), 1)
    bd.add("Neopet Deck", key(b, "Acara"), 1)
    bd.add("Neopet Deck", key(b, "Fire Uni"), 1)
    bd.add("Rainbow Pool", key(b, "Rainbow Pet 3"), 1)
    return [(KAIJUDO, k, kd), (HUNTIK, h, hd), (BATTLEDOME, b, bd)]


@pytest.mark.parametrize("game,catalogue,deck", sample_decks(), ids=lambda x: getattr(x, "slug", ""))
def test_round_trips(game, catalogue, deck):
    text = read_decklist(write_text(deck, catalogue), game, catalogue, games=all_games())
    assert text.ok and not text.notices and text.deck.sections == deck.sections
    o8d = read_decklist(write_o8d(deck, catalogue, game), game, catalogue, games=all_games())
    assert o8d.ok and o8d.kind == "o8d" and o8d.deck.sections == deck.sections
    js = read_decklist(write_json(deck), game, catalogue, games=all_games())
    assert js.ok and js.kind == "json"
    assert (js.deck.game, js.deck.name, js.deck.sections) == (deck.game, deck.name, deck.sections)
    assert read_decklist(write_json(deck, catalogue), game, catalogue, games=all_games()).deck.sections == deck.sections


def test_o8d_export_uses_octgn_ids_and_section_names():
    path = next(p for p in O8D if "Bull_Rush" in p)
    deck = read_decklist(open(path, "rb").read(), KAIJUDO, kcat(), games=all_games()).deck
    out = write_o8d(deck, kcat(), KAIJUDO)
    assert '<deck game="48bb61f4-5707-44bf-853e-0c473549ef50">' in out and '<section name="Main"' in out
    assert 'id="6f66bd23-0b8a-4f00-af7d-8d3398a640da">Bolt-Tail Dragon</card>' in out


# --------------------------------------------------------------------------- fuzzing

_ALPHABET = st.sampled_from(list("0123456789 xX\t\n\r:#/()-,.'\"!&\u2019\u00d7") +
                            ["Hydro Spy", "Suit", "Deck", "Main", "Neopet Stack", "Sideboard", "<card", "{", "}",
                             "<deck>", "Teleport", "\u00e9", "\x00"])
LINES = st.lists(st.lists(_ALPHABET, max_size=10).map("".join), max_size=12).map("\n".join)


def n_lines(text: str) -> int:
    return len(re.split(r"\r\n|\r|\n", text))


def _check_errors(p, text_len_lines):
    for e in p.errors:
        assert isinstance(e, LineError) and isinstance(e.line, int) and 1 <= e.line <= text_len_lines + 1
        assert e.message and len(e.suggestions) <= 3


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
def test_fuzz_text_never_crashes_and_errors_have_lines(text):
    for game, catalogue in ((KAIJUDO, kcat()), (HUNTIK, fixture_cat("huntik"))):
        p = read_decklist(text, game, catalogue, games=all_games())
        _check_errors(p, n_lines(text))
        assert all(q > 0 for _s, _k, q in p.deck.entries())


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["<", "{", "<deck>", '{"sections": {"Deck": [', "<?xml version='1.0'?><deck>"]), LINES)
def test_fuzz_xml_and_json_prefixes(prefix, text):
    p = read_decklist(prefix + text, KAIJUDO, kcat(), games=all_games())
    _check_errors(p, n_lines(prefix + text))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_bytes(data):
    p = read_decklist(data, BATTLEDOME, fixture_cat("neopets-battledome"), games=all_games())
    _check_errors(p, n_lines(data.decode("latin-1")))


# --------------------------------------------------------------------------- naming a printing (issue 17)

def test_the_two_ymir_missions_are_named_by_set_code_or_name_and_number():
    """Huntik SAS 145 and 151 are both "Defeat Ymir: Frost King": `N Name (SET) NUMBER` names one."""
    cat = load_catalogue("huntik")
    parse = read_decklist("1 Defeat Ymir: Frost King (SAS) 145\n"
                          "2 Defeat Ymir: Frost King (Secrets and Seekers) 151 (foil)\n", HUNTIK, cat,
                          games=all_games())
    assert parse.ok, parse.errors
    assert parse.deck.sections["Deck"] == {"defeat-ymir-frost-king-145": 1, "defeat-ymir-frost-king-151": 2}


def test_an_ambiguous_name_shows_how_to_write_each_candidate():
    cat = load_catalogue("huntik")
    (error,) = read_decklist("1 Defeat Ymir: Frost King\n", HUNTIK, cat, games=all_games()).errors
    assert error.suggestions == ("Defeat Ymir: Frost King (SAS) 145", "Defeat Ymir: Frost King (SAS) 151")
    for written in error.suggestions:  # each suggestion reads back as one card
        assert read_decklist(f"1 {written}\n", HUNTIK, cat, games=all_games()).ok


def test_a_printing_that_names_nothing_says_which_part_is_wrong():
    cat = load_catalogue("huntik")
    (bad_number,) = read_decklist("1 Defeat Ymir: Frost King (SAS) 146\n", HUNTIK, cat, games=all_games()).errors
    assert "no printing numbered '146'" in bad_number.message
    (bad_set,) = read_decklist("1 Defeat Ymir: Frost King (XYZ) 145\n", HUNTIK, cat, games=all_games()).errors
    assert "no set 'XYZ'" in bad_set.message
    # a card with one printing may name it too, and an unambiguous name needs none
    assert parse_k(f"2 {key_printing('Rock Bite')}\n").ok


def key_printing(name):
    from deckhub.core.decklist import printing_label
    (card,) = kcat().lookup(name)
    return printing_label(card)


def test_the_text_export_names_a_printing_only_where_the_name_is_ambiguous():
    cat = load_catalogue("huntik")
    deck = Deck("huntik")
    deck.add("Deck", "defeat-ymir-frost-king-151", 1)
    other = next(c for c in cat if len(cat.lookup(c.display_name)) == 1 and c.type != "Mission")
    deck.add("Deck", other.key, 2)
    text = write_text(deck, cat)
    assert "1 Defeat Ymir: Frost King (SAS) 151" in text and f"2 {other.display_name}\n" in text
    assert read_decklist(text, HUNTIK, cat, games=all_games()).deck.sections == deck.sections

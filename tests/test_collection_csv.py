"""Collection CSV as pure values: reading, checking rows against a catalogue, writing, round trips."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckhub.core.cards import Card, CardSet, Catalogue, Printing
from deckhub.importers.collection_csv import (COLUMNS, CollectionFileError, ExportRow, GameIndex, PrintingRef,
                                              neutralize, parse_collection_csv, plan_import, restore,
                                              write_collection_csv)

# A tiny game whose names exercise everything a spreadsheet or the CSV format can trip on.
SETS = [CardSet("alpha", "Alpha Set", 4, 1), CardSet("beta", "Beta: The Sequel", 3, 2), CardSet("promo", "Promos", None, 3)]
CARDS = [
    Card("lone-wolf", "toy", "Lone Wolf", printings=(Printing("alpha", "1"),)),
    Card("twice", "toy", "Twice Printed", printings=(Printing("alpha", "2"), Printing("beta", "7"))),
    Card("formula", "toy", "=SUM(A1:A9)", printings=(Printing("alpha", "3"),)),
    Card("minus", "toy", "-1/-1 Counter", printings=(Printing("alpha", "4"),)),
    Card("quoted", "toy", 'The "Quoted", Card', printings=(Printing("beta", "8"),)),
    Card("apostrophe", "toy", "'=Already Quoted", printings=(Printing("beta", "9"),)),
    Card("hero-a", "toy", "Dante Vale", version="Huntik Team Leader", printings=(Printing("beta", "10"),)),
    Card("hero-b", "toy", "Dante Vale", version="Seeker of Secrets", printings=(Printing("promo", "1"),)),
    Card("same-number-a", "toy", "Reef Gladiator", printings=(Printing("promo", "22"),)),
    Card("same-number-b", "toy", "Sopan, Cyber Renegade", printings=(Printing("promo", "22"),)),
    Card("accent", "toy", "Émile’s Café", printings=(Printing("promo", "5"),)),
]
OTHER_CARDS = [Card("elsewhere", "other", "Only Elsewhere", printings=(Printing("x", "1"),))]


def _refs(game, cards, start=1):
    refs, n = [], start
    for card in cards:
        for position, p in enumerate(card.printings):
            refs.append(PrintingRef(n, game, card.key, p.set_code, p.number, position))
            n += 1
    return refs


@pytest.fixture(scope="module")
def indexes():
    toy = GameIndex("toy", "Toy Game", Catalogue("toy", CARDS, SETS), _refs("toy", CARDS))
    other = GameIndex("other", "Other Game", Catalogue("other", OTHER_CARDS, [CardSet("x", "X Set", 1)]),
                      _refs("other", OTHER_CARDS, 100))
    return {"toy": toy, "other": other}


def plan(text, indexes, default_game=None):
    return plan_import(parse_collection_csv(text.encode("utf-8")), indexes, default_game)


def problems(p):
    return {r.row.line: [(x.kind, str(x)) for x in r.problems] for r in p.rows if r.problems}


# --------------------------------------------------------------------------- reading

def test_headers_are_matched_in_any_case_and_order_with_a_bom():
    parsed = parse_collection_csv("\ufeffQuantity, NAME ,Game,Foil_Quantity\r\n2,Lone Wolf,toy,1\r\n".encode())
    assert parsed.columns == ["game", "name", "quantity", "foil_quantity"]
    row = parsed.rows[0]
    assert (row.game, row.name, row.quantities) == ("toy", "Lone Wolf", {"quantity": 2, "foil_quantity": 1})


def test_semicolon_files_from_european_spreadsheets_are_read():
    parsed = parse_collection_csv(b"name;quantity\nLone Wolf;3\n")
    assert parsed.rows[0].name == "Lone Wolf" and parsed.rows[0].quantities == {"quantity": 3}


def test_utf16_with_its_mark_is_read():
    parsed = parse_collection_csv("name\tquantity\nÉmile’s Café\t1\n".encode("utf-16"))
    assert parsed.rows[0].name == "Émile’s Café"


@pytest.mark.parametrize("data, message", [
    (b"name,quantity\nCaf\xe9,1\n", "not UTF-8 text: byte 0xE9 on line 2"),
    (b"", "empty"),
    (b"   \n\n", "empty"),
    (b"card title,how many\nx,1\n", "Line 1 must name the columns"),
    (b"name,set\nx,y\n", "no quantity column"),
    (b"name,quantity,qty\nx,1,2\n", "appears twice"),
    (b'name,quantity\n"unterminated,1\n', "not valid CSV"),
])
def test_unreadable_files_are_refused_with_a_clear_message(data, message):
    with pytest.raises(CollectionFileError, match=message):
        parse_collection_csv(data)


def test_bad_cells_are_row_problems_with_line_numbers():
    parsed = parse_collection_csv(b"name,quantity,foil_quantity\nA,two,\n\nB,-1,1\nC,99999999,\nD,1,,extra\nE,+3,\n")
    by_line = {r.line: r for r in parsed.rows}
    assert set(by_line) == {2, 4, 5, 6, 7}  # the blank line 3 is skipped, numbering follows the file
    assert "not a whole number" in by_line[2].errors[0]
    assert "'-1' is not a whole number" in by_line[4].errors[0]
    assert "too large" in by_line[5].errors[0]
    assert "cells" in by_line[6].errors[0]
    assert by_line[7].quantities == {"quantity": 3} and not by_line[7].errors


def test_unknown_columns_are_ignored_with_a_warning():
    parsed = parse_collection_csv(b"name,quantity,price\nA,1,0.50\n")
    assert parsed.warnings == ["Column 'price' is not used and was ignored."]


def test_line_numbers_follow_quoted_newlines():
    parsed = parse_collection_csv(b'name,quantity\n"two\nlines",1\nnext,2\n')
    assert [r.line for r in parsed.rows] == [2, 4]


# --------------------------------------------------------------------------- resolving

def test_a_name_is_enough_for_a_card_with_one_printing(indexes):
    p = plan("game,name,quantity\ntoy,lone wolf,2\n", indexes)
    assert p.ok and list(p.targets.values()) == [{"quantity": 2}]


def test_set_may_be_its_code_or_its_name(indexes):
    p = plan("game,set,number,quantity\ntoy,Beta: The Sequel,7,1\ntoy,BETA,8,1\ntoy,alpha,#002,1\n", indexes)
    assert p.ok
    assert [indexes["toy"].printings[r.printing.id].number for r in p.rows] == ["7", "8", "2"]


def test_every_kind_of_bad_row_is_reported(indexes):
    text = ("game,set,number,name,version,quantity\n"
            "toy,,,Lone Wolff,,1\n"          # 2 unknown card, with a suggestion
            "toy,alpha,99,,,1\n"              # 3 bad number
            "toy,alpha,9,Lone Wolf,,1\n"      # 4 the card has no such number
            "toy,,,Twice Printed,,1\n"        # 5 ambiguous: two printings
            "toy,,,Dante Vale,,1\n"           # 6 ambiguous: two versions
            "toy,promo,22,,,1\n"              # 7 ambiguous: two cards share the number
            "toy,gamma,1,,,1\n"               # 8 unknown set
            "toy,,,Only Elsewhere,,1\n"       # 9 wrong game (the card is in another game)
            "chess,,,Pawn,,1\n"               # 10 unknown game
            ",,,Lone Wolf,,1\n"               # 11 no game at all
            "toy,,,Lone Wolf,,\n")            # 12 no quantity
    found = problems(plan(text, indexes))
    kinds = {line: [k for k, _ in v] for line, v in found.items()}
    assert kinds == {2: ["unknown-card"], 3: ["bad-number"], 4: ["bad-number"], 5: ["ambiguous"], 6: ["ambiguous"],
                     7: ["ambiguous"], 8: ["unknown-set"], 9: ["wrong-game"], 10: ["unknown-game"], 11: ["missing"],
                     12: ["missing"]}
    assert "did you mean Lone Wolf" in found[2][0][1]
    assert "give the set and number" in found[5][0][1]
    assert "give its version" in found[6][0][1]
    assert "give the name" in found[7][0][1] and "Reef Gladiator" in found[7][0][1]
    assert "Other Game card" in found[9][0][1]


def test_version_name_and_number_disambiguate(indexes):
    p = plan("game,set,number,name,version,quantity\n"
             "toy,,,Dante Vale,Seeker of Secrets,1\n"
             "toy,promo,22,\"Sopan, Cyber Renegade\",,1\n"
             "toy,beta,,Twice Printed,,1\n", indexes)
    assert p.ok
    assert [r.printing.card_key for r in p.rows] == ["hero-b", "same-number-b", "twice"]


def test_a_default_game_refuses_rows_of_another_game(indexes):
    found = problems(plan("game,name,quantity\nother,Only Elsewhere,1\n,Lone Wolf,1\n", indexes, default_game="toy"))
    assert list(found) == [2] and found[2][0][0] == "wrong-game"


def test_rows_naming_the_same_printing_add_up(indexes):
    p = plan("game,name,quantity,foil_quantity\ntoy,Lone Wolf,1,\ntoy,lone wolf,2,1\ntoy,LONE WOLF,,\n", indexes)
    assert problems(p) == {4: [("missing", "no quantity given")]}
    assert list(p.targets.values()) == [{"quantity": 3, "foil_quantity": 1}]
    assert p.rows[1].first_line == 2


# --------------------------------------------------------------------------- writing and round trips

def test_formula_cells_are_neutralised_and_restored():
    for cell in ["=SUM(A1)", "+1", "-1/-1 Counter", "@home", "\tx", "'=x", "''+y"]:
        assert neutralize(cell).startswith("'")
        assert restore(neutralize(cell)) == cell
    for cell in ["plain", "'tis", "Lone Wolf", "", "1-2"]:
        assert neutralize(cell) == cell == restore(cell)


@given(st.text())
def test_neutralise_then_restore_is_the_identity(cell):
    assert restore(neutralize(cell)) == cell
    assert not neutralize(cell)[:1] in ("=", "+", "-", "@", "\t", "\r")


def test_the_export_is_safe_in_a_spreadsheet():
    text = write_collection_csv([ExportRow("toy", "alpha", "3", "=SUM(A1:A9)", "", 1, 0, 0, 0)], bom=False)
    assert text.splitlines() == [",".join(COLUMNS), "toy,alpha,3,'=SUM(A1:A9),,1,0,0,0"]


quantities = st.integers(min_value=0, max_value=1_000_000)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from([r.id for r in _refs("toy", CARDS)]),
                       st.tuples(quantities, quantities, quantities, quantities).filter(any), max_size=12),
       st.booleans())
def test_import_of_an_export_gives_back_the_same_collection(indexes, collection, bom):
    toy = indexes["toy"]
    rows = []
    for pid, (q, f, w, t) in collection.items():
        ref = toy.printings[pid]
        card = toy.catalogue.cards[ref.card_key]
        rows.append(ExportRow("toy", ref.set_code, ref.number or "", card.name, card.version or "", q, f, w, t))
    data = write_collection_csv(rows, bom=bom).encode("utf-8")
    p = plan_import(parse_collection_csv(data), indexes)
    assert p.ok, problems(p)
    back = {pid: (t["quantity"], t["foil_quantity"], t["want_quantity"], t["trade_quantity"]) for pid, t in p.targets.items()}
    assert back == collection


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_give_rows_or_a_clear_error(data):
    try:
        parsed = parse_collection_csv(data)
    except CollectionFileError as exc:
        assert str(exc)
    else:
        assert all(r.line >= 2 for r in parsed.rows)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(["toy", "alpha", "beta", "promo", "1", "2", "22", "Lone Wolf", "Dante Vale",
                                          "'=x", "", "-3", "x" * 50, "Twice Printed", "other", "7"]),
                         min_size=0, max_size=7), max_size=8))
def test_any_rows_are_planned_without_crashing(indexes, rows):
    import csv
    import io
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["game", "set", "number", "name", "version", "quantity", "trade_quantity"])
    writer.writerows(rows)
    p = plan(buffer.getvalue(), indexes)
    for r in p.rows:
        assert r.problems or r.printing is not None


def test_fuzzy_suggestions_are_bounded_for_files_full_of_unknown_names(indexes):
    """A hostile or garbled file cannot make the dry run do unbounded fuzzy matching."""
    from deckhub.importers.collection_csv import MAX_SUGGESTED
    lines = "".join(f"toy,,,Lone Wolf {n},,1\n" for n in range(MAX_SUGGESTED + 50))
    p = plan("game,set,number,name,version,quantity\n" + lines + "toy,,," + "x" * 5000 + ",,1\n", indexes)
    suggested = [bool(r.problems[0].suggestions) for r in p.rows]
    assert all(suggested[:MAX_SUGGESTED]) and not any(suggested[MAX_SUGGESTED:])
    assert all(r.problems[0].kind == "unknown-card" for r in p.rows)
    assert len(p.rows[-1].problems[0].message) < 300


def test_a_name_cell_may_name_its_printing_as_a_deck_list_does(indexes):
    """Issue 17: `Name (SET) NUMBER` in the name cell is the set and number columns, by code or set name."""
    p = plan("game,name,quantity\ntoy,Twice Printed (beta) 7,1\ntoy,Twice Printed (Alpha Set) 2,3\n", indexes)
    assert p.ok
    assert [indexes["toy"].printings[r.printing.id].number for r in p.rows] == ["7", "2"]
    found = problems(plan("game,name,quantity\ntoy,Twice Printed (beta) 9,1\n", indexes))
    assert [k for k, _ in found[2]] == ["bad-number"]

"""The collection service on a real database: atomic ± with a floor at zero (also under concurrent
writers), all-or-nothing imports, exact export round trips, checklists and decks against the collection."""
from __future__ import annotations

import datetime as dt
import threading

import pytest

from deckhub.services import deck_needs
from deckhub.services import checklists
from deckhub.services import collection as col
from deckhub.services.decks import keep_current_cards
from deckhub.store import models
from deckhub.services.accounts import create_user
from deckhub.services.catalogue_store import get_catalogue
from deckhub.store.db import database
from tests.conftest import in_threads

GAME = "kaijudo"


@pytest.fixture
def db(app):
    with database.connection_context():
        yield database


@pytest.fixture
def alice(db):
    return create_user("alice", "correct horse")


@pytest.fixture
def bob(db):
    return create_user("bob", "correct horse")


def printing_id(set_code: str, number: str, name: str | None = None) -> int:
    index = col.game_index(GAME)
    refs = [r for r in index.by_set_number[(set_code, number)]
            if name is None or index.catalogue.cards[r.card_key].name == name]
    assert len(refs) == 1, refs
    return refs[0].id


# --------------------------------------------------------------------------- ± and concurrency

def test_adjust_adds_and_never_goes_below_zero(alice):
    pid = printing_id("evo-fury", "1")
    assert col.adjust(alice, pid, "quantity", 3).quantity == 3
    assert col.adjust(alice, pid, "foil_quantity", 1) == col.Owned(3, 1, 0, 0)
    assert col.adjust(alice, pid, "quantity", -5).quantity == 0
    assert col.adjust(alice, pid, "want_quantity", -1).want_quantity == 0
    assert col.adjust(alice, pid, "trade_quantity", 2) == col.Owned(0, 1, 0, 1)  # one copy owned: one to trade
    assert models.OwnedCard.select().count() == 1


def test_adjust_refuses_unknown_printings_and_fields(alice):
    with pytest.raises(LookupError):
        col.adjust(alice, 10 ** 9, "quantity", 1)
    with pytest.raises(ValueError):
        col.adjust(alice, printing_id("evo-fury", "1"), "price", 1)


def test_the_sql_of_a_change_is_an_increment_in_the_database(alice):
    """The update is `qty = CASE WHEN qty + n < 0 ...` in SQL, never a value computed in Python."""
    pid = printing_id("evo-fury", "2")
    statements = []
    original = database.obj.execute_sql

    def spy(sql, params=None, *args, **kwargs):
        statements.append(sql)
        return original(sql, params, *args, **kwargs)
    database.obj.execute_sql = spy
    try:
        col.adjust(alice, pid, "quantity", 2)
    finally:
        del database.obj.execute_sql
    insert = next(s for s in statements if s.startswith("INSERT"))
    update = next(s for s in statements if s.startswith("UPDATE"))
    assert "ON CONFLICT" in insert and "DO NOTHING" in insert
    update = update.replace('"owned_card".', "").replace("%s", "?")
    assert update.startswith('UPDATE "owned_card" SET "quantity" = CASE WHEN (("quantity" + ?) < ?) THEN ?')


def test_concurrent_writers_lose_no_update(alice, app):
    """Eight threads, each with its own connection, change the same quantities at once."""
    pid = printing_id("evo-fury", "3")
    other = printing_id("evo-fury", "4")
    col.adjust(alice, other, "quantity", 5)
    threads, per_thread = 8, 25

    def worker(n: int) -> None:
        for i in range(per_thread):
            col.adjust(alice.id, pid, "quantity", 1)
            col.adjust(alice.id, pid, "foil_quantity", 2)
            col.adjust(alice.id, other, "quantity", 1 if (n + i) % 2 else -1)

    assert in_threads(threads, worker) == []
    owned = col.owned_for(alice, [pid, other])
    assert owned[pid] == col.Owned(threads * per_thread, 2 * threads * per_thread, 0, 0)
    assert owned[other].quantity == 5  # as many +1 as -1, never floored (it starts at 5)


def test_concurrent_decrements_stop_at_zero(alice):
    pid = printing_id("evo-fury", "5")
    col.adjust(alice, pid, "quantity", 10)
    errors = []

    def worker():
        try:
            database.connect(reuse_if_open=True)
            for _ in range(10):
                col.adjust(alice.id, pid, "quantity", -1)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            database.close()
    pool = [threading.Thread(target=worker) for _ in range(4)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert errors == [] and col.owned_for(alice, [pid])[pid].quantity == 0


# --------------------------------------------------------------------------- import and export

def test_import_sets_quantities_and_is_idempotent(alice):
    data = (b"game,set,number,name,quantity,foil_quantity,want_quantity\n"
            b"kaijudo,Evo Fury,1,,3,1,\n"
            b"kaijudo,evo-fury,22,\"Sopan, Cyber Renegade\",2,,4\n")
    col.adjust(alice, printing_id("evo-fury", "1"), "want_quantity", 2)
    result = col.commit_import(alice, data)
    assert (result.rows, result.printings, result.changed) == (2, 2, 2)
    assert col.owned_for(alice, [printing_id("evo-fury", "1")])[printing_id("evo-fury", "1")] == col.Owned(3, 1, 2, 0)
    assert col.commit_import(alice, data).changed == 0
    preview = col.preview_import(alice, data)
    assert preview.ok and preview.changed_count == 0


def test_the_dry_run_writes_nothing_and_shows_each_change(alice):
    pid = printing_id("evo-fury", "1")
    col.adjust(alice, pid, "quantity", 1)
    preview = col.preview_import(alice, b"game,set,number,quantity\nkaijudo,evo-fury,1,4\nkaijudo,evo-fury,999,1\n")
    assert not preview.ok and preview.problem_count == 1
    first, second = preview.rows
    assert preview.change_for(first).describe() == "quantity 1 → 4"
    assert second.problems[0].kind == "bad-number"
    assert col.owned_for(alice, [pid])[pid].quantity == 1


def test_a_file_with_one_bad_row_writes_nothing(alice):
    data = b"game,set,number,quantity\nkaijudo,evo-fury,1,4\nkaijudo,evo-fury,999,1\n"
    with pytest.raises(col.ImportRejected):
        col.commit_import(alice, data)
    assert col.snapshot(alice) == {}


def test_a_failure_while_writing_rolls_everything_back(alice, monkeypatch):
    index = col.game_index(GAME)
    rows = [f"kaijudo,{r.set_code},{r.number},\"{index.catalogue.cards[r.card_key].name}\",1"
            for r in list(index.printings.values())[:1200]]
    data = ("game,set,number,name,quantity\n" + "\n".join(rows)).encode()
    assert col.preview_import(alice, data).ok
    calls = []
    real = col._upsert

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real(*args, **kwargs)
    monkeypatch.setattr(col, "_upsert", failing)
    monkeypatch.setattr(col, "CHUNK", 100)  # several statements, on every database
    with pytest.raises(RuntimeError):
        col.commit_import(alice, data)
    assert len(calls) == 2 and col.snapshot(alice) == {}


def test_export_round_trips_exactly(alice, bob):
    index = col.game_index(GAME)
    refs = list(index.printings.values())
    for i, ref in enumerate(refs[::7]):
        col.set_quantities(alice, ref.id, quantity=i % 4, foil_quantity=i % 3, want_quantity=(i * 5) % 2,
                           trade_quantity=i % 5)
    col.adjust(alice, printing_id("evo-fury", "22", "Reef Gladiator"), "quantity", 2)
    col.adjust(alice, printing_id("evo-fury", "22", "Sopan, Cyber Renegade"), "foil_quantity", 1)
    before = col.snapshot(alice)
    assert len(before) > 100
    exported = col.export_csv(alice)
    assert exported.startswith("\ufeffgame,set,number,name,version,")
    col.commit_import(bob, exported.encode("utf-8"))
    assert col.snapshot(bob) == before
    assert col.export_csv(bob) == exported
    col.commit_import(alice, exported.encode("utf-8"))
    assert col.snapshot(alice) == before


def test_export_can_be_limited_to_one_game(alice):
    col.adjust(alice, printing_id("evo-fury", "1"), "quantity", 1)
    assert len(col.export_rows(alice, GAME)) == 1
    assert col.export_rows(alice, "huntik") == []


def test_rows_of_another_game_are_refused_when_a_game_is_chosen(alice):
    preview = col.preview_import(alice, b"game,name,quantity\nhuntik,Dante Vale,1\n", default_game=GAME)
    assert [p.kind for p in preview.rows[0].problems] == ["wrong-game"]


# --------------------------------------------------------------------------- checklists and overview

def test_a_checklist_lists_the_set_in_number_order_with_completion(alice):
    col.adjust(alice, printing_id("evo-fury", "2"), "quantity", 2)
    col.adjust(alice, printing_id("evo-fury", "10"), "foil_quantity", 1)
    col.adjust(alice, printing_id("evo-fury", "3"), "want_quantity", 1)
    checklist = checklists.set_checklist(alice, GAME, "evo-fury")
    numbers = [r.number for r in checklist.rows]
    assert len(numbers) == 60 and numbers[:3] == ["1", "2", "3"] and numbers.index("10") == 9
    assert checklist.completion.label == "2 of 60"
    assert checklist.counts == {"all": 60, "owned": 2, "missing": 58, "duplicates": 1, "wanted": 1, "trade": 0}
    assert [r.number for r in checklists.set_checklist(alice, GAME, "evo-fury", "duplicates").rows] == ["2"]
    assert [r.number for r in checklists.set_checklist(alice, GAME, "evo-fury", "wanted").rows] == ["3"]
    assert checklists.set_checklist(alice, GAME, "no-such-set") is None


def test_a_set_without_printings_has_an_empty_checklist(alice):
    models.CardSet.create(game=GAME, code="announced", name="Announced & unprinted", size=12, position=999)
    checklist = checklists.set_checklist(alice, GAME, "announced")
    assert (checklist.set_code, checklist.set_name, checklist.rows) == ("announced", "Announced & unprinted", [])
    assert checklist.completion.label == "0 of 12" and checklist.counts["all"] == 0


def test_wanting_a_card_does_not_count_as_owning_it(alice):
    col.adjust(alice, printing_id("evo-fury", "2"), "want_quantity", 3)
    assert checklists.set_checklist(alice, GAME, "evo-fury").completion.owned == 0


def test_the_overview_counts_per_set_and_per_game(alice, bob):
    col.adjust(alice, printing_id("evo-fury", "2"), "quantity", 2)
    col.adjust(alice, printing_id("vortex", "1"), "quantity", 1)
    col.adjust(bob, printing_id("vortex", "2"), "quantity", 1)
    games = {g.slug: g for g in checklists.collection_overview(alice)}
    kaijudo = games[GAME]
    sets = {s.code: s.completion for s in kaijudo.sets}
    assert sets["evo-fury"].label == "1 of 60" and sets["vortex"].label == "1 of 170"
    assert kaijudo.completion.label == "2 of 1293"
    assert kaijudo.totals == col.Owned(3, 0, 0, 0)


# --------------------------------------------------------------------------- decks against the collection

def _deck(owner, name: str, cards: dict[str, int], versions: int = 1, game: str = GAME) -> models.Deck:
    deck = models.Deck.create(owner=owner, game=game, format="standard", name=name)
    for n in range(1, versions + 1):
        data = {"game": game, "name": name,
                "sections": {"Deck": [{"card": k, "qty": q if n == versions else 1} for k, q in cards.items()]}}
        models.DeckVersion.create(deck=deck, number=n, data=data)
    keep_current_cards(deck.id, game, data)  # as the deck service does with every version it writes
    return deck


def _key(set_code, number, name=None):
    return col.game_index(GAME).printings[printing_id(set_code, number, name)].card_key


def test_deck_needs_counts_owned_copies_of_every_printing(alice):
    catalogue = get_catalogue(GAME)
    hydro = "hydro-spy"  # four printings
    refs = col.game_index(GAME).by_card[hydro]
    col.adjust(alice, refs[0].id, "quantity", 1)
    col.adjust(alice, refs[2].id, "foil_quantity", 1)
    other = _key("evo-fury", "1")
    data = {"game": GAME, "name": "Test", "sections": {"Deck": [{"card": hydro, "qty": 3}, {"card": other, "qty": 2}]}}
    rows = {r.card_key: r for r in deck_needs.deck_needs(alice, data, catalogue)}
    assert (rows[hydro].needed, rows[hydro].owned, rows[hydro].missing) == (3, 2, 1)
    assert (rows[other].owned, rows[other].missing) == (0, 2)
    assert deck_needs.missing_total(rows.values()) == 3


def test_copies_in_other_decks_read_each_decks_latest_version_of_this_decks_cards_only(alice, bob):
    hydro, other = "hydro-spy", _key("evo-fury", "1")
    rush = _deck(alice, "Darigan Rush", {hydro: 2, other: 1}, versions=3)
    this = _deck(alice, "This One", {hydro: 3})
    _deck(bob, "Bob's", {hydro: 3})
    uses = deck_needs.copies_in_other_decks(alice, exclude_deck_id=this.id, game=GAME)
    assert uses == ({hydro: deck_needs.CardUses((deck_needs.DeckUse(rush.id, "Darigan Rush", 2),), 1, 2)}, False)
    assert deck_needs.copies_in_other_decks(alice, exclude_deck_id=rush.id, game=GAME) == (
        {hydro: deck_needs.CardUses((deck_needs.DeckUse(this.id, "This One", 3),), 1, 3)}, False)  # not `other`
    col.adjust(alice, col.game_index(GAME).by_card[hydro][0].id, "quantity", 3)
    row = deck_needs.deck_needs(alice, models.DeckVersion.get(models.DeckVersion.deck == this).data,
                         get_catalogue(GAME), deck_id=this.id)[0]
    assert (row.owned, row.missing, row.in_other_decks, row.free, row.short_if_shared) == (3, 0, 2, 1, 2)


def test_a_card_in_many_other_decks_names_the_first_few_and_counts_them_all(alice):
    from deckhub.web.decks import needs_table
    hydro, other = "hydro-spy", _key("evo-fury", "1")
    others = [_deck(alice, f"Deck {n:02}", {hydro: 1 + n % 2, other: 1}) for n in range(deck_needs.USES_NAMED + 3)]
    this = _deck(alice, "This One", {hydro: 3, other: 1})
    everything, latest_only = deck_needs.copies_in_other_decks(alice, exclude_deck_id=this.id, game=GAME)
    uses = everything[hydro]
    assert [u.deck_name for u in uses.named] == [f"Deck {n:02}" for n in range(deck_needs.USES_NAMED)]
    assert (uses.decks, uses.copies, latest_only) == (len(others), sum(1 + n % 2 for n in range(len(others))), False)
    row = deck_needs.deck_needs(alice, models.DeckVersion.get(models.DeckVersion.deck == this).data,
                                get_catalogue(GAME), deck_id=this.id)[0]
    assert (row.other_decks, row.in_other_decks, row.short_if_shared, row.latest_decks) == (
        uses.decks, uses.copies, 3, 0)
    _, short, html = needs_table([row])  # the deck page's Against my collection rows
    assert "“Deck 04”" in html and "“Deck 05”" not in html and short == 3
    assert f"…and 3 more decks ({uses.copies} copies in all)" in html


def test_a_player_with_many_decks_has_the_latest_changed_counted_and_is_told(alice, bob, monkeypatch):
    hydro = "hydro-spy"
    monkeypatch.setattr(deck_needs, "DECKS_COUNTED", 3)
    decks = [_deck(alice, f"Deck {n}", {hydro: 1}) for n in range(5)]
    for n, deck in enumerate(decks):  # Deck 4 changed last
        when = models.utcnow() - dt.timedelta(minutes=10 - n)
        models.Deck.update(updated_at=when).where(models.Deck.id == deck.id).execute()
    _deck(bob, "Bob's", {hydro: 4})
    this = decks[0]
    uses, latest_only = deck_needs.copies_in_other_decks(alice, exclude_deck_id=this.id, game=GAME)
    assert latest_only and [u.deck_name for u in uses[hydro].named] == ["Deck 2", "Deck 3", "Deck 4"]
    assert (uses[hydro].decks, uses[hydro].copies) == (3, 3)
    row = deck_needs.deck_needs(alice, models.DeckVersion.get(models.DeckVersion.deck == this).data,
                                get_catalogue(GAME), deck_id=this.id)[0]
    assert row.latest_decks == 3
    assert deck_needs.copies_in_other_decks(alice, exclude_deck_id=decks[4].id, game=GAME)[1]  # still 4 others
    models.Deck.delete().where(models.Deck.id.in_([d.id for d in decks[1:2]])).execute()
    assert deck_needs.copies_in_other_decks(alice, exclude_deck_id=this.id, game=GAME) == (
        {hydro: deck_needs.CardUses(tuple(deck_needs.DeckUse(d.id, d.name, 1) for d in decks[2:]), 3, 3)}, False)
    lone = _deck(bob, "Bob's other", {"halo-hawk": 1})
    assert deck_needs.copies_in_other_decks(bob, exclude_deck_id=lone.id, game=GAME) == ({}, False)


def test_adding_the_missing_cards_to_the_want_list_twice_adds_them_once(alice):
    catalogue = get_catalogue(GAME)
    hydro, other = "hydro-spy", _key("evo-fury", "1")
    refs = col.game_index(GAME).by_card[hydro]
    col.adjust(alice, refs[0].id, "quantity", 1)
    data = {"game": GAME, "name": "T", "sections": {"Deck": [{"card": hydro, "qty": 3}, {"card": other, "qty": 2}],
                                                    "Side": [{"card": other, "qty": 1}]}}
    added = deck_needs.add_missing_to_wants(alice, data, catalogue)
    assert sorted((k, n) for k, _, n in added) == sorted([(hydro, 2), (other, 3)])
    assert deck_needs.add_missing_to_wants(alice, data, catalogue) == []
    assert col.owned_for(alice, [refs[0].id])[refs[0].id].want_quantity == 2
    rows = {r.card_key: r for r in deck_needs.deck_needs(alice, data, catalogue)}
    assert rows[hydro].wanted == 2 and rows[other].wanted == 3


def test_an_existing_want_on_another_printing_counts(alice):
    catalogue = get_catalogue(GAME)
    refs = col.game_index(GAME).by_card["hydro-spy"]
    col.adjust(alice, refs[3].id, "want_quantity", 1)
    data = {"game": GAME, "sections": {"Deck": [{"card": "hydro-spy", "qty": 3}]}}
    assert deck_needs.add_missing_to_wants(alice, data, catalogue) == [("hydro-spy", refs[3].id, 2)]
    assert sum(o.want_quantity for o in col.owned_for(alice, [r.id for r in refs]).values()) == 3


def test_every_printing_of_every_game_survives_a_round_trip(alice, bob):
    """Each printing, once: the export names every one of them unambiguously (reprints, shared
    numbers, cards without a number, Huntik's two missions of one name)."""
    ids = [pid for index in col.all_indexes().values() for pid in index.printings]
    assert len(ids) > 2800
    for n, printing in enumerate(ids):
        col.set_quantities(alice, printing, quantity=1 + n % 3, trade_quantity=n % 2)
    preview = col.preview_import(bob, col.export_csv(alice).encode("utf-8"))
    assert preview.ok, [(r.row.line, [str(p) for p in r.problems]) for r in preview.plan.problem_rows[:5]]
    col.commit_import(bob, col.export_csv(alice).encode("utf-8"))
    assert col.snapshot(bob) == col.snapshot(alice)


def test_a_neopets_checklist_counts_against_the_set_size(alice):
    checklist = checklists.set_checklist(alice, "neopets-tcg", "battle-for-meridell")
    assert checklist.completion.label == "0 of 140"
    for row in checklist.rows[:23]:
        col.adjust(alice, row.printing_id, "quantity", 1)
    assert checklists.set_checklist(alice, "neopets-tcg", "battle-for-meridell").completion.label == "23 of 140"

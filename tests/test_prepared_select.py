"""db.PreparedSelect: SQL written once per backend, run with each call's values (on SQLite and PostgreSQL)."""
from __future__ import annotations

import pytest

from deckhub.store import models
from deckhub.services.accounts import create_user
from deckhub.store.db import PreparedSelect, database


@pytest.fixture
def users(app):
    with app.app_context(), database.connection_context():
        yield [create_user(name, "a long password") for name in ("ada", "bob", "cyd")]


def test_each_call_binds_its_own_values(users):
    by_name = PreparedSelect(models.User, lambda name, curator: (
        models.User.select().where((models.User.username == name) & (models.User.is_curator == curator)).limit(1)))
    assert by_name.first("bob", False).id == users[1].id
    assert by_name.first("cyd", False).id == users[2].id
    assert by_name.first("ada", True).id == users[0].id  # the first account is a curator
    assert by_name.first("ada", False) is None and by_name.first("nobody", False) is None
    assert by_name._sql[type(database.obj)] is not None  # the SQL was kept


def test_a_query_whose_parameters_are_not_its_values_is_built_every_time(users):
    next_one = PreparedSelect(models.User, lambda uid: models.User.select().where(models.User.id == uid + 1))
    assert next_one.first(users[0].id).id == users[1].id
    assert next_one.first(users[1].id).id == users[2].id
    assert next_one._sql[type(database.obj)] is None


def test_a_joined_select_returns_its_joined_models(users):
    """The deck page reads a deck with its owner and newest version in one prepared query."""
    from deckhub.services import decks
    first = decks.create_deck(users[1], "kaijudo", "standard", "First")
    second = decks.create_deck(users[2], "kaijudo", "standard", "Second")
    decks.create_deck(users[2], "kaijudo", "standard", "Third")
    for stored, owner in ((first, users[1]), (second, users[2])):
        fetched = decks._fetch(stored.row.id)
        assert fetched.row.__rel__["owner"].username == owner.username  # read by the same query
        assert fetched.row.name == stored.row.name
        assert fetched.version.number == stored.version.number and fetched.version.deck_id == stored.row.id
    assert decks._fetch(10_000) is None
    assert decks._WITH_NEWEST_VERSION._sql[type(database.obj)] is not None


def test_rows_after_the_first_convert_their_columns_as_peewee_does(users):
    """The column mapping worked out for the first row is reused: later rows still get their
    datetimes, booleans and JSON as Python values, and a miss stays None."""
    from deckhub.services import decks
    stored = decks.create_deck(users[0], "kaijudo", "standard", "Typed", description="a deck")
    for _ in range(3):
        fetched = decks._fetch(stored.row.id)
        assert fetched.row.created_at == models.Deck.get_by_id(stored.row.id).created_at
        assert fetched.row.is_public is False and fetched.row.owner.is_curator is True
        assert fetched.version.data == models.DeckVersion.get_by_id(stored.version.id).data
        assert isinstance(fetched.version.data, dict)
        assert decks._fetch(stored.row.id + 1000) is None


def test_what_it_keeps_of_peewee_is_what_peewee_sets_per_cursor():
    """PreparedSelect copies a cursor wrapper's attributes but those peewee sets for each cursor
    (pinned here: a peewee that adds or renames one must be looked at before it is allowed)."""
    from peewee import CursorWrapper

    from deckhub.store.db import _PER_CURSOR
    assert set(vars(CursorWrapper(None))) == _PER_CURSOR


def test_rows_are_what_peewee_itself_returns(users):
    """Every column of the row and of its joined models, as peewee's own `.first()` reads them."""
    from deckhub.services import decks, sessions
    stored = decks.create_deck(users[1], "kaijudo", "standard", "Pinned", description="a deck")
    for _ in range(2):  # the first call works the mapping out, the second reuses it
        mine = decks._WITH_NEWEST_VERSION.first(stored.row.id)
        peewees = decks._WITH_NEWEST_VERSION.build(stored.row.id).first()
        assert mine.__data__ == peewees.__data__
        assert {k: v.__data__ for k, v in mine.__rel__.items()} == {k: v.__data__ for k, v in peewees.__rel__.items()}
        assert mine.deckversion.__data__ == peewees.deckversion.__data__
    login = models.LoginSession.create(user=users[2], key="k" * 32)
    values = (users[2].id, users[2].session_version, login.key)
    for _ in range(2):
        assert sessions._SIGNED_IN.first(*values).__data__ == sessions._SIGNED_IN.build(*values).first().__data__


def test_prepared_rows_bind_each_value_wherever_it_appears(users):
    """A value may appear several times and among constants; the SQL is written once per backend."""
    from deckhub.store.db import PreparedRows
    U = models.User
    others = PreparedRows(2, lambda uid, limit: (
        U.select(U.username).where((U.id != uid) & (U.id >= 0) & ((U.id > uid) | (U.id < uid)))
        .order_by(U.id).limit(limit)))
    assert others.rows(users[0].id, 5) == [("bob",), ("cyd",)]
    assert others.rows(users[1].id, 1) == [("ada",)]
    assert others.rows(users[2].id, 0) == []
    assert len(others._sql) == 1


def test_all_and_raw_bind_each_calls_values_for_every_row(users):
    """`all` returns every row as the query's own iteration does; `raw` the driver's values."""
    from deckhub.services import decks
    for name in ("One", "Two"):
        decks.create_deck(users[1], "kaijudo", "standard", name)
    decks.create_deck(users[2], "kaijudo", "standard", "Three")
    D = models.Deck
    names = PreparedSelect(D, lambda owner: D.select(D.name, D.id).where(D.owner == owner).order_by(D.name).tuples())
    whole = PreparedSelect(D, lambda owner: D.select().where(D.owner == owner).order_by(D.name))
    for _ in range(2):
        assert [n for n, _ in names.raw(users[1].id)] == ["One", "Two"]
        assert [n for n, _ in names.all(users[2].id)] == ["Three"]
        assert [d.name for d in whole.all(users[1].id)] == ["One", "Two"]
        assert whole.all(users[1].id)[0].created_at == D.get(D.name == "One").created_at
        assert names.raw(10_000) == [] and whole.all(10_000) == []
    assert None not in (names._sql[type(database.obj)], whole._sql[type(database.obj)])


def test_prepared_rows_refuse_a_value_a_field_would_turn_into_text(users):
    """A text column converts its marker, so the value would never be bound: refused, not run wrongly."""
    from deckhub.store.db import PreparedRows
    U = models.User
    by_name = PreparedRows(1, lambda name: U.select(U.id).where(U.username == name))
    with pytest.raises(TypeError, match="whole numbers only"):
        by_name.rows("bob")


def test_an_expression_beside_the_models_columns_reads_as_peewee_reads_it(users):
    """The signed-in user's query brings every catalogue's stamp along as one text column."""
    from peewee import SQL

    from deckhub.services import sessions
    for user in users:
        sessions.start(user)
    with_extra = PreparedSelect(models.User, lambda uid: (
        models.User.select(*models.User._meta.sorted_fields, SQL("'a' || 'b'").alias("extra"))
        .join(models.LoginSession).where(models.User.id == uid)))
    for _ in range(2):  # the first row read as peewee reads it, the next ones by the kept mapping
        user = with_extra.first(users[1].id)
        assert (user.username, user.extra, user.is_curator) == ("bob", "ab", False)
    assert with_extra._sql[type(database.obj)][4] is not None  # read by the fast path

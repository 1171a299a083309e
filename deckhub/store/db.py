"""One DatabaseProxy for the whole app: an SQLite file by default, PostgreSQL via DATABASE_URL.

The factory (or a command) calls `init_database(url)`; requests connect on start and close on
teardown (as peewee's flask_utils does). Schema changes are numbered steps in `deckhub/store/migrations/`.
"""
from __future__ import annotations

import itertools
import json
import time
import weakref
import zlib
from pathlib import Path
from urllib.parse import unquote, urlparse

from peewee import DatabaseProxy, ModelCursorWrapper, SqliteDatabase, TextField
from playhouse.pool import PooledPostgresqlDatabase, PooledSqliteDatabase

database = DatabaseProxy()


class JSONText(TextField):
    """JSON stored as text: the same column type and behaviour on SQLite and PostgreSQL."""

    def db_value(self, value):
        return None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def python_value(self, value):
        return None if value is None else json.loads(value)


class PooledSqlite(PooledSqliteDatabase):
    """SQLite ends a transaction by itself when a write fails for want of space or on an I/O error
    (SQLITE_FULL, SQLITE_IOERR): the ROLLBACK that follows would fail with "cannot rollback - no
    transaction is active", and that error, raised over the full disk's, is what the caller saw."""

    def rollback(self):
        if not self.is_closed() and not self.connection().in_transaction:
            return  # SQLite rolled it back already
        super().rollback()


class PooledPostgres(PooledPostgresqlDatabase):
    """peewee's pool asks the server `SELECT 1` each time it hands out an idle connection, to be sure
    the server still holds it: a round trip on every request, which cost the web process as much as
    one of the page's own statements. A connection given back less than `CHECKED_WITHIN` seconds ago is
    handed out unasked (HikariCP's `aliveBypassWindowMs` does the same, 500 ms); one that idled longer
    is asked as before. A connection the server ended inside that window fails its first statement:
    the request answers 503 and the connection is dropped (tests/test_outages.py)."""

    CHECKED_WITHIN = 0.5

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._given_back: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # connection -> when

    def _close(self, conn, close_conn=False):
        with self._pool_lock:  # (re-entrant: the pool's own `_close` takes it too)
            if not close_conn:
                self._given_back[conn] = time.monotonic()
            super()._close(conn, close_conn)

    def _is_closed(self, conn):
        given_back = self._given_back.pop(conn, None)
        if (given_back is not None and time.monotonic() - given_back < self.CHECKED_WITHIN
                and not conn.closed and self._adapter.txn_status(conn) == self._adapter.txn_idle):
            return False
        return super()._is_closed(conn)


def make_database(url: str):
    """`sqlite:///relative/or/absolute/path`, `sqlite:////abs/path` or `postgresql://user:pw@host:port/name`."""
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        path = unquote(url[len("sqlite:///"):]) if url.startswith("sqlite:///") else unquote(parsed.path)
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # WAL lets readers and one writer work at once; busy_timeout waits for a locked database
        # instead of failing, so several workers can share one file. Connections are pooled: opening
        # one (and setting its pragmas) on every request cost more than the deck page's queries.
        return PooledSqlite(path or ":memory:", max_connections=64, stale_timeout=300,
                            check_same_thread=False, pragmas={
            "journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 10000, "synchronous": "normal"})
    if parsed.scheme in ("postgres", "postgresql"):
        return PooledPostgres(
            unquote(parsed.path.lstrip("/")), user=unquote(parsed.username or "") or None,
            password=unquote(parsed.password or "") or None, host=parsed.hostname or None,
            port=parsed.port or None, max_connections=32, stale_timeout=300)
    raise ValueError(f"unsupported DATABASE_URL scheme {parsed.scheme!r}: use sqlite:/// or postgresql://")


def init_database(url: str):
    db = make_database(url)
    database.initialize(db)
    return db


_numbers = itertools.count(1)
_numbered: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # database object -> its number


def database_key() -> int:
    """The current database's number in this process, to keep things per database (tests and tools
    switch databases). Unlike `id()`, a number is never given again once its database is gone."""
    db = database.obj
    number = _numbered.get(db)
    return _numbered.setdefault(db, next(_numbers)) if number is None else number


def is_sqlite() -> bool:
    return isinstance(database.obj, SqliteDatabase)


def write_transaction():
    """A transaction that will write. On SQLite it takes the write lock at BEGIN (IMMEDIATE): a
    deferred transaction that read first cannot upgrade while another writer works, and SQLite
    refuses it at once ("database is locked") instead of waiting. Nested, it is a savepoint."""
    if is_sqlite():
        return database.atomic("IMMEDIATE")
    return database.atomic()


def lock(*keys: str) -> None:
    """Serialise, until the current transaction ends, every transaction that locks one of `keys`.

    SQLite needs nothing more than `write_transaction` (one writer at a time); PostgreSQL takes a
    transaction-scoped advisory lock per key, in a fixed order so two callers cannot deadlock."""
    if is_sqlite():
        return
    for number in sorted({zlib.crc32(k.encode("utf-8")) for k in keys}):
        database.execute_sql("SELECT pg_advisory_xact_lock(%s)", (number,))


# what a peewee cursor wrapper holds of one cursor (the rest it derives from the columns a query selects)
_PER_CURSOR = frozenset({"cursor", "count", "index", "initialized", "populated", "row_cache"})


class PreparedSelect:
    """A SELECT whose SQL peewee writes once per database backend and that then runs with new values.

    peewee writes a query's SQL in Python every time it runs, and works out again how the columns
    it gets back map to models and converters; for the few queries behind nearly every page (the
    signed-in user, a goldfish game, a deck with its owner and latest version) that work cost
    several times the query itself. `build(*values)` returns the peewee query; its SQL is kept only
    when its parameters are exactly `values` followed by constants (a LIMIT), so the SQL cannot
    depend on a value; otherwise every call builds the query afresh. Rows are read by the first
    query built, so joined models come back as they would from peewee (`row.owner`), and the
    column mapping it worked out for its first row is reused for the same SQL's later rows.

    Peewee has no public way to run a query's SQL again with new values, so this reads through its
    cursor wrapper's internals; against building the query with `.first()` each time it is about
    ten times faster (benchmarks/bench_reach_ins.py). tests/test_prepared_select.py pins what it
    relies on, and pyproject.toml bounds peewee's version.
    """

    def __init__(self, model, build):
        self.model, self.build = model, build
        self._sql: dict[type, list | None] = {}

    def _prepared(self, values: tuple) -> list | None:
        """[query, sql, constants, mapping, models] for this backend, or None when the SQL depends on a value."""
        backend = type(database.obj)
        prepared = self._sql.get(backend, False)
        if prepared is False:
            query = self.build(*values)
            sql, params = query.sql()
            n = len(values)
            prepared = [query, sql, tuple(params[n:]), None, None] if list(params[:n]) == list(values) else None
            self._sql[backend] = prepared
        return prepared

    @staticmethod
    def _reader(prepared: list, cursor):
        """The row reader of the first query over `cursor`, its column mapping worked out once: its
        models' (`_Models`) when it has one, else the first query's cursor wrapper."""
        if prepared[4] is not None:
            return prepared[4]
        reader = prepared[0]._get_cursor_wrapper(cursor)
        if prepared[3] is None:
            reader.initialize()
            prepared[3] = {k: v for k, v in vars(reader).items() if k not in _PER_CURSOR}
            prepared[4] = _Models.of(reader)
        else:
            reader.__dict__.update(prepared[3])
        return reader

    def first(self, *values):
        """The first row as a model instance (with its joined models), or None."""
        prepared = self._prepared(values)
        if prepared is None:
            return self.build(*values).first()
        cursor = database.execute_sql(prepared[1], (*values, *prepared[2]))
        try:
            row = cursor.fetchone()
            if row is None:
                return None
            reader = self._reader(prepared, cursor)
        finally:
            cursor.close()
        return reader.process_row(row)

    def all(self, *values) -> list:
        """Every row, as iterating the built query gives them (models with their joined models,
        or tuples for a `.tuples()` query)."""
        prepared = self._prepared(values)
        if prepared is None:
            return list(self.build(*values))
        cursor = database.execute_sql(prepared[1], (*values, *prepared[2]))
        try:
            rows = cursor.fetchall()
            if not rows:
                return []
            process = self._reader(prepared, cursor).process_row
            return [process(row) for row in rows]
        finally:
            cursor.close()

    def raw(self, *values) -> list[tuple]:
        """Every row as the database driver returns it, nothing converted: for a query of text and
        whole-number columns (a card key, a name, a count), which both backends return as Python's."""
        prepared = self._prepared(values)
        if prepared is None:
            return list(self.build(*values).tuples())
        cursor = database.execute_sql(prepared[1], (*values, *prepared[2]))
        try:
            return cursor.fetchall()
        finally:
            cursor.close()


class _Models:
    """A row read into its models as peewee's cursor wrapper reads it (`process_row`), for a select
    of model columns joined by inner joins only: each column's value converted and put straight into
    its model's data, not through peewee's per-column attribute setters and bookkeeping, which were
    most of the time a deck page spent reading its deck. An aliased expression of the first model's
    select becomes an attribute of its instance, as peewee makes it. `of` answers None for any other
    select (outer joins, expressions of a joined model), which the cursor wrapper then reads as ever."""

    __slots__ = ("root", "models", "joins", "extras")

    def __init__(self, root, models: list, joins: list, extras: list):
        self.root, self.models, self.joins, self.extras = root, models, joins, extras

    @classmethod
    def of(cls, reader) -> "_Models | None":
        if not isinstance(reader, ModelCursorWrapper) or any(not m for _k, _c, m in reader._constructor_list):
            return None
        columns: dict = {key: [] for key, _ctor, _is_model in reader._constructor_list}
        extras = []
        for idx, key, column, converter in reader._row_spec:
            if key is reader.model and column not in key._meta.fields and converter is None:
                extras.append((idx, column))
            elif key not in columns or column not in key._meta.fields:
                return None
            else:
                columns[key].append((idx, column, converter))
        joins = []
        for src, attr, dest, is_dict, is_outer, _is_fk in reader.src_to_dest:
            if is_dict or is_outer or src not in columns or dest not in columns:
                return None
            joins.append((src, attr, dest))
        return cls(reader.model, [(key, ctor, columns[key]) for key, ctor, _ in reader._constructor_list], joins, extras)

    def process_row(self, row):
        objects, filled = {}, set()
        for key, constructor, columns in self.models:
            instance = objects[key] = constructor(__no_default__=True)
            data = instance.__data__
            for idx, column, converter in columns:
                value = row[idx]
                if value is not None:
                    filled.add(key)
                data[column] = value if converter is None else converter(value)
        for src, attr, dest in self.joins:
            if dest in filled:  # (a joined model with nothing set is not assigned, as peewee does)
                setattr(objects[src], attr, objects[dest])
        for instance in objects.values():
            instance._dirty.clear()
        root = objects[self.root]
        for idx, name in self.extras:
            setattr(root, name, row[idx])
        return root


class PreparedRows:
    """A SELECT whose SQL peewee writes once per database backend, run with each call's values and
    read as plain tuples (the database's own values: ints, strings, None; no field converters).
    Its values are whole numbers (ids, limits, offsets): each must reach the SQL as it was given.

    `build(*values)` returns the peewee query. It is first built with markers in place of the
    values (huge negative numbers no caller sends, one per value); each of its parameters equal to
    a marker takes that value on every later call, and the others are constants. So a value may
    appear several times, or among constants, in any order. The SQL must not depend on the values
    beyond where they go (no `if`, no list whose length varies): for such a query build it each time.
    Pages that read many rows (a want & trade list, its matches) spend nothing on writing SQL.
    """

    _MARKER = -7_301_000_000_000_001

    def __init__(self, arity: int, build):
        self.build = build
        self._markers = tuple(self._MARKER - n for n in range(arity))
        self._sql: dict[type, tuple[str, tuple]] = {}

    def _prepared(self) -> tuple[str, tuple]:
        backend = type(database.obj)
        prepared = self._sql.get(backend)
        if prepared is None:
            sql, params = self.build(*self._markers).sql()
            slots = {marker: n for n, marker in enumerate(self._markers)}
            if not set(slots) <= {p for p in params if type(p) is int}:  # a field turned a marker into text
                raise TypeError("PreparedRows binds whole numbers only (ids, limits); use PreparedSelect for others")
            places = tuple((True, slots[p]) if type(p) is int and p in slots else (False, p) for p in params)
            prepared = self._sql[backend] = (sql, places)
        return prepared

    def rows(self, *values) -> list[tuple]:
        sql, places = self._prepared()
        params = [values[p] if is_value else p for is_value, p in places]
        return database.execute_sql(sql, params).fetchall()

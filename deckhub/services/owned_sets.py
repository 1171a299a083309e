"""Each player's collection summed per set (`owned_set`), counted again by every write (no Flask).

The collection overview shows, per set, the printings a player owns and their copies, foils, wants
and trades; the want & trade list shows how many printings it holds. Summing those from the rows
on every view costs a read of the whole collection (5,000 rows for a player with every printing),
so each write counts again the sets of the rows it wrote, in its own transaction: from the rows
themselves (never by adding differences), so a total cannot drift from what it sums. It also counts
one change of the player's collection (`collection_changes`): while that count is the same, a page
of their rows read earlier still holds.

On PostgreSQL two transactions writing one player's rows could each count before the other
committed; a lock per player taken before counting makes the later one wait and count both.
"""
from __future__ import annotations

from typing import Iterable

from peewee import SQL, Value

from deckhub.store import models
from deckhub.store.db import database, database_key, lock

CHUNK = 500  # ids per statement
_COLUMNS = ("printings", "quantity", "foil_quantity", "want_quantity", "trade_quantity", "listed")


def _sums(where: str) -> str:
    """The per-(owner, set) sums of the owned rows matching `where` (on `o`, the rows, and `p`, their
    printings), as a SELECT of the table's columns. Printings first: counting one set reads that set's
    printings and looks each up in the player's rows, not the player's whole collection."""
    return ('SELECT o."owner_id", p."card_set_id", '
            'COUNT(CASE WHEN o."quantity" + o."foil_quantity" > 0 THEN 1 END), SUM(o."quantity"), '
            'SUM(o."foil_quantity"), SUM(o."want_quantity"), SUM(o."trade_quantity"), '
            'COUNT(CASE WHEN o."want_quantity" > 0 OR o."trade_quantity" > 0 THEN 1 END) '
            'FROM "printing" AS p CROSS JOIN "owned_card" AS o '
            f'WHERE o."printing_id" = p."id" AND {where} GROUP BY o."owner_id", p."card_set_id"')


def _insert(select: str) -> str:
    columns = ", ".join(f'"{c}"' for c in ("owner_id", "card_set_id", *_COLUMNS))
    return f'INSERT INTO "owned_set" ({columns}) {select}'


def sets_changed(user_id: int, printing_ids: Iterable[int]) -> None:
    """Count again the player's sets of these printings (rows of theirs just written); the caller
    holds the write transaction."""
    ids = sorted(set(printing_ids))
    if not ids:
        return
    lock(f"owned-set:{user_id}")
    p = database.obj.param
    sets: set[int] = set()
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        sets.update(s for (s,) in database.execute_sql(
            f'SELECT DISTINCT "card_set_id" FROM "printing" WHERE "id" IN ({", ".join([p] * len(chunk))})',
            chunk).fetchall())
    ordered = sorted(sets)
    for start in range(0, len(ordered), CHUNK):
        chunk = ordered[start:start + CHUNK]
        marks = ", ".join([p] * len(chunk))
        database.execute_sql(f'DELETE FROM "owned_set" WHERE "owner_id" = {p} AND "card_set_id" IN ({marks})',
                             [user_id, *chunk])
        database.execute_sql(_insert(_sums(f'o."owner_id" = {p} AND p."card_set_id" IN ({marks})')),
                             [user_id, *chunk])
    C = models.CollectionChanges
    C.insert(user=user_id, changes=1).on_conflict(conflict_target=[C.user], update={C.changes: C.changes + 1}).execute()


def kept_on(user) -> tuple | None:
    """What a page kept from a user's collection rows is keyed on: the user, when their account was
    made (SQLite may give a gone account's id again) and their collection change count, read with
    their session (`sessions.load`); None for a user read without it, or an id (nothing is kept then)."""
    try:
        changes = user.collection_changes
    except AttributeError:
        return None
    return database_key(), user.id, user.created_at, changes


def count_all() -> int:
    """Every player's sets counted again from their rows (after rows were written around the
    services); the caller holds the write transaction. Returns the sets counted."""
    database.execute_sql('DELETE FROM "owned_set"')
    database.execute_sql(_insert(_sums("1 = 1")))
    C, U = models.CollectionChanges, models.User
    (C.insert_from(U.select(U.id, Value(1)).where(SQL("1 = 1")), fields=[C.user, C.changes])  # WHERE: SQLite
     .on_conflict(conflict_target=[C.user], update={C.changes: C.changes + 1}).execute())  # parses the upsert
    return models.OwnedSet.select().count()


def per_set(user_id: int) -> dict[int, tuple[int, int, int, int, int]]:
    """Set id -> (printings owned, copies, foils, wanted, for trade) of the sets the player has rows in."""
    p = database.obj.param
    return {s: values for s, *values in database.execute_sql(
        f'SELECT "card_set_id", "printings", "quantity", "foil_quantity", "want_quantity", "trade_quantity" '
        f'FROM "owned_set" WHERE "owner_id" = {p}', (user_id,)).fetchall()}


def listed_sets(user_id: int) -> list[tuple[int, int, str, str, str]]:
    """(set id, printings on the player's want or trade list, game, set code, set name) of the sets
    holding any, in the list's order (game, set position, set code): where each page of the list
    starts and ends, and what its rows' sets are called."""
    p = database.obj.param
    return database.execute_sql(
        f'SELECT o."card_set_id", o."listed", s."game", s."code", s."name" FROM "owned_set" AS o '
        f'JOIN "card_set" AS s ON s."id" = o."card_set_id" '
        f'WHERE o."owner_id" = {p} AND o."listed" > 0 ORDER BY s."game", s."position", s."code"', (user_id,)).fetchall()

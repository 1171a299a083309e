"""Collections: what each user owns, wants and trades, per printing — the service layer (no Flask).
Set checklists and the overview of a collection read it in `deckhub.services.checklists`.

Every quantity change happens in SQL, in one statement on the row, with the floor at zero done by
the database (`qty = CASE WHEN qty + n < 0 THEN 0 ... END`) after the row is created with
`INSERT ... ON CONFLICT DO NOTHING`: two tabs or two workers never lose an update, and nothing
reads a quantity into Python to write it back.

Copies for trade never exceed the copies owned (plain and foil): every write ends, in the same
transaction, with one UPDATE that lowers a trade quantity above them (`_cap_trades`), and the
caller gets a note saying so, whichever way the quantity was set (± button, typed, CSV, API).

CSV import *sets* quantities (see `deckhub.importers.collection_csv`): the rows of a file are
resolved against the in-memory catalogue first, then written in one transaction with chunked
multi-row upserts, so a file is imported whole or not at all.
"""
from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, NamedTuple

from peewee import Case, IntegrityError, SqliteDatabase

from deckhub.store import models
from deckhub.services import kept_matches, owned_sets
from deckhub.services.accounts import named_user
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.cards import Catalogue
from deckhub.store.db import database, write_transaction
from deckhub.games import all_games, get_game
from deckhub.importers.collection_csv import (MAX_QUANTITY, QTY_COLUMNS, QTY_LABELS, CollectionFileError,
                                              ExportRow, GameIndex, ImportPlan, PlannedRow, PrintingRef,
                                              apply_fixes, parse_collection_csv, plan_import, write_collection_csv)

FIELDS = QTY_COLUMNS  # ("quantity", "foil_quantity", "want_quantity", "trade_quantity")
LISTED = frozenset({"want_quantity", "trade_quantity"})  # what other players' trade matches read
CHUNK = 500  # rows per multi-row INSERT (6 parameters each: far below every database's limit)

__all__ = [
    "FIELDS", "Owned", "adjust", "set_quantities", "owned_for", "snapshot", "game_index", "all_indexes",
    "ImportPreview", "ImportResult", "ImportRejected", "preview_import", "commit_import",
    "export_rows", "export_csv", "write_targets", "CollectionFileError",
]


class Owned(NamedTuple):
    quantity: int = 0
    foil_quantity: int = 0
    want_quantity: int = 0
    trade_quantity: int = 0

    @property
    def total(self) -> int:
        """Copies in hand, foil or not."""
        return self.quantity + self.foil_quantity

    @property
    def empty(self) -> bool:
        return not any(self)


NOTHING = Owned()


def _uid(user) -> int:
    return user if isinstance(user, int) else user.id


def _field(name: str):
    if name not in FIELDS:
        raise ValueError(f"unknown quantity {name!r}; one of {', '.join(FIELDS)}")
    return getattr(models.OwnedCard, name)


def _ensure_rows(uid: int, printing_ids: Iterable[int]) -> None:
    """Create the (owner, printing) rows that do not exist yet; existing rows are left alone."""
    ids = list(dict.fromkeys(printing_ids))
    for start in range(0, len(ids), CHUNK):
        (models.OwnedCard
         .insert_many([(uid, pid) for pid in ids[start:start + CHUNK]],
                      fields=[models.OwnedCard.owner, models.OwnedCard.printing])
         .on_conflict(conflict_target=[models.OwnedCard.owner, models.OwnedCard.printing], action="NOTHING")
         .execute())


def _clamped(expr):
    return Case(None, [(expr < 0, 0), (expr > MAX_QUANTITY, MAX_QUANTITY)], expr)


def _read(uid: int, printing_id: int) -> Owned:
    row = (models.OwnedCard.select(*[_field(f) for f in FIELDS])
           .where((models.OwnedCard.owner == uid) & (models.OwnedCard.printing == printing_id)).tuples().first())
    return Owned(*row) if row else NOTHING


def _cap_trades(uid: int, printing_ids: Iterable[int] | None = None) -> list[int]:
    """Lower every trade quantity above the copies owned to those copies (no one can trade a card
    they do not have); the caller holds the write transaction. `printing_ids` narrows it to the
    rows just written (None: the user's whole collection). Returns the printings lowered."""
    O = models.OwnedCard
    over = (O.owner == uid) & (O.trade_quantity > O.quantity + O.foil_quantity)
    if printing_ids is None:
        wheres = [over]
    else:
        ids = list(dict.fromkeys(printing_ids))
        wheres = [over & O.printing.in_(ids[start:start + CHUNK]) for start in range(0, len(ids), CHUNK)]
    lowered: list[int] = []
    for where in wheres:
        found = [pid for (pid,) in O.select(O.printing).where(where).tuples()]
        if found:
            O.update({O.trade_quantity: O.quantity + O.foil_quantity}).where(where).execute()
            lowered += found
    return lowered


def trade_note(fields: Iterable[str], owned: Owned) -> str:
    """What a player is told when the trade quantity they see is not the one the change implied."""
    copies = f"{owned.total} cop{'y' if owned.total == 1 else 'ies'}"
    if "trade_quantity" in fields:
        return f"You have {copies} of this printing, so at most {owned.total} can be for trade."
    return f"You now have {copies} of this printing, so its trade quantity was lowered to {owned.total}."


def within_owned(owned: Owned) -> Owned:
    """The row as the database keeps it: trade quantity at most the copies owned (for dry runs)."""
    return owned._replace(trade_quantity=min(owned.trade_quantity, owned.total))


def trade_capped_message(printings: int) -> str:
    """An import's note on trade quantities set above the copies owned (the file's own number is not kept)."""
    return (f"{printings} printing{'s' if printings != 1 else ''}: the trade quantity was above the copies "
            f"owned and {'is' if printings == 1 else 'are'} capped at them.")


class Changed(NamedTuple):
    """One printing after a change, and why a quantity differs from what was asked (or None)."""

    owned: Owned
    note: str | None = None


def _write_row(uid: int, printing_id: int, write: Callable[[], None], fields: Iterable[str]) -> Changed:
    """Run one row's write and the trade cap in one transaction; LookupError for a missing printing."""
    if not models.Printing.select().where(models.Printing.id == printing_id).exists():
        raise LookupError(f"no printing {printing_id}")
    try:
        with write_transaction():
            _ensure_rows(uid, [printing_id])
            write()
            lowered = _cap_trades(uid, [printing_id])
            if lowered or LISTED.intersection(fields):
                kept_matches.lists_changed(uid, [printing_id])
            owned_sets.sets_changed(uid, [printing_id])
            owned = _read(uid, printing_id)
    except IntegrityError:  # the printing vanished between the check and the write
        raise LookupError(f"no printing {printing_id}") from None
    return Changed(owned, trade_note(fields, owned) if lowered else None)


def _add(uid: int, printing_id: int, field_name: str, delta: int) -> None:
    """Add to one quantity of an existing row in SQL, kept within 0..MAX_QUANTITY."""
    column = _field(field_name)
    O = models.OwnedCard
    O.update({column: _clamped(column + int(delta))}).where((O.owner == uid) & (O.printing == printing_id)).execute()


def _adjust(uid: int, printing_id: int, field_name: str, delta: int) -> Changed:
    _field(field_name)
    return _write_row(uid, printing_id, lambda: _add(uid, printing_id, field_name, delta), [field_name])


def _set(uid: int, printing_id: int, values: Mapping[str, int]) -> Changed:
    for name in values:
        _field(name)
    return _write_row(uid, printing_id, lambda: _upsert(uid, [(printing_id, dict(values))], tuple(values)), values)


def adjust(user, printing_id: int, field_name: str, delta: int) -> Owned:
    """Add `delta` (may be negative) to one quantity, atomically, never below zero (and trade never
    above the copies owned); returns the row after."""
    return _adjust(_uid(user), printing_id, field_name, delta).owned


def set_quantities(user, printing_id: int, **values: int) -> Owned:
    """Set some quantities of one printing to given values (what an import does for one row, and
    what a quantity typed on a page does); LookupError for a printing that does not exist."""
    return _set(_uid(user), printing_id, values).owned


def change_printing(user, printing_id: int, set_to: Mapping[str, int] | None = None,
                    add: tuple[str, int] | None = None) -> Changed:
    """One printing changed on a page: the quantities typed into its boxes (`set_to`), or one ±
    button (`add`: field and delta); LookupError for a printing that does not exist. The note says
    when the trade quantity was capped at the copies owned."""
    if set_to is not None:
        return _set(_uid(user), printing_id, set_to)
    return _adjust(_uid(user), printing_id, *add)


class UnknownPrintings(LookupError):
    """Changes name printings that do not exist (`missing`, sorted); nothing was changed."""

    def __init__(self, missing: list[int]):
        super().__init__(f"no printing(s) {missing}")
        self.missing = missing


def apply_changes(user, changes: list[tuple[int, str, int]]) -> list[tuple[PrintingRef, Changed]]:
    """Add (printing id, field, delta) changes to quantities, all in one transaction or none; returns
    each printing changed with its row after (and a note when its trade quantity was capped at the
    copies owned), in printing order.

    UnknownPrintings when one is named that does not exist; LookupError when one vanished (a
    catalogue reload) while the changes were written. Rows are changed in printing order (a stable
    sort keeps each printing's own changes in the order sent), so two batches naming the same
    printings in opposite orders cannot deadlock."""
    refs = printing_refs(pid for pid, _, _ in changes)
    missing = sorted({pid for pid, _, _ in changes if pid not in refs})
    if missing:
        raise UnknownPrintings(missing)
    uid = _uid(user)
    fields: dict[int, set[str]] = defaultdict(set)
    for pid, field_name, _ in changes:
        _field(field_name)
        fields[pid].add(field_name)
    ordered = sorted(fields)
    try:
        with write_transaction():
            _ensure_rows(uid, ordered)
            for pid, field_name, delta in sorted(changes, key=lambda change: change[0]):
                _add(uid, pid, field_name, delta)
            # capped once all the changes are in: "trade +2, quantity +2" in one batch keeps both
            lowered = set(_cap_trades(uid, ordered))
            kept_matches.lists_changed(uid, [pid for pid in ordered if pid in lowered or fields[pid] & LISTED])
            owned_sets.sets_changed(uid, ordered)
            after = owned_for(uid, ordered)
    except IntegrityError:  # a printing vanished between the check and the write
        raise LookupError("a printing vanished while the changes were written") from None
    return [(refs[pid], Changed(after[pid], trade_note(fields[pid], after[pid]) if pid in lowered else None))
            for pid in ordered]


def printing_refs(ids: Iterable[int]) -> dict[int, PrintingRef]:
    """PrintingRef values (id, game, card key, set, number) for database ids, in one query per 500."""
    out: dict[int, PrintingRef] = {}
    ids = list(dict.fromkeys(ids))
    for start in range(0, len(ids), CHUNK):
        query = (models.Printing.select(models.Printing.id, models.Card.game, models.Card.key,
                                        models.CardSet.code, models.Printing.number)
                 .join(models.Card).switch(models.Printing).join(models.CardSet)
                 .where(models.Printing.id.in_(ids[start:start + CHUNK])).tuples())
        for pid, game, key, code, number in query:
            out[pid] = PrintingRef(pid, game, key, code, number)
    return out


def owned_page(user, game: str | None, page: int, per_page: int) -> tuple[int, list[tuple[PrintingRef, Owned]]]:
    """One page of the printings the user has any quantity of, by printing id (`game` narrows to
    one game): the number of such printings, and the page's printings with their rows."""
    O = models.OwnedCard
    query = (O.select(O.printing, *[_field(f) for f in FIELDS])
             .where((O.owner == _uid(user))
                    & ((O.quantity > 0) | (O.foil_quantity > 0) | (O.want_quantity > 0) | (O.trade_quantity > 0))))
    if game is not None:
        query = query.join(models.Printing).join(models.Card).where(models.Card.game == game)
    total = query.count()
    rows = list(query.order_by(O.printing).paginate(page, per_page).tuples())
    refs = printing_refs(pid for pid, *_ in rows)
    return total, [(refs[pid], Owned(*values)) for pid, *values in rows if pid in refs]


def _upsert(uid: int, items: list[tuple[int, dict[str, int]]], columns: tuple[str, ...]) -> None:
    """Set `columns` of many printings, one statement per chunk, ending in
    `ON CONFLICT (owner_id, printing_id) DO UPDATE SET col = excluded.col` (a new row starts at
    zero for the columns not given). SQLite gets a multi-row VALUES list; PostgreSQL gets one array
    per column and `unnest` (a 3,000-placeholder statement costs psycopg more than the write).
    The SQL is written out here because building 50,000 rows' worth of peewee expressions took
    most of an import's time; table and column names come from the model, values are parameters."""
    for name in columns:
        _field(name)
    table = models.OwnedCard._meta.table_name
    names = ('"owner_id", "printing_id", ' + ", ".join(f'"{c}"' for c in FIELDS))
    tail = (' ON CONFLICT ("owner_id", "printing_id") DO UPDATE SET '
            + ", ".join(f'"{c}" = excluded."{c}"' for c in columns))

    def clamp(v: int) -> int:
        return 0 if v < 0 else MAX_QUANTITY if v > MAX_QUANTITY else int(v)

    if isinstance(database.obj, SqliteDatabase):
        row_sql = "(" + ", ".join(["?"] * (2 + len(FIELDS))) + ")"
        for start in range(0, len(items), CHUNK):
            chunk = items[start:start + CHUNK]
            params: list[int] = []
            for pid, values in chunk:
                params.append(uid)
                params.append(pid)
                params.extend(clamp(values.get(c, 0)) for c in FIELDS)
            database.execute_sql(f'INSERT INTO "{table}" ({names}) VALUES ' + ", ".join([row_sql] * len(chunk)) + tail,
                                 params)
        return
    p = database.obj.param
    sql = (f'INSERT INTO "{table}" ({names}) SELECT {p}, * FROM unnest('
           + ", ".join([f"{p}::integer[]"] * (1 + len(FIELDS))) + ")" + tail)
    for start in range(0, len(items), CHUNK * 10):
        chunk = items[start:start + CHUNK * 10]
        arrays = [[pid for pid, _ in chunk]] + [[clamp(v.get(c, 0)) for _, v in chunk] for c in FIELDS]
        database.execute_sql(sql, [uid, *arrays])


def _all_owned(uid: int) -> dict[int, Owned]:
    """Every row of the user's collection (one query: cheaper than asking for 50,000 ids in batches)."""
    table = models.OwnedCard._meta.table_name
    cursor = database.execute_sql(
        f'SELECT "printing_id", ' + ", ".join(f'"{c}"' for c in FIELDS)
        + f' FROM "{table}" WHERE "owner_id" = {database.obj.param}', (uid,))
    return {pid: Owned(*values) for pid, *values in cursor.fetchall()}


def _current(uid: int, printing_ids) -> dict[int, Owned]:
    ids = printing_ids if isinstance(printing_ids, (set, dict)) else set(printing_ids)
    if len(ids) <= CHUNK:
        return owned_for(uid, ids)
    return {pid: o for pid, o in _all_owned(uid).items() if pid in ids}


def owned_for(user, printing_ids: Iterable[int]) -> dict[int, Owned]:
    """The user's quantities of these printings (absent ones are not in the dict), in one query per 500 ids."""
    uid = _uid(user)
    ids = list(dict.fromkeys(printing_ids))
    found: dict[int, Owned] = {}
    for start in range(0, len(ids), CHUNK):
        query = (models.OwnedCard.select(models.OwnedCard.printing, *[_field(f) for f in FIELDS])
                 .where((models.OwnedCard.owner == uid) & (models.OwnedCard.printing.in_(ids[start:start + CHUNK])))
                 .tuples())
        for pid, *values in query:
            found[pid] = Owned(*values)
    return found


def snapshot(user, game: str | None = None) -> dict[int, Owned]:
    """Every printing the user has a non-zero quantity of: the collection as a value (for tests and backups)."""
    query = (models.OwnedCard.select(models.OwnedCard.printing, *[_field(f) for f in FIELDS])
             .where(models.OwnedCard.owner == _uid(user)))
    if game:
        query = query.join(models.Printing).join(models.Card).where(models.Card.game == game)
    return {pid: Owned(*values) for pid, *values in query.tuples() if any(values)}


# --------------------------------------------------------------------------- catalogue indexes

def game_index(game: str) -> GameIndex:
    """The game's catalogue with its printings' ids, kept on the catalogue (see `Catalogue.memo`):
    the printings change only with the catalogue, and each database has its own catalogue copy."""
    catalogue = get_catalogue(game)
    return catalogue.memo("collection.game_index", lambda: _game_index(game, catalogue))


def _game_index(game: str, catalogue: Catalogue) -> GameIndex:
    query = (models.Printing
             .select(models.Printing.id, models.Card.key, models.CardSet.code, models.Printing.number,
                     models.Printing.position)
             .join(models.Card).switch(models.Printing).join(models.CardSet)
             .where(models.Card.game == game).tuples())
    return GameIndex(game, get_game(game).name, catalogue,
                     (PrintingRef(pid, game, key, code, number, position) for pid, key, code, number, position in query))


def all_indexes() -> dict[str, GameIndex]:
    return {g.slug: game_index(g.slug) for g in all_games()}


def printing_id(card, printing) -> int | None:
    """The database id of one of a `core.cards.Card`'s printings (pages show core values; the
    collection's controls need the id)."""
    refs = game_index(card.game).by_card.get(card.key, [])
    try:
        position = card.printings.index(printing)
    except ValueError:
        return None
    if position < len(refs) and (refs[position].set_code, refs[position].number) == (printing.set_code, printing.number):
        return refs[position].id
    return next((r.id for r in refs if (r.set_code, r.number) == (printing.set_code, printing.number)), None)


@dataclass
class CardFinds:
    """Cards found by name for the collection page: each with its printings' ids, and what the user owns."""

    q: str
    cards: list[tuple[object, list[tuple[object, int, str]]]]  # (Card, [(Printing, printing id, set name)])
    owned: dict[int, Owned]
    more: int  # matches past the first `limit`
    suggestions: list  # close names when nothing matched


def find_cards(user, q: str, game: str | None = None, limit: int = 10) -> CardFinds:
    """Cards whose name matches `q` (forgiving typos, as the card search), in one game or all, with the
    user's quantities of each printing, so they can be added from the collection page itself."""
    from deckhub.core import search as core_search
    q = (q or "").strip()[:200]
    specs = [get_game(game)] if game else all_games()
    catalogues = [(spec, get_catalogue(spec.slug)) for spec in specs]
    found = core_search.search_games(catalogues, q) if q else []
    sets = {spec.slug: catalogue.sets for spec, catalogue in catalogues}

    def set_name(card, code):
        known = sets[card.game].get(code)
        return known.name if known else code

    cards = [(card, [(p, pid, set_name(card, p.set_code)) for p in card.printings
                     if (pid := printing_id(card, p)) is not None]) for card in found[:limit]]
    ids = [pid for _, rows in cards for _, pid, _ in rows]
    suggestions = []
    if q and not found:
        scored = sorted((s for _, c in catalogues for s in c.suggest(q, limit=3)), key=lambda s: -s[1])
        suggestions = [card for card, _ in scored[:3]]
    return CardFinds(q, cards, owned_for(user, ids), max(0, len(found) - limit), suggestions)


# --------------------------------------------------------------------------- import

@dataclass
class RowChange:
    """What one row does: the printing's quantities before and after (first row of a printing only)."""

    before: Owned
    after: Owned

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def describe(self) -> str:
        parts = [f"{QTY_LABELS[c]} {getattr(self.before, c)} → {getattr(self.after, c)}"
                 for c in FIELDS if getattr(self.before, c) != getattr(self.after, c)]
        return ", ".join(parts) if parts else "no change"


@dataclass
class ImportPreview:
    plan: ImportPlan
    indexes: dict[str, GameIndex]
    changes: dict[int, RowChange]  # printing id -> change

    @property
    def rows(self) -> list[PlannedRow]:
        return self.plan.rows

    @property
    def ok(self) -> bool:
        return self.plan.ok

    @property
    def problem_count(self) -> int:
        return len(self.plan.problem_rows)

    @property
    def changed_count(self) -> int:
        return sum(1 for c in self.changes.values() if c.changed)

    @property
    def trade_capped_count(self) -> int:
        """Printings whose trade quantity this file would set above the copies owned (capped)."""
        return sum(1 for pid, c in self.changes.items()
                   if c.after.trade_quantity < self.plan.targets[pid].get("trade_quantity", 0))

    @property
    def trade_capped_note(self) -> str | None:
        return trade_capped_message(self.trade_capped_count) if self.trade_capped_count else None

    @property
    def new_count(self) -> int:
        return sum(1 for c in self.changes.values() if c.before.empty and not c.after.empty)

    def change_for(self, row: PlannedRow) -> RowChange | None:
        return self.changes.get(row.printing.id) if row.printing and row.first_line is None and row.ok else None

    def label(self, row: PlannedRow) -> str:
        return self.indexes[row.game].describe(row.printing) if row.printing and row.game else ""


@dataclass
class ImportResult:
    rows: int
    printings: int
    changed: int
    seconds: float
    trade_capped: int = 0  # printings whose trade quantity was lowered to the copies owned


class ImportRejected(Exception):
    """Some rows have problems: nothing was written."""

    def __init__(self, preview: ImportPreview):
        self.preview = preview
        super().__init__(f"{preview.problem_count} rows have problems; nothing was imported")


Progress = Callable[[str, int, int], None]


def _plan(data: bytes, default_game: str | None, progress: Progress | None = None,
          fixes: Mapping[int, Mapping] | None = None) -> tuple[ImportPlan, dict[str, GameIndex]]:
    """Parse and resolve a file; `fixes` ({line: fix}) are the player's picks from earlier dry runs."""
    if progress:
        progress("reading", 0, 0)
    parsed = parse_collection_csv(data)
    pinned = apply_fixes(parsed, fixes or {})
    indexes = all_indexes()
    if default_game and default_game not in indexes:
        raise CollectionFileError(f"unknown game {default_game!r}")
    if progress:
        progress("checking", 0, len(parsed.rows))
    plan = plan_import(parsed, indexes, default_game, pinned)
    return plan, indexes


def _changes(uid: int, plan: ImportPlan) -> dict[int, RowChange]:
    current = _current(uid, plan.targets)
    changes = {}
    for pid, target in plan.targets.items():
        before = current.get(pid, NOTHING)
        changes[pid] = RowChange(before, within_owned(before._replace(**target)))
    return changes


def preview_import(user, data: bytes, default_game: str | None = None) -> ImportPreview:
    """The dry run: every row resolved, every problem, and what would change (nothing is written).

    Raises CollectionFileError when the file cannot be read at all."""
    plan, indexes = _plan(data, default_game)
    return ImportPreview(plan, indexes, _changes(_uid(user), plan))


def commit_import(user, data: bytes, default_game: str | None = None,
                  progress: Progress | None = None) -> ImportResult:
    """Check the file again (never trust an earlier dry run) and write it in one transaction.

    Raises CollectionFileError (unreadable) or ImportRejected (row problems); in both cases
    nothing is written. `progress(phase, done, total)` is called as the work advances."""
    started = time.perf_counter()
    uid = _uid(user)
    plan, indexes = _plan(data, default_game, progress)
    if not plan.ok:
        raise ImportRejected(ImportPreview(plan, indexes, {}))
    with write_transaction():
        changed, capped = write_targets(uid, plan.targets, progress)
    if progress:
        progress("done", len(plan.targets), len(plan.targets))
    return ImportResult(len(plan.rows), len(plan.targets), changed, time.perf_counter() - started, capped)


def write_targets(user, targets: dict[int, dict[str, int]], progress: Progress | None = None) -> tuple[int, int]:
    """Set the quantities of a checked plan with chunked multi-row upserts, then cap trade
    quantities at the copies owned; returns how many printings changed and how many had their
    trade quantity capped. The caller holds the write transaction, so it is all or nothing."""
    uid = _uid(user)
    groups: dict[tuple[str, ...], list[tuple[int, dict[str, int]]]] = defaultdict(list)
    for pid, target in targets.items():
        groups[tuple(c for c in FIELDS if c in target)].append((pid, target))
    total = len(targets)
    done = 0
    step = CHUNK if isinstance(database.obj, SqliteDatabase) else CHUNK * 10
    before = _current(uid, targets)
    for columns, items in groups.items():
        for start in range(0, len(items), step):
            _upsert(uid, items[start:start + step], columns)
            done += len(items[start:start + step])
            if progress:
                progress("writing", done, total)
    lowered = _cap_trades(uid, targets)
    changed, listed = [], set(lowered)
    for pid, target in targets.items():
        old = before.get(pid, NOTHING)
        if any(getattr(old, c) != v for c, v in target.items()):
            changed.append(pid)
            if any(getattr(old, c) != v for c, v in target.items() if c in LISTED):
                listed.add(pid)
    kept_matches.lists_changed(uid, listed)
    owned_sets.sets_changed(uid, listed.union(changed))
    return len(changed), len(lowered)


# --------------------------------------------------------------------------- lists and decks as an import

def list_as_csv(user, game: str, counts: dict[str, int], add: bool = True) -> bytes:
    """A pasted list or a deck (card key -> copies) as a collection CSV, so it goes through the CSV
    import's own dry run and commit. With `add` each printing's quantity becomes what the user has
    plus the copies (the dry run shows the exact numbers it will set); otherwise the copies.

    A card printed more than once goes to the printing the user owns most of, else its first one;
    the dry run names the printing, so nothing is credited unseen."""
    import csv
    import io
    from deckhub.importers.collection_csv import neutralize
    index = game_index(game)
    refs = {key: index.by_card.get(key, []) for key in counts}
    have = _current(_uid(user), {r.id for rows in refs.values() for r in rows})
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(["game", "set", "number", "name", "version", "quantity"])
    for key, copies in counts.items():
        card = index.catalogue.get(key)
        if card is None or copies <= 0:
            continue
        printings = refs[key]
        if not printings:
            writer.writerow([game, "", "", neutralize(card.name), neutralize(card.version or ""), copies])
            continue
        best = max(printings, key=lambda r: (have.get(r.id, NOTHING).quantity, -printings.index(r)))
        quantity = copies + (have.get(best.id, NOTHING).quantity if add else 0)
        writer.writerow([game, neutralize(best.set_code), neutralize(best.number or ""), neutralize(card.name),
                         neutralize(card.version or ""), min(quantity, MAX_QUANTITY)])
    return buffer.getvalue().encode("utf-8")


# --------------------------------------------------------------------------- export

def export_rows(user, game: str | None = None) -> list[ExportRow]:
    """Every non-empty row of the collection, by game, set order and collector number."""
    O, P, C, S = models.OwnedCard, models.Printing, models.Card, models.CardSet
    query = (O.select(C.game, S.code, P.number, C.name, C.version, O.quantity, O.foil_quantity,
                      O.want_quantity, O.trade_quantity)
             .join(P).join(C).switch(P).join(S)
             .where((O.owner == _uid(user))
                    & ((O.quantity > 0) | (O.foil_quantity > 0) | (O.want_quantity > 0) | (O.trade_quantity > 0))))
    if game:
        query = query.where(C.game == game)
    query = query.order_by(C.game, S.position, S.code, P.number_sort, P.number, P.position, P.id)
    return [ExportRow(g, code, number or "", name, version or "", q, f, w, t)
            for g, code, number, name, version, q, f, w, t in query.tuples()]


def export_csv(user, game: str | None = None, bom: bool = True) -> str:
    return write_collection_csv(export_rows(user, game), bom=bom)


@dataclass
class FileImport:
    """`deckhub collection import`: the user, the dry run, and what was written (None: nothing)."""

    user: models.User
    preview: ImportPreview
    result: ImportResult | None


def import_file(username: str, data: bytes, game: str | None = None, *, dry_run: bool = False) -> FileImport:
    """The command line's import: the named user's dry run, then (unless `dry_run`, and only when no
    row has a problem) the import itself. NoSuchUser, CollectionFileError and ImportRejected as the
    parts raise them; nothing is written on any of them."""
    user = named_user(username)
    preview = preview_import(user, data, game)
    result = commit_import(user, data, game) if preview.ok and not dry_run else None
    return FileImport(user, preview, result)


def export_file(username: str, game: str | None = None, *, bom: bool = True) -> tuple[models.User, str, int]:
    """The command line's export: (the named user, the CSV, its row count)."""
    user = named_user(username)
    rows = export_rows(user, game)
    return user, write_collection_csv(rows, bom=bom), len(rows)

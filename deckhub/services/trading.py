"""Public want and trade lists (opt-in per user) and matching them, Deckbox-style (no Flask).

A user's want and trade quantities (`OwnedCard.want_quantity`, `trade_quantity`) stay private
until they opt in (a `PublicLists` row); only then do they appear on their public pages and in
anyone's matches. Matching is by card, whatever the printing: a want of one printing of a card
is met by a trade of any printing of it. Each match reads the cards wanted first, then only
the rows offering (or wanting) those cards' printings, through a partial index: never a query per
user or per card, never every owner of a card. A match is kept until one of its cards' lists changes
(`deckhub.services.kept_matches`), so a page reads the site's traders only when they changed.
"""
from __future__ import annotations

import datetime as dt
import json
import time
from dataclasses import dataclass, field
from typing import Iterable

from peewee import JOIN, SQL, Case, Select, fn

from deckhub.store import models
from deckhub.services import jobs, kept_matches, owned_sets
from deckhub.services.catalogue_store import get_catalogue, stamp
from deckhub.core.caches import LRU
from deckhub.core.paging import Paged
from deckhub.games import game_slugs
from deckhub.importers.collection_csv import ExportRow
from deckhub.store.db import PreparedRows, database, is_sqlite, write_transaction

KINDS = {"wants": "want_quantity", "trades": "trade_quantity"}
OTHER = {"want_quantity": "trade_quantity", "trade_quantity": "want_quantity"}
LIST_PER_PAGE = 100
MY_PAGES_KEPT = 64  # pages of players' own lists a worker keeps (a hundred rows, some 30 kB, each)
# zero written into the SQL, not bound: SQLite uses a partial index (`trade_quantity > 0`) only for
# a query whose SQL says the same, and a prepared statement's values are bound
NONE = SQL("0")
MAX_MATCH_USERS = 50
MATCHES_KEPT = 64  # Matches made from kept rows, per catalogue (a match may hold hundreds of cards)


# --------------------------------------------------------------------------- opting in

_PUBLIC = PreparedRows(1, lambda uid: (
    models.PublicLists.select(SQL("1")).where(models.PublicLists.user == uid).limit(1)))


def lists_public(user) -> bool:
    uid = user if isinstance(user, int) else user.id
    return bool(_PUBLIC.rows(uid))


def set_lists_public(user, public: bool) -> bool:
    """Show (or stop showing) the user's want and trade lists publicly; returns the new setting. Either
    way every card on them counts a change, so no kept match still shows (or misses) the user."""
    uid = user if isinstance(user, int) else user.id
    with write_transaction():
        if public:
            models.PublicLists.insert(user=uid).on_conflict_ignore().execute()
        else:
            models.PublicLists.delete().where(models.PublicLists.user == uid).execute()
        kept_matches.user_lists_changed(uid)
    return public


def public_user(name: str) -> models.User | None:
    """The account of that name if it shows its lists publicly, else None (a 404 for the pages)."""
    return (models.User.select().join(models.PublicLists, on=(models.PublicLists.user == models.User.id))
            .where(models.User.name_key == models.name_key(name)).first())


# --------------------------------------------------------------------------- a user's public list

@dataclass
class ListRow:
    game: str
    key: str
    name: str
    version: str | None
    set_code: str
    set_name: str
    number: str | None
    qty: int

    @property
    def display_name(self) -> str:
        return f"{self.name}, {self.version}" if self.version else self.name


@dataclass
class ListPage(Paged):
    rows: list[ListRow]
    total: int
    page: int
    per_page: int


def _listed(column_name: str, O=models.OwnedCard):
    """A row's copies on a list as SQL: the trade quantity counts only copies owned (plain and foil),
    so a row written before trade was capped never offers cards that do not exist."""
    if column_name != "trade_quantity":
        return getattr(O, column_name)
    owned = O.quantity + O.foil_quantity
    return Case(None, [(O.trade_quantity > owned, owned)], O.trade_quantity)


def _list_count(column, uid):
    """How many of a user's rows a list holds: their rows only (by the owner index), joined to
    nothing (every row has its printing, card and set)."""
    O = models.OwnedCard
    return O.select(fn.COUNT(SQL("*"))).where((O.owner == uid) & (column > NONE))


def _public_list_page(column, uid, limit, offset):
    O, P, C, S = models.OwnedCard, models.Printing, models.Card, models.CardSet
    return (O.select(C.game, C.key, C.name, C.version, S.code, S.name, P.number, column)
            .join(P).join(C).switch(P).join(S)
            .where((O.owner == uid) & (column > NONE))
            .order_by(C.game, C.norm_name, C.version, S.position, P.number_sort, P.id)
            .limit(limit).offset(offset))


# per kind, SQL written once a backend (the user's page of each list is public)
_PUBLIC_LIST = {kind: PreparedRows(3, lambda uid, limit, offset, column=column: _public_list_page(
    _listed(column), uid, limit, offset)) for kind, column in KINDS.items()}
_PUBLIC_LIST_COUNT = {kind: PreparedRows(1, lambda uid, column=column: _list_count(_listed(column), uid))
                      for kind, column in KINDS.items()}


def public_list(user: models.User, kind: str, page: int = 1, per_page: int = LIST_PER_PAGE) -> ListPage:
    """One page of a user's wants or trades ("wants"/"trades"), per printing, by game and card name;
    counted by a second statement unless the first page holds them all."""
    found = _PUBLIC_LIST[kind].rows(user.id, per_page, (page - 1) * per_page)
    total = len(found) if page == 1 and len(found) < per_page else _PUBLIC_LIST_COUNT[kind].rows(user.id)[0][0]
    return ListPage([ListRow(*r) for r in found], total, page, per_page)


@dataclass
class MyListPage(Paged):
    """One page of my own want & trade rows (per printing, with what I have), for my list page,
    with the names of their sets ((game, set code) -> name)."""

    rows: list[ExportRow]
    total: int
    page: int
    per_page: int
    set_names: dict[tuple[str, str], str] = field(default_factory=dict)


_MY_LIST_SQL: dict[tuple[str, int], str] = {}  # per backend and number of sets (at most a page's rows)


def _my_list_sql(sets: int) -> str:
    """The statement of a page of my list within `sets` sets (their ids, then mine, then the same ids
    in the list's order): their printings (by the set index), each looked up in my rows (by the owner
    index), so it reads those sets only, never my whole list. Ordered by the sets' places in the list
    (`owned_sets.listed_sets` read them in order), so no set is joined to sort the rows."""
    param = database.obj.param
    sql = _MY_LIST_SQL.get((param, sets))
    if sql is None:
        sql = _MY_LIST_SQL[param, sets] = (
            'SELECT p."card_set_id", COALESCE(p."number", \'\'), c."name", COALESCE(c."version", \'\'), '
            'o."quantity", o."foil_quantity", o."want_quantity", o."trade_quantity" '
            'FROM "printing" AS p CROSS JOIN "owned_card" AS o JOIN "card" AS c ON c."id" = p."card_id" '
            f'WHERE p."card_set_id" IN ({", ".join([param] * sets)}) AND o."printing_id" = p."id" '
            f'AND o."owner_id" = {param} AND (o."want_quantity" > 0 OR o."trade_quantity" > 0) '
            f'ORDER BY CASE p."card_set_id" {" ".join(f"WHEN {param} THEN {n}" for n in range(sets))} END, '
            'p."number_sort", p."number", p."position", p."id" '
            f'LIMIT {param} OFFSET {param}')
    return sql


def my_list_page(user, page: int = 1, per_page: int = LIST_PER_PAGE) -> MyListPage:
    """My rows that want or offer a card, by game, set order and collector number: one page of them
    (the export's order, so pages never shuffle). My sums per set say how many rows each set holds,
    so the page is read from the sets it spans only, and the total is their sum. A page is kept
    (read only) while my collection (`owned_sets.kept_on`) and the catalogues, which hold the sets'
    names and places, are the same: a view that follows no change reads neither my sets nor my rows."""
    kept_on = owned_sets.kept_on(user)
    key = None if kept_on is None else (*kept_on, page, per_page, *(stamp(game) for game in game_slugs()))
    kept = None if key is None else _MY_PAGES.get(key)
    if kept is not None:
        return kept
    uid = user if isinstance(user, int) else user.id
    start = (page - 1) * per_page
    spanned, names, before, seen = {}, {}, 0, 0
    for set_id, listed, game, code, name in owned_sets.listed_sets(uid):
        if seen + listed > start and seen < start + per_page:
            if not spanned:
                before = seen
            spanned[set_id], names[set_id] = (game, code), name
        seen += listed
    ids = list(spanned)
    found = (database.execute_sql(_my_list_sql(len(ids)), [*ids, uid, *ids, per_page, start - before]).fetchall()
             if ids else [])
    rows = [ExportRow(*spanned[row[0]], *row[1:]) for row in found]
    set_names = {spanned[set_id]: names[set_id] for set_id in {row[0] for row in found}}
    listing = MyListPage(rows, seen, page, per_page, set_names)
    return listing if key is None else _MY_PAGES.put(key, listing)


_MY_PAGES: LRU = LRU(MY_PAGES_KEPT)  # `my_list_page`'s pages, by what they were read at (read only)


# --------------------------------------------------------------------------- matching

@dataclass
class MatchCard:
    game: str
    key: str
    name: str
    version: str | None
    mine: int    # copies I want (or have for trade, or my deck lacks)
    theirs: int  # copies they have for trade (or want)

    @property
    def display_name(self) -> str:
        return f"{self.name}, {self.version}" if self.version else self.name

    @property
    def copies(self) -> int:
        """Copies that could change hands."""
        return min(self.mine, self.theirs)


@dataclass
class Match:
    username: str
    cards: list[MatchCard] = field(default_factory=list)
    copies: int = 0  # copies that could change hands, over all the cards
    user_id: int | None = None


@dataclass
class Matches:
    users: list[Match]
    more: int = 0  # further matching users past MAX_MATCH_USERS
    behind_since: dt.datetime | None = None  # worked out then; others' lists changed since, a job refreshes it
    # what a page wrote of a kept match (Matches of kept rows are kept too: see `_named`), by the page's own key
    written: dict = field(default_factory=dict, compare=False, repr=False)


def _per_card(their_column: str, exclude_uid: int | None, mine):
    """Opted-in users' (not `exclude_uid`) copies in `their_column` of the cards of `mine` (a subquery
    of (card_id, copies): my copies of each card), summed per user and card, as a statement of
    (user_id, card id, their copies, my copies). It starts from my cards' printings, and the partial
    index of the rows offered (or wanted) per printing, which holds the quantities too, finds their
    owners without reading their rows: it never reads a printing's other owners, nor the site.
    Players' names are joined later, once per player ranked, not once per card."""
    O, P = models.OwnedCard, models.Printing
    column = _listed(their_column)
    query = (mine.select_from(O.owner.alias("user_id"), P.card.alias("card_id"), fn.SUM(column).alias("theirs"),
                              mine.c.copies.alias("mine"))
             .join(P, on=(P.card == mine.c.card_id)).join(O, on=(O.printing == P.id))
             .join(models.PublicLists, on=(models.PublicLists.user == O.owner))
             .where((getattr(O, their_column) > NONE) & (column > NONE)))
    if exclude_uid is not None:
        query = query.where(O.owner != exclude_uid)
    return query.group_by(O.owner, P.card, mine.c.copies)


def _matches_query(their_column: str, exclude_uid, mine, limit):
    """The users matched on the cards of `mine`, most cards first (then most copies, then name), with
    their cards, in one statement: the users counted and ranked by the database (names read for the
    players matched, not per card), the first `limit` of them joined back to their cards. Rows: (user
    id, game, card key, theirs, mine, copies that could change hands with that user, users matched)."""
    per_card = _per_card(their_column, exclude_uid, mine).cte("per_card")  # read twice
    pc = per_card.c
    least = Case(None, [(pc.theirs < pc.mine, pc.theirs)], pc.mine)
    per_user = (Select((per_card,), (pc.user_id, fn.COUNT(pc.card_id).alias("cards"), fn.SUM(least).alias("copies"),
                                     fn.COUNT(SQL("*")).over().alias("matched")))
                .group_by(pc.user_id).cte("per_user"))
    pu, U = per_user.c, models.User
    ranked = (Select((per_user,), (pu.user_id, pu.cards, pu.copies, pu.matched, U.username))
              .join(U, on=(U.id == pu.user_id))
              .order_by(pu.cards.desc(), pu.copies.desc(), fn.LOWER(U.username), pu.user_id)
              .limit(limit).alias("ranked"))
    rc, C = ranked.c, models.Card
    return (Select((per_card,), (pc.user_id, C.game, C.key, pc.theirs, pc.mine, rc.copies, rc.matched))
            .join(ranked, on=(rc.user_id == pc.user_id)).join(C, on=(C.id == pc.card_id))
            .order_by(rc.cards.desc(), rc.copies.desc(), fn.LOWER(rc.username), pc.user_id,
                      C.game, fn.LOWER(C.name), fn.COALESCE(C.version, ""))
            .with_cte(per_card, per_user).bind(database))


def _named(found: kept_matches.Kept | Iterable, names: dict | None = None) -> Matches:
    """(user id, game, key, theirs, mine, their copies in all, users matched) rows, users with most
    cards matched first and each user's cards in order (or kept ones) -> Matches, with the players'
    names read now (unless given: `_names`) and the cards' from the catalogues (a kept match shows
    today's names)."""
    kept = found if isinstance(found, kept_matches.Kept) else None
    rows = kept.rows if kept else list(found)
    behind = kept and kept.behind_since
    if not rows:
        return Matches([], behind_since=behind)
    if names is None:
        names = _names(rows)
    else:
        names = {row[0]: names[row[0]] for row in rows if row[0] in names}
    catalogues = {game: get_catalogue(game) for game in sorted({row[1] for row in rows})}
    if kept is None:
        return _matches(rows, names, catalogues, behind)
    # the same kept rows, names and catalogues make the same Matches: made once, and the pages'
    # writing of them (`Matches.written`) kept with them, while the catalogue keeps them
    key = (kept.key, behind, tuple(sorted(names.items())), tuple(c.stamp for c in catalogues.values()))
    return next(iter(catalogues.values())).memo_each(
        "trading.matches", key, lambda: _matches(rows, names, catalogues, behind), limit=MATCHES_KEPT)


# The names of the players a kept match's rows hold (their first values), as a JSON object worked out
# by PostgreSQL beside the kept row (`kept_matches.read_kept`'s `each`): a round trip less a view.
# SQLite has no round trip to save, and walking the rows' JSON there cost more than reading the
# names apart (`_names`), so it does that. Each name is a subquery of its own, so each is found by
# the user's primary key: joined, the planner expected a hundred ids and hashed the whole user table.
_NAMES_OF_KEPT = ('(SELECT (json_object_agg(i."id", i."name") FILTER (WHERE i."name" IS NOT NULL))::text '
                  f'FROM (SELECT d."id", (SELECT u."username" FROM "{models.User._meta.table_name}" AS u '
                  'WHERE u."id" = d."id") AS "name" FROM (SELECT DISTINCT (r.value ->> 0)::int AS "id" '
                  'FROM json_array_elements(k."rows"::json) AS r) AS d) AS i)')


def _names(rows: Iterable) -> dict[int, str]:
    """The players of match rows (their first value), id -> name, in one statement: up to
    MAX_MATCH_USERS ids a match, on every view of a kept match (written out)."""
    ids = sorted({row[0] for row in rows})
    if not ids:
        return {}
    return dict(database.execute_sql(
        f'SELECT "id", "username" FROM "{models.User._meta.table_name}" WHERE "id" IN '
        f'({", ".join([database.obj.param] * len(ids))})', ids).fetchall())


def _matches(rows: list, names: dict, catalogues: dict, behind: dt.datetime | None) -> Matches:
    users: list[Match] = []
    current, matched = None, 0
    for user_id, game, key, theirs, mine, copies, matched in rows:
        if user_id not in names:  # an account gone since the match was kept
            continue
        if current is None or current.user_id != user_id:
            current = Match(names[user_id], [], int(copies), user_id)
            users.append(current)
        card = catalogues[game].get(key)
        current.cards.append(MatchCard(game, key, card.name if card else key, card.version if card else None,
                                       int(mine), int(theirs)))
    return Matches(users, max(0, matched - len(users)), behind)


def _my_cards(uid, my_column: str):
    """My copies per card on my list `my_column` (my rows, by the owner index), as a subquery."""
    O, P = models.OwnedCard.alias("mine_row"), models.Printing.alias("mine_printing")
    listed = _listed(my_column, O)
    return (O.select(P.card.alias("card_id"), fn.SUM(listed).alias("copies")).join(P, on=(O.printing == P.id))
            .where((O.owner == uid) & (listed > NONE)).group_by(P.card).alias("mine"))


_MY_MATCHES = {column: PreparedRows(2, lambda uid, limit, column=column: _matches_query(
    OTHER[column], uid, _my_cards(uid, column), limit)) for column in KINDS.values()}


def _my_counts(uid: int):
    """What a kept match of my lists was worked out from, in one row: my lists' change count, and per
    list the sum of its cards' change counts (one more per row, so an empty list sums to NULL),
    read through my own rows only."""
    O, L, U = models.OwnedCard, models.PrintingListChanges, models.UserListChanges
    counted = fn.COALESCE(L.changes, 0) + 1
    mine = U.select(U.changes).where(U.user == uid)
    offered = (O.trade_quantity > NONE) & (O.quantity + O.foil_quantity > NONE)  # `_listed` > 0, tested cheaper
    return (O.select(mine, fn.SUM(Case(None, [(O.want_quantity > NONE, counted)])),
                     fn.SUM(Case(None, [(offered, counted)])))
            .join(L, JOIN.LEFT_OUTER, on=(L.printing == O.printing))
            .where((O.owner == uid) & ((O.want_quantity > NONE) | (O.trade_quantity > NONE))))


_MY_COUNTS = PreparedRows(1, lambda uid: _my_counts(uid).select_extend(_public_now(uid)))
# The sums of my cards' change counts cost a read of every row on my lists (half a millisecond for
# a few thousand), on every view of my lists or their pages. While queued jobs bring matches up to
# date, a view may trust the sums a view of this worker read at most TRUST_OTHERS_FOR seconds ago,
# as long as my own change count is the same: other players' changes then reach my matches that
# much later, my own changes at once.
TRUST_OTHERS_FOR = 10.0
_LAST_COUNTS: LRU = LRU(4096)  # player id -> (when read, the counts `_counts` read)


def _public_now(uid):
    """Whether I show my lists, as a column (read afresh on every view, never trusted)."""
    return fn.EXISTS(models.PublicLists.select(SQL("1")).where(models.PublicLists.user == uid))


def _standing(uid: int) -> tuple[list[str], tuple]:
    """My own change count and whether I show my lists, as columns for `kept_matches.read_kept`."""
    p = database.obj.param
    return ([f'(SELECT "changes" FROM "user_list_changes" WHERE "user_id" = {p})',
             f'EXISTS(SELECT 1 FROM "public_lists" WHERE "user_id" = {p})'], (uid, uid))


def _counts(uid: int, fresh: bool = True, kept_of: tuple = (), each: tuple = ()) -> tuple[dict, bool, dict]:
    """Per list, what its kept match must have been worked out from (None: nothing on that list), my
    own change count ("mine") and whether my lists are public ("public"); whether the lists' counts
    are trusted ones read earlier (only if not `fresh`, see TRUST_OTHERS_FOR); and, with trusted
    counts, the kept rows of the lists of `kept_of` that hold anything, read in the same statement
    as my standing (list -> the row, or None when nothing is kept; a list not read is missing), with
    `each`'s columns (`kept_matches.read_kept`)."""
    if not fresh and _queue_runs_later():
        last = _LAST_COUNTS.get(uid)
        if last is not None and time.monotonic() - last[0] < TRUST_OTHERS_FOR:
            listed = [kind for kind in kept_of if last[1][kind]]
            (mine, public), found = kept_matches.read_kept(uid, listed, _standing(uid), each)
            if mine == last[1]["mine"]:
                return {**last[1], "public": bool(public)}, True, {kind: found.get(kind) for kind in listed}
    mine, wants, trades, public = _MY_COUNTS.rows(uid)[0]
    counts = {"mine": mine, "wants": wants and (mine, int(wants)), "trades": trades and (mine, int(trades)),
              "public": bool(public)}
    _LAST_COUNTS.put(uid, (time.monotonic(), counts))
    return counts, False, {}


def _queue_runs_later() -> bool:
    """True when a queued job runs outside this request (not in the `immediate` mode of tests)."""
    return not jobs.huey.immediate


def _my_kept(uid: int, kind: str, counts: dict, trusted: bool = False, now: bool = False,
             found=kept_matches.NOT_READ) -> kept_matches.Kept | list:
    """My match rows on one list: the kept ones while `counts` (see `_counts`) are those they were
    worked out from; when only other players' lists changed, the kept ones marked as behind while a
    queued job works them out again (unless `now`); worked out again otherwise. `trusted` counts
    (read earlier) serve only to find the kept match current; else they are read afresh. `found`:
    the kept row, if read already (`kept_matches.read_kept`)."""
    if not counts[kind]:
        return []
    column, limit = KINDS[kind], MAX_MATCH_USERS
    fingerprint, own = kept_matches.digest(kind, limit, counts[kind]), kept_matches.digest(kind, limit, counts["mine"])
    if trusted:
        current = kept_matches.kept(uid, kind, fingerprint, own, None, found=found)
        return current if current else _my_kept(uid, kind, _counts(uid)[0], now=now)
    later = None if now or not _queue_runs_later() else (lambda: refresh_list_matches(uid, kind))
    return kept_matches.kept(uid, kind, fingerprint, own, lambda: _MY_MATCHES[column].rows(uid, limit), later,
                             found=found)


@jobs.task
def refresh_list_matches(uid: int, kind: str) -> None:
    """Work out again my kept match of one list, which other players' changes made stale."""
    _my_kept(uid, kind, _counts(uid)[0], now=True)


def match_my_list(user, kind: str) -> Matches:
    """"wants": opted-in users whose trade list holds cards I want; "trades": those who want cards I
    have for trade. Mine need not be public: only I see this. Worked out in one statement (my copies
    per card joined to their offers of those cards only) when a card's lists changed since last time."""
    uid = user if isinstance(user, int) else user.id
    counts, trusted, found = _counts(uid, fresh=False, kept_of=(kind,))
    return _named(_my_kept(uid, kind, counts, trusted, found=found.get(kind, kept_matches.NOT_READ)))


def who_has_cards(game: str, needed: dict[str, int], exclude_uid: int | None, deck_id: int | None = None,
                  now: bool = False) -> Matches:
    """Opted-in users with these cards (key -> copies needed) on their trade list: a deck's missing
    cards. With the viewer and the deck, kept for the deck's owner until those cards' lists change;
    then, while the cards needed are the same, shown as behind while a queued job works them out
    again (unless `now`)."""
    needed = {k: n for k, n in needed.items() if n > 0}
    if not needed:
        return Matches([])
    C = models.Card.alias("needed_card")
    copies = Case(C.key, list(needed.items()), 0)
    mine = (C.select(C.id.alias("card_id"), copies.alias("copies"))
            .where((C.game == game) & C.key.in_(list(needed))).alias("mine"))

    def work_out():
        return _matches_query("trade_quantity", exclude_uid, mine, MAX_MATCH_USERS).tuples()
    if exclude_uid is None or deck_id is None:
        return _named(work_out())
    P, L = models.Printing, models.PrintingListChanges
    changes = list(C.select(C.key, fn.SUM(fn.COALESCE(L.changes, 0))).join(P, on=(P.card == C.id))
                   .join(L, JOIN.LEFT_OUTER, on=(L.printing == P.id))
                   .where((C.game == game) & C.key.in_(list(needed))).group_by(C.key).order_by(C.key).tuples())
    wanted = sorted(needed.items())
    fingerprint = kept_matches.digest(game, MAX_MATCH_USERS, wanted, changes)
    own = kept_matches.digest(game, MAX_MATCH_USERS, wanted)
    later = None if now or not _queue_runs_later() else (
        lambda: refresh_deck_matches(exclude_uid, deck_id, game, wanted))
    return _named(kept_matches.kept(exclude_uid, f"deck:{deck_id}", fingerprint, own, work_out, later))


@jobs.task
def refresh_deck_matches(uid: int, deck_id: int, game: str, wanted: list) -> None:
    """Work out again the owner's kept "who has this deck's missing cards" (`wanted`: (key, copies)
    pairs), which other players' changes made stale; not for a deck deleted since."""
    if models.Deck.select().where((models.Deck.id == deck_id) & (models.Deck.owner == uid)).exists():
        who_has_cards(game, dict(wanted), uid, deck_id, now=True)


@dataclass
class CardTraders:
    """For one card: opted-in users who have it for trade, and those who want it, (name, copies)."""

    trading: list[tuple[str, int]]
    wanting: list[tuple[str, int]]


def card_traders(game: str, key: str, exclude_uid: int | None = None) -> CardTraders:
    """Who has this card for trade and who wants it (only users who opted in), in one statement."""
    O, P, C, U = models.OwnedCard, models.Printing, models.Card, models.User
    trade = _listed("trade_quantity")
    query = (O.select(U.username, fn.SUM(trade), fn.SUM(O.want_quantity))
             .join(P).join(C).switch(O).join(U, on=(U.id == O.owner))
             .join(models.PublicLists, on=(models.PublicLists.user == U.id))
             .where((C.game == game) & (C.key == key) & ((trade > 0) | (O.want_quantity > 0)))
             .group_by(U.id, U.username))
    if exclude_uid is not None:
        query = query.where(U.id != exclude_uid)
    trading, wanting = [], []
    for username, trade, want in query.tuples():
        if trade:
            trading.append((username, int(trade)))
        if want:
            wanting.append((username, int(want)))
    order = lambda pair: (-pair[1], pair[0].casefold())  # noqa: E731
    return CardTraders(sorted(trading, key=order), sorted(wanting, key=order))


@dataclass
class MyLists:
    """What the want & trade list page shows beside the lists: the opt-in, and both matches."""

    public: bool
    have_my_wants: Matches    # who has what I want
    want_my_trades: Matches   # who wants what I have for trade


def my_lists(user) -> MyLists:
    """The opt-in and both matches, reading what both lists share once: my standing, and both kept
    matches with (on PostgreSQL) the names of the players they hold, all in one statement while
    trusted counts serve. Rows worked out anew, or on SQLite, have their players' names read apart."""
    uid = user if isinstance(user, int) else user.id
    names_of_kept = () if is_sqlite() else (_NAMES_OF_KEPT,)
    counts, trusted, found = _counts(uid, fresh=False, kept_of=tuple(KINDS), each=names_of_kept)
    if not trusted:
        listed = [kind for kind in KINDS if counts[kind]]
        found = kept_matches.read_kept(uid, listed, each=names_of_kept)[1] if listed else {}
    wants, trades = (_my_kept(uid, kind, counts, trusted, found=found.get(kind)) for kind in KINDS)
    rows = [*(wants.rows if isinstance(wants, kept_matches.Kept) else wants),
            *(trades.rows if isinstance(trades, kept_matches.Kept) else trades)]
    names = {int(i): name for row in found.values() if names_of_kept and row and row[-1]
             for i, name in json.loads(row[-1]).items()}
    unnamed = [row for row in rows if row[0] not in names]  # rows worked out anew, or a player gone
    if unnamed:
        names.update(_names(unnamed))
    return MyLists(counts["public"], _named(wants, names), _named(trades, names))

"""Trade matches kept between views, and the change counts that say when they no longer hold (no Flask).

A match ranks every opted-in player who offers (or wants) one of my cards: on a big site that is
thousands of rows of other players for one page, however few it shows. So a match is worked out
again only when something it depends on changed, and kept (`kept_match`) in between. Every change
of a list, in the transaction of the change, counts one for the player (`user_list_changes`) and
one for each card changed (on each of its printings, `printing_list_changes`); opting in or out
counts one for each card listed.
A match of my lists was worked out from my count and the sum of my cards' counts: while both are
the same (the sum read from my own rows, the size of my list, not of the site), nothing it read
has changed, since my cards are the same and every count only grows. A change committed while a
match is worked out changes them too, so it is never taken for current.
When my own side is unchanged and only other players' lists changed, working the match out again
(which reads every offer of my cards, so grows with the site) is a queued job, when jobs run outside
the request: meanwhile the page shows the kept match, saying when it was worked out and that it is
being brought up to date. My own changes are worked out at once. (The want & trade page may also
trust the sums it read a few seconds ago while my own count is unchanged: `trading.TRUST_OTHERS_FOR`.)
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
from dataclasses import dataclass
from decimal import Decimal
from typing import Callable, Iterable

from peewee import DatabaseError

from deckhub.core.caches import LRU
from deckhub.store import models
from deckhub.store.db import database, database_key, write_transaction

CHUNK = 500  # cards counted per statement
DECODED_KEPT = 128  # kept matches' rows held decoded by a worker (a few thousand values each)
log = logging.getLogger(__name__)


def lists_changed(user_id: int, printing_ids: Iterable[int]) -> None:
    """Count one change of the player's lists and of the cards of these printings (a want or trade
    quantity written, or a trade quantity lowered to the copies owned); the caller holds the write
    transaction. Cards are counted in id order, so two transactions counting the same cards cannot
    deadlock; nothing is counted when no printing is named."""
    if _cards_changed(printing_ids):
        U = models.UserListChanges
        (U.insert(user=user_id, changes=1)
         .on_conflict(conflict_target=[U.user], update={U.changes: U.changes + 1}).execute())


def user_lists_changed(user_id: int) -> None:
    """Count a change of every card the player wants or offers (opting in or out shows or hides them all)."""
    O = models.OwnedCard
    _cards_changed(pid for (pid,) in O.select(O.printing)
                   .where((O.owner == user_id) & ((O.want_quantity > 0) | (O.trade_quantity > 0))).tuples())


def _cards_changed(printing_ids: Iterable[int]) -> bool:
    """Count one change on every printing of the cards of these printings, in printing order."""
    ids = sorted(set(printing_ids))
    P, L = models.Printing, models.PrintingListChanges
    cards: set[int] = set()
    for start in range(0, len(ids), CHUNK):
        cards.update(c for (c,) in P.select(P.card).where(P.id.in_(ids[start:start + CHUNK])).tuples())
    ordered = sorted(cards)
    printings: list[int] = []
    for start in range(0, len(ordered), CHUNK):
        printings += [p for (p,) in P.select(P.id).where(P.card.in_(ordered[start:start + CHUNK])).tuples()]
    printings.sort()
    for start in range(0, len(printings), CHUNK):
        (L.insert_many([(p, 1) for p in printings[start:start + CHUNK]], fields=[L.printing, L.changes])
         .on_conflict(conflict_target=[L.printing], update={L.changes: L.changes + 1}).execute())
    return bool(ordered)


def forget_deck(user_id: int, deck_id: int) -> None:
    """Drop the owner's kept "who has this deck's missing cards" of a deck being deleted."""
    models.KeptMatch.delete().where((models.KeptMatch.user == user_id)
                                    & (models.KeptMatch.purpose == f"deck:{deck_id}")).execute()


def forget_all() -> int:
    """Drop every kept match (after rows were written around the services); returns how many."""
    return models.KeptMatch.delete().execute()


def digest(*parts) -> str:
    """What a kept match was worked out from, as a short fingerprint (plain values: ints, strings, tuples)."""
    return hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=20).hexdigest()


@dataclass
class Kept:
    """A match's rows, and whether other players' lists changed since they were worked out."""

    rows: list
    key: tuple  # (player, purpose, the digest the rows were worked out from): the same key, the same rows
    behind_since: dt.datetime | None = None  # when they were worked out, if a queued job works them out again


REFRESH_AGAIN_AFTER = dt.timedelta(minutes=5)  # a refresh not done by then (a lost job) is sent again

# A kept match's rows, decoded: every view of an unchanged match read the same JSON again (a tenth
# of a millisecond for both of a player's lists). Rows worked out from one digest are the same rows
# (`Kept.key`), so they are held by it; callers never change them.
_DECODED: LRU[list] = LRU(DECODED_KEPT)


def _decoded(user_id: int, purpose: str, digest: str, text: str) -> list:
    key = (database_key(), user_id, purpose, digest)
    rows = _DECODED.get(key)
    return _DECODED.put(key, json.loads(text)) if rows is None else rows


# a kept row as `kept` takes it (`found`), in this order
_KEPT_COLUMNS = ", ".join(f'k."{column}"' for column in (
    "digest", "rows", "own_digest", "worked_out_at", "refresh_digest", "refresh_sent_at"))
NOT_READ = object()  # `kept`'s `found`: the kept row is read by `kept` itself


def read_kept(user_id: int, purposes: list[str], along: tuple[list[str], tuple] = ([], ()),
              each: tuple[str, ...] = ()) -> tuple[tuple, dict]:
    """The kept rows of several of a player's matches, in one statement: purpose -> the row `kept`
    takes as `found` (a purpose with nothing kept is missing). `along`: more columns (SQL, each
    one value) with their parameters, read in the same statement (a round trip less) and returned
    first. `each`: columns (SQL, without parameters) worked out from each kept row `k`, added at
    the end of its row."""
    p = database.obj.param
    columns, values = along
    rows = database.execute_sql(
        f'SELECT {"".join(c + ", " for c in columns)}k."purpose", {_KEPT_COLUMNS}'
        f'{"".join(", " + c for c in each)} '
        f'FROM (SELECT 1 AS "one") AS "one" LEFT JOIN "kept_match" AS k ON k."user_id" = {p} '
        f'AND k."purpose" IN ({", ".join([p] * len(purposes)) or "NULL"})',
        (*values, user_id, *purposes)).fetchall()
    n = len(columns)
    return rows[0][:n], {row[n]: row[n + 1:] for row in rows if row[n] is not None}


def kept(user_id: int, purpose: str, fingerprint: str, own: str, work_out: Callable[[], Iterable] | None,
         refresh_later: Callable[[], bool] | None = None, found=NOT_READ) -> Kept | None:
    """The rows kept for (player, purpose) if they were worked out from `fingerprint`; otherwise
    `work_out()`'s rows (plain values), kept for the next view with `own`, the digest of the owner's
    side of the fingerprint. Working out reads every offer of the player's cards, which grows with
    the site; so when only other players' lists changed (`own` is the kept one's) and
    `refresh_later` is given, the kept rows are returned marked as behind and `refresh_later()`
    queues the work (once per fingerprint; it returns False when the queue cannot be reached, and
    the rows are worked out now). Keeping rows is a convenience: when the database cannot take the
    write now (a busy SQLite file), the rows are returned all the same. Without `work_out`, only
    rows worked out from `fingerprint` are returned (else None), and nothing is written. `found`:
    the kept row if the caller read it already (`read_kept`; None: nothing kept)."""
    if found is NOT_READ:
        found = read_kept(user_id, [purpose])[1].get(purpose)
    if found is not None and found[0] == fingerprint:
        return Kept(_decoded(user_id, purpose, fingerprint, found[1]), (user_id, purpose, fingerprint))
    if work_out is None:
        return None
    K = models.KeptMatch
    if found is not None and found[2] == own and refresh_later is not None:
        behind = Kept(_decoded(user_id, purpose, found[0], found[1]), (user_id, purpose, found[0]),
                      K.worked_out_at.python_value(found[3]))
        sent = found[4] == fingerprint and K.refresh_sent_at.python_value(found[5]) >= models.utcnow() - REFRESH_AGAIN_AFTER
        if sent or not _claim_refresh(user_id, purpose, fingerprint, own) or refresh_later():
            return behind  # (a view while its refresh is on its way writes nothing)
        _claim_refresh(user_id, purpose, None, own)  # the queue is down: let the next view send it
    rows = [[int(v) if isinstance(v, Decimal) else v for v in row] for row in work_out()]  # PostgreSQL's SUM
    text = json.dumps(rows, separators=(",", ":"))
    now = models.utcnow()
    kept_now = {K.digest: fingerprint, K.rows: text, K.worked_out_at: now, K.own_digest: own,
                K.refresh_digest: None, K.refresh_sent_at: None}
    try:
        with write_transaction():
            (K.insert({K.user: user_id, K.purpose: purpose, **kept_now})
             .on_conflict(conflict_target=[K.user, K.purpose], update=kept_now).execute())
    except DatabaseError as exc:  # the rows are right; only keeping them failed
        log.warning("kept match of user %s (%s) not stored: %s", user_id, purpose, exc)
    _DECODED.put((database_key(), user_id, purpose, fingerprint), rows)
    return Kept(rows, (user_id, purpose, fingerprint))


def _claim_refresh(user_id: int, purpose: str, fingerprint: str | None, own: str) -> bool:
    """Mark the kept match as being worked out again for `fingerprint` (None: no longer), in one
    conditional update, so of many views of one stale match only one sends the job; True if this
    call marked it. A refresh sent over REFRESH_AGAIN_AFTER ago and still not done may be sent again."""
    K, now = models.KeptMatch, models.utcnow()
    query = K.update(refresh_digest=fingerprint, refresh_sent_at=fingerprint and now).where(
        (K.user == user_id) & (K.purpose == purpose) & (K.own_digest == own))
    if fingerprint is not None:
        query = query.where(K.refresh_digest.is_null() | (K.refresh_digest != fingerprint)
                            | (K.refresh_sent_at < now - REFRESH_AGAIN_AFTER))
    try:
        with write_transaction():
            return query.execute() == 1
    except DatabaseError as exc:  # a busy SQLite file: show the kept rows; a later view sends it
        log.warning("refresh of the kept match of user %s (%s) not marked: %s", user_id, purpose, exc)
        return False

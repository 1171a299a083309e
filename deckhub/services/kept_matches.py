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
match is worked out changes them too, so it is worked out again on the next view: a kept match is
never older than the lists it was read from.
"""
from __future__ import annotations

import hashlib
import json
import logging
from decimal import Decimal
from typing import Callable, Iterable

from peewee import DatabaseError

from deckhub.store import models
from deckhub.store.db import database, write_transaction

CHUNK = 500  # cards counted per statement
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


def kept(user_id: int, purpose: str, fingerprint: str, work_out: Callable[[], Iterable]) -> list:
    """The rows kept for (player, purpose) if they were worked out from `fingerprint`; otherwise
    `work_out()`'s rows (plain values), kept for the next view. Keeping them is a convenience: when
    the database cannot take the write now (a busy SQLite file), the rows are returned all the same."""
    p = database.obj.param
    found = database.execute_sql(f'SELECT "digest", "rows" FROM "kept_match" WHERE "user_id" = {p} '
                                 f'AND "purpose" = {p}', (user_id, purpose)).fetchone()
    if found is not None and found[0] == fingerprint:
        return json.loads(found[1])
    rows = [[int(v) if isinstance(v, Decimal) else v for v in row] for row in work_out()]  # PostgreSQL's SUM
    text = json.dumps(rows, separators=(",", ":"))
    K = models.KeptMatch
    now = models.utcnow()
    try:
        with write_transaction():
            (K.insert(user=user_id, purpose=purpose, digest=fingerprint, rows=text, worked_out_at=now)
             .on_conflict(conflict_target=[K.user, K.purpose],
                          update={K.digest: fingerprint, K.rows: text, K.worked_out_at: now}).execute())
    except DatabaseError as exc:  # the rows are right; only keeping them failed
        log.warning("kept match of user %s (%s) not stored: %s", user_id, purpose, exc)
    return rows

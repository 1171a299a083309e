"""Counts of the whole site that pages show, kept as rows and changed with their inputs (no Flask).

- **Card demand** (`models.CardDemand`): per game and card, the decks holding it among their current
  cards and the goldfish games started with it; "most wanted" ranks unknown facts by them.
- **Public decks** (`models.PublicDeckCount`): a game's public decks, the public deck list's total.

Each change is made by the service that changes the input, inside its transaction (a deck's cards
in `decks.keep_current_cards`, its visibility and deletion in `decks`, a goldfish game's start and
deletion in `goldfish`), so a count is never behind its rows and no page counts the site. Counts
move by deltas in one statement per change, rows in a fixed order (game, card), so two transactions
changing the same cards wait for each other instead of deadlocking (card rows first, then public
decks: a transaction of many changes adds them up with `batched`). `recount` makes every count
again from the rows, for data written around the services (a benchmark's bulk fill).
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterable, Mapping

from peewee import EXCLUDED, fn

from deckhub.services import kept_matches, owned_sets
from deckhub.store import models
from deckhub.store.db import database, write_transaction

BATCH = 500  # rows written, or goldfish games read, at a time


def card_counts(data: dict) -> dict[str, int]:
    """Copies of each card over a stored version's sections; an entry without a card or copies counts nothing."""
    counts: dict[str, int] = {}
    for entries in ((data or {}).get("sections") or {}).values():
        for entry in entries or ():
            key, qty = entry.get("card"), int(entry.get("qty") or 0)
            if key and qty > 0:
                counts[key] = counts.get(key, 0) + qty
    return counts


def card_keys(data: Any) -> set[str]:
    """The cards of a stored deck (a version's or a goldfish game's) with at least one copy; an
    unreadable deck holds none."""
    try:
        return set(card_counts(data))
    except (AttributeError, TypeError, ValueError):
        return set()


_batch: ContextVar[dict | None] = ContextVar("tallies_batch", default=None)


@contextmanager
def batched():
    """Inside it (a transaction writing many decks and games, such as an account moved in) the
    changes are added up and written once at the end, cards first and then public decks, each in
    the one order every other change takes them: two transactions never wait on each other's rows
    in a circle."""
    if _batch.get() is not None:
        yield
        return
    pending: dict = {"cards": {}, "public": {}}
    token = _batch.set(pending)
    try:
        yield
    finally:
        _batch.reset(token)
    for game, deltas in sorted(pending["cards"].items()):
        _write_cards(game, deltas)
    for game, delta in sorted(pending["public"].items()):
        _write_public(game, delta)


def _shift(game: str, column: str, deltas: Mapping[str, int]) -> None:
    """Add each delta to the card's `column` count (a card not counted yet gets a row)."""
    pending = _batch.get()
    if pending is None:
        _write_cards(game, {key: (delta, 0) if column == "decks" else (0, delta) for key, delta in deltas.items()})
        return
    cards = pending["cards"].setdefault(game, {})
    for key, delta in deltas.items():
        decks, games = cards.get(key, (0, 0))
        cards[key] = (decks + delta, games) if column == "decks" else (decks, games + delta)


def _write_cards(game: str, deltas: Mapping[str, tuple[int, int]]) -> None:
    """One statement, rows in card order: every transaction locks the rows it shares in one order."""
    CD = models.CardDemand
    rows = [{"game": game, "card_key": key, "decks": d, "games": g} for key, (d, g) in sorted(deltas.items()) if d or g]
    for start in range(0, len(rows), BATCH):
        (CD.insert_many(rows[start:start + BATCH])
         .on_conflict(conflict_target=[CD.game, CD.card_key],
                      update={CD.decks: CD.decks + EXCLUDED.decks, CD.games: CD.games + EXCLUDED.games})
         .execute())


def deck_cards_changed(game: str, added: Iterable[str], removed: Iterable[str]) -> None:
    """A deck's current cards gained `added` and lost `removed` (call it in the transaction that
    changes its `DeckCard` rows)."""
    deltas = {key: 1 for key in added}
    for key in removed:
        deltas[key] = deltas.get(key, 0) - 1
    _shift(game, "decks", deltas)


def goldfish_games_changed(game: str, deck_data: Any, delta: int) -> None:
    """`delta` goldfish games of `deck_data` were started (positive) or deleted (negative)."""
    _shift(game, "games", {key: delta for key in card_keys(deck_data)})


def public_decks_changed(game: str, delta: int) -> None:
    """`delta` decks of `game` became public (made public, or made so), or stopped being (negative).
    Call it after the same transaction's card changes (the order every change takes the rows in)."""
    pending = _batch.get()
    if pending is not None:
        pending["public"][game] = pending["public"].get(game, 0) + delta
    elif delta:
        _write_public(game, delta)


def _write_public(game: str, delta: int) -> None:
    if not delta:
        return
    P = models.PublicDeckCount
    (P.insert(game=game, decks=delta)
     .on_conflict(conflict_target=[P.game], update={P.decks: P.decks + EXCLUDED.decks}).execute())


def card_demand(games: list[str]) -> dict[str, dict[str, tuple[int, int]]]:
    """Per game, (decks, games) of every card that some deck or goldfish game holds: at most one row
    per card of the catalogues, whatever the size of the site, in one statement for all `games`."""
    found: dict[str, dict[str, tuple[int, int]]] = {game: {} for game in games}
    if games:  # written out: most wanted asks on every view, for every game
        p = database.obj.param
        for game, key, decks, played in database.execute_sql(
                f'SELECT "game", "card_key", "decks", "games" FROM "{models.CardDemand._meta.table_name}" '
                f'WHERE "game" IN ({", ".join([p] * len(games))}) AND ("decks" > 0 OR "games" > 0)', games).fetchall():
            found[game][key] = (decks, played)
    return found


def public_decks(game: str | None = None) -> int:
    """The public decks of `game` (of every game when None): one row per game."""
    P = models.PublicDeckCount
    query = P.select(fn.COALESCE(fn.SUM(P.decks), 0))
    if game is not None:
        query = query.where(P.game == game)
    return int(query.scalar() or 0)


def recount() -> tuple[int, dict[str, int]]:
    """Every count made again from the rows (decks' card rows, goldfish games, public decks, players'
    sets), the card rows' copies of their deck's visibility and creation time, and no trade match kept, in one transaction: after data was
    written around the services, such as a benchmark's bulk fill or rows mended by hand (`deckhub db
    recount`). Returns the cards counted and each game's public decks."""
    D, DC, S = models.Deck, models.DeckCard, models.GoldfishSession
    counts: dict[tuple[str, str], list[int]] = {}
    with write_transaction():
        for game, key, decks in DC.select(DC.game, DC.card_key, fn.COUNT(DC.id)).group_by(DC.game, DC.card_key).tuples():
            counts[(game, key)] = [decks, 0]
        last = 0
        while True:
            rows = list(S.select(S.id, S.game, S.deck_data).where(S.id > last).order_by(S.id).limit(BATCH).tuples())
            for _, game, data in rows:
                for key in card_keys(data):
                    counts.setdefault((game, key), [0, 0])[1] += 1
            if len(rows) < BATCH:
                break
            last = rows[-1][0]
        models.CardDemand.delete().execute()
        rows = [{"game": g, "card_key": k, "decks": d, "games": n} for (g, k), (d, n) in sorted(counts.items())]
        for start in range(0, len(rows), BATCH):
            models.CardDemand.insert_many(rows[start:start + BATCH]).execute()
        models.PublicDeckCount.delete().execute()
        DC.update(is_public=D.select(D.is_public).where(D.id == DC.deck),  # the card rows' copies of their deck's
                  created_at=D.select(D.created_at).where(D.id == DC.deck)).execute()
        public = list(D.select(D.game, fn.COUNT(D.id)).where(D.is_public == True)  # noqa: E712 (SQL)
                      .group_by(D.game).tuples())
        if public:
            models.PublicDeckCount.insert_many([{"game": g, "decks": n} for g, n in public]).execute()
        kept_matches.forget_all()  # worked out again from the rows as they are now
        owned_sets.count_all()
    return len(rows), dict(public)

"""A deck against its owner's collection: the copies it needs, those owned, wanted and used by the
owner's other decks, and the button that puts what is missing on the want list."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, NamedTuple

from peewee import JOIN, Case, Select, fn

from deckhub.core.caches import LRU
from deckhub.core.cards import Catalogue
from deckhub.importers.collection_csv import MAX_QUANTITY
from deckhub.services import kept_matches, owned_sets
from deckhub.services.catalogue_store import stamp
from deckhub.services.decks import card_counts
from deckhub.services.collection import _ensure_rows, _uid, game_index, owned_for
from deckhub.store import models
from deckhub.store.db import PreparedSelect, database, write_transaction


USES_NAMED = 5  # of the viewer's other decks using a card, those the deck page names (all are counted)
USES_READ = 400  # rows of those uses read as they are; past that, the database counts them
OWNED_KEPT = 256  # what viewers own of a deck's cards, kept per worker (a deck's few dozen cards each)
DECKS_COUNTED = 50  # on a saved deck's page, the viewer's other decks of its game counted: the latest changed


class DeckUse(NamedTuple):
    """One of the user's other decks using a card (a tuple: the deck page makes one per card row)."""

    deck_id: int
    deck_name: str
    qty: int


@dataclass(frozen=True)
class CardUses:
    """A card in the user's other decks: the first USES_NAMED of them by name, and all counted."""

    named: tuple[DeckUse, ...]
    decks: int   # other decks using it
    copies: int  # copies of it over those decks


@dataclass
class NeedRow:
    """One card of a deck against the collection."""

    card_key: str
    name: str
    needed: int
    owned: int  # copies of any printing, foil or not
    wanted: int  # want-list copies over all its printings
    used_elsewhere: list[DeckUse] = field(default_factory=list)  # the first USES_NAMED other decks using it
    known: bool = True  # False when the deck names a card the catalogue does not have
    other_decks: int = 0  # the user's other decks using it, all of them
    in_other_decks: int = 0  # their copies of it
    latest_decks: int = 0  # when the user has more other decks than that: the latest changed counted (0: all)

    @property
    def missing(self) -> int:
        return max(0, self.needed - self.owned)

    @property
    def free(self) -> int:
        """Owned copies not already in another of the user's decks."""
        return max(0, self.owned - self.in_other_decks)

    @property
    def short_if_shared(self) -> int:
        """Copies to find if each of the user's decks is to be built at once."""
        return max(0, self.needed - self.free)


deck_counts = card_counts  # copies of each card across a stored deck's sections


def _owned_by_card(uid: int, game: str, keys: Iterable[str]) -> dict[str, tuple[int, int]]:
    keys = list(keys)
    if not keys:
        return {}
    O, P, C = models.OwnedCard, models.Printing, models.Card
    query = (O.select(C.key, fn.SUM(O.quantity + O.foil_quantity), fn.SUM(O.want_quantity))
             .join(P).join(C).where((O.owner == uid) & (C.game == game) & (C.key.in_(keys)))
             .group_by(C.key).tuples())
    return {key: (int(owned or 0), int(wanted or 0)) for key, owned, wanted in query}


def _owned_in_deck_query(uid: int, deck_id: int):
    # the user's rows are joined last (LEFT: no database may start from a whole collection), each
    # found by the (owner, printing) index from the deck's card rows, cards and printings
    O, P, C, DC = models.OwnedCard, models.Printing, models.Card, models.DeckCard
    return (DC.select(DC.card_key, fn.SUM(O.quantity + O.foil_quantity), fn.SUM(O.want_quantity))
            .join(C, on=((C.game == DC.game) & (C.key == DC.card_key)))
            .join(P, on=(P.card == C.id))
            .join(O, JOIN.LEFT_OUTER, on=((O.owner == uid) & (O.printing == P.id)))
            .where(DC.deck == deck_id)
            .group_by(DC.card_key).tuples())


# the deck page asks this of every signed-in viewer: its SQL is written once (see PreparedSelect)
_OWNED_IN_DECK = PreparedSelect(models.DeckCard, _owned_in_deck_query)


def _owned_in_deck(deck_id: int, uid: int) -> dict[str, tuple[int, int]]:
    """Owned and wanted copies of each of a saved deck's current cards (its `DeckCard` rows, through
    the card, printing and (owner, printing) indexes)."""
    return {key: (int(owned or 0), int(wanted or 0)) for key, owned, wanted in _OWNED_IN_DECK.raw(uid, deck_id)}


def _owned_in_saved_deck(deck_id: int, user, deck_stamp: tuple | None, game: str) -> dict[str, tuple[int, int]]:
    """`_owned_in_deck`, kept (read only) while the deck's cards (`deck_stamp`: `StoredDeck.stamp`),
    the game's catalogue and the user's collection (`owned_sets.kept_on`) are the same."""
    kept_on = None if deck_stamp is None else owned_sets.kept_on(user)
    if kept_on is None:
        return _owned_in_deck(deck_id, _uid(user))
    return _KEPT_OWNED.get_or_build((*kept_on, *deck_stamp, stamp(game)), lambda: _owned_in_deck(deck_id, user.id))


_KEPT_OWNED: LRU = LRU(OWNED_KEPT)


def _uses_query(uid: int, exclude_deck_id: int | None = None, game: str | None = None, read: int | None = None,
                counted: bool = False):
    """(deck id, deck name, card key, its copies there) of the user's decks using each card, by deck
    name: up to `read` rows, or with `counted` the first USES_NAMED decks a card, each row
    with the card's copies over all those decks and their number (window functions: however many
    decks a player keeps, a card brings a few rows and the database counts the rest; on SQLite they
    cost three times the plain statement, so they are asked only of a player past USES_READ rows)."""
    D, DC = models.Deck, models.DeckCard
    by_card = [DC.card_key]
    columns = [D.id.alias("deck_id"), D.name.alias("deck_name"), DC.card_key, DC.qty]
    if counted:
        columns += [fn.SUM(DC.qty).over(partition_by=by_card).alias("copies"),
                    fn.COUNT(DC.id).over(partition_by=by_card).alias("decks"),
                    fn.ROW_NUMBER().over(partition_by=by_card, order_by=[D.name, D.id]).alias("place")]
    uses = (DC.select(*columns).join(D, on=(DC.deck == D.id))
            .where(D.owner == uid))  # the owner's decks (by the owner index), then their card rows
    if exclude_deck_id is not None:
        uses = uses.where(D.id != exclude_deck_id)
    if game:
        uses = uses.where(D.game == game)
    if not counted:
        return uses.order_by(D.name, D.id).limit(read).tuples()
    u = uses.alias("uses").c
    return (Select((uses.alias("uses"),), (u.deck_id, u.deck_name, u.card_key, u.qty, u.copies, u.decks))
            .where(u.place <= USES_NAMED).order_by(u.deck_name, u.deck_id).bind(database).tuples())


_USES_BESIDE_SQL: dict[str, str] = {}  # per backend's parameter mark


def _uses_beside_sql() -> str:
    """The deck page's statement: the number of the user's other decks of the game (up to one past
    DECKS_COUNTED), and the rows of this deck's cards (by the (deck, card) index) in the latest
    changed DECKS_COUNTED of them (by the (owner, last change) index), by deck name; the count comes
    on a row of its own when none of them uses a card of this deck. However many decks a player
    keeps, the page reads a bounded number of them."""
    p = database.obj.param
    sql = _USES_BESIDE_SQL.get(p)
    if sql is None:
        latest = (f'SELECT n."id" FROM "deck" AS n WHERE n."owner_id" = {p} AND n."game" = {p} AND n."id" <> {p} '
                  f'ORDER BY n."updated_at" DESC, n."id" DESC LIMIT {p}')
        sql = _USES_BESIDE_SQL[p] = (
            f'SELECT s."decks", u."id", u."name", u."card_key", u."qty" '
            f'FROM (SELECT COUNT(*) AS "decks" FROM ({latest}) AS k) AS s LEFT JOIN ('
            'SELECT d."id", d."name", c."card_key", c."qty" FROM "deck_card" AS c '
            f'JOIN "deck" AS d ON d."id" = c."deck_id" WHERE d."id" IN ({latest}) '
            f'AND c."card_key" IN (SELECT a."card_key" FROM "deck_card" AS a WHERE a."deck_id" = {p})) AS u ON 1 = 1 '
            'ORDER BY u."name", u."id"')
    return sql


def copies_in_other_decks(user, exclude_deck_id: int | None = None,
                          game: str | None = None) -> tuple[dict[str, CardUses], bool]:
    """Card key -> the user's decks (their latest version) that use it, without `exclude_deck_id`,
    and whether only the latest changed DECKS_COUNTED decks were counted. Given that deck and its
    game (as deck_needs does), only that deck's cards are asked, of those latest decks: a player with
    thousands of decks has fifty of them read. Otherwise every deck is read (up to USES_READ
    rows; past that, counted by the database).

    Give `game`: card keys are unique within a game only."""
    uid = _uid(user)
    latest_only = False
    if exclude_deck_id is not None and game:
        found = database.execute_sql(_uses_beside_sql(), (uid, game, exclude_deck_id, DECKS_COUNTED + 1, uid, game,
                                                          exclude_deck_id, DECKS_COUNTED, exclude_deck_id)).fetchall()
        latest_only = found[0][0] > DECKS_COUNTED
        rows = [row[1:] for row in found if row[1] is not None]
    else:
        rows = list(_uses_query(uid, exclude_deck_id, game, read=USES_READ + 1))
        if len(rows) > USES_READ:
            rows = list(_uses_query(uid, exclude_deck_id, game, counted=True))
    named: dict[str, list[DeckUse]] = {}
    counted: dict[str, tuple[int, int]] = {}
    for deck_id, name, key, qty, *total in rows:  # by deck name: a card's first decks come first
        uses = named.setdefault(key, [])
        if len(uses) < USES_NAMED:
            uses.append(DeckUse(deck_id, name, qty))
        if total:  # counted by the database
            counted[key] = (int(total[1]), int(total[0]))
        else:
            decks, copies = counted.get(key, (0, 0))
            counted[key] = (decks + 1, copies + qty)
    return {key: CardUses(tuple(uses), *counted[key]) for key, uses in named.items()}, latest_only


def deck_needs(user, deck_data: dict, catalogue: Catalogue, deck_id: int | None = None,
               deck_stamp: tuple | None = None) -> list[NeedRow]:
    """Owned vs needed for every card of a deck (all sections together), in deck order.

    `deck_id` is the deck's own id when it is saved (and `deck_data` its latest version), so its
    copies are not counted as "in another deck" and its card rows find what the user owns of them;
    with its `deck_stamp` (`StoredDeck.stamp`), what the user owns of them is kept between views.
    """
    uid = _uid(user)
    game = deck_data.get("game") or catalogue.game
    totals = card_counts(deck_data)
    # a saved deck's cards are its current card rows (kept with its latest version, which it is given)
    owned = (_owned_in_saved_deck(deck_id, user, deck_stamp, game) if deck_id is not None and totals
             else _owned_by_card(uid, game, totals))
    elsewhere, latest_only = copies_in_other_decks(uid, deck_id, game) if totals else ({}, False)
    rows = []
    for key, needed in totals.items():
        card = catalogue.get(key)
        have, wanted = owned.get(key, (0, 0))
        uses = elsewhere.get(key)
        rows.append(NeedRow(key, card.display_name if card else key, needed, have, wanted,
                            list(uses.named) if uses else [], card is not None,
                            uses.decks if uses else 0, uses.copies if uses else 0,
                            DECKS_COUNTED if latest_only else 0))
    return rows


def missing_total(rows: Iterable[NeedRow]) -> int:
    return sum(r.missing for r in rows)


def add_missing_to_wants(user, deck_data: dict, catalogue: Catalogue, deck_id: int | None = None,
                         shared: bool = False) -> list[tuple[str, int, int]]:
    """Make the want list cover what the deck is missing; returns (card key, printing id, copies added).

    The want goes on the printing of the card the user already wants most, else its first printing.
    Clicking twice adds nothing more: each printing's want is raised to a target in SQL
    (`want = CASE WHEN want < t THEN t ELSE want END`), never incremented from a value read earlier.
    With `shared`, copies used by the user's other decks count as not owned.
    """
    uid = _uid(user)
    game = deck_data.get("game") or catalogue.game
    needs = [r for r in deck_needs(uid, deck_data, catalogue, deck_id)
             if r.known and (r.short_if_shared if shared else r.missing) > 0]
    if not needs:
        return []
    index = game_index(game)
    added = []
    W = models.OwnedCard.want_quantity
    with write_transaction():
        for row in needs:
            refs = index.by_card.get(row.card_key, [])
            if not refs:
                continue
            wants = {pid: o.want_quantity for pid, o in owned_for(uid, [r.id for r in refs]).items()}
            chosen = max(refs, key=lambda r: (wants.get(r.id, 0), -r.position)).id
            elsewhere = sum(w for pid, w in wants.items() if pid != chosen)
            target = min(MAX_QUANTITY, (row.short_if_shared if shared else row.missing) - elsewhere)
            if target <= wants.get(chosen, 0):
                continue
            _ensure_rows(uid, [chosen])
            (models.OwnedCard.update({W: Case(None, [(W < target, target)], W)})
             .where((models.OwnedCard.owner == uid) & (models.OwnedCard.printing == chosen)).execute())
            added.append((row.card_key, chosen, target - wants.get(chosen, 0)))
        kept_matches.lists_changed(uid, [pid for _, pid, _ in added])
        owned_sets.sets_changed(uid, [pid for _, pid, _ in added])
    return added

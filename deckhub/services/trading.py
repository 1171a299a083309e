"""Public want and trade lists (opt-in per user) and matching them, Deckbox-style (no Flask).

A user's want and trade quantities (`OwnedCard.want_quantity`, `trade_quantity`) stay private
until they opt in (a `PublicLists` row); only then do they appear on their public pages and in
anyone's matches. Matching is by card, whatever the printing: a want of one printing of a card
is met by a trade of any printing of it. Each match reads the cards wanted first, then only
the rows offering (or wanting) those cards' printings, through a partial index: never a query per
user or per card, never every owner of a card.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from peewee import SQL, Case, fn

from deckhub.store import models
from deckhub.core.paging import Paged
from deckhub.importers.collection_csv import ExportRow
from deckhub.store.db import write_transaction

KINDS = {"wants": "want_quantity", "trades": "trade_quantity"}
OTHER = {"want_quantity": "trade_quantity", "trade_quantity": "want_quantity"}
LIST_PER_PAGE = 100
MAX_MATCH_USERS = 50


# --------------------------------------------------------------------------- opting in

def lists_public(user) -> bool:
    uid = user if isinstance(user, int) else user.id
    return models.PublicLists.select().where(models.PublicLists.user == uid).exists()


def set_lists_public(user, public: bool) -> bool:
    """Show (or stop showing) the user's want and trade lists publicly; returns the new setting."""
    uid = user if isinstance(user, int) else user.id
    with write_transaction():
        if public:
            models.PublicLists.insert(user=uid).on_conflict_ignore().execute()
        else:
            models.PublicLists.delete().where(models.PublicLists.user == uid).execute()
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


def public_list(user: models.User, kind: str, page: int = 1, per_page: int = LIST_PER_PAGE) -> ListPage:
    """One page of a user's wants or trades ("wants"/"trades"), per printing, by game and card name."""
    column = _listed(KINDS[kind])
    O, P, C, S = models.OwnedCard, models.Printing, models.Card, models.CardSet
    query = (O.select(C.game, C.key, C.name, C.version, S.code, S.name, P.number, column)
             .join(P).join(C).switch(P).join(S)
             .where((O.owner == user.id) & (column > 0)))
    total = query.count()
    rows = (query.order_by(C.game, C.norm_name, C.version, S.position, P.number_sort, P.id)
            .paginate(page, per_page).tuples())
    return ListPage([ListRow(*r) for r in rows], total, page, per_page)


@dataclass
class MyListPage(Paged):
    """One page of my own want & trade rows (per printing, with what I have), for my list page."""

    rows: list[ExportRow]
    total: int
    page: int
    per_page: int


def my_list_page(user, page: int = 1, per_page: int = LIST_PER_PAGE) -> MyListPage:
    """My rows that want or offer a card, by game, set order and collector number: one page of
    them, read through my own rows only (the export's order, so pages never shuffle)."""
    uid = user if isinstance(user, int) else user.id
    O, P, C, S = models.OwnedCard, models.Printing, models.Card, models.CardSet
    query = (O.select(C.game, S.code, P.number, C.name, C.version, O.quantity, O.foil_quantity,
                      O.want_quantity, O.trade_quantity)
             .join(P).join(C).switch(P).join(S)
             .where((O.owner == uid) & ((O.want_quantity > 0) | (O.trade_quantity > 0))))
    total = query.count()
    rows = (query.order_by(C.game, S.position, S.code, P.number_sort, P.number, P.position, P.id)
            .paginate(page, per_page).tuples())
    return MyListPage([ExportRow(g, code, number or "", name, version or "", q, f, w, t)
                       for g, code, number, name, version, q, f, w, t in rows], total, page, per_page)


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

    @property
    def copies(self) -> int:
        return sum(c.copies for c in self.cards)


@dataclass
class Matches:
    users: list[Match]
    more: int = 0  # further matching users past MAX_MATCH_USERS


def _per_card(their_column: str, exclude_uid: int | None, mine):
    """Opted-in users' (not `exclude_uid`) copies in `their_column` of the cards of `mine` (a subquery
    of (card_id, copies): my copies of each card), summed per user and card, as a statement of
    (user_id, username, card id, their copies, my copies). It starts from my cards' printings, and
    the partial index of the rows offered (or wanted) per printing finds their owners: it never reads
    a printing's other owners, nor the site."""
    O, P, U = models.OwnedCard, models.Printing, models.User
    column = _listed(their_column)
    query = (mine.select_from(U.id.alias("user_id"), U.username.alias("username"), P.card.alias("card_id"),
                              fn.SUM(column).alias("theirs"), mine.c.copies.alias("mine"))
             .join(P, on=(P.card == mine.c.card_id)).join(O, on=(O.printing == P.id))
             .join(U, on=(O.owner == U.id)).join(models.PublicLists, on=(models.PublicLists.user == U.id))
             .where((getattr(O, their_column) > 0) & (column > 0)))
    if exclude_uid is not None:
        query = query.where(O.owner != exclude_uid)
    return query.group_by(U.id, U.username, P.card, mine.c.copies)


def _matches(their_column: str, exclude_uid: int | None, mine) -> Matches:
    """The users matched on the cards of `mine`, most cards first (then most copies, then name), in
    two statements: the users ranked and counted by the database, then the cards of the first
    MAX_MATCH_USERS only. What a page reads stays the size of what it shows, however many players
    trade the same cards."""
    per_card = _per_card(their_column, exclude_uid, mine).alias("per_card")
    pc = per_card.c
    least = Case(None, [(pc.theirs < pc.mine, pc.theirs)], pc.mine)
    cards, copies = fn.COUNT(pc.card_id), fn.SUM(least)
    ranked = list(per_card.select_from(pc.user_id, fn.COUNT(SQL("*")).over())
                  .group_by(pc.user_id, pc.username)
                  .order_by(cards.desc(), copies.desc(), fn.LOWER(pc.username), pc.user_id)
                  .limit(MAX_MATCH_USERS).tuples())
    if not ranked:
        return Matches([])
    C = models.Card
    rows = (per_card.select_from(pc.username, C.game, C.key, C.name, C.version, pc.theirs, pc.mine)
            .join(C, on=(C.id == pc.card_id)).where(pc.user_id.in_([uid for uid, _ in ranked])).tuples())
    return _grouped(rows, ranked[0][1])


def _grouped(rows: Iterable[tuple], matched: int) -> Matches:
    """(username, game, key, name, version, theirs, mine) rows of the first users -> users with most
    cards matched first; `matched` users in all."""
    by_user: dict[str, Match] = {}
    for username, game, key, name, version, theirs, mine in rows:
        by_user.setdefault(username, Match(username)).cards.append(
            MatchCard(game, key, name, version, int(mine), int(theirs)))
    users = sorted(by_user.values(), key=lambda m: (-len(m.cards), -m.copies, m.username.casefold()))
    for m in users:
        m.cards.sort(key=lambda c: (c.game, c.name.casefold(), c.version or ""))
    return Matches(users[:MAX_MATCH_USERS], max(0, matched - MAX_MATCH_USERS))


def match_my_list(user, kind: str) -> Matches:
    """"wants": opted-in users whose trade list holds cards I want; "trades": those who want cards I
    have for trade. Mine need not be public: only I see this. My copies per card (my rows, by the
    owner index) stay in the database, joined to their offers of those cards only."""
    uid = user if isinstance(user, int) else user.id
    my_column = KINDS[kind]
    O, P = models.OwnedCard.alias("mine_row"), models.Printing.alias("mine_printing")
    listed = _listed(my_column, O)
    mine = (O.select(P.card.alias("card_id"), fn.SUM(listed).alias("copies")).join(P, on=(O.printing == P.id))
            .where((O.owner == uid) & (listed > 0)).group_by(P.card).alias("mine"))
    return _matches(OTHER[my_column], uid, mine)


def who_has_cards(game: str, needed: dict[str, int], exclude_uid: int | None) -> Matches:
    """Opted-in users with these cards (key -> copies needed) on their trade list: a deck's missing cards."""
    needed = {k: n for k, n in needed.items() if n > 0}
    if not needed:
        return Matches([])
    C = models.Card.alias("needed_card")
    copies = Case(C.key, list(needed.items()), 0)
    mine = (C.select(C.id.alias("card_id"), copies.alias("copies"))
            .where((C.game == game) & C.key.in_(list(needed))).alias("mine"))
    return _matches("trade_quantity", exclude_uid, mine)


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
    uid = user if isinstance(user, int) else user.id
    return MyLists(lists_public(uid), match_my_list(uid, "wants"), match_my_list(uid, "trades"))

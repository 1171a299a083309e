"""Browsing everyone's public decks: by game, by a card they contain, by name; newest or most copied.

The web page (`GET /decks/public`) and the JSON API (`GET /api/v1/decks/public`) both call
`browse`, so they filter, sort and page alike. A private deck is never selected: the query
starts from `is_public` (the deck's, or the copy its card rows carry). A card filter is read with
the catalogue search (typos forgiven, as on the card search page) and matches a deck whose latest
version holds that card in any section. A page reads its deck ids through the (game,) public,
created or copies indexes (stepping over the earlier pages' index entries only, page 50 as page 1),
and a card filter's decks through the card rows' (game, card, public, created) index, so a page
costs its own decks however many hold the card; only then are the page's decks joined to their
owner and latest version. The total of an unfiltered list (or one game's) is the count the deck
service keeps (`tallies.public_decks`); a card filter's is counted along the same card index.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from peewee import fn

from deckhub.services import tallies
from deckhub.store import models
from deckhub.store.db import PreparedSelect
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.caches import LRU
from deckhub.core.cards import Card, normalize_name
from deckhub.core.paging import Paged
from deckhub.core.search import search_cards, search_games
from deckhub.games import all_games, get_game
from deckhub.services.limits import (MAX_DECK_QUERY as MAX_QUERY, MAX_PAGE, MAX_PUBLIC_DECKS_PER_PAGE as MAX_PER_PAGE,
                            PUBLIC_DECKS_PER_PAGE as PER_PAGE)

SORTS = {"newest": "newest first", "copied": "most copied first"}
MAX_CARD_MATCHES = 12  # cards of one name across games and versions a card filter may stand for
CARD_FILTERS_KEPT = 512  # card filters whose matches are kept until a catalogue they searched changes
_matched: LRU[tuple] = LRU(CARD_FILTERS_KEPT)  # (card, game) -> (the catalogues searched, the matches)


class BrowseError(ValueError):
    """A filter that cannot be used; the message says what to send instead."""


@dataclass
class PublicDeck:
    row: models.Deck
    owner: str
    version: int
    copies: int
    format_name: str = ""  # the deck's format as its game names it ("Standard")


@dataclass
class PublicDeckPage(Paged):
    decks: list[PublicDeck]
    total: int
    page: int
    per_page: int
    game: str | None = None
    card: str = ""
    q: str = ""
    sort: str = "newest"
    cards: list[Card] = field(default_factory=list)  # what the card filter was read as

    @property
    def filtered(self) -> bool:
        return bool(self.game or self.card or self.q)


def card_matches(card: str, game: str | None = None) -> list[Card]:
    """The cards a typed card name stands for: the best match of the catalogue search and every card
    of the same name (Huntik versions, the same name in other games when no game is chosen)."""
    card = (card or "").strip()[:MAX_QUERY]
    if not normalize_name(card):
        return []
    games = [get_game(game)] if game else list(all_games())
    catalogues = tuple(get_catalogue(g.slug) for g in games)
    kept = _matched.get((card, game))
    if kept is not None and len(kept[0]) == len(catalogues) and all(a is b for a, b in zip(kept[0], catalogues)):
        return list(kept[1])  # the same catalogues (objects, so another database never shares them)
    found = (search_cards(catalogues[0], games[0], card) if game
             else search_games(list(zip(games, catalogues)), card))
    best = normalize_name(found[0].name) if found else None
    matches = [c for c in found if normalize_name(c.name) == best][:MAX_CARD_MATCHES]
    _matched.put((card, game), (catalogues, tuple(matches)))
    return matches


def browse(game: str | None = None, card: str = "", q: str = "", sort: str = "newest",
           page: int = 1, per_page: int = PER_PAGE) -> PublicDeckPage:
    """One page of public decks matching every filter given; BrowseError for a filter that cannot be used."""
    game = (game or "").strip() or None
    if game is not None:
        try:
            game = get_game(game).slug
        except LookupError:
            raise BrowseError(f"There is no game {game[:40]!r}; the games are "
                              f"{', '.join(g.slug for g in all_games())}.") from None
    sort = (sort or "newest").strip()
    if sort not in SORTS:
        raise BrowseError(f"Sort by {' or '.join(SORTS)}, not {sort[:20]!r}.")
    if not 1 <= page <= MAX_PAGE or not 1 <= per_page <= MAX_PER_PAGE:
        raise BrowseError(f"page is a whole number from 1, per_page from 1 to {MAX_PER_PAGE}.")
    card, q = (card or "").strip()[:MAX_QUERY], " ".join((q or "").split())[:MAX_QUERY]
    out = PublicDeckPage([], 0, page, per_page, game, card, q, sort)
    out.cards = card_matches(card, game) if card else []
    if card and not out.cards:
        return out

    by_game = _keys_by_game(out.cards)
    if q:  # a name filter is rare: its query is built as it comes (a typed % changes its SQL)
        out.total = models.Deck.select().where(_where(game, by_game, q)).count()
        rows = list(_page_of(sort, game, by_game, per_page, (page - 1) * per_page, q).objects())
    else:
        shape = (sort, game is not None, tuple(len(keys) for keys in by_game.values()))
        counter, pager = _PREPARED.get_or_build(shape, lambda: _prepared(*shape))
        values = [True, *([game] if game else []), *(v for g, keys in by_game.items() for v in (g, *keys))]
        # unfiltered (or by game only) the total is the kept count: no page counts the site's public decks
        out.total = counter.all(*values)[0][0] if out.cards else tallies.public_decks(game)
        rows = pager.all(*values, per_page, (page - 1) * per_page)
    format_names: dict[tuple[str, str], str] = {}  # a page's decks share a few formats: each looked up once
    out.decks = [PublicDeck(r, r.username, r.latest or 0, r.copies, _format_name(format_names, r.game, r.format))
                 for r in rows]
    return out


def _format_name(names: dict[tuple[str, str], str], game: str, fmt: str) -> str:
    """The name of a deck's format (its stored id if its game no longer has it), kept in `names`."""
    name = names.get((game, fmt))
    if name is None:
        try:
            name = get_game(game).format(fmt).name
        except LookupError:
            name = fmt
        names[(game, fmt)] = name
    return name


PREPARED_SHAPES = 64  # filter shapes (game or not, cards per game, sort) whose SQL is kept
_PREPARED: LRU[tuple] = LRU(PREPARED_SHAPES)


def _prepared(sort: str, with_game: bool, key_counts: tuple[int, ...]) -> tuple[PreparedSelect, PreparedSelect]:
    """The count and the page query of one filter shape, their SQL written once (see PreparedSelect),
    bound to [True, the game if any, each card game's name and its keys..., then a page's per_page, offset]."""

    def filters(values):
        it = iter(values[1:])  # [0]: is_public
        game = next(it) if with_game else None
        by_game = {}
        for n in key_counts:
            card_game = next(it)
            by_game[card_game] = [next(it) for _ in range(n)]
        return game, by_game, list(it)

    def count(*values):
        game, by_game, _ = filters(values)
        if by_game:
            DC = models.DeckCard
            return DC.select(fn.COUNT(DC.deck.distinct())).where(_holding(game, by_game)).tuples()
        return models.Deck.select(fn.COUNT(models.Deck.id)).where(_where(game, by_game)).tuples()

    def page(*values):
        game, by_game, (per_page, offset) = filters(values)
        if by_game and sort == "newest":
            return _newest_holding(game, by_game, per_page, offset).objects()
        return _page_of(sort, game, by_game, per_page, offset).objects()

    return PreparedSelect(models.Deck, count), PreparedSelect(models.Deck, page)


def _where(game: str | None, by_game: dict[str, list[str]], q: str = ""):
    """Public decks (of `game`, holding one of the cards `by_game`, named with `q`), binding values
    in the order `_prepared` lists them."""
    D, DC = models.Deck, models.DeckCard
    if by_game:
        # the public decks holding one of the cards, read from the card rows' (game, card, public)
        # index (each row carries its deck's game and visibility): as many rows as those decks,
        # never every public deck on the site
        condition = D.id.in_(DC.select(DC.deck).where(_holding(game, by_game)))
    else:
        condition = D.is_public == True  # noqa: E712 (a peewee expression)
        if game:
            condition &= D.game == game
    if q:
        condition &= D.name.contains(q)
    return condition


def _holding(game: str | None, by_game: dict[str, list[str]]):
    """A public deck's `DeckCard` row of one of the cards (of `game`), in the order the SQL binds values."""
    DC = models.DeckCard
    condition = DC.is_public == True  # noqa: E712 (a peewee expression)
    if game:
        condition &= DC.game == game
    return condition & _any_card(by_game)


def _newest_holding(game: str | None, by_game: dict[str, list[str]], per_page: int, offset: int):
    """A page of the public decks holding one of the cards, newest first: the page's deck ids read
    backwards along the card rows' (game, card, public, created, deck) index, then those decks."""
    D, DC = models.Deck, models.DeckCard
    ids = DC.select(DC.deck).where(_holding(game, by_game))
    if sum(len(keys) for keys in by_game.values()) > 1:
        ids = ids.group_by(DC.deck, DC.created_at)  # a deck holding two of the cards is one deck
    ids = ids.order_by(DC.created_at.desc(), DC.deck.desc()).limit(per_page).offset(offset)
    return _with_owner_and_latest().where(D.id.in_(ids)).order_by(D.created_at.desc(), D.id.desc())


def _with_owner_and_latest():
    D, U, V = models.Deck, models.User, models.DeckVersion
    latest = V.select(fn.MAX(V.number)).where(V.deck == D.id)
    return D.select(D, U.username, latest.alias("latest")).join(U, on=(D.owner == U.id))


def _page_of(sort: str, game: str | None, by_game: dict[str, list[str]], per_page: int, offset: int,
             q: str = ""):
    """A page of the decks, newest (or most copied) first: the page's deck ids read along the
    (game,) public, created (or copies) index, stepping over the earlier pages' index entries only,
    then those decks with their owner's name and latest version's number (by the (deck, number)
    index). A later page costs its own decks, not a join of every deck before it."""
    D = models.Deck
    order = [D.created_at.desc(), D.id.desc()]
    if sort == "copied":
        order = [D.copies.desc()] + order
    ids = D.select(D.id).where(_where(game, by_game, q)).order_by(*order).limit(per_page).offset(offset)
    return _with_owner_and_latest().where(D.id.in_(ids)).order_by(*order)


def _any_card(by_game: dict[str, list[str]]):
    """A `DeckCard` row of one of the cards (keys by game: keys are unique within a game)."""
    DC = models.DeckCard
    condition = None
    for game, keys in by_game.items():
        one = (DC.game == game) & DC.card_key.in_(keys)
        condition = one if condition is None else (condition | one)
    return condition


def _keys_by_game(cards: list[Card]) -> dict[str, list[str]]:
    by_game: dict[str, list[str]] = {}
    for c in cards:
        by_game.setdefault(c.game, []).append(c.key)
    return by_game


def copies_made(deck_id: int) -> int:
    """How many copies have been made of a deck (the count the browser sorts by, kept on the deck)."""
    row = models.Deck.select(models.Deck.copies).where(models.Deck.id == deck_id).first()
    return row.copies if row is not None else 0

"""Browsing everyone's public decks: by game, by a card they contain, by name; newest or most copied.

The web page (`GET /decks/public`) and the JSON API (`GET /api/v1/decks/public`) both call
`browse`, so they filter, sort and page alike. A private deck is never selected: the query
starts from `is_public`. A card filter is read with the catalogue search (typos forgiven, as on
the card search page) and matches a deck whose latest version holds that card in any section.
A page reads its own decks through the (game,) public, created or copies indexes, and a card
filter's newest decks through the card rows' (game, card, public, created) index; the total of an
unfiltered list (or one game's) is the count the deck service keeps (`tallies.public_decks`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from peewee import fn

from deckhub.services import tallies
from deckhub.store import models
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

    if out.cards and not q and sort == "newest":
        rows = _newest_holding(out, page, per_page)
    else:
        rows = _page_of_decks(out, game, q, sort, page, per_page)
    latest = _latest_numbers([r.id for r in rows])
    out.decks = [PublicDeck(r, r.username, latest.get(r.id, 0), r.copies) for r in rows]
    return out


def _decks_with_owners():
    D, U = models.Deck, models.User
    return (D.select(D, U.username).join(U, on=(D.owner == U.id))
            .where(D.is_public == True))  # noqa: E712 (a peewee expression)


def _page_of_decks(out: PublicDeckPage, game: str | None, q: str, sort: str, page: int, per_page: int) -> list:
    """A page of public decks through the deck indexes (by game, newest or most copied first); a card
    filter keeps the decks among the public decks holding one of its cards."""
    D, DC = models.Deck, models.DeckCard
    query = _decks_with_owners()
    if game:
        query = query.where(D.game == game)
    if q:
        query = query.where(D.name.contains(q))
    if out.cards:
        query = query.where(D.id.in_(DC.select(DC.deck).where(_any_card(out.cards) & (DC.is_public == True))))  # noqa: E712
    order = [D.created_at.desc(), D.id.desc()]
    if sort == "copied":
        order = [D.copies.desc()] + order
    # unfiltered (or by game only) the total is the kept count: no page counts the site's public decks
    out.total = query.count() if (q or out.cards) else tallies.public_decks(game)
    return list(query.order_by(*order).paginate(page, per_page).objects())


def _newest_holding(out: PublicDeckPage, page: int, per_page: int) -> list:
    """A page of the public decks holding one of the filter's cards, newest first, read from the card
    rows' (game, card, public, created) index: a page costs its own decks, however many hold the card."""
    D, DC = models.Deck, models.DeckCard
    holding = DC.select(DC.deck, DC.created_at).where(_any_card(out.cards) & (DC.is_public == True))  # noqa: E712
    if len(out.cards) > 1:
        holding = holding.distinct()  # a deck holding two of the cards is one deck
    out.total = holding.count()
    ids = [deck_id for deck_id, _ in holding.order_by(DC.created_at.desc(), DC.deck.desc())
           .paginate(page, per_page).tuples()]
    found = {r.id: r for r in _decks_with_owners().where(D.id.in_(ids)).objects()} if ids else {}
    return [found[i] for i in ids if i in found]


def _any_card(cards: list[Card]):
    """A `DeckCard` row of one of `cards` (each is a game's card: keys are unique within a game)."""
    DC = models.DeckCard
    condition = None
    for game, keys in _keys_by_game(cards).items():
        one = (DC.game == game) & DC.card_key.in_(keys)
        condition = one if condition is None else (condition | one)
    return condition


def _keys_by_game(cards: list[Card]) -> dict[str, list[str]]:
    by_game: dict[str, list[str]] = {}
    for c in cards:
        by_game.setdefault(c.game, []).append(c.key)
    return by_game


def _latest_numbers(deck_ids: list[int]) -> dict[int, int]:
    """The latest version number of each of a page's decks (the (deck, number) index answers it)."""
    if not deck_ids:
        return {}
    V = models.DeckVersion
    return dict(V.select(V.deck, fn.MAX(V.number)).where(V.deck.in_(deck_ids)).group_by(V.deck).tuples())


def copies_made(deck_id: int) -> int:
    """How many copies have been made of a deck (the count the browser sorts by, kept on the deck)."""
    row = models.Deck.select(models.Deck.copies).where(models.Deck.id == deck_id).first()
    return row.copies if row is not None else 0

"""Browsing everyone's public decks: by game, by a card they contain, by name; newest or most copied.

The web page (`GET /decks/public`) and the JSON API (`GET /api/v1/decks/public`) both call
`browse`, so they filter, sort and page alike. A private deck is never selected: the query
starts from `is_public`. A card filter is read with the catalogue search (typos forgiven, as on
the card search page) and matches a deck whose latest version holds that card in any section.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from peewee import JOIN, Cast, fn

from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.cards import Card, normalize_name
from deckhub.core.paging import Paged
from deckhub.core.search import search_cards, search_games
from deckhub.games import all_games, get_game
from deckhub.services.limits import (MAX_DECK_QUERY as MAX_QUERY, MAX_PAGE, MAX_PUBLIC_DECKS_PER_PAGE as MAX_PER_PAGE,
                            PUBLIC_DECKS_PER_PAGE as PER_PAGE)

SORTS = {"newest": "newest first", "copied": "most copied first"}
MAX_CARD_MATCHES = 12  # cards of one name across games and versions a card filter may stand for


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
    found = (search_cards(get_catalogue(games[0].slug), games[0], card) if game
             else search_games([(g, get_catalogue(g.slug)) for g in games], card))
    if not found:
        return []
    best = normalize_name(found[0].name)
    return [c for c in found if normalize_name(c.name) == best][:MAX_CARD_MATCHES]


def _contains(data_field, card: Card):
    """A deck version's stored JSON holds this card in one of its sections (`{"card":"<key>",...}`)."""
    text = Cast(data_field, "TEXT")  # the text itself: a JSON field would encode the pattern as JSON
    return (models.Deck.game == card.game) & text.contains('"card":' + json.dumps(card.key, ensure_ascii=False))


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

    D, V, U, C = models.Deck, models.DeckVersion, models.User, models.DeckCopy
    newest = V.select(fn.MAX(V.number)).where(V.deck == D.id)
    copies = C.select(C.source.alias("deck_id"), fn.COUNT(C.id).alias("n")).group_by(C.source).alias("copies")
    n_copies = fn.COALESCE(copies.c.n, 0)
    query = (D.select(D, U.username, V.number.alias("latest"), n_copies.alias("n_copies"))
             .join(U, on=(D.owner == U.id))
             .switch(D).join(V, on=((V.deck == D.id) & (V.number == newest)))
             .switch(D).join(copies, JOIN.LEFT_OUTER, on=(copies.c.deck_id == D.id))
             .where(D.is_public == True))  # noqa: E712 (a peewee expression)
    if game:
        query = query.where(D.game == game)
    if q:
        query = query.where(D.name.contains(q))
    if out.cards:
        condition = _contains(V.data, out.cards[0])
        for c in out.cards[1:]:
            condition |= _contains(V.data, c)
        query = query.where(condition)
    order = [D.created_at.desc(), D.id.desc()]
    if sort == "copied":
        order = [n_copies.desc()] + order
    out.total = query.count()
    rows = query.order_by(*order).paginate(page, per_page).objects()
    out.decks = [PublicDeck(r, r.username, r.latest, int(r.n_copies or 0)) for r in rows]
    return out


def copies_made(deck_id: int) -> int:
    """How many copies have been made of a deck (the count the browser sorts by)."""
    return models.DeckCopy.select().where(models.DeckCopy.source == deck_id).count()

"""Finding the thing a URL names, or answering 404: one place for "a deck visible to you, or 404"
and one for "a game DeckHub has, or 404".

The 404 is a page in the browser and `{"error", "status"}` under /api/ (the app's error handler
decides), so the pages and the JSON API share these.
"""
from __future__ import annotations

from flask import abort
from flask_login import current_user

from deckhub.services import decks as store
from deckhub.games import GameSpec, UnknownGame, all_games, get_game

NOT_VISIBLE = "No deck with that number is visible to you. Private decks are seen by their owner only."
NOT_YOURS = "No deck of yours has that number."


def deck_or_404(deck_id: int, mine: bool = False) -> store.StoredDeck:
    """The deck with its latest version if the current user may read it (or, with `mine`, owns it)."""
    stored = (store.own_deck if mine else store.visible_deck)(deck_id, current_user)
    if stored is None:
        abort(404, NOT_YOURS if mine else NOT_VISIBLE)
    return stored


def game_or_404(slug: str | None) -> GameSpec:
    """The game `slug` names, or a 404 naming the games there are. Naming none at all (an empty or
    missing `?game=`) is a 400: the request left out what it must say, rather than naming nothing."""
    known = ", ".join(f"{g.name} ({g.slug})" for g in all_games())
    if not slug:
        abort(400, description=f"Say which game: one of {known}.")
    try:
        return get_game(slug)
    except UnknownGame:
        abort(404, description=f"DeckHub has no game called “{slug[:80]}”. The games are: {known}.")

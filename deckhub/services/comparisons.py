"""Two decks of one game compared on the same seeds, for the statistics tab's comparison page.

The first deck is one the user may read; the second is any deck of theirs or any public deck of the
same game (by number). Both play with the user's own card values on the game's default goldfish
settings. The games played in a page request are bounded (`MAX_PAGE_GAMES`); `deckhub compare`
plays as many as asked.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckhub.core.compare import compare
from deckhub.core.decklist import Deck
from deckhub.core.engine import EngineError, find_engine
from deckhub.core.tuning import TuningError
from deckhub.services import card_values
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.decks import StoredDeck, user_decks, visible_deck

MAX_PAGE_GAMES = 500
DEFAULT_PAGE_GAMES = 200


@dataclass
class Comparison:
    stored: StoredDeck
    choices: list[tuple[int, str]] = field(default_factory=list)  # (deck number, name): the user's decks of the game
    other: StoredDeck | None = None
    result: dict[str, Any] | None = None
    problem: str | None = None


def compare_page(user, deck_id: int, other_id: int | None, games: int, seed: int) -> Comparison | None:
    """The comparison of deck `deck_id` with `other_id` (None: nothing compared yet), or None when the
    user may not read the first deck."""
    stored = visible_deck(deck_id, user)
    if stored is None:
        return None
    game = stored.row.game
    mine = user_decks(user) if getattr(user, "is_authenticated", False) else []
    page = Comparison(stored, [(row.id, row.name) for row, _n in mine if row.game == game and row.id != deck_id])
    if other_id is None:
        return page
    other = visible_deck(other_id, user)
    if other is None or other.row.game != game:
        page.problem = "There is no deck of yours, nor a public deck, of this game with that number."
        return page
    if not 2 <= games <= MAX_PAGE_GAMES:
        page.problem = f"A comparison here plays 2 to {MAX_PAGE_GAMES} games of each deck (deckhub compare plays more)."
        return page
    page.other = other
    engine = find_engine(game)
    if engine is None:
        page.problem = "This game has no goldfish engine yet."
        return page
    catalogue = get_catalogue(game)
    deck_a, deck_b = Deck.from_json(stored.version.data), Deck.from_json(other.version.data)
    deck_a.name, deck_b.name = stored.row.name, other.row.name
    user_id = user.id if getattr(user, "is_authenticated", False) else None
    values = {**card_values.game_values(user_id, game, deck_b, None, catalogue),
              **card_values.game_values(user_id, game, deck_a, None, catalogue)}
    options = {"card_values": values} if values and engine.option("card_values") else {}
    try:
        page.result = compare(game, deck_a, deck_b, catalogue, games=games, seed=seed, options=options)
    except (TuningError, EngineError, ValueError) as exc:
        page.problem = str(exc)
    return page

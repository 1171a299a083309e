"""Every size and range limit that more than one front end enforces, defined once.

The web forms, the JSON API, the services and the OpenAPI document import these, so a limit
cannot say one thing in the document and do another in a view. No Flask, no peewee here.
"""
from __future__ import annotations

from deckhub.core.simulate import MAX_GAMES  # noqa: F401  games of one simulation (the engine's own bound)
from deckhub.core.tuning import MAX_BUDGET as MAX_TUNING_BUDGET  # noqa: F401  games of one tuning run

MAX_ID = 2**31 - 1          # ids and version numbers fit a 32-bit integer column (SQLite and PostgreSQL)
MAX_SEED = 2**31 - 1        # goldfish and simulation seeds
MAX_DECK_NAME = 120
MAX_DESCRIPTION = 5000      # a deck's notes
MAX_DECKLIST = 200_000      # characters of a pasted deck list (web form, POST /api/check, the API)
MAX_PACKS = 60              # packs of a Limited format
MAX_COPIES_PER_ENTRY = 999  # copies of one card in one section
MAX_DECK_ENTRIES = 1000     # distinct (section, card) entries of a deck sent whole
MAX_QUANTITY = 1_000_000    # any collection quantity
MAX_COLLECTION_CHANGES = 1000  # collection changes in one API request
MAX_BODY = 1024 * 1024      # bytes of any API request body
MAX_JSON_DEPTH = 32         # arrays and objects inside each other in a JSON body (the deepest DeckHub takes has 3)
MAX_CARD_KEY = 200          # characters of a card id sent to the API
MAX_NAME_FIELD = 80         # characters of a format id or a section name sent to the API
MAX_PAGE = 10**9 - 1        # page numbers of the API's listings
CARDS_PER_PAGE = 50         # card search: a page's cards unless asked otherwise (the app's PAGE_SIZE)
MAX_CARDS_PER_PAGE = 100    # card search: larger pages count as this many
ENTRIES_PER_PAGE = 100      # the API's collection: a page's entries unless asked otherwise
MAX_ENTRIES_PER_PAGE = 1000  # the API's collection: larger pages count as this many
MAX_OPTIONS_JSON = 20_000   # characters of a simulation's or tuning run's goldfish options, as JSON
DEFAULT_GAMES = 1000        # games of a simulation unless asked otherwise
DEFAULT_TUNING_BUDGET = 20_000  # games of a tuning run unless asked otherwise
PUBLIC_DECKS_PER_PAGE = 20   # the public deck list: a page's decks unless asked otherwise
MY_DECKS_PER_PAGE = 50      # my decks: a page's decks
MAX_PUBLIC_DECKS_PER_PAGE = 100  # the public deck list: the most decks a page may ask for
MAX_DECK_QUERY = 200        # characters of the public deck list's card or name filter
MAX_ACTIVE_RUNS = 3         # simulations and tuning runs of one user queued or running at once
MAX_OPPONENT = 200          # characters of a logged game's opponent (their deck, or game notes)
MAX_GAME_NOTE = 2000        # characters of a logged game's free note
MAX_PLAYED_GAMES = 5000     # real games logged on one deck
MAX_PROXY_CARDS = 540       # cards of one proxy sheet (60 pages)


def seed_problem(seed) -> str | None:
    """Why `seed` cannot seed a game, a simulation or a tuning run (None: it can). The services that
    take a seed ask this; the front ends only parse the number."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        return f"A seed is a whole number from 0 to {MAX_SEED:,}."
    return None


def int_in_range(text, low: int, high: int) -> int | None:
    """`text` as a whole number within [low, high], or None (not a number, or out of range)."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        value = text
    else:
        text = str(text or "").strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not digits or len(digits) > 12 or not (digits.isascii() and digits.isdecimal()):
            return None
        value = int(text)
    return value if low <= value <= high else None

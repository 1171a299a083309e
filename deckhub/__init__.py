"""DeckHub: collections, deck building, rules checks and goldfish playtesting for four card games.

Importing the package loads no Flask and no database: the pure core and the games can be used alone
(`deckhub.app.create_app` builds the site)."""
from __future__ import annotations

from pathlib import Path

from deckhub.core.engine import use_registry

use_registry("deckhub.games")  # the core finds engines and published decks through the games registry

__version__ = "0.1.0"

PACKAGE = Path(__file__).resolve().parent


def shipped_dir(name: str) -> Path:
    """A folder the repository keeps at its top (`templates`, `data`): an installed wheel carries it
    inside the package, a checkout (editable install, tests) has it beside the package."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else PACKAGE.parent / name

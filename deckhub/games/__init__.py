"""The game registry: every subpackage of `deckhub.games` that defines `GAME` is a game.

Adding a game means one package here and one folder under `data/`; nothing else lists games.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from deckhub.games.spec import GameSpec


class UnknownGame(LookupError):
    pass


@lru_cache(maxsize=None)
def _registry() -> dict[str, GameSpec]:
    games: dict[str, GameSpec] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        spec = getattr(module, "GAME", None)
        if isinstance(spec, GameSpec):
            games[spec.slug] = spec
    return games


def all_games() -> list[GameSpec]:
    return sorted(_registry().values(), key=lambda g: g.name)


def game_slugs() -> list[str]:
    return [g.slug for g in all_games()]


def get_game(slug: str) -> GameSpec:
    try:
        return _registry()[slug]
    except KeyError:
        raise UnknownGame(f"unknown game {slug!r}; known games: {', '.join(sorted(_registry()))}") from None

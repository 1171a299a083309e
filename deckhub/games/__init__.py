"""The game registry: every subpackage of `deckhub.games` that defines `GAME` is a game, and its
`engine` module (when it has one) defines its goldfish `ENGINE`.

Adding a game means one package here and one folder under `data/`; nothing else lists games.
The core asks this module for engines and published decks (`deckhub.core.engine.use_registry`).
A game package kept elsewhere (the tests' toy game) joins for a while with `extra_game`.
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from deckhub.core.spec import GameSpec

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.core.cards import Catalogue, CatalogueData
    from deckhub.core.decklist import Deck
    from deckhub.core.engine import Engine


class UnknownGame(LookupError):
    pass


# the packages of games kept outside this one (see `extra_game`)
_EXTRA: list[str] = []


@lru_cache(maxsize=None)
def _registry() -> dict[str, GameSpec]:
    names = [f"{__name__}.{info.name}" for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)
             if info.ispkg]
    games: dict[str, GameSpec] = {}
    for name in [*names, *_EXTRA]:
        spec = getattr(importlib.import_module(name), "GAME", None)
        if isinstance(spec, GameSpec):
            if spec.package != name:
                raise ValueError(f"{name}.GAME says it lives in {spec.package!r}: give it package=__name__")
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


@contextmanager
def extra_game(package: str, data: Path) -> Iterator[GameSpec]:
    """Register the game of a package kept outside `deckhub.games` (a test's toy game), with its
    data folder (what `data/<slug>/` is to a shipped game), while the block runs; when it ends the
    registry forgets the game and its engine, and the folder is no game's any more."""
    from deckhub.importers.catalogue import place_game_data

    spec = getattr(importlib.import_module(package), "GAME", None)
    if not isinstance(spec, GameSpec):
        raise ValueError(f"{package} defines no GAME")
    _EXTRA.append(package)
    place_game_data(spec.slug, Path(data))
    _forget()
    try:
        yield get_game(spec.slug)
    finally:
        _EXTRA.remove(package)
        place_game_data(spec.slug, None)
        _forget()


def _forget() -> None:
    _registry.cache_clear()
    _engine_of.cache_clear()
    _octgn_reader_of.cache_clear()


# --- engines and the game's own modules ----------------------------------------------------------

@lru_cache(maxsize=None)
def _engine_of(slug: str) -> "Engine | None":
    from deckhub.core.engine import Engine, EngineError

    spec = get_game(slug)
    module_name = spec.engine or f"{spec.package}.engine"
    if importlib.util.find_spec(module_name) is None:
        return None
    engine = getattr(importlib.import_module(module_name), "ENGINE", None)  # an import error inside it is raised
    if engine is not None and not isinstance(engine, Engine):
        raise EngineError(f"{module_name}.ENGINE is not an Engine")
    return engine


def find_engine(game: Any) -> "Engine | None":
    """The engine of a game (slug or GameSpec), or None when the game has none yet: a game package
    plugs in by holding `engine.py` with `ENGINE = Engine(...)`, or by naming another module in
    its GameSpec's `engine`."""
    return _engine_of(game if isinstance(game, str) else game.slug)


def engines() -> list["Engine"]:
    """Every registered game's engine (games without one are left out)."""
    return [e for e in (find_engine(g.slug) for g in all_games()) if e is not None]


def _own_module(spec: GameSpec, name: str) -> Any:
    module = f"{spec.package}.{name}"
    return importlib.import_module(module) if importlib.util.find_spec(module) is not None else None


def find_converter(spec: GameSpec) -> Any:
    """The game's raw-data converter (its package's `converter` module, with `build(shared, out)`
    returning the build's warnings), or None for a game whose catalogue is entered by players only."""
    return _own_module(spec, "converter")


def find_octgn_reader(spec: GameSpec) -> Any:
    """How the game reads a card of an OCTGN set file (its package's `octgn.read_card`, see
    `deckhub.importers.octgn_set`), or None for a game that has no OCTGN set files."""
    module = _own_module(spec, "octgn")
    return module.read_card if module is not None else None


def find_reading(spec: GameSpec) -> Any:
    """How the game says its compiled programs in plain words (its package's `reading` module, with
    `WORDS` and `compiler(catalogue)`), or None for a game without one."""
    return _own_module(spec, "reading")


@lru_cache(maxsize=None)
def _octgn_reader_of(slug: str) -> Any:
    return find_octgn_reader(get_game(slug))


# --- catalogues and published decks, from the data folders ---------------------------------------

def read_game_catalogue(slug: str, root: Path | None = None) -> "CatalogueData":
    """Every catalogue file of one game (from `root/<game>/` when given, else its data folder),
    joined. Raises CatalogueFileError on the first bad file."""
    from deckhub.importers.catalogue import game_folder, read_folder

    return read_folder(slug, root / slug if root else game_folder(slug), _octgn_reader_of(slug))


def load_catalogue(slug: str) -> "Catalogue":
    """The shipped catalogue of a game, straight from its data folder (no database): for the CLI and tests."""
    from deckhub.importers.catalogue import folder_catalogue, game_folder

    return folder_catalogue(slug, game_folder(slug), _octgn_reader_of(slug))


def published_decks(slug: str) -> list[tuple[str, "Deck"]]:
    """The decks shipped in `data/<game>/decks/` that read without errors, by file name."""
    from deckhub.importers.catalogue import game_folder
    from deckhub.importers.decklists import read_decklist

    folder = game_folder(slug) / "decks"
    if not folder.is_dir():
        return []
    spec, catalogue = get_game(slug), load_catalogue(slug)
    found = []
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        parsed = read_decklist(path.read_bytes(), spec, catalogue, filename=path.name, games=all_games())
        if parsed.ok and any(parsed.deck.sections.values()):
            found.append((path.name, parsed.deck))
    return found

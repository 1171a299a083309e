"""Shared back: a game's catalogue, contributions included, in the project's `data/` format.

`deckhub load-cards` reads what `export_cards` writes.
"""
from __future__ import annotations

from pathlib import Path

from deckhub.core import cards as core
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community.errors import CommunityError
from deckhub.services.community.fields import find_game


def export_catalogue(slug: str) -> core.CatalogueData:
    """A game's catalogue as it is in the database now (contributions included)."""
    game = find_game(slug)
    catalogue = get_catalogue(game.slug)
    sets = sorted(catalogue.sets.values(), key=lambda s: s.position)
    return core.CatalogueData(game.slug, list(sets), list(catalogue))


def export_path(root: Path, slug: str) -> Path:
    return Path(root) / slug / "cards.json"


def export_cards(slug: str, root: Path) -> tuple[Path, core.CatalogueData]:
    """Write `ROOT/<game>/cards.json` in the project's data/ format (`read_game_catalogue(game, ROOT)`
    and `DECKHUB_DATA_DIR=ROOT deckhub load-cards GAME` read it back).

    Refused when ROOT/<game> holds other catalogue files that load-cards would join to it (OCTGN
    set files, other *.json): their cards would be loaded twice."""
    from deckhub.importers.catalogue import write_catalogue_json

    game = find_game(slug)
    path = export_path(root, game.slug)
    folder = path.parent
    others = sorted(p.name for p in folder.glob("*.json") if p.name != path.name) if folder.is_dir() else []
    others += sorted(f"sets/{p.name}" for p in (folder / "sets").glob("*.xml")) if (folder / "sets").is_dir() else []
    if others:
        raise CommunityError(f"{folder} also holds {', '.join(others[:5])}{' ...' if len(others) > 5 else ''}, which "
                             "load-cards would read as well (cards twice): export to another folder.")
    data = export_catalogue(game.slug)
    write_catalogue_json(data, path)
    return path, data

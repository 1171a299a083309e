"""Loading the shipped catalogues (data/, or OCTGN set files) into the site's database.

`load-cards`, `db upgrade` and a site's first start load them here, each saying what it loaded
through `echo` (one line a game, or one line in all on a first start). A file with a bad record is
reported record by record, and nothing from it is written.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from deckhub.games import find_octgn_reader, game_slugs, get_game, read_game_catalogue
from deckhub.importers import CatalogueFileError
from deckhub.importers.catalogue import read_octgn_files
from deckhub.services.catalogue_store import catalogue_is_loaded, store_catalogue

Echo = Callable[..., None]


def _store(read, what, errors: Echo, warn: Echo | None = None):
    """Read one catalogue source and store it; on a bad record say every error to `errors`, store
    nothing, return None.

    `warn` gets each note on how the source was read (a number printed twice, a spelling kept as an
    alias); None keeps them quiet, since they are facts about the sources, not problems to fix."""
    try:
        data = read()
    except CatalogueFileError as exc:
        for err in exc.errors:
            errors(str(err))
        errors(f"{what}: not loaded (fix the records above); nothing from it was written")
        return None
    if warn:
        for warning in data.warnings:
            warn(f"warning: {warning}")
    return data, store_catalogue(data)


def notes_line(notes: int) -> str:
    return (f"{notes} note{'s' if notes != 1 else ''} on how the source data was read (e.g. a number printed "
            "for two cards), listed by `deckhub load-cards --verbose`")


def load_games(games: list[str], echo: Echo, verbose: bool = False, one_line: bool = False,
               errors: Echo | None = None) -> int:
    """Load each game's shipped catalogue; a bad file is reported (to `errors`, else `echo`) and
    nothing from it written. Returns the exit status (1 when a file was not loaded).

    A line per game and one line counting the notes on the sources (each note with `verbose`);
    `one_line` (a site's first start) says it all in one line."""
    status = notes = cards = 0
    names = []
    for slug in games:
        result = _store(lambda: read_game_catalogue(slug), slug, errors or echo, echo if verbose else None)
        if result is None:
            status = 1
            continue
        data, stored = result
        notes += len(data.warnings)
        cards += len(data.cards)
        names.append(get_game(slug).name)
        if not one_line:
            printings = sum(len(c.printings) for c in data.cards)
            echo(f"{slug}: {len(data.cards)} cards, {printings} printings, {len(data.sets)} sets"
                 f" ({stored.cards_added} cards added, {stored.cards_updated} updated, {stored.printings_added} printings added)")
    if one_line and names:
        echo(f"Loaded the catalogues of {', '.join(names)}: {cards:,} cards"
             + (f"; {notes_line(notes)}" if notes and not verbose else ""))
    elif notes and not verbose:
        echo(notes_line(notes))
    return status


def load_octgn(slug: str, paths: tuple[Path, ...], echo: Echo, errors: Echo, verbose: bool = False) -> int:
    """Load OCTGN set files into a game's catalogue, a line each; returns the exit status."""
    status = 0
    for path in paths:
        result = _store(lambda: read_octgn_files(slug, [path], find_octgn_reader(get_game(slug))), path, errors,
                        echo if verbose else None)
        if result is None:
            status = 1
            continue
        data, stored = result
        echo(f"{path.name}: {len(data.cards)} cards; {stored.cards_added} cards and "
             f"{stored.printings_added} printings added to {slug}")
        if data.warnings and not verbose:
            echo(notes_line(len(data.warnings)))
    return status


def ensure_catalogues(echo: Echo, errors: Echo | None = None) -> int:
    """Load every game whose catalogue is not in the database yet (first start of a site), in one
    line; returns the loading's exit status."""
    missing = [slug for slug in game_slugs() if not catalogue_is_loaded(slug)]
    return load_games(missing, echo, one_line=True, errors=errors) if missing else 0


def load_cards(games: list[str], octgn_files: tuple[Path, ...], echo: Echo, errors: Echo,
               verbose: bool = False) -> int:
    """`deckhub load-cards`: the OCTGN set files into the one game named, or else the shipped
    catalogues of `games`; returns the exit status."""
    if octgn_files:
        (game,) = games
        return load_octgn(game, octgn_files, echo, errors, verbose=verbose)
    return load_games(games, echo, verbose=verbose, errors=errors)


def build_data(shared: Path, out: Path | None = None) -> dict[str, list[str]]:
    """`deckhub build-data`: the raw card facts in `shared` converted into the project's data/
    catalogues (into `out`, default the shipped data folder); {game: warnings}."""
    from deckhub.importers.catalogue import data_root
    from deckhub.importers.sources import build_data as build
    return build(shared, out or data_root())

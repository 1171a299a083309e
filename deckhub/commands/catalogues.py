"""`deckhub load-cards` and `deckhub build-data`: the card catalogues, from their sources."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from deckhub.commands.site import open_app, say_error
from deckhub.games import all_games, find_octgn_reader, game_slugs


@click.command("load-cards")
@click.argument("game", required=False, type=click.Choice(game_slugs()))
@click.option("--octgn", "octgn_files", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Load an OCTGN set XML file (of the one game that has them, unless GAME says which).")
@click.option("--verbose", is_flag=True, help="Print each note on how the source data was read.")
def load_cards(game: str | None, octgn_files: tuple[Path, ...], verbose: bool) -> None:
    """(Re)load catalogues from data/ (running it twice changes nothing), or an OCTGN set file."""
    from deckhub.services.catalogue_loading import load_cards as load

    games = [game or _octgn_game()] if octgn_files else [game] if game else game_slugs()
    open_app()
    sys.exit(load(games, octgn_files, click.echo, say_error, verbose=verbose))


@click.command("build-data")
@click.argument("shared", type=click.Path(exists=True, file_okay=False, path_type=Path), default=Path("../shared/data"))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to write the catalogues (default: the project's data/).")
def build_data(shared: Path, out: Path | None) -> None:
    """Convert the raw card facts (../shared/data) into the project's data/ catalogues."""
    from deckhub.services.catalogue_loading import build_data as build
    for game, warnings in build(shared, out).items():
        click.echo(f"{game}: written" + (f" ({len(warnings)} warnings)" if warnings else ""))
        for w in warnings:
            click.echo(f"  warning: {w}")


def _octgn_game() -> str:
    """The game whose OCTGN set files `load-cards --octgn` reads when no GAME is named."""
    readers = [g.slug for g in all_games() if find_octgn_reader(g)]
    if len(readers) != 1:
        raise click.UsageError(f"name the GAME of the set files: {', '.join(readers) or 'no game'} reads them")
    return readers[0]

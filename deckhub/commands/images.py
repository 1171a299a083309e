"""`deckhub load-images GAME DIR`: a player's own card pictures become their cards' pictures.

    deckhub load-images GAME DIR [--user NAME] [--dry-run] [--json]

Files are matched by OCTGN card id (an OCTGN image pack), by set and number, or by card name (see
`deckhub.services.image_folder`); each matched one is checked as an uploaded scan and stored as its
printing's approved picture. Exit status: 0 stored (or nothing to store), 1 a matched file was
refused (nothing stored), 2 the folder, game or user cannot be used.
"""
from __future__ import annotations

import json
import sys

import click

from deckhub.commands.site import EXIT_REJECTED, EXIT_UNREADABLE, open_app, say_error
from deckhub.games import game_slugs


@click.command("load-images")
@click.argument("game", type=click.Choice(game_slugs()))
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--user", "username", help="Who the pictures are credited to (default: the site's first curator).")
@click.option("--dry-run", is_flag=True, help="Match and check every picture; store nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def load_images(game: str, folder: str, username: str | None, dry_run: bool, as_json: bool) -> None:
    """Load card pictures from FOLDER: files named by OCTGN card id (an image pack), by set and
    number (`first-edition/031.png`, `first-edition-31.png`) or by card name. Reports what matched
    and what did not; a refused file stores nothing."""
    from deckhub.services.accounts import NoSuchUser
    from deckhub.services.image_folder import ImageFolderError, load_images as load

    open_app()
    try:
        report = load(game, folder, username, dry_run=dry_run)
    except (ImageFolderError, NoSuchUser) as exc:
        say_error(f"error: {exc}")
        sys.exit(EXIT_UNREADABLE)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        for match in report.matched:
            click.echo(f"{match.path}: {match.card_name} ({match.set_code or 'no set'}, by {match.how})")
        for match in report.already:
            click.echo(f"{match.path}: {match.card_name} already has this picture")
        for miss in report.unmatched:
            click.echo(f"{miss.path}: not matched: {miss.reason}", err=True)
        for miss in report.refused:
            click.echo(f"{miss.path}: refused: {miss.reason}", err=True)
        if report.refused:
            outcome = "nothing was stored"
        elif dry_run:
            outcome = f"dry run: {len(report.matched)} would be stored"
        else:
            outcome = f"{report.stored} stored"
        click.echo(f"{len(report.matched)} matched, {len(report.already)} already loaded, "
                   f"{len(report.unmatched)} not matched, {len(report.refused)} refused; {outcome}")
    if report.refused:
        sys.exit(EXIT_REJECTED)

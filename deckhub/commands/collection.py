"""`deckhub collection import|export`: a user's collection as CSV, from the command line.

    deckhub collection import --user NAME [--dry-run] [--game SLUG] FILE.csv
    deckhub collection export --user NAME [--game SLUG] FILE.csv      (FILE may be `-`)

Import checks every row exactly as the web page does and writes the file in one transaction.
Exit status: 0 ok, 1 rows rejected (each reported as `FILE:LINE: problem` on standard error;
nothing written), 2 the file cannot be read (not UTF-8, broken CSV, no usable header), the user
does not exist, or the output cannot be written.
"""
from __future__ import annotations

import sys

import click

from deckhub.commands.site import EXIT_REJECTED, EXIT_UNREADABLE, open_app, read_input, say_error, write_output
from deckhub.games import game_slugs

@click.group("collection")
def collection() -> None:
    """Import and export a user's collection as CSV."""


@collection.command("import")
@click.option("--user", "username", required=True, help="Whose collection to change.")
@click.option("--dry-run", is_flag=True, help="Check the file and show what would change; write nothing.")
@click.option("--game", type=click.Choice(game_slugs()), default=None,
              help="The game of rows without a game column; rows of another game are refused.")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def import_command(username: str, dry_run: bool, game: str | None, file: str) -> None:
    """Set quantities from a CSV file (columns: game,set,number,name,version,quantity,foil_quantity,
    want_quantity,trade_quantity). Each row sets its printing's quantities; cards not in the file
    are left alone. All rows are checked first; if any has a problem nothing is written."""
    from deckhub.services import collection as service
    from deckhub.services.accounts import NoSuchUser

    data = read_input(file)
    name = "<stdin>" if file == "-" else file
    open_app()
    try:
        done = service.import_file(username, data, game, dry_run=dry_run)
    except NoSuchUser as exc:
        say_error(f"error: {exc}")
        sys.exit(EXIT_UNREADABLE)
    except service.CollectionFileError as exc:
        click.echo(f"{name}: {exc}", err=True)
        sys.exit(EXIT_UNREADABLE)
    except service.ImportRejected as exc:  # the catalogue changed between the check and the write
        click.echo(f"{name}: {exc}", err=True)
        sys.exit(EXIT_REJECTED)
    preview = done.preview
    for warning in preview.plan.warnings:
        click.echo(f"{name}: warning: {warning}", err=True)
    for row in preview.plan.problem_rows:
        for problem in row.problems:
            click.echo(f"{name}:{row.row.line}: {problem.kind}: {problem}", err=True)
    summary = (f"{len(preview.rows)} rows, {len(preview.plan.targets)} printings, "
               f"{preview.changed_count} to change ({preview.new_count} new)")
    if preview.trade_capped_note:
        click.echo(f"{name}: warning: {preview.trade_capped_note}", err=True)
    if not preview.ok:
        click.echo(f"{name}: {preview.problem_count} rows rejected; nothing was imported ({summary})", err=True)
        sys.exit(EXIT_REJECTED)
    if done.result is None:
        for row in preview.rows:
            change = preview.change_for(row)
            if change and change.changed:
                click.echo(f"{name}:{row.row.line}: {preview.label(row)}: {change.describe()}")
        click.echo(f"dry run: {summary}; nothing was written")
        return
    result = done.result
    click.echo(f"imported {name} for {done.user.username}: {result.rows} rows, {result.printings} printings, "
               f"{result.changed} changed ({result.seconds:.2f} s)")


@collection.command("export")
@click.option("--user", "username", required=True, help="Whose collection to export.")
@click.option("--game", type=click.Choice(game_slugs()), default=None, help="Only this game's cards.")
@click.argument("file", type=click.Path(dir_okay=False, writable=True, allow_dash=True))
def export_command(username: str, game: str | None, file: str) -> None:
    """Write the collection as CSV (`-` for standard output); `collection import` reads it back exactly."""
    from deckhub.services import collection as service
    from deckhub.services.accounts import NoSuchUser

    open_app()
    try:
        user, text, rows = service.export_file(username, game, bom=file != "-")
    except NoSuchUser as exc:
        say_error(f"error: {exc}")
        sys.exit(EXIT_UNREADABLE)
    if write_output(file, text):
        click.echo(f"exported {rows} rows of {user.username}'s collection to {file}", err=True)

"""`deckhub facts import|export`: card facts as CSV, from the command line.

    deckhub facts import --user NAME [--dry-run] FILE.csv      (FILE may be `-`)
    deckhub facts export GAME [--set CODE] FILE.csv              (FILE may be `-`)

Import checks every row exactly as the upload page does and stores one proposal per changed card,
all in one transaction (curators then review them). Exit status, as `deckhub collection import`:
0 ok, 1 rows rejected (each reported as `FILE:LINE: kind: problem` on standard error; nothing
written), 2 the file cannot be read (not UTF-8, broken CSV, unknown columns), the user does not
exist, or the output cannot be written.
"""
from __future__ import annotations

import sys

import click

from deckhub.commands.site import EXIT_REJECTED, EXIT_UNREADABLE, open_app, read_input, say_error, write_output
from deckhub.games import game_slugs


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@click.group("facts")
def facts() -> None:
    """Import and export card facts as CSV (imports become proposals for curators)."""


@facts.command("import")
@click.option("--user", "username", required=True, help="Who proposes the facts.")
@click.option("--dry-run", is_flag=True, help="Check the file and list every change and problem; write nothing.")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def import_command(username: str, dry_run: bool, file: str) -> None:
    """Propose card facts from a CSV file (columns: game,set,number,name,version, the game's fields,
    source). Each row with a value the catalogue lacks or differs from becomes a proposal with the
    row's source. All rows are checked first; if any has a problem nothing is written."""
    from deckhub.services import facts as service
    from deckhub.services.accounts import NoSuchUser

    data = read_input(file)
    name = "<stdin>" if file == "-" else file
    open_app()
    try:
        done = service.import_file(username, data, dry_run=dry_run)
    except NoSuchUser as exc:
        say_error(f"error: {exc}")
        sys.exit(EXIT_UNREADABLE)
    except service.FactsFileError as exc:
        click.echo(f"{name}: {exc}", err=True)
        sys.exit(EXIT_UNREADABLE)
    except service.ImportRejected as exc:
        click.echo(f"{name}: {exc}", err=True)
        sys.exit(EXIT_REJECTED)
    preview = done.preview
    for error in preview.errors:
        click.echo(f"{name}: {error}", err=True)
    for row in preview.problem_rows:
        for problem in row.problems:
            click.echo(f"{name}:{row.row.line}: {problem.kind}: {problem}", err=True)
    summary = (f"{_n(len(preview.rows), 'row')}, {_n(len(preview.changed_rows), 'card')} to propose, "
               f"{_n(preview.change_count, 'value')}")
    if dry_run:  # every change too, beside the problems
        for row in preview.changed_rows:
            changes = "; ".join(c.describe() for c in row.changes)
            click.echo(f"{name}:{row.row.line}: {row.label}: {changes} (source: {row.source})")
    if not preview.ok:
        click.echo(f"{name}: {_n(preview.problem_count, 'row')} rejected; nothing was proposed ({summary})", err=True)
        sys.exit(EXIT_REJECTED)
    if dry_run:
        click.echo(f"dry run: {summary}; nothing was written")
        return
    made = done.made
    if not made:
        click.echo(f"nothing to propose: every value in {name} is what the catalogue has already ({summary})")
        return
    first = f" (#{made[0].id}–#{made[-1].id})" if len(made) > 1 else f" (#{made[0].id})"
    click.echo(f"proposed {name} for {done.user.username}: {_n(len(made), 'proposal')}{first}, "
               f"{_n(preview.change_count, 'value')}, waiting for a curator")


@facts.command("export")
@click.argument("game", type=click.Choice(game_slugs()))
@click.argument("file", type=click.Path(dir_okay=False, writable=True, allow_dash=True))
@click.option("--set", "set_code", default=None, help="Only the cards of this set (its code).")
def export_command(game: str, file: str, set_code: str | None) -> None:
    """Write what the catalogue knows of GAME's cards as a facts CSV (`-`: standard output);
    `facts import` reads it back, proposing only the cells that were changed."""
    from deckhub.services import facts as service

    open_app()
    try:
        text, rows = service.export_file(game, set_code, bom=file != "-")
    except service.UnknownSet as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_UNREADABLE)
    if write_output(file, text):
        click.echo(f"exported {rows} {game} cards to {file}", err=True)

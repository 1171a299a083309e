"""`deckhub export-user`, `deckhub import-user` and `deckhub backup`: move and keep data safely."""
from __future__ import annotations

import json
import sys

import click


def _db():
    from deckhub.cli import open_app
    from deckhub.db import database
    open_app()
    return database


@click.command("export-user")
@click.argument("name")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def export_user(name: str, file: str) -> None:
    """Write a user's decks (with versions), collection and goldfish sessions to FILE.json."""
    from deckhub.backup import BackupError, export_user as export
    with _db().connection_context():
        try:
            doc = export(name)
        except BackupError as exc:
            raise click.ClickException(str(exc)) from None
    with click.open_file(file, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, ensure_ascii=False, indent=1)
    if file != "-":
        click.echo(f"{name}: {len(doc['decks'])} decks, {len(doc['collection'])} collection rows, "
                   f"{len(doc['goldfish_sessions'])} goldfish sessions written to {file}")


@click.command("import-user")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--as", "username", default=None, help="restore under another user name")
def import_user(file: str, username: str | None) -> None:
    """Restore a user written by export-user into this installation (all or nothing)."""
    from deckhub.backup import BackupError, import_user as restore
    try:
        with click.open_file(file, "r", encoding="utf-8-sig") as fh:
            doc = json.load(fh)
    except (OSError, ValueError) as exc:
        click.echo(f"error: cannot read {file}: {exc}", err=True)
        sys.exit(2)
    with _db().connection_context():
        try:
            user = restore(doc, username)
        except BackupError as exc:
            click.echo(f"error: {exc}; nothing was imported", err=True)
            sys.exit(1)
    click.echo(f"imported {user.username}")


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False))
def backup(file: str) -> None:
    """A consistent copy of the site's SQLite database, safe while the site runs."""
    from deckhub.backup import BackupError, backup_sqlite
    from deckhub.cli import open_app
    open_app(current_schema=False)  # any schema: the copy is of the file as it is, which stays untouched
    try:
        pages = backup_sqlite(file)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"backed up {pages} pages to {file}")

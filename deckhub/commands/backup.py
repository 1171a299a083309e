"""`deckhub export-user`, `deckhub import-user` and `deckhub backup`: move and keep data safely."""
from __future__ import annotations

import json
import os
import sys

import click

from deckhub.commands.site import open_app


@click.command("export-user")
@click.argument("name")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--with-password", is_flag=True,
              help="Keep the password hash in the file, so the user logs in with the same password after import.")
def export_user(name: str, file: str, with_password: bool) -> None:
    """Write everything a user owns to a new FILE.json, readable by its owner only (API tokens stay behind)."""
    from deckhub.services.backup import BackupError, export_user_file
    open_app()
    try:
        doc, left = export_user_file(name, with_password)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    if file == "-":
        json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
        return
    try:  # made with mode 0600: never readable by others, not even for a moment
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise click.ClickException(f"{file} exists; choose a new file") from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {file}: {exc.strerror}") from None
    with open(fd, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, ensure_ascii=False, indent=1)
    runs = sum(len(d["simulations"]) + len(d["tunings"]) for d in doc["decks"])
    click.echo(f"{name}: {len(doc['decks'])} decks, {len(doc['collection'])} collection rows, "
               f"{len(doc['goldfish_sessions'])} goldfish sessions, {runs} simulation and tuning runs, "
               f"{len(doc['card_values'])} card values, {len(doc['proposals'])} proposals written to {file}")
    if left:
        click.echo(f"{left} run(s) still queued or playing were left out; export again once they finish")
    if with_password:
        click.echo("the file holds the password hash: keep it as safe as the password")


@click.command("import-user")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--as", "username", default=None, help="restore under another user name")
def import_user(file: str, username: str | None) -> None:
    """Restore a user written by export-user into this installation (all or nothing)."""
    from deckhub.services.backup import BackupError, import_user as restore
    try:
        with click.open_file(file, "r", encoding="utf-8-sig") as fh:
            doc = json.load(fh)
    except (OSError, ValueError) as exc:
        click.echo(f"error: cannot read {file}: {exc}", err=True)
        sys.exit(2)
    open_app()
    try:
        user, lost_copies = restore(doc, username)
    except BackupError as exc:
        click.echo(f"error: {exc}; nothing was imported", err=True)
        sys.exit(1)
    click.echo(f"imported {user.username}")
    if lost_copies:
        click.echo(f"{lost_copies} record(s) of copies made of other users' decks were left out: those decks are not here")
    if not (doc.get("user") or {}).get("password_hash"):
        click.echo(f"{user.username} has no password here yet (the file was written without it) and cannot log in "
                   f"until you set one: deckhub user password {user.username}")


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False))
def backup(file: str) -> None:
    """A consistent copy of the site's SQLite database, safe while the site runs."""
    from deckhub.services.backup import BackupError, backup_sqlite
    open_app(current_schema=False)  # any schema: the copy is of the file as it is, which stays untouched
    try:
        pages = backup_sqlite(file)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"backed up {pages} pages to {file}")

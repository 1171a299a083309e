"""What the commands share: the site's app with its database, and the catalogue a command reads.

Every command opens the site the same way here, so no command imports the `deckhub` group that
assembles them (deckhub/cli.py) or another area's command module.
"""
from __future__ import annotations

import os
import sys

import click

from deckhub.app import ConfigurationError, create_app, default_instance_path


EXIT_REJECTED, EXIT_UNREADABLE = 1, 2  # a file's rows refused; a file, user or output that cannot be used


def say_error(line: str) -> None:
    """A service's error line, on standard error."""
    click.echo(line, err=True)


def write_output(file: str, text: str) -> bool:
    """Write a command's file, or standard output for `-`; True when it went to a file (the command
    then says what it wrote, on standard error). A file that cannot be written ends the command."""
    if file == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return False
    try:
        with open(file, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    except OSError as exc:
        say_error(f"{file}: cannot be written: {exc.strerror or exc}")
        sys.exit(EXIT_UNREADABLE)
    return True


def open_app(config=None, *, current_schema: bool = True):
    """The app with its database initialised and connected for the rest of the command's run
    (commands share the site's database; the connection closes when the command ends).

    With `current_schema` (every command but `serve`, `backup` and `db`) a database with schema
    steps pending stops the command with a message naming `deckhub db upgrade`: no command but
    that one (and `serve` on SQLite) changes the schema."""
    from deckhub.services.upgrades import UpgradeError, require_current
    from deckhub.store.db import database
    try:
        app = create_app(config)
    except ConfigurationError as exc:
        raise click.ClickException(str(exc)) from None
    if current_schema:
        try:
            require_current(database.obj)
        except UpgradeError as exc:
            raise click.ClickException(str(exc)) from None
    database.connect(reuse_if_open=True)
    command = click.get_current_context(silent=True)
    if command is not None:
        command.call_on_close(close_site)
    return app


def site_database():
    """The site's database itself (opened as `open_app` opens it, whatever its schema), for the
    commands that read or change the schema."""
    from deckhub.store.db import database
    open_app(current_schema=False)
    return database.obj


def site_database_url() -> str | None:
    """The site database of this machine: DATABASE_URL, or the default SQLite file in the instance
    folder if it exists; None when there is none (a command never creates one just to read cards)."""
    default_file = default_instance_path() / "deckhub.sqlite3"
    return os.environ.get("DATABASE_URL") or (f"sqlite:///{default_file}" if default_file.exists() else None)


def command_catalogue(game: str):
    """The catalogue a command-line tool reads: the site database's (with the community's approved
    facts) when this machine has a site database, else the shipped `data/` files."""
    from deckhub.services.catalogue_store import site_catalogue
    return site_catalogue(game, site_database_url())


def close_site() -> None:
    from deckhub.store.db import database
    if not database.is_closed():
        database.close()


def read_input(path: str) -> bytes:
    """The bytes of a file given on the command line (`-`: standard input), or exit 2."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        say_error(f"{path}: cannot be read: {exc.strerror or exc}")
        sys.exit(EXIT_UNREADABLE)

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


def open_app(config=None, *, current_schema: bool = True):
    """The app with its database initialised (commands share the site's database).

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
    return app


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


def open_site_user(username: str):
    """The site's database (as `deckhub serve` uses it), connected, and the named user, or exit 2."""
    from deckhub.services.accounts import find_user
    from deckhub.store.db import database

    open_app()
    database.connect(reuse_if_open=True)
    user = find_user(username)
    if user is None:
        say_error(f"error: there is no user named {username!r} (create one with `deckhub user add`)")
        sys.exit(EXIT_UNREADABLE)
    return user


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

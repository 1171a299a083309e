"""`deckhub db status` and `deckhub db upgrade`: see and apply the database's schema steps;
`deckhub db recount`: make the site's kept counts again from its rows."""
from __future__ import annotations

import json
import sys

import click

from deckhub.commands.site import open_app, say_error, site_database


@click.group("db")
def db() -> None:
    """See and upgrade the database's schema."""


@db.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print the status as one JSON object.")
def status(as_json: bool) -> None:
    """The schema steps applied and pending (exits 0 whenever the database answers)."""
    from deckhub.services.upgrades import UpgradeError, status as schema_status
    try:
        doc = schema_status(site_database())
    except UpgradeError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(doc))
        return
    applied, pending, legacy = doc["applied"], doc["pending"], doc["legacy_version"]
    click.echo(f"backend: {doc['backend']}")
    if legacy is not None:
        click.echo(f"made by the first schema runner, at its step {legacy}")
    click.echo(f"applied: {len(applied)} step{'s' if len(applied) != 1 else ''}")
    for name in pending:
        click.echo(f"pending: {name}")
    click.echo("current" if not pending else
               f"{len(pending)} step{'s' if len(pending) != 1 else ''} pending: run `deckhub db upgrade`")


@db.command("upgrade")
@click.option("--dry-run", is_flag=True, help="List the steps that would be applied; change nothing.")
def upgrade(dry_run: bool) -> None:
    """Apply the pending schema steps (SQLite: after a backup copy beside the database), then reload
    the shipped catalogues as `deckhub load-cards` does (contributed facts are kept)."""
    from deckhub.services.upgrades import UpgradeError, apply_upgrade
    try:
        sys.exit(apply_upgrade(site_database(), click.echo, dry_run=dry_run, errors=say_error))
    except UpgradeError as exc:
        raise click.ClickException(str(exc)) from None


@db.command("recount")
def recount() -> None:
    """Make the counts pages show (most wanted's decks and games per card, the public deck totals,
    players' sums per set) again from the rows, after rows were written or mended outside the site; the site keeps them
    itself, so this is never needed otherwise."""
    from deckhub.services import tallies

    open_app()
    cards, public = tallies.recount()
    click.echo(f"{cards} card{'s' if cards != 1 else ''} counted in decks and goldfish games")
    for game in sorted(public):
        click.echo(f"{game}: {public[game]} public deck{'s' if public[game] != 1 else ''}")

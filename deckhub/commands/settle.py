"""`deckhub settle-facts`: settle the disputes whose clear majority has held for a week.

The job queue does this every hour; a site that runs no worker (or wants it now) runs this
command, from cron for instance (`17 * * * * deckhub settle-facts`). Each field it settles is
printed and logged with the rule that applied it; nothing else changes. Exit status 0.
"""
from __future__ import annotations

import click

from deckhub.commands.site import open_app


@click.command("settle-facts")
def settle_facts() -> None:
    """Apply every disputed card fact whose leading value has held a clear majority (three or more
    independent players, none against) for a week, as the hourly job does."""
    from deckhub.services.community.agreement import settle_due

    open_app()
    settled = settle_due()
    for s in settled:
        click.echo(f"{s.game} {s.card_key}: {s.field} = {s.value!r} (rule: {s.rule})")
    click.echo(f"{len(settled)} disputed field{'s' if len(settled) != 1 else ''} settled")

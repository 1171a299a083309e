"""The `deckhub` command: serve the site, manage accounts and catalogues, check and play decks.

This module only assembles the group: each command lives in `deckhub/commands/` beside the area it
serves, and what commands share lives there too (`commands/site.py`) or in the services.
"""
from __future__ import annotations

import click

from deckhub.commands.backup import backup, export_user, import_user
from deckhub.commands.catalogues import build_data, load_cards
from deckhub.commands.check import check
from deckhub.commands.collection import collection
from deckhub.commands.db import db
from deckhub.commands.export_cards import export_cards
from deckhub.commands.export_deck import export_deck
from deckhub.commands.facts import facts
from deckhub.commands.goldfish import coverage, goldfish
from deckhub.commands.images import load_images
from deckhub.commands.serve import serve, worker
from deckhub.commands.settle import settle_facts
from deckhub.commands.simulate import simulate
from deckhub.commands.impact import impact
from deckhub.commands.compare import compare
from deckhub.commands.tune import tune
from deckhub.commands.users import user


@click.group(help=__doc__.split("\n\n")[0])
@click.version_option(package_name="deckhub")
def main() -> None:
    pass


for command in (serve, worker, user, load_cards, build_data, check, collection, goldfish, coverage, simulate, impact, compare, tune,
                export_user, import_user, backup, export_cards, export_deck, facts, db, load_images, settle_facts):
    main.add_command(command)

if __name__ == "__main__":
    main()

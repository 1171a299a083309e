"""`deckhub export-cards GAME DIR`: a game's catalogue as the site has it, contributions included.

Writes `DIR/<game>/cards.json` in the project's data/ format (the one `deckhub build-data` writes
and `deckhub load-cards` reads), so a community's reviewed facts can be committed back to `data/`
and shipped to everyone: `deckhub export-cards neopets-tcg data` rewrites data/neopets-tcg/cards.json,
and `DECKHUB_DATA_DIR=DIR deckhub load-cards GAME` loads an export on another site. Fields the
community contributed keep the provenance "contributed" and their sources.

A folder that also holds OCTGN set files or other catalogue files for the game is refused:
load-cards reads every file there, so the cards would be loaded twice (export Kaijudo elsewhere).
"""
from __future__ import annotations

from pathlib import Path

import click

from deckhub.commands.site import open_app
from deckhub.games import game_slugs


@click.command("export-cards")
@click.argument("game", type=click.Choice(game_slugs()))
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def export_cards(game: str, directory: Path) -> None:
    """Write GAME's catalogue, community contributions included, to DIRECTORY/GAME/cards.json."""
    from deckhub.services.community.errors import CommunityError
    from deckhub.services.community.export import export_cards as export

    open_app()
    try:
        path, data = export(game, directory)
    except CommunityError as exc:
        raise click.ClickException(str(exc)) from None
    contributed = sum(1 for c in data.cards if "contributed" in c.provenance.values())
    printings = sum(len(c.printings) for c in data.cards)
    click.echo(f"{game}: {len(data.cards)} cards, {printings} printings, {len(data.sets)} sets "
               f"({contributed} cards with contributed facts) written to {path}")

"""`deckhub export-deck --format F ID FILE`: a deck of this site written for another site or an
online table, as the deck page's export links and `GET /api/decks/ID/export` write it."""
from __future__ import annotations

from pathlib import Path

import click

from deckhub.commands.site import open_app
from deckhub.services.table_exports import FORMATS, ExportError


@click.command("export-deck")
@click.option("--format", "format_name", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text, o8d, json, untap (Untap's plain list) or tts (a Tabletop Simulator saved object).")
@click.option("--site", "site_root", metavar="URL",
              help="The site's address (https://deckhub.example/): where a tts object loads its card sheets.")
@click.argument("deck_id", type=click.IntRange(1))
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
def export_deck(format_name: str, site_root: str | None, deck_id: int, file: Path) -> None:
    """Write deck DECK_ID's latest version to FILE (- for standard output)."""
    from deckhub.services.table_exports import export_by_id

    open_app()
    try:
        fmt, body = export_by_id(deck_id, format_name, site_root)
    except ExportError as exc:
        raise click.ClickException(str(exc)) from None
    if str(file) == "-":
        click.echo(body, nl=False)
        return
    file.write_text(body, encoding="utf-8")
    click.echo(f"deck {deck_id} written to {file} ({fmt.label})", err=True)

"""A deck written for other sites and online tables (the deck page, the API and `deckhub export-deck`
all export through `export`), with the addresses of the Tabletop Simulator sprite sheets this site
serves for it."""
from __future__ import annotations

from deckhub.games import get_game
from deckhub.importers.deck_exports import EXPORTS, ExportError, ExportFormat, TableImages, export_deck
from deckhub.services import decks as deck_store
from deckhub.services.catalogue_store import get_catalogue
from deckhub.store import models

FORMATS = tuple(EXPORTS)  # what `deckhub export-deck --format` offers

# The routes of deckhub.web.table serve these. The owner's export adds `t`, the deck's link token, so
# Tabletop Simulator (which has no session) loads a private deck's pictures; a visitor's copy of a
# public deck goes without, and stops loading if the deck is made private.
SHEET_PATH = "decks/{deck}/tts/sheet-{n}.png?v={version}"
BACK_PATH = "decks/{deck}/tts/back.png?v={version}"


def table_images(site_root: str, stored: deck_store.StoredDeck, owner: bool) -> TableImages:
    """Where a Tabletop Simulator object of `stored`'s version finds its sheets on the site at
    `site_root` ("https://deckhub.example/"): the version is in the address, so an object saved
    before the deck changed keeps loading the cards it was made with."""
    root = site_root.rstrip("/") + "/"
    deck, version = stored.row.id, stored.version.number
    token = f"&t={stored.row.share_token}" if owner else ""
    return TableImages(lambda n: root + SHEET_PATH.format(deck=deck, n=n, version=version) + token,
                       root + BACK_PATH.format(deck=deck, version=version) + token)


def export(stored: deck_store.StoredDeck, format_name: str, site_root: str | None,
           owner: bool = True) -> tuple[ExportFormat, str]:
    """(the format, the deck's latest version written in it); ExportError for an unknown format, or
    for Tabletop Simulator without the address of the site serving its pictures. `owner`: the export
    is its owner's (or the operator's), whose picture addresses work while the deck is private."""
    spec = get_game(stored.row.game)
    deck = stored.deck
    images = table_images(site_root, stored, owner) if site_root else None
    return export_deck(deck, get_catalogue(spec.slug), spec, format_name, images)


def export_by_id(deck_id: int, format_name: str, site_root: str | None) -> tuple[ExportFormat, str]:
    """`deckhub export-deck`: any deck of this site, by its number (the operator's command)."""
    row = models.Deck.get_or_none(models.Deck.id == deck_id)
    if row is None:
        raise ExportError(f"There is no deck {deck_id}.")
    return export(deck_store.load(row), format_name, site_root)

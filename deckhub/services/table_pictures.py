"""A deck's cards as pictures for the table: the proxy sheet's PDF (real card size, nine a page,
crop marks) and the Tabletop Simulator sprite sheets and card back. Every card picture is the one
`card_images` gives (an approved scan or player's image, else the face drawn from its facts)."""
from __future__ import annotations

import io
import secrets

from fpdf import FPDF
from PIL import Image, ImageDraw

from deckhub.core import proxies
from deckhub.core.decklist import Deck
from deckhub.games import get_game
from deckhub.importers.deck_exports import SHEET_COLUMNS, SHEET_ROWS, tts_sheets
from deckhub.services import card_images
from deckhub.services import decks as deck_store
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.limits import MAX_PROXY_CARDS
from deckhub.store import models

PDF_CARD_PX = 500       # a card's width in the PDF: about 200 dpi at 63 mm
SHEET_CELL = (200, 280)  # a card on a sprite sheet (63:88), so a 10 × 7 sheet is 2000 × 1960 px
SHEETS_KEPT = 16        # sprite sheets (about a megabyte each) kept per catalogue version


class TableError(ValueError):
    """A sheet this deck cannot have (too many cards, no such sheet or version)."""


def proxy_cards(deck: Deck) -> list[str]:
    """Every copy of the deck's cards, section by section, in deck order (one proxy each); a
    TableError when there are more than MAX_PROXY_CARDS."""
    keys = [key for cards in deck.sections.values() for key, qty in cards.items() for _ in range(qty)]
    if len(keys) > MAX_PROXY_CARDS:
        raise TableError(f"A proxy sheet holds at most {MAX_PROXY_CARDS} cards; this deck has {len(keys)}.")
    return keys


def proxy_pdf(stored: deck_store.StoredDeck, paper: str) -> bytes:
    """The proxy sheet as a PDF on `paper` ("a4" or "letter"): one page per nine cards."""
    layout = proxies.sheet(paper)
    game = stored.row.game
    pictures: dict[str, Image.Image] = {}
    pdf = FPDF(unit="mm", format=(layout.width, layout.height))
    pdf.set_auto_page_break(False)
    pdf.set_title(f"{stored.row.name} · proxies")
    pdf.set_creator("DeckHub")
    pdf.set_line_width(0.2)
    for page in proxies.pages(proxy_cards(stored.deck)):
        pdf.add_page()
        for key, (x, y) in zip(page, layout.slots()):
            if key not in pictures:
                pictures[key] = card_images.raster(game, key, PDF_CARD_PX)
            pdf.image(pictures[key], x=x, y=y, w=proxies.CARD_W, h=proxies.CARD_H)
        for x1, y1, x2, y2 in layout.crop_marks():
            pdf.line(x1, y1, x2, y2)
    return bytes(pdf.output())


def shared_deck(deck_id: int, token: str) -> deck_store.StoredDeck | None:
    """The deck whose link token is `token` (the Tabletop Simulator export's picture addresses carry
    it, so a private deck's sheets load in the table without its owner's session), else None."""
    row = models.Deck.get_or_none(models.Deck.id == deck_id) if token else None
    if row is None or not secrets.compare_digest(row.share_token.encode(), token.encode()):
        return None
    return deck_store.load(row)


def _version_deck(stored: deck_store.StoredDeck, version: int | None) -> tuple[int, Deck]:
    if version is None:
        return stored.version.number, stored.deck
    row = deck_store.version(stored.row, version)
    if row is None:
        raise TableError(f"This deck has no version {version}.")
    return version, Deck.from_json(row.data)


def tts_sheet(stored: deck_store.StoredDeck, number: int, version: int | None = None) -> bytes:
    """Sprite sheet `number` (from 1) of the deck's `version` (None: the latest) as PNG: its distinct
    cards 10 to a row, in the order of the Tabletop Simulator export's card ids."""
    version, deck = _version_deck(stored, version)
    sheets = tts_sheets(deck)
    if not 1 <= number <= len(sheets):
        raise TableError(f"This deck's version {version} has {len(sheets)} sheet(s).")
    game = stored.row.game
    keys = tuple(sheets[number - 1])

    def build() -> bytes:
        width, height = SHEET_CELL
        img = Image.new("RGB", (width * SHEET_COLUMNS, height * SHEET_ROWS), "white")
        for i, key in enumerate(keys):
            face = card_images.raster(game, key, width)
            if face.size != SHEET_CELL:
                face = face.resize(SHEET_CELL, Image.Resampling.LANCZOS)
            img.paste(face, ((i % SHEET_COLUMNS) * width, (i // SHEET_COLUMNS) * height))
        return _png(img)

    return get_catalogue(game).memo_each("table.tts_sheet", keys, build, limit=SHEETS_KEPT)


def tts_back(game_slug: str) -> bytes:
    """A plain card back for the game's Tabletop Simulator decks (DeckHub has no card-back scans)."""
    def build() -> bytes:
        spec = get_game(game_slug)
        width, height = SHEET_CELL
        img = Image.new("RGB", SHEET_CELL, "#1d2433")
        draw = ImageDraw.Draw(img)
        draw.rounded_rectangle((8, 8, width - 9, height - 9), radius=12, outline="#c9d2e3", width=4)
        draw.text((width / 2, height / 2), spec.name, fill="#ffffff", anchor="mm")
        return _png(img)

    return get_catalogue(game_slug).memo(("table.tts_back",), build)


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()

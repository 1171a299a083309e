"""Each card's picture: its approved scan or loaded image if it has one, else its face drawn from
its facts (`deckhub.core.faces`).

`picture` is what pages show (the image's own bytes, or the drawn face as SVG) and `raster` the
same picture as pixels, for PDFs and sprite sheets. Both are kept on the game's catalogue (a
bounded family per catalogue version), which approving a scan or loading images replaces, so a
new picture shows at once and an unchanged one is drawn once.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from deckhub.core import faces
from deckhub.core.cards import Card, Catalogue
from deckhub.games import UnknownGame, get_game
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.scans import CardImage, card_images, pick_image
from deckhub.store import models

SIZES = {"card": 250, "thumb": 125}   # the drawn face's width in CSS pixels
THUMB_SCAN_WIDTH = 250                # a scan's thumbnail (sharp at twice the thumb's width)
MAX_RASTER_WIDTH = 2000               # as large as a stored scan may be
PICTURES_KEPT = 2048                  # drawn faces and scan thumbnails (a few kB each) per catalogue version
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


class NoSuchPicture(LookupError):
    """No game or card by that name; the message says which, for the page."""


@dataclass(frozen=True)
class Picture:
    """A picture's bytes and type; `stamp` is the catalogue version it was made from (caches key on it)."""

    content_type: str
    body: bytes
    stamp: int = 0


def _card(game_slug: str, card_key: str) -> tuple[Catalogue, Card]:
    try:
        game = get_game(game_slug)
    except UnknownGame:
        raise NoSuchPicture(f"There is no game called {game_slug[:80]!r}.") from None
    catalogue = get_catalogue(game.slug)
    card = catalogue.get(card_key)
    if card is None:
        raise NoSuchPicture(f"{game.name} has no card with the id {card_key[:120]!r}.")
    return catalogue, card


def face_of(catalogue: Catalogue, card: Card, size: str = "card", set_code: str | None = None) -> faces.Face:
    """The drawn face of a card of `catalogue`, in its game's colours."""
    game = get_game(catalogue.game)
    return faces.layout(card, game.face, game.extras.get("colours"), catalogue.sets, size, set_code)


def _image(catalogue: Catalogue, card: Card, set_code: str | None) -> CardImage | None:
    """The card's approved picture (its newest), or with `set_code` that printing's own only: a
    printing without one shows its own drawn face, with its own set and number."""
    images = card_images(catalogue.game).get(card.key)
    if set_code is None:
        return pick_image(images)
    return next((i for i in images or () if i.set_code == set_code), None)


def _scan_bytes(image: CardImage) -> tuple[str, bytes]:
    row = models.Scan.select(models.Scan.mime, models.Scan.data).where(models.Scan.id == image.scan_id).get()
    return row.mime, bytes(row.data)


def picture(game_slug: str, card_key: str, size: str = "card", set_code: str | None = None) -> Picture:
    """The picture of a card (of its printing in `set_code`): the approved scan or loaded image, a
    thumbnail of it for "thumb", else the drawn face as SVG."""
    if size not in SIZES:
        raise ValueError(f"size is one of {', '.join(SIZES)}")
    catalogue, card = _card(game_slug, card_key)
    stamp = getattr(catalogue, "stamp", 0)
    image = _image(catalogue, card, set_code)
    if image is not None and (size == "card" or image.width <= THUMB_SCAN_WIDTH):
        return Picture(*_scan_bytes(image), stamp)  # read as sent: a scan is too large to keep in memory

    def build() -> Picture:
        if image is None:
            svg = faces.to_svg(face_of(catalogue, card, size, set_code), SIZES[size])
            return Picture("image/svg+xml", svg.encode("utf-8"), stamp)
        mime, body = _scan_bytes(image)
        return Picture(*_encoded(_scaled(_decoded(body), THUMB_SCAN_WIDTH), mime), stamp)

    return catalogue.memo_each("card_images.picture", (card.key, size, set_code), build, limit=PICTURES_KEPT)


def raster(game_slug: str, card_key: str, width_px: int, set_code: str | None = None) -> Image.Image:
    """The card's picture as an RGB image `width_px` wide (a scan scaled, or the face drawn; a
    face is drawn in milliseconds, so none is kept: a sheet of every card would fill the memory)."""
    if not 1 <= width_px <= MAX_RASTER_WIDTH:
        raise ValueError(f"width_px is between 1 and {MAX_RASTER_WIDTH}")
    catalogue, card = _card(game_slug, card_key)
    image = _image(catalogue, card, set_code)
    if image is not None:
        return _scaled(_decoded(_scan_bytes(image)[1]), width_px)
    return draw(face_of(catalogue, card, "card" if width_px >= 160 else "thumb", set_code), width_px)


def _decoded(body: bytes) -> Image.Image:
    with Image.open(io.BytesIO(body)) as img:  # stored scans went through scans.clean_image
        img.load()
        return img.convert("RGB")


def _scaled(img: Image.Image, width_px: int) -> Image.Image:
    height = max(1, round(img.height * width_px / img.width))
    return img.resize((width_px, height), Image.Resampling.LANCZOS)


def _encoded(img: Image.Image, mime: str) -> tuple[str, bytes]:
    kind = {"image/png": "PNG", "image/webp": "WEBP"}.get(mime, "JPEG")
    out = io.BytesIO()
    img.save(out, kind, **({"quality": 85} if kind != "PNG" else {"optimize": True}))
    return mime if kind != "JPEG" else "image/jpeg", out.getvalue()


@lru_cache(maxsize=64)
def _font(bold: bool, size_px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans where the system has it (as the SVG asks for), else Pillow's own scalable font."""
    try:
        return ImageFont.truetype(FONT_FILES[bold], size_px)
    except OSError:
        return ImageFont.load_default(size=size_px)


def draw(face: faces.Face, width_px: int) -> Image.Image:
    """The face as pixels: the same boxes and texts the SVG writes, scaled to `width_px`."""
    factor, height_px = faces.scaled(face, width_px)
    img = Image.new("RGB", (width_px, height_px), "white")
    pen = ImageDraw.Draw(img)
    for item in face.items:
        if isinstance(item, faces.Box):
            box = (item.x * factor, item.y * factor, (item.x + item.w) * factor - 1, (item.y + item.h) * factor - 1)
            pen.rounded_rectangle(box, radius=item.radius * factor, fill=item.fill, outline=item.stroke,
                                  width=max(1, round(1.5 * factor)) if item.stroke else 0)
            continue
        font = _font(item.bold, max(6, round(item.size * factor)))
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}[item.anchor]
        for i, line in enumerate(item.lines):
            y = (item.y + i * item.size * 1.2) * factor
            pen.text((item.x * factor, y), line, fill=item.colour, font=font, anchor=anchor)
    return img

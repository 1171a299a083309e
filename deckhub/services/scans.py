"""Card scans: photos of a card sent as evidence with a proposal, and the approved ones as images.

`clean_image` is the only door an uploaded file goes through: it must be a JPEG, PNG or WebP of
at most MAX_BYTES and MAX_PIXELS; it is decoded and re-encoded in its own format with Pillow, so
what is stored holds pixels only (no EXIF, GPS, comments or colour profiles, and no bytes the
browser could take for something other than an image). Pillow's own decompression-bomb guard is
set to the same pixel limit, and its warning is treated as a refusal.

Decoding is the expensive part, so it comes last: `check_image` reads only the file's header
(format and size, no pixels) and callers run it with their other checks; `clean_image` decodes
only once those pass and the uploader's daily byte budget (DAILY_BYTES) has room
(`take_budget`).

`card_images(game)` says which approved scan shows each card (for card pages, deck lists and
goldfish tiles); it is rebuilt when the game's catalogue stamp moves, as approving bumps it.
"""
from __future__ import annotations

import datetime as dt
import io
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from deckhub.store import models
from deckhub.services import ratelimit

MAX_BYTES = 3 * 1024 * 1024      # the upload as sent
MAX_PIXELS = 24_000_000          # a 6000 x 4000 phone photo; more is refused before decoding
MAX_SIDE = 2000                  # stored images are scaled down to this longest side
FORMATS = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}
DAILY_BYTES = 20 * 1024 * 1024   # scan bytes one player may have decoded in a day
BUDGET_WINDOW = dt.timedelta(days=1)

Image.MAX_IMAGE_PIXELS = MAX_PIXELS  # Pillow warns above this and refuses above twice this


class ScanRefused(ValueError):
    """An upload that is not a card image we keep; the message says why, for the uploader."""


@dataclass(frozen=True)
class CleanImage:
    data: bytes
    mime: str
    width: int
    height: int


class ScanBudgetSpent(ScanRefused):
    """The uploader's scans of the last day already come to DAILY_BYTES."""


@dataclass(frozen=True)
class ImageHeader:
    kind: str
    width: int
    height: int


def _open(data: bytes):
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        return Image.open(io.BytesIO(data), formats=list(FORMATS))


def _refusal(exc: Exception) -> ScanRefused:
    if isinstance(exc, (Image.DecompressionBombError, Image.DecompressionBombWarning)):
        return ScanRefused(f"The scan has too many pixels; at most {MAX_PIXELS // 1_000_000} million are accepted.")
    return ScanRefused("This file is not a JPEG, PNG or WebP picture (or it is damaged).")


_UNREADABLE = (Image.DecompressionBombError, Image.DecompressionBombWarning, UnidentifiedImageError, OSError,
               SyntaxError, ValueError, EOFError)


def check_image(data: bytes) -> ImageHeader:
    """The upload's format and size read from its header alone (no pixel is decoded); ScanRefused
    for an empty, oversized, unknown or too-many-pixels file."""
    if not data:
        raise ScanRefused("The scan is empty: choose a JPEG, PNG or WebP picture of the card.")
    if len(data) > MAX_BYTES:
        raise ScanRefused(f"The scan is larger than {MAX_BYTES // 1048576} MB; at most {MAX_BYTES // 1048576} MB is accepted.")
    try:
        with _open(data) as img:
            header = ImageHeader(img.format, *img.size)
    except _UNREADABLE as exc:
        raise _refusal(exc) from None
    if header.kind not in FORMATS:  # pragma: no cover - Image.open(formats=...) refuses others
        raise ScanRefused("Only JPEG, PNG and WebP pictures are accepted.")
    if header.width * header.height > MAX_PIXELS:
        raise ScanRefused(f"The scan is {header.width} x {header.height} pixels; at most {MAX_PIXELS // 1_000_000} "
                          "million pixels are accepted.")
    return header


def take_budget(user_id: int, sizes: list[int]) -> None:
    """Count scans of these sizes against the uploader's daily byte budget, atomically; ScanBudgetSpent
    (nothing counted) when they would take it over DAILY_BYTES."""
    total = sum(sizes)
    if total and not ratelimit.take_weighted(f"scan-bytes:{user_id}", total, DAILY_BYTES, BUDGET_WINDOW):
        raise ScanBudgetSpent(f"Your scans of the last 24 hours come to {DAILY_BYTES // 1048576} MB, as many as one "
                              "player may send in a day; send this one tomorrow, or without its scan.")


def clean_image(data: bytes) -> CleanImage:
    """The upload decoded and re-encoded without metadata; ScanRefused saying what is wrong."""
    header = check_image(data)
    kind = header.kind
    try:
        with _open(data) as img:
            with warnings.catch_warnings():
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                img.load()
                picture = ImageOps.exif_transpose(img)
    except _UNREADABLE as exc:
        raise _refusal(exc) from None
    picture.thumbnail((MAX_SIDE, MAX_SIDE))
    picture.info = {}
    if kind == "JPEG" and picture.mode not in ("RGB", "L"):
        picture = picture.convert("RGB")
    elif picture.mode not in ("RGB", "RGBA", "L", "LA", "P"):
        picture = picture.convert("RGBA" if "A" in picture.getbands() else "RGB")
    out = io.BytesIO()
    options = {"JPEG": {"quality": 88, "optimize": True}, "PNG": {"optimize": True}, "WEBP": {"quality": 88}}[kind]
    picture.save(out, kind, **options)
    return CleanImage(out.getvalue(), FORMATS[kind], picture.width, picture.height)


# ---------------------------------------------------------------------------------- showing

@dataclass(frozen=True)
class CardImage:
    """The approved scan that shows a printing, and who sent it."""

    scan_id: int
    set_code: str | None
    by: str
    width: int
    height: int


def card_images(game: str) -> dict[str, list[CardImage]]:
    """{card key: its approved scans, newest first} for a game, kept on the game's catalogue: approving
    a scan bumps the catalogue stamp, so the next request reads a new catalogue and these afresh."""
    from deckhub.services.catalogue_store import get_catalogue
    return get_catalogue(game).memo("scans.approved", lambda: _approved_images(game))


def _approved_images(game: str) -> dict[str, list[CardImage]]:
    out: dict[str, list[CardImage]] = {}
    query = (models.Scan.select(models.Scan.id, models.Scan.set_code, models.Scan.width, models.Scan.height,
                                models.Card.key, models.User.username)
             .join(models.Printing, on=(models.Scan.printing == models.Printing.id))
             .join(models.Card, on=(models.Printing.card == models.Card.id))
             .switch(models.Scan).join(models.User, on=(models.Scan.uploader == models.User.id))
             .where((models.Scan.game == game) & (models.Scan.approved == True))  # noqa: E712
             .order_by(models.Scan.id.desc()).tuples())
    for scan_id, set_code, width, height, key, by in query:
        out.setdefault(key, []).append(CardImage(scan_id, set_code, by, width, height))
    return out


def pick_image(images: list[CardImage] | None, set_code: str | None = None) -> CardImage | None:
    """Of a card's images (newest first), the one of its printing in `set_code`, else the newest."""
    if not images:
        return None
    return next((i for i in images if set_code and i.set_code == set_code), images[0])


def card_image(game: str, key: str, set_code: str | None = None) -> CardImage | None:
    """The image of a card (of its printing in `set_code` when there is one), or None."""
    return pick_image(card_images(game).get(key), set_code)


def visible_scan(scan_id: int, user) -> models.Scan | None:
    """A scan's row if `user` may see it: an approved one, or one they sent, or any for a curator."""
    scan = models.Scan.get_or_none(models.Scan.id == scan_id)
    if scan is None or scan.approved:
        return scan
    if getattr(user, "is_authenticated", False) and (user.id == scan.uploader_id or getattr(user, "is_curator", False)):
        return scan
    return None

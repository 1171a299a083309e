"""`deckhub load-images GAME DIR`: pictures from a player's own image folder become their cards' pictures.

A file is matched to a printing by where it sits and what it is called, in this order:
- OCTGN's image-pack layout (`<set id>/Cards/<card id>.jpg`): a file named by a printing's OCTGN
  card id (card ids are unique across sets, so the set folder is not needed to find it);
- a set and a number: a folder named by the set's code or name holding `031.png`, or a file
  named `<set> <number>` (`first-edition-31.png`);
- the card's name (`Aisha Myriad.jpg`, `Icarus, Master Aerialist.png`), in the set its folder
  names if there is one, else its first printing; a name that several cards share is not matched.

Every matched file goes through the scans' one door (`scans.clean_image`: JPEG, PNG or WebP,
re-encoded without metadata) and is stored as an approved scan of its printing, as a curator's
approval would, credited to the loader, on a proposal of no values that says where it came from
(the audit trail an approved scan has). If any matched file is refused, nothing is stored. A
file whose picture the printing already has is left alone, so a folder can be loaded again.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from deckhub.core.cards import Card, Catalogue, normalize_name
from deckhub.games import get_game
from deckhub.services.accounts import named_user
from deckhub.services.catalogue_store import bump_stamp, get_catalogue
from deckhub.services.community.proposing import _scan_printing
from deckhub.services.scans import ScanRefused, clean_image
from deckhub.store import models
from deckhub.store.db import write_transaction

EXTENSIONS = {".png", ".jpg", ".jpeg", ".webp"}
MAX_FILES = 20_000  # an image pack of every set of a game is a few thousand
_GUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
_SET_AND_NUMBER = re.compile(r"^(?P<set>.+?)[\s_-]+#?(?P<number>\d+[a-z]?)$", re.I)


class ImageFolderError(ValueError):
    """The folder, game or user cannot be used; nothing was read or stored."""


@dataclass(frozen=True)
class Match:
    path: str
    card_key: str
    card_name: str
    set_code: str | None
    how: str  # "octgn id", "set and number", "name"


@dataclass(frozen=True)
class Miss:
    path: str
    reason: str


@dataclass
class LoadReport:
    """What a load did: files matched (and stored, unless refused), already there, not matched, refused."""

    game: str
    dry_run: bool = False
    matched: list[Match] = field(default_factory=list)
    already: list[Match] = field(default_factory=list)
    unmatched: list[Miss] = field(default_factory=list)
    refused: list[Miss] = field(default_factory=list)

    @property
    def stored(self) -> int:
        return 0 if self.refused or self.dry_run else len(self.matched)

    def to_json(self) -> dict:
        return {"game": self.game, "stored": self.stored, "dry_run": self.dry_run,
                "matched": [m.__dict__ for m in self.matched], "already": [m.__dict__ for m in self.already],
                "unmatched": [m.__dict__ for m in self.unmatched], "refused": [m.__dict__ for m in self.refused]}


def _number_key(number: str | None) -> str:
    return (number or "").lstrip("0").lower() or "0"


class _Index:
    """A catalogue's printings by set (code or name, normalized) and number."""

    def __init__(self, catalogue: Catalogue):
        self.catalogue = catalogue
        self.sets: dict[str, str] = {}
        for s in catalogue.sets.values():
            self.sets[normalize_name(s.code)] = s.code
            self.sets[normalize_name(s.name)] = s.code
        self.numbers: dict[tuple[str, str], Card] = {}
        for card in catalogue:
            for p in card.printings:
                if p.number:
                    self.numbers.setdefault((p.set_code, _number_key(p.number)), card)

    def set_code(self, text: str) -> str | None:
        return self.sets.get(normalize_name(text))

    def match(self, rel: PurePath) -> tuple[Card, str | None, str] | str:
        """(card, set code, how) for a file at `rel` in the folder, or why it matches nothing."""
        stem = rel.stem.strip()
        if _GUID.match(stem):
            card = self.catalogue.by_source_id(stem)
            if card is None:
                return "no printing has this OCTGN card id"
            printing = next(p for p in card.printings if (p.source_id or "").lower() == stem.lower())
            return card, printing.set_code, "octgn id"
        folder_set = next((code for part in reversed(rel.parts[:-1]) if (code := self.set_code(part))), None)
        if folder_set and (card := self.numbers.get((folder_set, _number_key(stem)))) and stem.isalnum():
            return card, folder_set, "set and number"
        if (parts := _SET_AND_NUMBER.match(stem)) and (code := self.set_code(parts["set"])):
            card = self.numbers.get((code, _number_key(parts["number"])))
            if card is not None:
                return card, code, "set and number"
            return f"{self.catalogue.sets[code].name} has no number {parts['number']}"
        found = self.catalogue.lookup(stem)
        if len(found) > 1:
            return f"{len(found)} cards are called {stem!r}; name the file by its set and number"
        if not found:
            return "no card has this name, and it names no set and number or OCTGN card id"
        card = found[0]
        in_set = folder_set if any(p.set_code == folder_set for p in card.printings) else None
        return card, in_set or (card.printings[0].set_code if card.printings else None), "name"


def image_files(folder: Path) -> list[Path]:
    """The folder's picture files (by extension), sorted; other files are not looked at."""
    if not folder.is_dir():
        raise ImageFolderError(f"{folder} is not a folder")
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in EXTENSIONS)
    if len(files) > MAX_FILES:
        raise ImageFolderError(f"{folder} holds {len(files)} pictures; at most {MAX_FILES} are loaded at once")
    return files


def match_folder(slug: str, folder: Path) -> tuple[LoadReport, list[tuple[Path, Match]]]:
    """Which card each picture of `folder` shows (nothing read but names)."""
    game = get_game(slug)
    index = _Index(get_catalogue(game.slug))
    report = LoadReport(game.slug)
    found: list[tuple[Path, Match]] = []
    for path in image_files(folder):
        rel = path.relative_to(folder)
        got = index.match(rel)
        if isinstance(got, str):
            report.unmatched.append(Miss(str(rel), got))
            continue
        card, set_code, how = got
        found.append((path, Match(str(rel), card.key, card.display_name, set_code, how)))
    return report, found


def _default_loader() -> models.User:
    user = models.User.select().where(models.User.is_curator == True).order_by(models.User.id).first()  # noqa: E712
    if user is None:
        raise ImageFolderError("this site has no curator to credit the pictures to; name one with --user")
    return user


def load_images(slug: str, folder: str | Path, username: str | None = None, dry_run: bool = False) -> LoadReport:
    """Match every picture of `folder` to a printing of `slug`'s cards and store each as that
    printing's approved picture (see the module's docstring); `dry_run` matches and checks them
    and stores nothing. ImageFolderError for an unusable folder, game or user."""
    from deckhub.games import UnknownGame
    try:
        game = get_game(slug)
    except UnknownGame as exc:
        raise ImageFolderError(str(exc)) from None
    folder = Path(folder)
    loader = named_user(username) if username else _default_loader()
    report, found = match_folder(game.slug, folder)
    report.dry_run = dry_run
    source = f"image folder {folder.name or folder}"[:500]
    with write_transaction() as txn:
        for path, match in found:
            try:
                image = clean_image(path.read_bytes())
            except (ScanRefused, OSError) as exc:
                report.refused.append(Miss(match.path, str(exc)))
                continue
            if report.refused or dry_run:
                report.matched.append(match)
                continue
            card = get_catalogue(game.slug).get(match.card_key)
            printing = _scan_printing(card, match.set_code)
            if _has_picture(printing, image.data):
                report.already.append(match)
                continue
            now = models.utcnow()
            proposal = models.Proposal.create(
                game=game.slug, card_key=card.key, values={}, source=source, proposer=loader, status="approved",
                reviewer=loader, reason="Picture loaded from the site's image folder", reviewed_at=now)
            models.Scan.create(proposal=proposal, game=game.slug, set_code=match.set_code, printing=printing,
                               uploader=loader, data=image.data, mime=image.mime, width=image.width,
                               height=image.height, approved=True)
            report.matched.append(match)
        if report.refused or dry_run:
            txn.rollback()
        elif report.matched:
            bump_stamp(game.slug)  # every page shows the new pictures from the next request
    return report


def _has_picture(printing_id: int | None, data: bytes) -> bool:
    rows = models.Scan.select(models.Scan.data).where((models.Scan.printing == printing_id)
                                                      & (models.Scan.approved == True))  # noqa: E712
    return any(bytes(row.data) == data for row in rows)

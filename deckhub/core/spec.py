"""What a game declares about itself: its deck sections, card fields, types and how copies count.

The vocabulary every game shares: a game's package says `GAME = GameSpec(...)`, the games registry
finds it, and the core reads it. Its formats and own checks are read from the game's package
(`package`), so the core never names where games live."""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable, Mapping

from deckhub.core.cards import Card, normalize_name
from deckhub.core.faces import FaceSpec

if TYPE_CHECKING:  # legality imports this module; only the accessors below use legality
    from deckhub.core.legality import CheckFunc, Format


@dataclass(frozen=True)
class SectionSpec:
    """A deck section ("Deck", "Neopet Stack") and the other headers players write for it."""

    name: str
    aliases: tuple[str, ...] = ()

    def matches(self, header: str) -> bool:
        wanted = normalize_name(header)
        return wanted == normalize_name(self.name) or wanted in {normalize_name(a) for a in self.aliases}


@dataclass(frozen=True)
class FieldSpec:
    """A game-specific card field: how to label it and whether the search page filters by it.

    kind: "int" (numeric, filterable by range), "str" (one value, filter by choice),
    "list" (several values, filter by choice), "text" (shown only). `minimum`/`maximum`: the range a
    whole number a player proposes must fall in (None: the community's default range).
    """

    key: str
    label: str
    kind: str = "str"
    filter: bool = True
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class DrawSpec:
    """How a game deals and draws (the odds and the statistics pages): from which section, the
    opening hand, cards drawn each turn, whether the first player skips the first draw, and the
    turn the draws start on (when not the second)."""

    section: str
    hand: int
    per_turn: int = 1
    first_skips: bool = False
    from_turn: int | None = None

    def to_json(self) -> dict[str, Any]:
        data = {"section": self.section, "hand": self.hand, "per_turn": self.per_turn, "first_skips": self.first_skips}
        if self.from_turn is not None:
            data["from_turn"] = self.from_turn
        return data


@dataclass(frozen=True)
class CommandOption:
    """A flag the commands that play games (`deckhub goldfish`, `simulate`, `tune`) take for one of
    the game's engine options: `--mission NAME` is `--option mission=NAME`. `kind`: "str" or "int"."""

    flag: str
    option: str
    help: str
    kind: str = "str"


def count_by_name(card: Card) -> str:
    """Copies are counted by name in most games (GUIDE §4)."""
    return normalize_name(card.name)


@dataclass(frozen=True)
class GameSpec:
    slug: str
    name: str
    sections: tuple[SectionSpec, ...]
    # the Python package the game lives in (its `__name__`): formats.json, legality.py, engine.py...
    package: str
    fields: tuple[FieldSpec, ...] = ()
    types: tuple[str, ...] = ()
    copy_key: Callable[[Card], str] = count_by_name
    main_section: str = "Deck"  # where lines go before any section header
    draws: DrawSpec | None = None
    curve: tuple[str, str] | None = None  # (field, label): the deck page's curve (Kaijudo levels)
    breakdown: tuple[str, str] | None = None  # (field, label): the deck's colours (civilization, team)
    turn_unit: str = "turn"  # what the game counts its turns as ("round" in Huntik)
    engine: str | None = None  # the goldfish engine's module, when not `<package>.engine`
    command_options: tuple[CommandOption, ...] = ()  # its own flags of the game-playing commands
    extras: dict[str, Any] = field(default_factory=dict)  # other, game-specific facts (see `__post_init__`)
    face: FaceSpec = FaceSpec()  # what its drawn card faces show (deckhub.core.faces)

    def __post_init__(self) -> None:
        # `extras` also shows the typed fields in their old dict shape, for readers of the dict
        shown = {"draws": self.draws.to_json() if self.draws else None, "curve": self.curve,
                 "breakdown": self.breakdown, "turn_unit": self.turn_unit, "engine": self.engine}
        object.__setattr__(self, "extras", {**{k: v for k, v in shown.items() if v is not None}, **self.extras})

    def section(self, header: str) -> SectionSpec | None:
        return next((s for s in self.sections if s.matches(header)), None)

    # Construction rules live beside the game as data (`formats.json`) and, for the few checks
    # only this game has, as code (`legality.py` defining CHECKS); both are read on first use.

    @property
    def formats(self) -> tuple["Format", ...]:
        """This game's formats, the default first (from its package's `formats.json`)."""
        return _formats(self.slug, self.package)

    def format(self, name: str | None = None) -> "Format":
        """A format by id or name, case- and punctuation-insensitive; None gives the default.

        Raises LookupError naming the known formats.
        """
        formats = self.formats
        if not formats:
            raise LookupError(f"{self.name} has no formats")
        if name is None or not name.strip():
            return formats[0]
        for f in formats:  # a stored deck's format is its id, asked on every view of the deck
            if f.id == name:
                return f
        wanted = normalize_name(name)
        for f in formats:
            if wanted in (normalize_name(f.id), normalize_name(f.name)):
                return f
        raise LookupError(f"unknown format {name!r} for {self.name}; known formats: "
                          + ", ".join(f.id for f in formats))

    @property
    def checks(self) -> Mapping[str, "CheckFunc"]:
        """The game's own checks by name (its package's `legality.py`, CHECKS), or none."""
        return _checks(self.package)

    @property
    def format_lists(self) -> Mapping[str, Any]:
        """Named card lists that several formats share (a ban list), from formats.json's "lists"."""
        return _formats_doc(self.package).get("lists", {})

    @property
    def file_formats(self) -> Mapping[str, Any]:
        """Facts about outside deck files, e.g. {"octgn": {"game": GUID, "sections": {"Deck": "Main"}}}."""
        return _formats_doc(self.package).get("files", {})


@lru_cache(maxsize=None)
def _formats_doc(package: str) -> dict[str, Any]:
    try:
        text = (resources.files(package) / "formats.json").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    return json.loads(text)


@lru_cache(maxsize=None)
def _formats(slug: str, package: str) -> tuple["Format", ...]:
    from deckhub.core.legality import Format

    doc = _formats_doc(package)
    entries = doc.get("formats", ())
    by_id = {f["id"]: f for f in entries}
    formats = tuple(Format.from_json(slug, _extended(f, by_id), doc.get("rule_prefix") or slug) for f in entries)
    return tuple(sorted(formats, key=lambda f: not f.default))


_OWN_KEYS = ("id", "name", "default", "version", "source", "description")


def _extended(entry: dict[str, Any], by_id: Mapping[str, dict[str, Any]], seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """A format entry with `"extends": ID` is that format plus its own `checks` (a ban list on top of
    the standard rules); its sections and copies, when given, replace the parent's."""
    parent_id = entry.get("extends")
    if not parent_id:
        return entry
    if parent_id not in by_id or parent_id in seen:
        raise LookupError(f"format {entry.get('id')!r} extends {parent_id!r}, which is unknown or circular")
    parent = _extended(by_id[parent_id], by_id, (*seen, entry["id"]))
    merged = {k: v for k, v in parent.items() if k not in _OWN_KEYS}
    merged.update({k: v for k, v in entry.items() if k not in ("extends", "checks")})
    merged["checks"] = [*parent.get("checks", ()), *entry.get("checks", ())]
    return merged


@lru_cache(maxsize=None)
def _checks(package: str) -> Mapping[str, "CheckFunc"]:
    try:
        module = importlib.import_module(f"{package}.legality")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.legality":
            raise
        return {}
    return dict(getattr(module, "CHECKS", {}))


"""What a player may propose for a card of a game, and the checks every proposed value passes.

`proposable_fields(game)` lists the fields: the card's type (one of the game's types), every field
of the game's spec, the values its goldfish engine uses that the spec does not name (a Neopets TCG
tapping cost), and the rules text. Each field checks its own values (`ProposableField.clean`): a
stat is a small whole number, a type or a faerie is one of the game's, a list is a few short
strings, text has a size limit. A proposal's source and a missing card's identity (name, version,
type, set, number, rarity) are checked here too.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping
from urllib.parse import urlsplit

from deckhub.core import cards as core
from deckhub.games import UnknownGame, get_game
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community.errors import NotFound
from deckhub.store import models

PRINTED = "printed card I own"      # the source of a fact read off a card the proposer owns
MAX_SOURCE = 500                     # Proposal.source's column size
MAX_STR = 80                         # a one-line value: species, faerie, team...
MAX_TEXT = 2000                      # rules text or a note
MAX_LIST_ITEMS = 12                  # a list field: races, tags, keywords
MAX_LIST_ITEM = 60
MAX_NAME = 120                       # a missing card's name (Card.name holds 200)
MAX_NUMBER = 20                      # a collector number (Printing.number's column size)
MAX_RARITY = 40

# A whole-number field's range: the game's FieldSpec says it (Kaijudo's power 0-99,999), or the
# engine's value field (a Battledome Neopet's HP is 1-50), else the default.
DEFAULT_INT = (0, 99)
BONUS_INT = (-99, 99)  # "*_bonus" fields add to or take from a stat

CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
_NUMBER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ./#-]*$")


@dataclass(frozen=True)
class ProposableField:
    """A card field a player may propose a value for, with the checks its values pass.

    kind: "int" (a whole number from `minimum` to `maximum`), "str" (one line; one of `choices`
    when there are some), "list" (a few short strings, comma-separated in a form), "text"
    (several lines). `top_level`: the Card's own `type` or `text`, not a key of `attrs`.
    """

    key: str
    label: str
    kind: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    top_level: bool = False

    @property
    def max_length(self) -> int:
        return MAX_TEXT if self.kind == "text" else MAX_STR

    def clean(self, value: Any) -> Any:
        """The value as stored (int, str or list of str); ValueError saying what is allowed."""
        if value is None or isinstance(value, bool) or not isinstance(value, (int, str, list, tuple)):
            raise ValueError(f"must be {self.describe()}")
        if self.kind == "int":
            if isinstance(value, int):
                number = value
            elif isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,9}\s*", value):
                number = int(value)
            else:
                raise ValueError(f"must be a whole number ({self.describe()})")
            if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
                raise ValueError(f"must be {self.describe()}, not {number}")
            return number
        if self.kind == "list":
            items = value.split(",") if isinstance(value, str) else list(value)
            out: list[str] = []
            for item in items:
                if not isinstance(item, str):
                    raise ValueError("must be a list of words or short phrases")
                text = _one_line(item, MAX_LIST_ITEM)
                if text and text not in out:
                    out.append(text)
            if not out:
                raise ValueError("cannot be empty")
            if len(out) > MAX_LIST_ITEMS:
                raise ValueError(f"may hold at most {MAX_LIST_ITEMS} values")
            return out
        if not isinstance(value, str):
            raise ValueError(f"must be {self.describe()}")
        if self.kind == "text":
            text = unicodedata.normalize("NFC", value.replace("\r\n", "\n").replace("\r", "\n")).strip()
            if CONTROL_CHARS.search(text.replace("\t", " ")):
                raise ValueError("contains control characters")
            if len(text) > MAX_TEXT:
                raise ValueError(f"is {len(text)} characters long; at most {MAX_TEXT}")
            if not text:
                raise ValueError("cannot be empty")
            return text
        text = _one_line(value, MAX_STR)
        if not text:
            raise ValueError("cannot be empty")
        if self.choices:
            for choice in self.choices:
                if choice.casefold() == text.casefold():
                    return choice
            raise ValueError(f"must be one of: {', '.join(self.choices)}")
        return text

    def describe(self) -> str:
        if self.kind == "int":
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.choices:
            return "one of: " + ", ".join(self.choices)
        if self.kind == "list":
            return f"up to {MAX_LIST_ITEMS} values separated by commas"
        if self.kind == "text":
            return f"text of at most {MAX_TEXT} characters"
        return f"one line of at most {MAX_STR} characters"


def _one_line(value: str, limit: int) -> str:
    text = unicodedata.normalize("NFC", value).strip()
    if "\n" in text or "\r" in text or CONTROL_CHARS.search(text):
        raise ValueError("must be one line without control characters")
    text = re.sub(r"\s+", " ", text)
    if len(text) > limit:
        raise ValueError(f"is {len(text)} characters long; at most {limit}")
    return text


def _engine_fields(slug: str) -> dict[str, Any]:
    """The goldfish engine's session value fields of a game ({} when it has no engine)."""
    try:
        from deckhub.core.engine import find_engine
        from deckhub.core.session_values import value_fields
        engine = find_engine(slug)
    except Exception:  # pragma: no cover - a broken engine must not take the catalogue down
        return {}
    return {f.name: f for f in value_fields(engine)} if engine is not None else {}


@lru_cache(maxsize=None)
def proposable_fields(slug: str) -> tuple[ProposableField, ...]:
    """Every field a player may propose for a card of this game, in the order forms show them."""
    game = get_game(slug)
    engine = _engine_fields(slug)
    out: list[ProposableField] = [ProposableField("type", "Type", "str", tuple(game.types), top_level=True)]
    labels = {"Type"}

    def add(key: str, label: str, kind: str, limits: tuple[int | None, int | None] = (None, None)) -> None:
        if any(f.key == key for f in out) or key in ("text", "type"):
            return
        if label in labels:  # Kaijudo's printed "Power" (2500+) and its number
            label = f"{label} ({key.replace('_', ' ')})"
        labels.add(label)
        spec = engine.get(key)
        choices: tuple[str, ...] = ()
        lo = hi = None
        if kind == "int":
            if spec is not None and spec.kind == "int" and spec.minimum is not None and spec.maximum is not None:
                lo, hi = spec.minimum, spec.maximum
            elif None not in limits:
                lo, hi = limits
            else:
                lo, hi = BONUS_INT if key.endswith("_bonus") else DEFAULT_INT
        elif kind == "str" and spec is not None and spec.kind == "choice":
            choices = tuple(str(c) for c in spec.choices)
        out.append(ProposableField(key, label, kind, choices, lo, hi))

    for f in game.fields:
        add(f.key, f.label, f.kind if f.kind in ("int", "str", "list", "text") else "str", (f.minimum, f.maximum))
    for name, spec in engine.items():  # what the goldfish engine needs that the spec does not list
        kind = {"int": "int", "choice": "str", "str": "str", "text": "text"}.get(spec.kind, "str")
        add(name, spec.label[:1].upper() + spec.label[1:], kind)
    out.append(ProposableField("text", "Rules text", "text", top_level=True))
    return tuple(out)


def fields_by_key(slug: str) -> dict[str, ProposableField]:
    return {f.key: f for f in proposable_fields(slug)}


def field_label(slug: str, key: str) -> str:
    if key == "card":
        return "Card"
    f = fields_by_key(slug).get(key)
    return f.label if f else key.replace("_", " ").capitalize()


def find_game(slug: str):
    """The game of a slug a player sent; NotFound (a 404 for pages) when there is none."""
    try:
        return get_game(slug)
    except UnknownGame:
        raise NotFound(f"There is no game called {slug[:80]!r}.") from None


def validate_values(slug: str, raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """(clean values, errors by field) for `{field: value}`; empty form values are skipped."""
    fields = fields_by_key(slug)
    clean: dict[str, Any] = {}
    errors: dict[str, str] = {}
    if not isinstance(raw, Mapping):
        return {}, {"values": "must map fields to values"}
    for key, value in raw.items():
        spec = fields.get(key) if isinstance(key, str) else None
        if spec is None:
            errors[str(key)[:60]] = f"{find_game(slug).name} cards have no field {str(key)[:60]!r} that can be proposed"
            continue
        if isinstance(value, str) and not value.strip():
            continue
        try:
            clean[key] = spec.clean(value)
        except ValueError as exc:
            errors[key] = f"{spec.label} {exc}"
    return clean, errors


def validate_source(url: str | None, printed: bool = False) -> str:
    """The proposal's source: a http(s) web address, or PRINTED. ValueError saying what is wrong."""
    url = (url or "").strip()
    if printed and not url:
        return PRINTED
    if printed and url:
        raise ValueError("Give either a web address or “printed card I own”, not both.")
    if not url:
        raise ValueError("Say where the facts come from: a web address, or “printed card I own”.")
    if url == PRINTED:
        return PRINTED
    if len(url) > MAX_SOURCE:
        raise ValueError(f"A web address is at most {MAX_SOURCE} characters long.")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or re.search(r"\s", url) or CONTROL_CHARS.search(url):
        raise ValueError("The source must be a web address starting with http:// or https://.")
    return url


def current_value(card: core.Card, key: str) -> Any:
    if key == "type":
        return card.type
    if key == "text":
        return card.text
    return card.attrs.get(key)


def is_empty(value: Any) -> bool:
    return value is None or value == "" or value == []


def new_card_key(name: str, version: str | None = None) -> str:
    return core.slugify(f"{name} {version}" if version else name)[:200]


def validate_new_card(slug: str, raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """(clean, errors) for a missing card's identity: name, version (Huntik), type, set, number, rarity.

    The name must not be a card the catalogue has; a set must be one of the game's."""
    game = find_game(slug)
    errors: dict[str, str] = {}
    out: dict[str, Any] = {"name": None, "version": None, "type": None, "set": None, "number": None, "rarity": None}
    try:
        out["name"] = _one_line(str(raw.get("name") or ""), MAX_NAME) or None
        if out["name"] is None:
            errors["name"] = "A card needs its name, as printed."
    except ValueError as exc:
        errors["name"] = f"Name {exc}"
    try:
        out["version"] = _one_line(str(raw.get("version") or ""), MAX_NAME) or None
    except ValueError as exc:
        errors["version"] = f"Version {exc}"
    if not is_empty(raw.get("type")):
        try:
            out["type"] = fields_by_key(game.slug)["type"].clean(raw["type"])
        except ValueError as exc:
            errors["type"] = f"Type {exc}"
    code = str(raw.get("set") or "").strip()
    if code:
        if len(code) > 80 or CONTROL_CHARS.search(code):
            errors["set"] = f"{game.name} has no such set."
        elif not models.CardSet.select().where((models.CardSet.game == game.slug) & (models.CardSet.code == code)).exists():
            errors["set"] = f"{game.name} has no set {code[:80]!r}."
        out["set"] = code
    number = str(raw.get("number") or "").strip()
    if number:
        if len(number) > MAX_NUMBER or not _NUMBER.match(number):
            errors["number"] = f"A collector number is up to {MAX_NUMBER} letters, digits, dots or dashes."
        elif not code:
            errors["number"] = "A collector number needs the set it is printed in."
        out["number"] = number
    try:
        out["rarity"] = _one_line(str(raw.get("rarity") or ""), MAX_RARITY) or None
    except ValueError as exc:
        errors["rarity"] = f"Rarity {exc}"
    if out["rarity"] and not code:
        errors["rarity"] = "A rarity needs the set it is printed in."
    if out["name"] and "name" not in errors:
        key = new_card_key(out["name"], out["version"])
        if not key or key == "card" and not core.normalize_name(out["name"]):
            errors["name"] = "A name needs some letters or digits."
        elif models.Card.select().where((models.Card.game == game.slug) & (models.Card.key == key)).exists():
            errors["name"] = (f"{game.name} already has this card ({key}): propose a correction on its page instead.")
        else:
            catalogue = get_catalogue(game.slug)
            same = [c for c in catalogue.lookup(out["name"]) if (c.version or None) == out["version"]]
            if same:
                errors["name"] = (f"{game.name} already has “{same[0].display_name}”: "
                                  "propose a correction on its page instead.")
    return out, errors

"""Session card values: facts a player supplies for one game because the catalogue does not know them.

Card data is incomplete (most Neopets TCG stats, species and bank values are unknown, and so are
some Battledome numbers). An engine never guesses a missing value: the game view flags it
("bank value unknown — set it for this game") and the player supplies it for that session. This
module is the one mechanism every engine uses for that; it has no Flask and no database.

How it fits together
--------------------
1. An engine declares what it can use, on its State subclass:

   - `VALUE_FIELDS: tuple[ValueField, ...]` — every field a player may set, with its kind and limits
     (`"type"` and `"text"` name the Card's own type and rules text; anything else is a key of
     `card.attrs`, e.g. `"bank_value"`, `"strength"`);
   - `needed_values(card) -> tuple[str, ...]` (a classmethod) — the fields this engine needs to
     play *that* card automatically (typically by its type: a bank value for an Item, a species for
     an Experienced Neopet; when the type itself is unknown, just `("type",)`).

   and adds `card_values_option()` to its `Engine(options=...)`.
2. The option `card_values` is a mapping `{card_key: {field: value}}` (or the same as JSON text,
   which is what `deckhub goldfish --option card_values='{...}'` passes). `new_game` (hence
   `replay`, so undo and stored sessions keep them) calls `apply_card_values`, which checks every
   key, field and value and gives the engine a catalogue in which those cards are new `Card`
   values with the fields overridden and `provenance[field] == "session"`. Nothing is written back
   to the catalogue or to `data/`.
3. `missing_values(engine, deck, catalogue)` lists, per card key of a deck, the needed fields that
   are still unknown (`{card_key: [field, ...]}`): what a "set the values for this game" form asks
   for. `unknown_values(engine, card)` is the same for one card (for a card's tile in the view), and
   `ValueField.flag()` words it.

A card whose needed value is unknown stays playable through the manual moves; the engine's own
actions and policy just do not use it in a way that would need the value.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from deckhub.core.cards import Card, Catalogue, normalize_name
from deckhub.core.options import OptionSpec
from deckhub.core.state import EngineError

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.core.decklist import Deck
    from deckhub.core.engine import Engine

CARD_VALUES = "card_values"
SESSION = "session"  # the provenance of a value the player supplied for one game
_TOP_LEVEL = ("type", "text")  # fields of the Card itself; every other field is a key of card.attrs


@dataclass(frozen=True)
class ValueField:
    """A card field an engine lets the player set for a session.

    kind: "int" (a whole number within minimum/maximum), "str" (one line), "text" (rules text) or
    "choice" (one of `choices`, matched without regard to case).
    """

    name: str
    label: str
    kind: str = "int"
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def coerce(self, value: Any, card_key: str = "") -> Any:
        where = f"{card_key}: " if card_key else ""
        if self.kind == "int":
            if isinstance(value, bool):
                raise EngineError(f"{where}{self.label} must be a whole number, not {value!r}")
            try:
                number = value if isinstance(value, int) else int(str(value).strip())
            except ValueError:
                raise EngineError(f"{where}{self.label} must be a whole number, not {value!r}") from None
            if self.minimum is not None and number < self.minimum:
                raise EngineError(f"{where}{self.label} must be at least {self.minimum}, not {number}")
            if self.maximum is not None and number > self.maximum:
                raise EngineError(f"{where}{self.label} must be at most {self.maximum}, not {number}")
            return number
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            raise EngineError(f"{where}{self.label} must be text, not {value!r}")
        text = str(value).strip()
        if self.kind == "choice":
            for choice in self.choices:
                if str(choice).casefold() == text.casefold():
                    return choice
            raise EngineError(f"{where}{self.label} must be one of {', '.join(map(str, self.choices))}; got {value!r}")
        if not text:
            raise EngineError(f"{where}{self.label} cannot be empty")
        return text

    def flag(self) -> str:
        """How the game view words this value being unknown."""
        return f"{self.label} unknown — set it for this game"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "kind": self.kind, "choices": list(self.choices),
                "minimum": self.minimum, "maximum": self.maximum}


@dataclass(frozen=True)
class CardValuesOption(OptionSpec):
    """The `card_values` game option: `{card_key: {field: value}}`, as a mapping or as JSON text.

    Coercing checks only the shape (card keys and field names are strings, values are numbers or
    text); `apply_card_values` checks keys, fields and values against the catalogue and the engine.
    The coerced value is JSON-ready dicts in a stable (sorted) order, a `CardValues`."""

    def coerce(self, value: Any) -> Any:
        if value is None or value == "":
            return {}
        if isinstance(value, CardValues):  # coerced already (the options of every game a simulation deals)
            return value
        return CardValues(self._coerce(value))

    def _coerce(self, value: Any) -> dict[str, dict[str, Any]]:
        if isinstance(value, (str, bytes)):
            try:
                value = json.loads(value)
            except ValueError as exc:
                raise EngineError(f"option {self.name!r} must be a JSON object like "
                                  f'{{"card-key": {{"bank_value": 3}}}}: {exc}') from None
        if not isinstance(value, Mapping):
            raise EngineError(f"option {self.name!r} must map card keys to {{field: value}}, not {value!r}")
        result: dict[str, dict[str, Any]] = {}
        for key in sorted(value, key=str) if all(type(k) is str for k in value) else value:
            fields = value[key]
            if not isinstance(key, str) or not key.strip():
                raise EngineError(f"option {self.name!r}: a card key must be text, not {key!r}")
            if not isinstance(fields, Mapping) or not fields:
                raise EngineError(f"option {self.name!r}: {key} must map field names to values, not {fields!r}")
            clean: dict[str, Any] = {}
            for name in sorted(fields, key=str) if all(type(n) is str for n in fields) else fields:
                v = fields[name]
                if type(name) is not str or not name.strip():
                    raise EngineError(f"option {self.name!r}: {key} has a field name that is not text: {name!r}")
                if type(v) is not int and type(v) is not str:
                    raise EngineError(f"option {self.name!r}: {key}.{name} must be a whole number or text, not {v!r}")
                clean[name] = v
            result[key] = clean
        return result


class CardValues(dict):
    """Session card values as the `card_values` option coerced them. Coercing them again gives them
    back as they are, and the key `apply_card_values` keeps its result under is worked out once:
    a simulation or a tuning deals hundreds of games with the same values, and checking a hundred
    cards again for each cost as much as a short game. Nothing changes them once coerced."""

    @cached_property
    def content_key(self) -> Any:
        return _content_key(self)


def card_values_option(help: str = "") -> CardValuesOption:
    """The option an engine adds to `Engine(options=...)` to accept session card values."""
    return CardValuesOption(CARD_VALUES, "card_values", {}, help or
                            "values for cards whose facts are unknown, for this game only: "
                            '{"card-key": {"field": value}}')


# --- what an engine declares ----------------------------------------------------------------------

def value_fields(engine: "Engine") -> tuple[ValueField, ...]:
    """The fields an engine lets a player set (its State class's VALUE_FIELDS)."""
    return tuple(getattr(engine.state_class, "VALUE_FIELDS", ()))


def value_field(engine: "Engine", name: str) -> ValueField | None:
    return next((f for f in value_fields(engine) if f.name == name), None)


def needed_fields(engine: "Engine", card: Card) -> tuple[str, ...]:
    """The fields the engine needs to play `card` automatically (known or not)."""
    needed = getattr(engine.state_class, "needed_values", None)
    return tuple(needed(card)) if needed is not None else ()


def is_known(card: Card, name: str) -> bool:
    if name == "type":
        return card.type is not None
    if name == "text":
        return card.text is not None
    return card.attrs.get(name) is not None


def unknown_values(engine: "Engine", card: Card) -> list[str]:
    """The needed fields of one card that are still unknown, in the engine's order."""
    return [name for name in needed_fields(engine, card) if not is_known(card, name)]


def missing_values(engine: "Engine", deck: "Deck", catalogue: Catalogue) -> dict[str, list[str]]:
    """`{card_key: [field, ...]}`: for every distinct card of `deck` (in deck order), the fields the
    engine needs that neither the catalogue nor (when `catalogue` came from `apply_card_values`) the
    session supplies. Cards with nothing missing are left out; an empty dict means the deck is
    fully known. A card key not in the catalogue is an EngineError."""
    missing: dict[str, list[str]] = {}
    for _, key, _ in deck.entries():
        if key in missing:
            continue
        card = catalogue.get(key)
        if card is None:
            raise EngineError(f"card {key!r} is not in the {engine.game} catalogue")
        fields = unknown_values(engine, card)
        if fields:
            missing[key] = fields
    return missing


# --- applying the values ----------------------------------------------------------------------------

def with_values(card: Card, values: Mapping[str, Any]) -> Card:
    """A new Card: `values` override the card's type, text or attrs, each marked "session"."""
    attrs = dict(card.attrs)
    provenance = dict(card.provenance)
    changes: dict[str, Any] = {}
    for name, value in values.items():
        if name in _TOP_LEVEL:
            changes[name] = value
        else:
            attrs[name] = value
        provenance[name] = SESSION
    return dataclasses.replace(card, attrs=attrs, provenance=provenance, **changes)


class SessionCatalogue(Catalogue):
    """A catalogue with some cards replaced by their session values; everything else is shared with
    the base catalogue (built in microseconds, never copied card by card). `base` is the catalogue
    the values were applied to; `values` the checked values."""

    def __init__(self, base: Catalogue, replaced: Mapping[str, Card], values: Mapping[str, Mapping[str, Any]]):
        self.__dict__.update(base.__dict__)
        self.base = base
        self.values = values
        self.cards = {**base.cards, **replaced}
        by_name = dict(base._by_name)
        by_source = dict(base._by_source_id)
        for card in replaced.values():
            names = {normalize_name(card.name), normalize_name(card.display_name)}
            names.update(normalize_name(a) for a in card.aliases)
            for n in names:
                if n in by_name:
                    by_name[n] = [replaced.get(c.key, c) for c in by_name[n]]
            for p in card.printings:
                if p.source_id:
                    by_source[p.source_id.lower()] = card
        self._by_name = by_name
        self._by_source_id = by_source


APPLIED_KEPT = 256  # session catalogues kept per catalogue and game (one per set of values in use)


def apply_card_values(engine: "Engine", catalogue: Catalogue, values: Mapping[str, Mapping[str, Any]] | None) -> Catalogue:
    """`catalogue` with the session values applied (the same catalogue when there are none).

    Every card key must be in the catalogue; when the engine declares VALUE_FIELDS, every field
    must be one of them and its value is coerced by it (a bank value must be a whole number...).
    Raises EngineError naming the card, the field and what is allowed. Results are kept on the
    catalogue by the values' content, so replaying a stored session does not rebuild it."""
    if not values:
        return catalogue
    content_key = values.content_key if isinstance(values, CardValues) else _content_key(values)
    if content_key is None:
        return _apply(engine, catalogue, values)
    return catalogue.memo_each(("session_values.applied", engine.game), content_key,
                               lambda: _apply(engine, catalogue, values), limit=APPLIED_KEPT)


def _apply(engine: "Engine", catalogue: Catalogue, values: Mapping[str, Mapping[str, Any]]) -> Catalogue:
    fields = {f.name: f for f in value_fields(engine)}
    replaced: dict[str, Card] = {}
    checked: dict[str, dict[str, Any]] = {}
    for key, overrides in values.items():
        card = catalogue.get(key)
        if card is None:
            found = catalogue.lookup(key) if isinstance(key, str) else []
            hint = f" (did you mean {found[0].key!r}?)" if found else ""
            raise EngineError(f"card_values: {key!r} is not a card key of the {engine.game} catalogue{hint}")
        clean: dict[str, Any] = {}
        for name, value in overrides.items():
            spec = fields.get(name)
            if spec is None and fields:
                raise EngineError(f"card_values: {key}: {engine.game} has no card value {name!r} "
                                  f"(values it uses: {', '.join(fields)})")
            clean[name] = spec.coerce(value, key) if spec is not None else value
        checked[key] = clean
        replaced[key] = with_values(card, clean)
    return SessionCatalogue(catalogue, replaced, checked)


def _content_key(values: Mapping[str, Mapping[str, Any]]) -> Any:
    """A hashable key for equal values given as different objects (None if they are not hashable)."""
    try:
        key = tuple(sorted((k, tuple(sorted(v.items()))) for k, v in values.items()))
        hash(key)
        return key
    except TypeError:
        return None

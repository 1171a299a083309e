"""My card values: the facts a player typed for cards the catalogue does not know, kept as theirs.

Every value a player gives (the goldfish start page, the simulation form, `--values` with `--user`,
the *My card values* page, `PUT /api/card-values`) is stored as a `UserCardValue` of that user, and
used in all of that user's goldfish games, simulations and deck checks of that game, marked
"yours, not reviewed". A value the catalogue knows always wins (it came from a source or a curator):
`effective_values` leaves such fields out and `listing` says where the two differ. A user's values
are private; `propose` sends a selection of them to the curators through `deckhub.services.community`.

Values are checked exactly as the engines check them (`deckhub.core.session_values`): the card key
must be in the catalogue, the field one of the engine's VALUE_FIELDS, the value coerced by it.
No Flask here; web pages, the JSON API and commands call these functions.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.cards import Card, Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import Engine, EngineError, find_engine
from deckhub.core.session_values import (CARD_VALUES, ValueField, apply_card_values, is_known, missing_values,
                                         unknown_values, value_field, value_fields, with_values)
from deckhub.store.db import database
from deckhub.games import UnknownGame, get_game

MAX_CARDS = 2_000        # card entries in one PUT or one --values file
MAX_STORED = 20_000      # values one user keeps for one game
YOURS = "yours, not reviewed"


class CardValuesError(ValueError):
    """A request this module refuses; the message names the first bad entry. Nothing was written."""


# --------------------------------------------------------------------------- checking

def engine_for(slug: Any) -> Engine:
    """The game's engine, when it lets players set card values; CardValuesError otherwise."""
    if not isinstance(slug, str):
        raise CardValuesError('"game" must be a game slug such as "neopets-tcg".')
    try:
        spec = get_game(slug)
    except UnknownGame:
        raise CardValuesError(f"There is no game called {slug[:80]!r}.") from None
    engine = find_engine(spec)
    if engine is None or not engine.option(CARD_VALUES) or not value_fields(engine):
        raise CardValuesError(f"{spec.name} has no card values a player can set: its catalogue knows what its "
                              "engine needs.")
    return engine


def enterable(slug: str) -> bool:
    """Whether players can set card values for this game (its engine declares some)."""
    try:
        engine_for(slug)
    except CardValuesError:
        return False
    return True


def _resolve_key(catalogue: Catalogue, key: str, by_name: bool) -> str:
    if catalogue.get(key) is not None:
        return key
    found = catalogue.lookup(key)
    if by_name and len({c.key for c in found}) == 1:
        return found[0].key
    if by_name and found:
        raise CardValuesError(f"{key[:120]!r} names several cards ({', '.join(c.key for c in found[:4])}): "
                              "use a card key")
    hint = f" (did you mean {found[0].key!r}?)" if found else ""
    raise CardValuesError(f"{key[:120]!r} is not a card of the {get_game(catalogue.game).name} catalogue{hint}")


def check_values(engine: Engine, catalogue: Catalogue, raw: Any, *, allow_null: bool = False,
                 by_name: bool = False) -> dict[str, dict[str, Any]]:
    """`{card_key: {field: value}}` checked as the engine checks session values, in the given order.

    `by_name`: a key may also be a card's name. `allow_null`: a null value (delete it) is kept as
    None. The first bad entry raises CardValuesError naming the card, the field and what is allowed."""
    if not isinstance(raw, Mapping):
        raise CardValuesError('"values" must be an object: {"card-key": {"field": value}}.')
    if len(raw) > MAX_CARDS:
        raise CardValuesError(f"At most {MAX_CARDS:,} cards at once, not {len(raw):,}.")
    fields = {f.name: f for f in value_fields(engine)}
    out: dict[str, dict[str, Any]] = {}
    for key, entry in raw.items():
        if not isinstance(key, str) or not key.strip():
            raise CardValuesError(f"A card key must be text, not {key!r}.")
        card_key = _resolve_key(catalogue, key.strip(), by_name)
        if not isinstance(entry, Mapping) or not entry:
            raise CardValuesError(f"{key[:120]}: give an object of fields and values, e.g. {{\"type\": \"Item\"}}.")
        clean = out.setdefault(card_key, {})
        for name, value in entry.items():
            spec = fields.get(name) if isinstance(name, str) else None
            if spec is None:
                raise CardValuesError(f"{card_key}: {get_game(engine.game).name} cards have no value "
                                      f"{str(name)[:60]!r} (the values its engine uses: {', '.join(fields)})")
            if value is None:
                if not allow_null:
                    raise CardValuesError(f"{card_key}.{name}: give a value (null only deletes one in a PUT).")
                clean[name] = None
                continue
            if isinstance(value, str) and len(value) > 2_000:
                raise CardValuesError(f"{card_key}.{name}: at most 2,000 characters.")
            try:
                clean[name] = spec.coerce(value, card_key)
            except EngineError as exc:
                raise CardValuesError(str(exc)) from None
    return out


# --------------------------------------------------------------------------- storing

def values_of(user_id: int | None, slug: str) -> dict[str, dict[str, Any]]:
    """The user's own values of a game, `{card_key: {field: value}}` sorted by card key and field."""
    if not user_id:
        return {}
    out: dict[str, dict[str, Any]] = {}
    query = (models.UserCardValue.select(models.UserCardValue.card_key, models.UserCardValue.field,
                                         models.UserCardValue.value)
             .where((models.UserCardValue.owner == user_id) & (models.UserCardValue.game == slug))
             .order_by(models.UserCardValue.card_key, models.UserCardValue.field).tuples())
    for key, name, value in query:
        out.setdefault(key, {})[name] = value
    return out


def card_rows(user_id: int | None, slug: str, card: Card) -> list[ValueRow]:
    """My values of one card beside the catalogue's (for its card page); [] when I have none."""
    if not user_id or not enterable(slug):
        return []
    table = models.UserCardValue
    query = (table.select(table.field, table.value)
             .where((table.owner == user_id) & (table.game == slug) & (table.card_key == card.key)).tuples())
    return _rows(engine_for(slug), card, dict(query))


def _write(user_id: int, slug: str, checked: Mapping[str, Mapping[str, Any]]) -> None:
    """Upsert each value, delete each None; the caller holds the transaction."""
    table = models.UserCardValue
    now = models.utcnow()
    rows, gone = [], []
    for key, entry in checked.items():
        for name, value in entry.items():
            if value is None:
                gone.append((key, name))
            else:
                rows.append({"owner": user_id, "game": slug, "card_key": key, "field": name, "value": value,
                             "updated_at": now})
    for key, name in gone:
        table.delete().where((table.owner == user_id) & (table.game == slug) & (table.card_key == key)
                             & (table.field == name)).execute()
    for start in range(0, len(rows), 200):
        (table.insert_many(rows[start:start + 200])
         .on_conflict(conflict_target=[table.owner, table.game, table.card_key, table.field],
                      preserve=[table.value, table.updated_at])
         .execute())
    if rows:
        count = table.select().where((table.owner == user_id) & (table.game == slug)).count()
        if count > MAX_STORED:
            raise CardValuesError(f"You may keep at most {MAX_STORED:,} values of one game; propose some to the "
                                  "catalogue and delete them first.")


def put_values(user_id: int, slug: str, raw: Any) -> dict[str, dict[str, Any]]:
    """Merge `{card_key: {field: value | null}}` into the user's values (null deletes): all or nothing.

    Returns the user's values of the game after the change."""
    engine = engine_for(slug)
    checked = check_values(engine, get_catalogue(slug), raw, allow_null=True)
    with database.atomic():
        _write(user_id, slug, checked)
    return values_of(user_id, slug)


def remember(user_id: int | None, slug: str, values: Mapping[str, Mapping[str, Any]]) -> None:
    """Keep values typed somewhere else (a start page, a simulation form, `--values --user`) as the
    user's own. They were checked already by the caller (`check_values`); empty does nothing."""
    if user_id and values:
        with database.atomic():
            _write(user_id, slug, values)


def keep_typed(user_id: int, slug: str, typed: Mapping[str, Mapping[str, str]]) -> None:
    """Values typed into a deck's values form, checked against the game's engine and catalogue (a
    CardValuesError names the first wrong one), kept as the user's own."""
    remember(user_id, slug, check_values(engine_for(slug), get_catalogue(slug), typed))


def change_values(user: models.User, slug: str, action: str, changes: Mapping[str, Mapping[str, Any]] | None = None,
                  selection: list[tuple[str, str]] = (), source: str = "") -> int | list[models.Proposal] | None:
    """What *My card values* asks with one button: "save" merges `changes` (a null deletes a value),
    "delete" deletes the `selection` (returns how many), "propose" sends it to the curators with
    `source` (returns the proposals); anything else is a CardValuesError."""
    if action == "save":
        put_values(user.id, slug, changes or {})
        return None
    if action == "delete":
        if not selection:
            raise CardValuesError("Choose the values to delete.")
        return delete_values(user.id, slug, selection)
    if action == "propose":
        return propose(user, slug, selection, source)
    raise CardValuesError("Choose what to do: save, delete or propose.")


def delete_values(user_id: int, slug: str, selection: list[tuple[str, str]]) -> int:
    table = models.UserCardValue
    with database.atomic():
        return sum(table.delete().where((table.owner == user_id) & (table.game == slug) & (table.card_key == key)
                                        & (table.field == name)).execute() for key, name in selection)


# --------------------------------------------------------------------------- using

def effective_values(catalogue: Catalogue, values: Mapping[str, Mapping[str, Any]],
                     deck: Deck | None = None) -> dict[str, dict[str, Any]]:
    """The values a game should play with: the user's, for the deck's cards (all cards without a
    deck), minus every field the catalogue knows (a reviewed value wins)."""
    keys = None if deck is None else {key for _, key, _ in deck.entries()}
    out: dict[str, dict[str, Any]] = {}
    for key, entry in values.items():
        card = catalogue.get(key)
        if card is None or (keys is not None and key not in keys):
            continue
        kept = {name: value for name, value in entry.items() if value is not None and not is_known(card, name)}
        if kept:
            out[key] = kept
    return out


def _values_engine(user_id: int | None, slug: str) -> Engine | None:
    """The game's engine when it plays with players' own card values and a player is named."""
    engine = find_engine(get_game(slug))
    return engine if engine is not None and user_id and engine.option(CARD_VALUES) else None


def values_may_apply(user_id: int | None, slug: str) -> bool:
    """Whether `catalogue_for` may give this player anything but the game's catalogue."""
    return _values_engine(user_id, slug) is not None


def catalogue_for(user_id: int | None, slug: str, deck: Deck | None = None,
                  catalogue: Catalogue | None = None) -> Catalogue:
    """The game's catalogue with the user's values applied where the catalogue knows nothing (the one
    a check, a goldfish game or a simulation of that user reads)."""
    catalogue = catalogue if catalogue is not None else get_catalogue(slug)
    engine = _values_engine(user_id, slug)
    if engine is None:
        return catalogue
    values = effective_values(catalogue, values_of(user_id, slug), deck)
    if not values:
        return catalogue
    try:
        return apply_card_values(engine, catalogue, values)
    except EngineError:  # a value the engine no longer accepts (its rules changed): play without it
        return catalogue


def game_values(user_id: int | None, slug: str, deck: Deck, typed: Mapping[str, Mapping[str, Any]] | None = None,
                catalogue: Catalogue | None = None) -> dict[str, dict[str, Any]]:
    """The `card_values` option a game of `deck` starts with: the user's stored values, with `typed`
    (values given with this request, already checked) over them, minus what the catalogue knows."""
    catalogue = catalogue if catalogue is not None else get_catalogue(slug)
    merged = {k: dict(v) for k, v in values_of(user_id, slug).items()}
    for key, entry in (typed or {}).items():
        merged.setdefault(key, {}).update(entry)
    return effective_values(catalogue, merged, deck)


def game_options(user_id: int | None, engine: Engine, deck: Deck, catalogue: Catalogue,
                 options: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """(options a game of `deck` starts with, the values typed with them, checked).

    The `card_values` option becomes the user's values for the deck with the typed ones over them;
    the typed values are returned so the caller keeps them (`remember`) once the game is stored.
    A bad typed value raises CardValuesError."""
    options = dict(options or {})
    if not engine.option(CARD_VALUES):
        return options, {}
    typed = options.pop(CARD_VALUES, None) or {}
    if isinstance(typed, (str, bytes)):
        typed = engine.option(CARD_VALUES).coerce(typed)  # JSON text, as `--option card_values=...` sends it
    checked = check_values(engine, catalogue, typed, by_name=True) if typed else {}
    values = game_values(user_id, engine.game, deck, checked, catalogue)
    if values:
        options[CARD_VALUES] = values
    return options, checked


def play_values(engine: Engine, catalogue: Catalogue, deck: Deck, typed: Mapping[str, Any],
                user_id: int | None) -> tuple[dict[str, dict[str, Any]], dict[str, list[str]]]:
    """(values, missing) for a command's game of `deck`: the values typed (by card key or name, checked)
    over the user's own (`user_id`, whose own values the typed ones then become), and the values the
    engine still lacks, `{card key: [field, ...]}`. CardValuesError for a bad typed value,
    EngineError when the engine cannot judge the deck."""
    checked = check_values(engine, catalogue, typed, by_name=True)
    if user_id:
        remember(user_id, engine.game, checked)
    values = (game_values(user_id, engine.game, deck, checked, catalogue) if user_id
              else effective_values(catalogue, checked, deck))
    return values, deck_missing(engine, deck, catalogue, values)


def deck_missing(engine: Engine, deck: Deck, catalogue: Catalogue,
                 values: Mapping[str, Mapping[str, Any]]) -> dict[str, list[str]]:
    """`{card_key: [field, ...]}` the engine needs for `deck` that neither the catalogue nor `values` know."""
    return missing_values(engine, deck, apply_card_values(engine, catalogue, values) if values else catalogue)


def describe_missing(catalogue: Catalogue, engine: Engine, missing: Mapping[str, list[str]], limit: int = 0) -> str:
    """"Chomp! (card type), Meowclops (card type) ..." — the unknown values in words."""
    parts = []
    for key, names in missing.items():
        card = catalogue.get(key)
        labels = [(value_field(engine, n).label if value_field(engine, n) else n) for n in names]
        parts.append(f"{card.display_name if card else key} ({', '.join(labels)})")
    if limit and len(parts) > limit:
        return ", ".join(parts[:limit]) + f" and {len(parts) - limit} more"
    return ", ".join(parts)


# --------------------------------------------------------------------------- the values form

@dataclass(frozen=True)
class FormField:
    """One input of the values form: the field, and the card types it matters for (() = always)."""

    field: ValueField
    for_types: tuple[str, ...] = ()


def form_fields(engine: Engine, catalogue: Catalogue, card: Card) -> list[FormField]:
    """Everything the engine may need of `card` (one of `catalogue`'s) that the catalogue does not
    know, asked at once: when the type is unknown, the type and, for each type it could be, the
    fields that type brings.

    Trying every type compiles the card once per type, so the answer is kept on the catalogue (for
    its own cards: another card of that key may differ)."""
    if catalogue.get(card.key) is not card:
        return _form_fields(engine, card)
    return catalogue.memo_each(("card_values.form_fields", engine.game), card.key, lambda: _form_fields(engine, card))


def _form_fields(engine: Engine, card: Card) -> list[FormField]:
    type_field = value_field(engine, "type")
    if card.type is None and type_field is not None and type_field.kind == "choice":
        out: list[FormField] = [FormField(type_field)]
        seen: dict[str, list[str]] = {}
        for choice in type_field.choices:
            for name in unknown_values(engine, with_values(card, {"type": choice})):
                if name != "type":
                    seen.setdefault(name, []).append(str(choice))
        for name, types in seen.items():
            spec = value_field(engine, name)
            if spec is not None:
                out.append(FormField(spec, tuple(types)))
        return out
    return [FormField(spec) for spec in (value_field(engine, n) for n in unknown_values(engine, card)) if spec]


def values_form(engine: Engine, deck: Deck, catalogue: Catalogue, mine: Mapping[str, Mapping[str, Any]],
                typed: Mapping[str, Mapping[str, Any]] | None = None) -> list[tuple[Card, list[FormField], dict]]:
    """(card, fields, pre-filled values) for every card of `deck` whose needed values are unknown once
    the user's values and the values typed so far are applied; cards with something typed stay on."""
    current = {k: dict(v) for k, v in mine.items()}
    for key, entry in (typed or {}).items():
        current.setdefault(key, {}).update(entry)
    current = effective_values(catalogue, current, deck)
    try:
        missing = deck_missing(engine, deck, catalogue, current)
    except EngineError:
        missing = missing_values(engine, deck, catalogue)
    rows = []
    for key in list(missing) + [k for k in (typed or {}) if k not in missing]:
        card = catalogue.get(key)
        if card is None:
            continue
        rows.append((card, form_fields(engine, catalogue, card), current.get(key, {})))
    return rows


# --------------------------------------------------------------------------- the page

@dataclass
class ValueRow:
    card: Card
    field: ValueField | None
    name: str
    mine: Any
    catalogue: Any          # the catalogue's value (None: unknown)
    provenance: str | None  # where the catalogue's value came from

    @property
    def differs(self) -> bool:
        return self.catalogue is not None and self.catalogue != self.mine

    @property
    def superseded(self) -> bool:
        """The catalogue knows this field now, so the catalogue's value is the one used."""
        return self.catalogue is not None


def listing(user_id: int, slug: str) -> list[ValueRow]:
    """The user's values of a game beside the catalogue's, by card name then field order."""
    engine = engine_for(slug)
    catalogue = get_catalogue(slug)
    order = {f.name: i for i, f in enumerate(value_fields(engine))}
    rows = []
    for key, entry in values_of(user_id, slug).items():
        card = catalogue.get(key)
        if card is not None:
            rows.extend(_rows(engine, card, entry))
    rows.sort(key=lambda r: (r.card.display_name.casefold(), r.card.key, order.get(r.name, 99)))
    return rows


def _rows(engine: Engine, card: Card, entry: Mapping[str, Any]) -> list[ValueRow]:
    order = {f.name: i for i, f in enumerate(value_fields(engine))}
    rows = []
    for name, value in entry.items():
        known = card.type if name == "type" else card.text if name == "text" else card.attrs.get(name)
        rows.append(ValueRow(card, value_field(engine, name), name, value, known,
                             card.provenance.get(name) if known is not None else None))
    return sorted(rows, key=lambda r: order.get(r.name, 99))


def propose(user: models.User, slug: str, selection: list[tuple[str, str]], source: str, **limits) -> list[models.Proposal]:
    """Send the selected values of the user's (card key, field) to the curators as proposals, one per
    card, with one source, in one step: all of them or none (`deckhub.services.community` checks each)."""
    from deckhub.services.community.errors import CommunityError
    from deckhub.services.community.proposing import propose_facts

    mine = values_of(user.id, slug)
    by_card: dict[str, dict[str, Any]] = {}
    for key, name in selection:
        if key not in mine or name not in mine[key]:
            raise CardValuesError(f"{key[:120]}.{name[:60]} is not one of your values.")
        by_card.setdefault(key, {})[name] = mine[key][name]
    if not by_card:
        raise CardValuesError("Choose the values to propose.")
    made: list[models.Proposal] = []
    key = ""
    try:
        with database.atomic():
            for key, values in by_card.items():
                made.append(propose_facts(user, slug, key, values, source, **limits))
    except CommunityError as exc:
        card = get_catalogue(slug).get(key)
        raise CardValuesError(f"{card.display_name if card else key}: {exc}") from None
    return made

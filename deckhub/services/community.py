"""The community catalogue: players propose card facts and missing cards, curators review them.

No Flask here: the web pages (`deckhub.web.community`) and commands call these functions.

- **Fields.** `proposable_fields(game)` lists what a player may propose for a card of a game: its
  type (one of the game's types), every field of the game's spec, the values its goldfish engine
  uses that the spec does not name (a Neopets TCG tapping cost), and the rules text. Each field
  checks its own values (`ProposableField.clean`): a stat is a small whole number, a type or a
  faerie is one of the game's, a list is a few short strings, text has a size limit.
- **Proposals.** `propose_facts` (corrections to a card) and `propose_card` (a missing card) check
  every value, the source (a web address or "printed card I own"), the proposer's rate limit
  (`RateLimitHit` rows, shared by every worker) and how many of their proposals wait; a proposal
  is stored as `Proposal` and changes nothing in the catalogue.
- **Review.** `approve` re-checks every value (a curator cannot approve one that fails) and writes
  it into the card (`Card.type`/`text`/`data["attrs"]`, provenance "contributed", the source in
  the card's sources, who and when in `data["contributions"]`), one `FactChange` per field, then
  bumps the game's `CatalogueStamp` so every worker's catalogue — pages, deck checks, goldfish
  engines, simulations — uses the new values at once. `reject` records the reason and changes
  nothing else. `revert` undoes an approval with `FactChange` rows that restore the old values
  and provenance (a card that an approval added is removed again, unless a collection holds it).
- **Audit.** `card_history` is every change of a card's fields; `field_origins` says for every
  known field of a card where its value came from.
- **Shared back.** `export_catalogue` / `export_cards` write a game's catalogue, contributions
  included, in the project's `data/` format, which `deckhub load-cards` reads back.

`Card.data` keeps two keys beside attrs/provenance/sources/aliases for contributed facts:
`contributions` ({field: {"proposal", "by", "reviewer", "at", "source"}}) and
`contributed_sources` (the sources an approval added to the card's list, so a revert or a reload
of `data/` knows which are the community's).
"""
from __future__ import annotations

import copy
import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping
from urllib.parse import urlsplit

from peewee import JOIN, IntegrityError, fn

from deckhub.store import models
from deckhub.services import ratelimit
from deckhub.services.catalogue_store import bump_stamp, get_catalogue, number_sort
from deckhub.core import cards as core
from deckhub.store.db import database, lock, write_transaction
from deckhub.games import UnknownGame, get_game

# ---------------------------------------------------------------------------------- limits

PRINTED = "printed card I own"      # the source of a fact read off a card the proposer owns
MAX_SOURCE = 500                     # Proposal.source's column size
MAX_REASON = 500                     # Proposal.reason's column size
MAX_STR = 80                         # a one-line value: species, faerie, team...
MAX_TEXT = 2000                      # rules text or a note
MAX_LIST_ITEMS = 12                  # a list field: races, tags, keywords
MAX_LIST_ITEM = 60
MAX_NAME = 120                       # a missing card's name (Card.name holds 200)
MAX_NUMBER = 20                      # a collector number (Printing.number's column size)
MAX_RARITY = 40
RATE_LIMIT = 30                      # proposals per user per RATE_WINDOW
RATE_WINDOW = dt.timedelta(hours=1)  # deckhub.services.ratelimit sweeps rows older than 4 windows of any bucket
MAX_PENDING = 100                    # proposals of one user waiting for review at once

# A whole-number field's range: the game's FieldSpec says it (Kaijudo's power 0-99,999), or the
# engine's value field (a Battledome Neopet's HP is 1-50), else the default.
DEFAULT_INT = (0, 99)
BONUS_INT = (-99, 99)  # "*_bonus" fields add to or take from a stat

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
_NUMBER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ./#-]*$")


class CommunityError(ValueError):
    """A request this module refuses; the message says why, for the person who made it."""


class ProposalInvalid(CommunityError):
    """Values that fail their checks: `errors` maps each field (or "source", "name"...) to why."""

    def __init__(self, errors: Mapping[str, str], message: str | None = None):
        self.errors = dict(errors)
        super().__init__(message or "; ".join(f"{k}: {v}" for k, v in self.errors.items()))


class NotAllowed(CommunityError):
    """Only a curator may review."""


class RateLimited(CommunityError):
    pass


class NotFound(CommunityError):
    pass


# ---------------------------------------------------------------------------------- fields

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
            if _CONTROL.search(text.replace("\t", " ")):
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
    if "\n" in text or "\r" in text or _CONTROL.search(text):
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


def _game(slug: str):
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
            errors[str(key)[:60]] = f"{_game(slug).name} cards have no field {str(key)[:60]!r} that can be proposed"
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
    if parts.scheme not in ("http", "https") or not parts.netloc or re.search(r"\s", url) or _CONTROL.search(url):
        raise ValueError("The source must be a web address starting with http:// or https://.")
    return url


def current_value(card: core.Card, key: str) -> Any:
    if key == "type":
        return card.type
    if key == "text":
        return card.text
    return card.attrs.get(key)


def _is_empty(value: Any) -> bool:
    return value is None or value == "" or value == []


# ---------------------------------------------------------------------------------- proposing

def _pending_submissions(user: models.User) -> int:
    """How many of a user's submissions wait for review: a batch counts once, like its rate-limit hit."""
    mine = (models.Proposal.proposer == user.id) & (models.Proposal.status == "pending")
    singles = models.Proposal.select().where(mine & models.Proposal.batch_id.is_null()).count()
    batches = (models.Proposal.select(fn.COUNT(fn.DISTINCT(models.Proposal.batch_id)))
               .where(mine & models.Proposal.batch_id.is_null(False)).scalar()) or 0
    return singles + batches


def _take_rate(user: models.User, limit: int, window: dt.timedelta) -> None:
    """Count one submission against the user's limits, atomically; RateLimited (and no hit) if over.

    Must run inside the write transaction that stores the submission: the user's proposal lock
    (db.lock) makes two requests of one user count one after the other, so they cannot both slip
    under the limit."""
    lock(f"proposals:{user.id}")
    ratelimit.hit([f"proposal:{user.id}"], window)
    _check_rate(user, limit, window, taken=1)


def _check_rate(user: models.User, limit: int, window: dt.timedelta, taken: int = 0) -> None:
    """RateLimited if the user may not send a submission now (`taken`: this one is counted already).
    Without the lock it is only a first look, made before costly work such as decoding a scan."""
    if ratelimit.recent(f"proposal:{user.id}", window) + 1 - taken > limit:
        minutes = int(window.total_seconds() // 60)
        raise RateLimited(f"You have sent {limit} proposals in the last {minutes} minutes; "
                          "please wait a while before sending more.")
    waiting = _pending_submissions(user)
    if waiting >= MAX_PENDING:
        raise RateLimited(f"{waiting} of your proposals are waiting for a curator; "
                          "please wait until some are reviewed before sending more.")


@dataclass
class _Draft:
    """One card's checked proposal, not stored yet: an existing card's key or a missing card."""

    card_key: str
    new_card: dict[str, Any] | None
    values: dict[str, Any]
    scan: Any = None                # scans.CleanImage
    printing_id: int | None = None  # the printing the scan shows (None for a missing card)


def _store(user: models.User, game_slug: str, drafts: list[_Draft], source: str, rate_limit: int,
           window: dt.timedelta, batch_set: str | None = None, as_batch: bool = False):
    """Write checked drafts as proposals (and their scans) in one transaction with one rate-limit hit.

    Returns the ProposalBatch when `as_batch`, else the single Proposal."""
    with write_transaction():
        _take_rate(user, rate_limit, window)
        batch = (models.ProposalBatch.create(game=game_slug, set_code=batch_set, source=source, proposer=user.id)
                 if as_batch else None)
        made = []
        for d in drafts:
            proposal = models.Proposal.create(game=game_slug, card_key=d.card_key, new_card=d.new_card, values=d.values,
                                              source=source, proposer=user.id, batch_id=batch.id if batch else None)
            if d.scan is not None:
                models.Scan.create(proposal=proposal.id, game=game_slug, set_code=(d.new_card or {}).get("set") or batch_set,
                                   printing=d.printing_id, uploader=user.id, data=d.scan.data, mime=d.scan.mime,
                                   width=d.scan.width, height=d.scan.height)
            made.append(proposal)
    return batch if as_batch else made[0]


def _check_scan(raw: bytes | None) -> str | None:
    """Why a scan upload is refused, from its header alone (scans.check_image); None when it may be decoded."""
    if raw is None:
        return None
    from deckhub.services.scans import ScanRefused, check_image
    try:
        check_image(bytes(raw))
    except ScanRefused as exc:
        return str(exc)
    return None


def _decode_scans(user: models.User, drafts: Mapping[str, tuple[_Draft, bytes]], limit: int,
                  window: dt.timedelta) -> None:
    """Decode the drafts' scans ({error key: (draft, bytes)}) once everything else about the submission
    has passed: the user may send it now, and the scans' bytes fit their daily budget (counted
    whether or not a file then decodes: the work is done). ProposalInvalid naming the scans that do
    not decode; RateLimited when the user may not send now or the budget is spent."""
    if not drafts:
        return
    from deckhub.services.scans import ScanBudgetSpent, ScanRefused, clean_image, take_budget
    _check_rate(user, limit, window)
    try:
        take_budget(user.id, [len(raw) for _, raw in drafts.values()])
    except ScanBudgetSpent as exc:
        raise RateLimited(str(exc)) from None
    errors: dict[str, str] = {}
    for key, (draft, raw) in drafts.items():
        try:
            draft.scan = clean_image(bytes(raw))
        except ScanRefused as exc:
            errors[key] = str(exc)
    if errors:
        raise ProposalInvalid(errors)


def _scan_printing(card: core.Card, set_code: str | None) -> int | None:
    """The printing row a scan of an existing card shows: its printing in `set_code`, else its first."""
    query = (models.Printing.select(models.Printing.id, models.CardSet.code).join(models.Card)
             .switch(models.Printing).join(models.CardSet)
             .where((models.Card.game == card.game) & (models.Card.key == card.key))
             .order_by(models.Printing.position, models.Printing.id).tuples())
    rows = list(query)
    for pid, code in rows:
        if code == set_code:
            return pid
    return rows[0][0] if rows else None


def propose_facts(user: models.User, slug: str, card_key: str, raw_values: Mapping[str, Any],
                  source: str, *, scan: bytes | None = None, rate_limit: int = RATE_LIMIT,
                  window: dt.timedelta = RATE_WINDOW) -> models.Proposal:
    """Store a proposal of new values for an existing card (nothing in the catalogue changes).

    Values equal to the card's current ones are dropped; ProposalInvalid when a value, the source or
    the scan fails its checks or nothing new is left, RateLimited when the user sent too many. A
    scan alone (no new value) is a proposal too: it offers the card's picture."""
    game = _game(slug)
    card = get_catalogue(game.slug).get(card_key)
    if card is None:
        raise NotFound(f"{game.name} has no card with the id {card_key[:120]!r}.")
    values, errors = validate_values(game.slug, raw_values)
    try:
        source = validate_source(source)
    except ValueError as exc:
        errors["source"] = str(exc)
    if problem := _check_scan(scan):
        errors["scan"] = problem
    if errors:
        raise ProposalInvalid(errors)
    values = {k: v for k, v in values.items() if current_value(card, k) != v}
    if not values and scan is None:
        raise ProposalInvalid({"values": "Nothing to propose: give at least one value that differs from the card's."},
                              "Nothing to propose: give at least one value that differs from the card's.")
    draft = _Draft(card.key, None, values, None, _scan_printing(card, None) if scan is not None else None)
    _decode_scans(user, {"scan": (draft, scan)} if scan is not None else {}, rate_limit, window)
    return _store(user, game.slug, [draft], source, rate_limit, window)


def new_card_key(name: str, version: str | None = None) -> str:
    return core.slugify(f"{name} {version}" if version else name)[:200]


def validate_new_card(slug: str, raw: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """(clean, errors) for a missing card's identity: name, version (Huntik), type, set, number, rarity.

    The name must not be a card the catalogue has; a set must be one of the game's."""
    game = _game(slug)
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
    if not _is_empty(raw.get("type")):
        try:
            out["type"] = fields_by_key(game.slug)["type"].clean(raw["type"])
        except ValueError as exc:
            errors["type"] = f"Type {exc}"
    code = str(raw.get("set") or "").strip()
    if code:
        if len(code) > 80 or _CONTROL.search(code):
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


def _new_card_draft(slug: str, raw_card: Mapping[str, Any], raw_values: Mapping[str, Any],
                    errors: dict[str, str], prefix: str = "") -> _Draft:
    """A missing card's draft; its problems go into `errors` (keys prefixed with `prefix`)."""
    new_card, card_errors = validate_new_card(slug, raw_card)
    values, value_errors = validate_values(slug, {k: v for k, v in raw_values.items() if k != "type"})
    errors.update({prefix + k: v for k, v in {**card_errors, **value_errors}.items()})
    return _Draft("", new_card, values)


def propose_card(user: models.User, slug: str, raw_card: Mapping[str, Any], raw_values: Mapping[str, Any],
                 source: str, *, scan: bytes | None = None, rate_limit: int = RATE_LIMIT,
                 window: dt.timedelta = RATE_WINDOW) -> models.Proposal:
    """Store a proposal of a card the catalogue lacks (name, type, printing, and any facts)."""
    game = _game(slug)
    errors: dict[str, str] = {}
    draft = _new_card_draft(game.slug, raw_card, raw_values, errors)
    try:
        source = validate_source(source)
    except ValueError as exc:
        errors["source"] = str(exc)
    if problem := _check_scan(scan):
        errors["scan"] = problem
    if errors:
        raise ProposalInvalid(errors)
    _decode_scans(user, {"scan": (draft, scan)} if scan is not None else {}, rate_limit, window)
    return _store(user, game.slug, [draft], source, rate_limit, window)


# ---------------------------------------------------------------------------------- set editor

def cell_text(value: Any) -> str:
    """A value as a grid cell shows it (and a form sends it back): "" when unknown, lists comma-joined."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


@dataclass
class GridRow:
    """One printing of a set in the editor: its card and each field's (text, provenance or None)."""

    number: str | None
    rarity: str | None
    card: core.Card
    cells: list[tuple[str, str | None]]


@dataclass
class SetGrid:
    """A set as the set editor shows it: every printing in collector-number order, every field."""

    game: str
    code: str
    name: str
    fields: tuple[ProposableField, ...]
    rows: list[GridRow]

    def row(self, key: str) -> GridRow | None:
        return next((r for r in self.rows if r.card.key == key), None)


def set_grid(slug: str, code: str) -> SetGrid:
    """The editor's grid of a set (NotFound for an unknown game or set).

    Kept on the catalogue (see `Catalogue.memo`): a grid changes only when the catalogue does."""
    game = _game(slug)
    catalogue = get_catalogue(game.slug)
    return catalogue.memo(("community.set_grid", str(code)), lambda: _build_grid(game, catalogue, str(code)))


def _build_grid(game, catalogue, code: str) -> SetGrid:
    from deckhub.core import search as core_search

    try:
        rows = core_search.set_rows(catalogue, code)
    except KeyError:
        raise NotFound(f"{game.name} has no set {str(code)[:80]!r}.") from None
    fields = proposable_fields(game.slug)
    out = []
    for r in rows:
        card, prov = r.card, r.card.provenance
        out.append(GridRow(r.number, r.printing.rarity, card,
                           [(cell_text(current_value(card, f.key)), prov.get(f.key) or "imported") for f in fields]))
    return SetGrid(game.slug, code, catalogue.sets[code].name, fields, out)


# ---------------------------------------------------------------------------------- batches

MAX_BATCH_CARDS = 500    # cards one batch may touch (a whole set fits)
MAX_BATCH_CELLS = 10_000


@dataclass(frozen=True)
class NewCard:
    """A card a batch adds: its identity as printed (the set defaults to the batch's set)."""

    name: str
    number: str | None = None
    rarity: str | None = None
    version: str | None = None
    set: str | None = None


def cell_id(card: str | NewCard, field_key: str, new_index: int | None = None) -> str:
    """How a batch's errors name a cell: "KEY:field" for an existing card, "new:N:field" for the
    N-th (from 0) new card of the batch."""
    return f"new:{new_index}:{field_key}" if isinstance(card, NewCard) else f"{card}:{field_key}"


def _card_ref(card: Any, set_code: str | None) -> str | NewCard:
    """A batch's card as given (a key, a NewCard or a mapping), with a new card's set defaulted."""
    if isinstance(card, Mapping):
        card = NewCard(**{k: (str(card[k]) if card.get(k) is not None else None)
                          for k in ("name", "number", "rarity", "version", "set") if k in card})
    if not isinstance(card, (str, NewCard)):
        raise ProposalInvalid({"batch": "Each change names a card (its key, or a new card) and a field."})
    if isinstance(card, NewCard) and card.set is None and set_code:
        card = NewCard(card.name, card.number, card.rarity, card.version, set_code)
    return card


def propose_batch(user: models.User, game_slug: str, changes: Iterable[tuple[Any, str, Any]], source: str,
                  scan: bytes | None = None, *, scans: Mapping[Any, bytes] | None = None, set_code: str | None = None,
                  rate_limit: int = RATE_LIMIT, window: dt.timedelta = RATE_WINDOW) -> models.ProposalBatch:
    """Store many cells as one batch of proposals (one per card) with one source: all or nothing.

    `changes` holds (card, field, value) cells: card is an existing card's key, or a `NewCard`
    (or a mapping with its name, number, rarity, version, set) for a card the catalogue lacks.
    Every value is checked exactly as `propose_facts`/`propose_card` check it; cells whose value
    is already the card's, or empty, are skipped. `scans` maps a card (key or NewCard) to the bytes
    of its photo; `scan` is a photo for a batch that touches one card. `set_code` names the set
    being edited (new cards are printed in it; scans show that printing).

    ProposalInvalid lists every problem at once, keyed by `cell_id` ("source", "batch" for the
    whole batch); nothing is stored then. RateLimited when the user is over the limit: the whole
    batch counts as ONE submission against it, however many cards it holds."""
    game = _game(game_slug)
    catalogue = get_catalogue(game.slug)
    errors: dict[str, str] = {}
    try:
        source = validate_source(source)
    except ValueError as exc:
        errors["source"] = str(exc)
    if set_code is not None and set_code not in catalogue.sets:
        raise NotFound(f"{game.name} has no set {str(set_code)[:80]!r}.")
    cells: dict[str | NewCard, dict[str, Any]] = {}
    count = 0
    for item in changes:
        count += 1
        if count > MAX_BATCH_CELLS:
            raise ProposalInvalid({"batch": f"A batch holds at most {MAX_BATCH_CELLS} values; send the rest in another."})
        try:
            card, key, value = item
        except (TypeError, ValueError):
            raise ProposalInvalid({"batch": "Each change is (card, field, value)."}) from None
        card = _card_ref(card, set_code)
        if not isinstance(key, str):
            raise ProposalInvalid({"batch": "Each change names a card (its key, or a new card) and a field."})
        row = cells.setdefault(card, {})
        if key in row and row[key] != value:
            errors[f"{card}:{key}" if isinstance(card, str) else "batch"] = f"{key} is given two different values."
        row[key] = value
    scans = {_card_ref(card, set_code): data for card, data in (scans or {}).items()}
    for card in scans:
        cells.setdefault(card, {})
    if len(cells) > MAX_BATCH_CARDS:
        raise ProposalInvalid({"batch": f"A batch touches at most {MAX_BATCH_CARDS} cards; send the rest in another."})
    if scan is not None:
        if len(cells) != 1:
            errors["scan"] = "A scan shows one card: attach it to that card's row."
        else:
            scans = {next(iter(cells)): scan}
    drafts: list[_Draft] = []
    to_decode: dict[str, tuple[_Draft, bytes]] = {}
    scan_labels: dict[str, str] = {}
    names: dict[str, int] = {}
    new_index = -1
    for card, raw in cells.items():
        if isinstance(card, NewCard):
            new_index += 1
            prefix = f"new:{new_index}:"
            label = card.name or f"new card {new_index + 1}"
            found: dict[str, str] = {}
            identity = {"name": card.name, "version": card.version, "set": card.set, "number": card.number,
                        "rarity": card.rarity, "type": raw.get("type")}
            draft = _new_card_draft(game.slug, identity, raw, found)
            norm = core.normalize_name(f"{card.name} {card.version or ''}")
            if card.name and norm in names:
                found["name"] = "is added twice in this batch"
            names[norm] = new_index
        else:
            prefix = f"{card}:"
            existing = catalogue.get(card)
            if existing is None:
                errors[f"{card}:card"] = f"{game.name} has no card with the id {card[:120]!r}."
                continue
            label = existing.display_name
            values, found = validate_values(game.slug, raw)
            values = {k: v for k, v in values.items() if current_value(existing, k) != v}
            draft = _Draft(existing.key, None, values)
        for k, message in found.items():
            errors[prefix + k] = f"{label}: {message}"
        image_bytes = scans.get(card)
        if image_bytes is not None:
            if problem := _check_scan(image_bytes):
                errors[prefix + "scan"] = f"{label}: {problem}"
            else:
                to_decode[prefix + "scan"] = (draft, image_bytes)
                scan_labels[prefix + "scan"] = label
                if draft.new_card is None:
                    draft.printing_id = _scan_printing(existing, set_code)
        if draft.new_card is not None or draft.values or image_bytes is not None:
            drafts.append(draft)
    if errors:
        raise ProposalInvalid(errors, f"{len(errors)} problem{'s' if len(errors) != 1 else ''}, nothing was sent: "
                              + "; ".join(list(errors.values())[:5]) + (" ..." if len(errors) > 5 else ""))
    if not drafts:
        raise ProposalInvalid({"batch": "Nothing to propose: no cell differs from what the catalogue knows."},
                              "Nothing to propose: no cell differs from what the catalogue knows.")
    try:
        _decode_scans(user, to_decode, rate_limit, window)
    except ProposalInvalid as exc:
        found = {k: f"{scan_labels[k]}: {v}" for k, v in exc.errors.items()}
        raise ProposalInvalid(found, f"{len(found)} problem{'s' if len(found) != 1 else ''}, nothing was sent: "
                              + "; ".join(found.values())) from None
    return _store(user, game.slug, drafts, source, rate_limit, window, batch_set=set_code, as_batch=True)


def batch_proposals(batch_id: int) -> list[models.Proposal]:
    """A batch's proposals in the order they were sent."""
    return list(models.Proposal.select(models.Proposal, models.User).join(models.User, on=models.Proposal.proposer)
                .where(models.Proposal.batch_id == batch_id).order_by(models.Proposal.id))


def get_batch(batch_id: int) -> models.ProposalBatch:
    batch = (models.ProposalBatch.select(models.ProposalBatch, models.User)
             .join(models.User, on=models.ProposalBatch.proposer).where(models.ProposalBatch.id == batch_id).first())
    if batch is None:
        raise NotFound(f"There is no batch number {batch_id}.")
    return batch


def pending_batches(slug: str | None = None, limit: int = 50) -> list[tuple[models.ProposalBatch, int]]:
    """Batches with proposals still waiting, oldest first, each with how many wait."""
    query = (models.ProposalBatch.select(models.ProposalBatch, models.User, fn.COUNT(models.Proposal.id).alias("waiting"))
             .join(models.User, on=models.ProposalBatch.proposer).switch(models.ProposalBatch)
             .join(models.Proposal, on=(models.Proposal.batch_id == models.ProposalBatch.id))
             .where(models.Proposal.status == "pending")
             .group_by(models.ProposalBatch.id, models.User.id).order_by(models.ProposalBatch.id))
    if slug:
        query = query.where(models.ProposalBatch.game == slug)
    return [(b, b.waiting) for b in query.limit(limit)]


@dataclass
class BatchRow:
    """One card of a batch in the cell diff: its proposal, the cells it changes, its scans."""

    proposal: models.Proposal
    name: str
    number: str | None
    cells: dict[str, DiffRow]
    scan_ids: list[int]


@dataclass
class BatchView:
    batch: models.ProposalBatch
    fields: list[tuple[str, str]]   # (key, label) of every field some card of the batch changes
    rows: list[BatchRow]

    @property
    def waiting(self) -> int:
        return sum(1 for r in self.rows if r.proposal.status == "pending")


def scans_of(proposal_ids: Iterable[int]) -> dict[int, list[int]]:
    """{proposal id: the ids of the scans sent with it} (evidence beside a diff)."""
    ids = list(proposal_ids)
    out: dict[int, list[int]] = {}
    if ids:
        for scan_id, pid in (models.Scan.select(models.Scan.id, models.Scan.proposal)
                             .where(models.Scan.proposal.in_(ids)).order_by(models.Scan.id).tuples()):
            out.setdefault(pid, []).append(scan_id)
    return out


def batch_diff(batch_id: int) -> BatchView:
    """A batch as a cell diff: a row per card, a column per changed field, now against proposed."""
    batch = get_batch(batch_id)
    proposals = batch_proposals(batch.id)
    scans = scans_of([p.id for p in proposals])
    catalogue = get_catalogue(batch.game)
    used: set[str] = set()
    rows = []
    for p in proposals:
        cells = {r.key: r for r in diff(p)}
        used.update(cells)
        if p.new_card is not None and isinstance(p.new_card, Mapping):
            name, number = str(p.new_card.get("name") or ""), p.new_card.get("number")
        else:
            card = catalogue.get(p.card_key)
            name = card.display_name if card else p.card_key
            number = next((pr.number for pr in (card.printings if card else ()) if pr.set_code == batch.set_code), None)
        rows.append(BatchRow(p, name, number, cells, scans.get(p.id, [])))
    fields = [(f.key, f.label) for f in proposable_fields(batch.game) if f.key in used]
    return BatchView(batch, fields, rows)


def review_batch(batch_id: int, reviewer: models.User, decisions: Mapping[int, str],
                 reason: str = "") -> dict[str, list[int]]:
    """Approve and reject a batch's waiting proposals: {proposal id: "approve" | "reject"}; ids not
    named stay waiting; rejections need `reason`. One transaction and one catalogue change for the
    whole review (a 234-card batch must not rebuild every worker's catalogue 234 times); a card
    whose approval fails its checks again is rolled back alone and reported, the others go on.

    Returns {"approved": [...], "rejected": [...], "failed": [...]} of proposal ids."""
    _require_curator(reviewer)
    batch = get_batch(batch_id)
    proposals = {p.id: p for p in batch_proposals(batch.id) if p.status == "pending"}
    if any(pid not in proposals or d not in ("approve", "reject") for pid, d in decisions.items()):
        raise CommunityError("Decide only on this batch's waiting proposals (approve or reject); nothing was changed.")
    rejecting = [pid for pid, d in decisions.items() if d == "reject"]
    reject_reason = _clean_reason(reason, required=bool(rejecting))
    approve_reason = _clean_reason(reason, required=False)
    done: dict[str, list[int]] = {"approved": [], "rejected": [], "failed": []}
    with database.atomic():
        for pid, decision in sorted(decisions.items()):
            try:
                with database.atomic():  # a savepoint: a failing card leaves the others standing
                    if decision == "approve":
                        _approve_in(proposals[pid], reviewer, approve_reason)
                    else:
                        _claim(pid, reviewer, "rejected", reject_reason)
            except (CommunityError, IntegrityError):
                done["failed"].append(pid)
            else:
                done["approved" if decision == "approve" else "rejected"].append(pid)
        if done["approved"]:
            bump_stamp(batch.game)
    return done


# ---------------------------------------------------------------------------------- reviewing

def is_curator(user) -> bool:
    return bool(getattr(user, "is_authenticated", True) and getattr(user, "is_curator", False))


def _require_curator(user) -> None:
    if not is_curator(user):
        raise NotAllowed("Only a curator may review proposals.")


def get_proposal(proposal_id: int) -> models.Proposal:
    proposal = (models.Proposal.select(models.Proposal, models.User).join(models.User, on=models.Proposal.proposer)
                .where(models.Proposal.id == proposal_id).first())
    if proposal is None:
        raise NotFound(f"There is no proposal number {proposal_id}.")
    return proposal


def pending(slug: str | None = None, limit: int = 50, offset: int = 0, batched: bool = True) -> list[models.Proposal]:
    """Proposals waiting for review, oldest first (without those sent in batches unless `batched`)."""
    query = (models.Proposal.select(models.Proposal, models.User).join(models.User, on=models.Proposal.proposer)
             .where(models.Proposal.status == "pending"))
    if not batched:
        query = query.where(models.Proposal.batch_id.is_null())
    if slug:
        query = query.where(models.Proposal.game == slug)
    return list(query.order_by(models.Proposal.created_at, models.Proposal.id).offset(offset).limit(limit))


def pending_count(slug: str | None = None, batched: bool = True) -> int:
    query = models.Proposal.select().where(models.Proposal.status == "pending")
    if not batched:
        query = query.where(models.Proposal.batch_id.is_null())
    if slug:
        query = query.where(models.Proposal.game == slug)
    return query.count()


def user_proposals(user: models.User, limit: int = 100) -> list[models.Proposal]:
    return list(models.Proposal.select().where(models.Proposal.proposer == user.id)
                .order_by(models.Proposal.created_at.desc(), models.Proposal.id.desc()).limit(limit))


def reviewed(slug: str | None = None, limit: int = 30) -> list[models.Proposal]:
    """The latest reviewed proposals, newest first (for the queue's "recently reviewed")."""
    query = (models.Proposal.select(models.Proposal, models.User).join(models.User, on=models.Proposal.proposer)
             .where(models.Proposal.status != "pending"))
    if slug:
        query = query.where(models.Proposal.game == slug)
    return list(query.order_by(models.Proposal.reviewed_at.desc(), models.Proposal.id.desc()).limit(limit))


@dataclass
class DiffRow:
    """One proposed value beside the card's current one (and why it cannot be approved, if so)."""

    key: str
    label: str
    current: Any
    provenance: str | None
    proposed: Any
    error: str | None = None

    @property
    def changes(self) -> bool:
        return self.current != self.proposed


def diff(proposal: models.Proposal) -> list[DiffRow]:
    """The proposal's values against the card's current ones, each re-checked as approval would."""
    fields = fields_by_key(proposal.game)
    card = None if proposal.new_card is not None else get_catalogue(proposal.game).get(proposal.card_key)
    rows: list[DiffRow] = []
    values = proposal.values if isinstance(proposal.values, Mapping) else {}
    if proposal.new_card is not None and isinstance(proposal.new_card, Mapping) and proposal.new_card.get("type"):
        values = {"type": proposal.new_card["type"], **values}
    for key, value in values.items():
        spec = fields.get(key)
        error = None
        if spec is None:
            error = "not a field that can be proposed"
        else:
            try:
                spec.clean(value)
            except ValueError as exc:
                error = f"{spec.label} {exc}"
        rows.append(DiffRow(key, spec.label if spec else str(key), current_value(card, key) if card else None,
                            card.provenance.get(key) if card else None, value, error))
    return rows


def revalidate(proposal: models.Proposal) -> tuple[dict[str, Any], dict[str, str | None], dict[str, str]]:
    """(values, new card, errors) as they would be approved now: every check run again."""
    values, errors = validate_values(proposal.game, proposal.values or {})
    new_card = None
    if proposal.new_card is not None:
        raw = proposal.new_card if isinstance(proposal.new_card, Mapping) else {}
        new_card, card_errors = validate_new_card(proposal.game, raw)
        errors.update(card_errors)
        values.pop("type", None)
    elif proposal.status == "pending" and get_catalogue(proposal.game).get(proposal.card_key) is None:
        errors["card"] = f"The card {proposal.card_key!r} is no longer in the catalogue."
    if (not values and proposal.new_card is None and not errors
            and not models.Scan.select().where(models.Scan.proposal == proposal.id).exists()):
        errors["values"] = "The proposal holds no value."
    return values, new_card, errors


def _claim(proposal_id: int, reviewer: models.User, status: str, reason: str, card_key: str | None = None) -> None:
    """Mark a pending proposal reviewed; CommunityError if another curator got there first."""
    changes: dict[str, Any] = {"status": status, "reviewer": reviewer.id, "reason": reason, "reviewed_at": models.utcnow()}
    if card_key is not None:
        changes["card_key"] = card_key
    updated = (models.Proposal.update(**changes)
               .where((models.Proposal.id == proposal_id) & (models.Proposal.status == "pending")).execute())
    if updated != 1:
        raise CommunityError("This proposal was reviewed already (by another curator?); nothing was changed.")


def _clean_reason(reason: str | None, required: bool) -> str:
    text = re.sub(r"\s+", " ", _CONTROL.sub(" ", reason or "")).strip()
    if required and not text:
        raise ProposalInvalid({"reason": "Give a reason: the proposer sees it."}, "Give a reason: the proposer sees it.")
    if len(text) > MAX_REASON:
        raise ProposalInvalid({"reason": f"A reason is at most {MAX_REASON} characters long."},
                              f"A reason is at most {MAX_REASON} characters long.")
    return text


def reject(proposal_id: int, reviewer: models.User, reason: str) -> models.Proposal:
    """Reject a pending proposal with a reason; nothing in the catalogue changes."""
    _require_curator(reviewer)
    reason = _clean_reason(reason, required=True)
    get_proposal(proposal_id)
    with database.atomic():
        _claim(proposal_id, reviewer, "rejected", reason)
    return get_proposal(proposal_id)


def source_label(proposal: models.Proposal) -> str:
    """How the card's list of sources names this proposal's source."""
    if proposal.source == PRINTED:
        return f"printed card owned by {proposal.proposer.username}"
    return proposal.source


def _locked_card(slug: str, key: str) -> models.Card | None:
    query = models.Card.select().where((models.Card.game == slug) & (models.Card.key == key))
    if getattr(database.obj, "for_update", False):  # PostgreSQL: two approvals of one card queue up
        query = query.for_update()
    return query.first()


def _read(row: models.Card, key: str) -> Any:
    if key == "type":
        return row.type
    if key == "text":
        return row.text
    return (row.data or {}).get("attrs", {}).get(key)


def _write(row: models.Card, data: dict, key: str, value: Any, how: str | None) -> None:
    """Set one field of a card row (in memory) with its provenance; None removes it."""
    if key in ("type", "text"):
        setattr(row, key, value)
    elif value is None:
        data["attrs"].pop(key, None)
    else:
        data["attrs"][key] = value
    if how is None:
        data["provenance"].pop(key, None)
    else:
        data["provenance"][key] = how


def _card_data(row: models.Card) -> dict:
    data = copy.deepcopy(row.data or {})
    for name, default in (("attrs", {}), ("provenance", {}), ("sources", []), ("aliases", [])):
        data.setdefault(name, default)
    return data


def _contribution(proposal: models.Proposal, reviewer_name: str | None, at: dt.datetime) -> dict[str, Any]:
    return {"proposal": proposal.id, "by": proposal.proposer.username, "reviewer": reviewer_name,
            "at": at.replace(microsecond=0).isoformat(), "source": source_label(proposal)}


def _add_source(data: dict, label: str) -> None:
    if label not in data["sources"]:
        data["sources"].append(label)
        data.setdefault("contributed_sources", [])
        if label not in data["contributed_sources"]:
            data["contributed_sources"].append(label)


def _drop_unused_sources(data: dict) -> None:
    """Forget sources that approvals added and that no contributed field cites any more."""
    cited = {c.get("source") for c in (data.get("contributions") or {}).values()}
    added = data.get("contributed_sources") or []
    gone = [s for s in added if s not in cited]
    if gone:
        data["sources"] = [s for s in data["sources"] if s not in gone]
        data["contributed_sources"] = [s for s in added if s in cited]
    if not data.get("contributed_sources"):
        data.pop("contributed_sources", None)
    if not data.get("contributions"):
        data.pop("contributions", None)


def approve(proposal_id: int, reviewer: models.User, reason: str = "") -> models.Proposal:
    """Write a pending proposal into the catalogue, with its provenance and one FactChange per field.

    Every value is checked again first (ProposalInvalid: nothing changes); a missing card becomes a
    Card (and a Printing when its set is given). Every worker sees the change at once."""
    _require_curator(reviewer)
    reason = _clean_reason(reason, required=False)
    proposal = get_proposal(proposal_id)
    _check_approvable(proposal)
    try:
        with database.atomic():
            _approve_in(proposal, reviewer, reason)
            bump_stamp(proposal.game)
    except IntegrityError:  # the same missing card approved twice at once
        raise CommunityError("The catalogue changed while this was approved (the card exists now?); "
                             "nothing was changed.") from None
    return get_proposal(proposal_id)


def _check_approvable(proposal: models.Proposal) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(values, new card) of a pending proposal whose every value passes its checks again."""
    if proposal.status != "pending":
        raise CommunityError(f"This proposal was {proposal.status} already; nothing was changed.")
    values, new_card, errors = revalidate(proposal)
    if errors:
        raise ProposalInvalid(errors, "Cannot approve: " + "; ".join(errors.values()))
    return values, new_card


def _approve_in(proposal: models.Proposal, reviewer: models.User, reason: str) -> None:
    """The writes of an approval, inside the caller's transaction (which bumps the stamp once)."""
    values, new_card = _check_approvable(proposal)
    now = models.utcnow()
    if new_card is not None:
        key = _create_card(proposal, new_card, values, reviewer, now)
        _claim(proposal.id, reviewer, "approved", reason, card_key=key)
    else:
        _claim(proposal.id, reviewer, "approved", reason)
        _apply_facts(proposal, values, reviewer, now)
    _show_scans(proposal, new_card, True)


def _show_scans(proposal: models.Proposal, new_card: Mapping[str, Any] | None, shown: bool) -> None:
    """An approval makes the proposal's scans its printing's image (a revert takes them down).

    A missing card's scan shows the printing its approval just created."""
    if shown and new_card is not None:
        printing = (models.Printing.select(models.Printing.id).join(models.Card)
                    .where((models.Card.game == proposal.game) & (models.Card.key == new_card_key(new_card["name"], new_card.get("version"))))
                    .order_by(models.Printing.id).first())
        if printing is not None:
            models.Scan.update(printing=printing.id).where(models.Scan.proposal == proposal.id).execute()
    models.Scan.update(approved=shown).where(models.Scan.proposal == proposal.id).execute()


def _apply_facts(proposal: models.Proposal, values: Mapping[str, Any], reviewer: models.User, now: dt.datetime) -> None:
    row = _locked_card(proposal.game, proposal.card_key)
    if row is None:
        raise CommunityError(f"The card {proposal.card_key!r} is no longer in the catalogue; nothing was changed.")
    data = _card_data(row)
    contributions = data.setdefault("contributions", {})
    label = source_label(proposal)
    changed = False
    for key, value in values.items():
        old = _read(row, key)
        if old == value:
            continue
        models.FactChange.create(game=proposal.game, card_key=row.key, field=key, old_value=old, new_value=value,
                                 old_provenance=data["provenance"].get(key), source=label, proposal=proposal.id,
                                 actor=reviewer.id, created_at=now)
        _write(row, data, key, value, "contributed")
        contributions[key] = _contribution(proposal, reviewer.username, now)
        changed = True
    if changed:
        _add_source(data, label)
    _drop_unused_sources(data)
    models.Card.update(type=row.type, text=row.text, data=data).where(models.Card.id == row.id).execute()


def _create_card(proposal: models.Proposal, new_card: Mapping[str, Any], values: Mapping[str, Any],
                 reviewer: models.User, now: dt.datetime) -> str:
    key = new_card_key(new_card["name"], new_card.get("version"))
    label = source_label(proposal)
    detail = _contribution(proposal, reviewer.username, now)
    facts = {k: v for k, v in values.items() if k not in ("type", "text")}
    shown = {"name": new_card["name"], "version": new_card.get("version"), "type": new_card.get("type"),
             "text": values.get("text")}
    provenance = {k: "contributed" for k, v in {**shown, **facts}.items() if v is not None}
    data = {"attrs": dict(facts), "provenance": provenance, "sources": [label], "aliases": [],
            "contributions": {k: dict(detail) for k in provenance}, "contributed_sources": [label]}
    row = models.Card.create(game=proposal.game, key=key, name=new_card["name"], norm_name=core.normalize_name(new_card["name"]),
                             version=new_card.get("version"), type=new_card.get("type"), text=values.get("text"),
                             data=data)
    if new_card.get("set"):
        card_set = models.CardSet.get((models.CardSet.game == proposal.game) & (models.CardSet.code == new_card["set"]))
        models.Printing.create(card=row.id, card_set=card_set.id, number=new_card.get("number"),
                               number_sort=number_sort(new_card.get("number")), rarity=new_card.get("rarity"),
                               position=0)
    models.FactChange.create(game=proposal.game, card_key=key, field="card", old_value=None, new_value=dict(new_card),
                             old_provenance=None, source=label, proposal=proposal.id, actor=reviewer.id, created_at=now)
    for k, v in {**{k: v for k, v in shown.items() if k in ("type", "text")}, **facts}.items():
        if v is not None:
            models.FactChange.create(game=proposal.game, card_key=key, field=k, old_value=None, new_value=v,
                                     old_provenance=None, source=label, proposal=proposal.id, actor=reviewer.id,
                                     created_at=now)
    return key


# ---------------------------------------------------------------------------------- reverting

def _live_changes(proposal: models.Proposal) -> list[models.FactChange]:
    """The proposal's approved changes that no revert has undone yet."""
    reverted = models.FactChange.select(models.FactChange.reverts).where(models.FactChange.reverts.is_null(False))
    return list(models.FactChange.select().where((models.FactChange.proposal == proposal.id)
                                                 & models.FactChange.reverts.is_null()
                                                 & models.FactChange.id.not_in(reverted))
                .order_by(models.FactChange.id))


def is_reverted(proposal: models.Proposal) -> bool:
    return (proposal.status == "approved"
            and models.FactChange.select().where(models.FactChange.proposal == proposal.id).exists()
            and not _live_changes(proposal))


def revert(proposal_id: int, curator: models.User, reason: str) -> list[models.FactChange]:
    """Undo an approval: FactChange rows restoring each field's old value and provenance.

    Refused (CommunityError) when a field was changed again since (revert the later change first),
    or when the proposal added a card that a collection now holds."""
    _require_curator(curator)
    reason = _clean_reason(reason, required=True)
    proposal = get_proposal(proposal_id)
    if proposal.status != "approved":
        raise CommunityError("Only an approved proposal can be reverted.")
    now = models.utcnow()
    with database.atomic():
        row = _locked_card(proposal.game, proposal.card_key)
        live = _live_changes(proposal)
        shown = models.Scan.select().where((models.Scan.proposal == proposal.id) & models.Scan.approved).exists()
        if not live and not shown:
            raise CommunityError("This approval changed nothing that is still in the catalogue (reverted already?).")
        if row is None:
            raise CommunityError(f"The card {proposal.card_key!r} is no longer in the catalogue.")
        if any(c.field == "card" for c in live):
            made = _remove_card(proposal, row, live, curator, reason, now)
        else:
            made = _restore_facts(proposal, row, live, curator, reason, now) if live else []
        _show_scans(proposal, None, False)
        bump_stamp(proposal.game)
    return made


def _restore_facts(proposal, row, live, curator, reason, now) -> list[models.FactChange]:
    data = _card_data(row)
    contributions = data.setdefault("contributions", {})
    for c in live:
        by = contributions.get(c.field, {}).get("proposal")
        if _read(row, c.field) != c.new_value or data["provenance"].get(c.field) != "contributed" or by != proposal.id:
            raise CommunityError(f"{field_label(proposal.game, c.field)} changed again after this approval"
                                 + (f" (proposal {by})" if by and by != proposal.id else "")
                                 + "; revert that change first. Nothing was changed.")
    made = []
    for c in live:
        _write(row, data, c.field, c.old_value, c.old_provenance)
        contributions.pop(c.field, None)
        if c.old_provenance == "contributed":
            earlier = _earlier_contribution(c)
            if earlier is not None:
                contributions[c.field] = earlier
        made.append(models.FactChange.create(
            game=proposal.game, card_key=row.key, field=c.field, old_value=c.new_value, new_value=c.old_value,
            old_provenance="contributed", source=f"revert: {reason}"[:500], proposal=proposal.id, actor=curator.id,
            reverts=c.id, created_at=now))
    _drop_unused_sources(data)
    models.Card.update(type=row.type, text=row.text, data=data).where(models.Card.id == row.id).execute()
    return made


def _earlier_contribution(change: models.FactChange) -> dict[str, Any] | None:
    """Who contributed the value a revert restores (the latest earlier approval still standing)."""
    reverted = models.FactChange.select(models.FactChange.reverts).where(models.FactChange.reverts.is_null(False))
    earlier = (models.FactChange.select().where(
        (models.FactChange.game == change.game) & (models.FactChange.card_key == change.card_key)
        & (models.FactChange.field == change.field) & (models.FactChange.id < change.id)
        & models.FactChange.reverts.is_null() & models.FactChange.proposal.is_null(False)
        & models.FactChange.id.not_in(reverted)).order_by(models.FactChange.id.desc()).first())
    if earlier is None or earlier.new_value != change.old_value:
        return None
    proposal = models.Proposal.get_or_none(models.Proposal.id == earlier.proposal_id)
    if proposal is None:
        return None
    reviewer = earlier.actor.username if earlier.actor_id and earlier.actor else None
    return _contribution(proposal, reviewer, earlier.created_at)


def _remove_card(proposal, row, live, curator, reason, now) -> list[models.FactChange]:
    owned = (models.OwnedCard.select().join(models.Printing)
             .where(models.Printing.card == row.id).exists())
    if owned:
        raise CommunityError(f"{row.name} is in someone's collection now; it cannot be removed. "
                             "Propose corrections to it instead.")
    for c in live:
        if c.field != "card" and _read(row, c.field) != c.new_value:
            raise CommunityError(f"{field_label(proposal.game, c.field)} of {row.name} changed after it was added; "
                                 "revert that change first. Nothing was changed.")
    made = [models.FactChange.create(
        game=proposal.game, card_key=row.key, field=c.field, old_value=c.new_value, new_value=None,
        old_provenance="contributed", source=f"revert: {reason}"[:500], proposal=proposal.id, actor=curator.id,
        reverts=c.id, created_at=now) for c in live]
    models.Card.delete().where(models.Card.id == row.id).execute()  # its printings go with it
    return made


# ---------------------------------------------------------------------------------- audit

def card_history(slug: str, key: str, limit: int = 500) -> list[models.FactChange]:
    """Every recorded change of a card's fields, newest first, with proposal and actor loaded."""
    if _CONTROL.search(key) or len(key) > 200:
        return []
    Actor, Proposer = models.User.alias(), models.User.alias()
    return list(models.FactChange.select(models.FactChange, models.Proposal, Proposer, Actor)
                .join(models.Proposal, join_type=JOIN.LEFT_OUTER, on=(models.FactChange.proposal == models.Proposal.id))
                .join(Proposer, join_type=JOIN.LEFT_OUTER, on=(models.Proposal.proposer == Proposer.id))
                .switch(models.FactChange)
                .join(Actor, join_type=JOIN.LEFT_OUTER, on=(models.FactChange.actor == Actor.id))
                .where((models.FactChange.game == slug) & (models.FactChange.card_key == key))
                .order_by(models.FactChange.created_at.desc(), models.FactChange.id.desc()).limit(limit))


def reverted_ids(changes: Iterable[models.FactChange]) -> set[int]:
    ids = [c.id for c in changes]
    if not ids:
        return set()
    return {r.reverts_id for r in models.FactChange.select(models.FactChange.reverts)
            .where(models.FactChange.reverts.in_(ids))}


@dataclass
class Origin:
    """Where one known field of a card came from, for the card page."""

    key: str
    label: str
    value: Any
    how: str                      # imported, derived or contributed
    sources: tuple[str, ...] = ()
    by: str | None = None         # contributed: the proposer, the curator, when, the proposal
    reviewer: str | None = None
    at: str | None = None
    proposal: int | None = None


def field_origins(card: core.Card) -> list[Origin]:
    """For every known field of a card (type, the game's fields, text), how its value is known."""
    row = models.Card.get_or_none((models.Card.game == card.game) & (models.Card.key == card.key))
    data = (row.data if row else None) or {}
    contributions = data.get("contributions") or {}
    community = set(data.get("contributed_sources") or ())
    imported = tuple(s for s in card.sources if s not in community)
    keys = ["type", *[k for k in card.attrs], "text"]
    labels = fields_by_key(card.game)
    out: list[Origin] = []
    order = {f.key: i for i, f in enumerate(proposable_fields(card.game))}
    for key in sorted(dict.fromkeys(keys), key=lambda k: order.get(k, len(order))):
        value = current_value(card, key)
        if _is_empty(value):
            continue
        how = card.provenance.get(key) or "imported"
        spec = labels.get(key)
        label = spec.label if spec else key.replace("_", " ").capitalize()
        if how == "contributed":
            detail = contributions.get(key) or {}
            out.append(Origin(key, label, value, how, (detail["source"],) if detail.get("source") else card.sources,
                              detail.get("by"), detail.get("reviewer"), detail.get("at"), detail.get("proposal")))
        elif how == "derived":
            out.append(Origin(key, label, value, how, imported))
        else:
            out.append(Origin(key, label, value, how, imported))
    return out


# ---------------------------------------------------------------------------------- export

def export_catalogue(slug: str) -> core.CatalogueData:
    """A game's catalogue as it is in the database now (contributions included)."""
    game = _game(slug)
    catalogue = get_catalogue(game.slug)
    sets = sorted(catalogue.sets.values(), key=lambda s: s.position)
    return core.CatalogueData(game.slug, list(sets), list(catalogue))


def export_path(root: Path, slug: str) -> Path:
    return Path(root) / slug / "cards.json"


def export_cards(slug: str, root: Path) -> tuple[Path, core.CatalogueData]:
    """Write `ROOT/<game>/cards.json` in the project's data/ format (`read_game_catalogue(game, ROOT)`
    and `DECKHUB_DATA_DIR=ROOT deckhub load-cards GAME` read it back).

    Refused when ROOT/<game> holds other catalogue files that load-cards would join to it (OCTGN
    set files, other *.json): their cards would be loaded twice."""
    from deckhub.importers.catalogue import write_catalogue_json

    game = _game(slug)
    path = export_path(root, game.slug)
    folder = path.parent
    others = sorted(p.name for p in folder.glob("*.json") if p.name != path.name) if folder.is_dir() else []
    others += sorted(f"sets/{p.name}" for p in (folder / "sets").glob("*.xml")) if (folder / "sets").is_dir() else []
    if others:
        raise CommunityError(f"{folder} also holds {', '.join(others[:5])}{' ...' if len(others) > 5 else ''}, which "
                             "load-cards would read as well (cards twice): export to another folder.")
    data = export_catalogue(game.slug)
    write_catalogue_json(data, path)
    return path, data

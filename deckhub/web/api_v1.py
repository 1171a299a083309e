"""The public JSON API for a user's own things: decks, collection, simulations; and its OpenAPI document.

The catalogue (`GET /api/games`, `/api/cards`, `/api/cards/<game>/<key>`) lives in `web/api.py`
and `POST /api/check` in `web/decks.py`; their shapes are fixed. Everything under `/api/` is
described by `deckhub/openapi.py`, served at `GET /api/openapi.json`.

Authentication (see the document's description, which says the same to API users):
- `Authorization: Bearer dh_...` with a personal token from the account page. A request that
  sends the header must carry a live token, or it is refused with 401 on any `/api/` path, even
  one that needs no account. Token requests are not CSRF-checked: a browser never adds the
  header by itself, so another site cannot forge one.
- The site's session cookie also works (the browser's own pages may call the API), but then every
  write (POST, PATCH, PUT, DELETE) must carry the CSRF token in an `X-CSRFToken` header, exactly as
  a form would; without it the write is refused with 400 and nothing changes.
- Operations on a user's own things without either answer 401.

Errors are `{"error": message, "status": code}` (sometimes with `errors`, the line-numbered
problems of a deck list). Every body is checked completely before anything is written, and every
write is one transaction: a refused request changes nothing.
"""
from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any, NoReturn

from flask import Blueprint, current_app, g, jsonify, request
from flask_login import current_user
from werkzeug.exceptions import RequestEntityTooLarge

from deckhub import api_tokens, card_values, checks, collection, models, simulations, tunings
from deckhub import decks as deck_store
from deckhub.catalogue_store import get_catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import find_engine
from deckhub.core.simulate import MAX_GAMES
from deckhub.db import database, write_transaction
from deckhub.games import UnknownGame, all_games, get_game
from deckhub.limits import (MAX_BODY, MAX_COLLECTION_CHANGES as MAX_CHANGES, MAX_DECK_ENTRIES, MAX_DECKLIST,
                            MAX_DESCRIPTION, MAX_ID, MAX_PACKS, MAX_PAGE, MAX_QUANTITY, MAX_SEED)
from deckhub.web.lookups import deck_or_404

bp = Blueprint("api_v1", __name__, url_prefix="/api")

MAX_PER_PAGE = 1000
DEFAULT_PER_PAGE = 100
MAX_OPTIONS_JSON = 20_000
MAX_TUNING_BUDGET = 1_000_000
DECK_FIELDS = ("name", "game", "format", "packs", "is_public", "description", "sections", "decklist")
DECK_UPDATE_FIELDS = DECK_FIELDS + ("version",)
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


class ApiError(Exception):
    def __init__(self, status: int, message: str, headers: dict | None = None, **extra: Any):
        super().__init__(message)
        self.status, self.message, self.headers, self.extra = status, message, headers or {}, extra


def fail(status: int, message: str, **extra: Any) -> NoReturn:
    raise ApiError(status, message, **extra)


@bp.app_errorhandler(ApiError)
def _api_error(exc: ApiError):
    response = jsonify({"error": exc.message, "status": exc.status, **exc.extra})
    response.status_code = exc.status
    response.headers.update(exc.headers)
    return response


# --------------------------------------------------------------------------- authentication

@bp.before_app_request
def _token_login():
    """On every `/api/` path: a bearer token, when sent, decides who the request is from."""
    if not request.path.startswith("/api/"):
        return
    request.max_content_length = min(MAX_BODY, current_app.config.get("MAX_CONTENT_LENGTH") or MAX_BODY)
    header = request.headers.get("Authorization")
    if header is None:
        return
    token = api_tokens.bearer_token(header)
    user = api_tokens.authenticate(token) if token else None
    if user is None:
        raise ApiError(401, "That API token is not valid (revoked, mistyped, or not a Bearer token). "
                            "Create one on your account page.", {"WWW-Authenticate": 'Bearer realm="DeckHub"'})
    g._login_user = user  # Flask-Login's current_user for this request only; no session is written
    g.api_token = True


@bp.before_request
def _csrf_for_session_writes():
    """Writes by a signed-in browser session need the CSRF token (header `X-CSRFToken`)."""
    if request.method not in WRITE_METHODS or g.get("api_token") or not current_app.config.get("WTF_CSRF_ENABLED", True):
        return
    if current_user.is_authenticated:
        from flask_wtf.csrf import CSRFError
        from deckhub.web import csrf
        try:
            csrf.protect()
        except CSRFError:
            fail(400, "A write signed in by the site's session needs the page's CSRF token in an X-CSRFToken "
                      "header; scripts should send an API token instead (Authorization: Bearer ...).")


def _csrf_exempt(state) -> None:
    from deckhub.web import csrf
    csrf.exempt(bp)  # CSRF is decided by `_csrf_for_session_writes`: tokens need none, sessions do


bp.record_once(_csrf_exempt)


def _user():
    if not current_user.is_authenticated:
        raise ApiError(401, "Sign in: send `Authorization: Bearer <token>` with a token from your account page.",
                       {"WWW-Authenticate": 'Bearer realm="DeckHub"'})
    return current_user


# --------------------------------------------------------------------------- reading bodies

def json_body() -> dict:
    """The request body as a JSON object; anything else is a 400 (never a 500, whatever the bytes)."""
    try:
        raw = request.get_data(cache=True)  # over the limit: refused before it is read
    except RequestEntityTooLarge:
        fail(413, f"A request body may be at most {request.max_content_length // 1024} KiB.")
    if not raw.strip():
        fail(400, "Send a JSON object as the request body.")
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        fail(400, "The request body is not valid JSON (UTF-8).")
    if not isinstance(body, dict):
        fail(400, "The request body must be a JSON object.")
    return body


def _unknown_fields(body: dict, allowed) -> None:
    extra = [k for k in body if k not in allowed]
    if extra:
        fail(400, f"Unknown field(s): {', '.join(repr(k[:40]) for k in extra[:10])}; "
                  f"the fields are {', '.join(allowed)}.")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _str(body: dict, key: str, max_len: int, required: bool = False, nullable: bool = False) -> str | None:
    value = body.get(key)
    if value is None:
        if key in body and not nullable:
            fail(400, f'"{key}" must be text, not null.')
        if required:
            fail(400, f'"{key}" is required.')
        return None
    if not isinstance(value, str):
        fail(400, f'"{key}" must be text.')
    if len(value) > max_len:
        fail(400, f'"{key}" may be at most {max_len} characters.')
    return value


def _int(value, key: str, low: int, high: int) -> int:
    if not _is_int(value):
        fail(400, f'"{key}" must be a whole number.')
    if not low <= value <= high:
        fail(400, f'"{key}" must be from {low} to {high}.')
    return value


def _page_args(default: int = DEFAULT_PER_PAGE) -> tuple[int, int]:
    def number(name: str, fallback: int, high: int) -> int:
        text = request.args.get(name)
        if text is None or text == "":
            return fallback
        if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
            fail(400, f"{name} must be a whole number from 1.")
        return min(int(text), high)
    return number("page", 1, MAX_PAGE), number("per_page", default, MAX_PER_PAGE)


def _time(value: dt.datetime | None) -> str | None:
    return None if value is None else value.replace(microsecond=0).isoformat() + "Z"


# --------------------------------------------------------------------------- the document, me

@bp.route("/openapi.json")
def openapi():
    from deckhub.openapi import document
    return jsonify(document())


@bp.route("/me")
def me():
    user = _user()
    return jsonify({"username": user.username, "is_curator": bool(user.is_curator),
                    "auth": "token" if g.get("api_token") else "session"})


# --------------------------------------------------------------------------- my card values

@bp.route("/card-values", methods=["GET", "PUT"])
def card_values_route():
    """My own values for cards the catalogue does not know: private, merged by PUT (null deletes)."""
    user = _user()
    if request.method == "GET":
        slug = request.args.get("game")
        if not slug:
            fail(400, "Name the game: ?game=neopets-tcg.")
        try:
            get_game(slug)
        except UnknownGame:
            fail(400, f"There is no game called {slug[:80]!r}.")
        return jsonify({"game": slug, "values": card_values.values_of(user.id, slug)})
    body = json_body()
    _unknown_fields(body, ("game", "values"))
    if "values" not in body:
        fail(400, '"values" is required: {"card-key": {"field": value or null}}.')
    try:
        after = card_values.put_values(user.id, body.get("game"), body["values"])
    except card_values.CardValuesError as exc:
        fail(400, str(exc))
    return jsonify({"game": body["game"], "values": after})


# --------------------------------------------------------------------------- decks

def deck_summary(row: models.Deck, version: int, owner: str | None = None) -> dict:
    """`version` is the latest version's number (versions are numbered 1, 2, ... and never removed)."""
    return {"id": row.id, "name": row.name, "game": row.game, "format": row.format, "packs": row.packs,
            "is_public": bool(row.is_public), "description": row.description or "",
            "owner": owner or row.owner.username, "version": version,
            "created_at": _time(row.created_at), "updated_at": _time(row.updated_at)}


def deck_json(stored: deck_store.StoredDeck) -> dict:
    out = deck_summary(stored.row, stored.version.number)
    sections = stored.version.data.get("sections", {})
    out["sections"] = {name: [{"card": e["card"], "qty": e["qty"]} for e in entries]
                       for name, entries in sections.items()}
    return out


def _visible(deck_id: int) -> deck_store.StoredDeck:
    return deck_or_404(deck_id)


def _own(deck_id: int) -> deck_store.StoredDeck:
    stored = _visible(deck_id)
    if not deck_store.owns(current_user, stored.row):
        if not current_user.is_authenticated:
            _user()
        fail(403, "This public deck belongs to someone else: you may read and copy it, not change it.")
    return stored


def _game(value) -> Any:
    if not isinstance(value, str):
        fail(400, '"game" must be text: one of ' + ", ".join(g.slug for g in all_games()) + ".")
    try:
        return get_game(value)
    except UnknownGame:
        fail(400, f"No game {value[:80]!r}; the games are {', '.join(g.slug for g in all_games())}.")


def _format_and_packs(spec, body: dict, current_format: str | None, current_packs: int | None):
    """The (format, packs) a create or update asks for, with the same rules as `deckhub check`."""
    format_id = current_format
    if "format" in body:
        format_id = _str(body, "format", 80, nullable=True)
    try:
        fmt = spec.format(format_id)
    except LookupError as exc:
        fail(400, str(exc).strip("'\""))
    packs = current_packs if fmt.needs_packs else None
    if "packs" in body:
        packs = body["packs"]
        if packs is not None:
            _int(packs, "packs", 1, MAX_PACKS)
            if not fmt.needs_packs:
                fail(400, f"The {spec.name} {fmt.name} format is not played with packs; send \"packs\": null.")
    if fmt.needs_packs and packs is None:
        fail(400, f"The {spec.name} {fmt.name} format needs the number of packs used (\"packs\": N).")
    return fmt, packs


def _sections(spec, value) -> Deck:
    """`{"Deck": [{"card": key, "qty": n}, ...], ...}` -> a Deck; every problem is a 400."""
    if not isinstance(value, dict):
        fail(400, '"sections" must be an object: {"Deck": [{"card": "card-id", "qty": 3}, ...]}.')
    catalogue = get_catalogue(spec.slug)
    deck = Deck(spec.slug)
    unknown: list[str] = []
    entries = 0
    for name, items in value.items():
        section = spec.section(name) if isinstance(name, str) and len(name) <= 80 else None
        if section is None:
            fail(400, f"{spec.name} decks have no section {str(name)[:80]!r}; the sections are "
                      + ", ".join(s.name for s in spec.sections) + ".")
        if not isinstance(items, list):
            fail(400, f'sections["{section.name}"] must be a list of {{"card", "qty"}} objects.')
        for i, item in enumerate(items):
            where = f'sections["{section.name}"][{i}]'
            if not isinstance(item, dict) or set(item) - {"card", "qty"} or "card" not in item:
                fail(400, f'{where} must be an object {{"card": "card-id", "qty": n}}.')
            key, qty = item["card"], item.get("qty", 1)
            if not isinstance(key, str) or not key or len(key) > 200:
                fail(400, f'{where}.card must be a card id (text).')
            _int(qty, f"{where}.qty", 1, deck_store.MAX_COPIES_PER_ENTRY)
            entries += 1
            if entries > MAX_DECK_ENTRIES:
                fail(400, f"A deck may have at most {MAX_DECK_ENTRIES} entries.")
            if catalogue.get(key) is None:
                unknown.append(key)
                continue
            deck.add(section.name, key, qty)
            if deck.sections[section.name][key] > deck_store.MAX_COPIES_PER_ENTRY:
                fail(400, f"{where}: at most {deck_store.MAX_COPIES_PER_ENTRY} copies of one card in a section.")
    if unknown:
        shown = ", ".join(repr(k[:80]) for k in unknown[:20])
        fail(400, f"{spec.name} has no card(s) {shown}{' and more' if len(unknown) > 20 else ''}. "
                  "Card ids are the `id` of GET /api/cards.", unknown_cards=unknown[:100])
    return deck


def _decklist(spec, value) -> Deck:
    from deckhub.importers.decklists import read_decklist
    if not isinstance(value, str):
        fail(400, '"decklist" must be text, one card a line ("3 Card Name").')
    if len(value) > MAX_DECKLIST:
        fail(413, f"A deck list may be at most {MAX_DECKLIST} characters.")
    parse = read_decklist(value, spec, get_catalogue(spec.slug))
    if parse.errors:
        fail(400, f"{len(parse.errors)} line(s) of the deck list could not be read; nothing was saved.",
             errors=[e.to_json() for e in parse.errors[:200]])
    for _, _, qty in parse.deck.entries():
        if qty > deck_store.MAX_COPIES_PER_ENTRY:
            fail(400, f"At most {deck_store.MAX_COPIES_PER_ENTRY} copies of one card in a section.")
    return parse.deck


def _cards(spec, body: dict) -> Deck | None:
    if "sections" in body and "decklist" in body:
        fail(400, 'Send the cards either as "sections" or as a "decklist", not both.')
    if "sections" in body:
        return _sections(spec, body["sections"])
    if "decklist" in body:
        return _decklist(spec, body["decklist"])
    return None


@bp.route("/decks", methods=["GET", "POST"])
def decks():
    return create_deck() if request.method == "POST" else list_decks()


def list_decks():
    user = _user()
    return jsonify({"decks": [deck_summary(row, n_versions, user.username)
                              for row, n_versions in deck_store.user_decks(user)]})


def create_deck():
    user = _user()
    body = json_body()
    _unknown_fields(body, DECK_FIELDS)
    name = _str(body, "name", deck_store.MAX_NAME, required=True)
    if not name.strip():
        fail(400, '"name" must not be blank.')
    spec = _game(body.get("game"))
    fmt, packs = _format_and_packs(spec, body, None, None)
    description = _str(body, "description", MAX_DESCRIPTION) or ""
    is_public = body.get("is_public", False)
    if not isinstance(is_public, bool):
        fail(400, '"is_public" must be true or false.')
    deck = _cards(spec, body) or Deck(spec.slug)
    with database.atomic():
        stored = deck_store.create_deck(user.id, spec.slug, fmt.id, name, packs, deck,
                                        note="created through the API", description=description)
        if is_public:
            models.Deck.update(is_public=True).where(models.Deck.id == stored.row.id).execute()
    response = jsonify(deck_json(deck_store.load(models.Deck.get_by_id(stored.row.id))))
    response.status_code = 201
    response.headers["Location"] = f"/api/decks/{stored.row.id}"
    return response


# One rule per path with all its methods: werkzeug answers 405 instead of 404 when an id too large
# for the `int` converter follows another rule of the same path with other methods.
@bp.route("/decks/<int:deck_id>", methods=["GET", "PATCH", "DELETE"])
def deck(deck_id: int):
    return {"GET": get_deck, "PATCH": update_deck, "DELETE": delete_deck}[request.method](deck_id)


def get_deck(deck_id: int):
    return jsonify(deck_json(_visible(deck_id)))


def update_deck(deck_id: int):
    """Change any of name, format, packs, is_public, description, cards; new cards keep a new version."""
    _user()
    stored = _own(deck_id)
    body = json_body()
    _unknown_fields(body, DECK_UPDATE_FIELDS)
    row = stored.row
    spec = get_game(row.game)
    if "game" in body and body["game"] != row.game:
        fail(400, f"A deck's game cannot change (this one is {row.game}); create a new deck instead.")
    name = _str(body, "name", deck_store.MAX_NAME)
    if name is not None and not name.strip():
        fail(400, '"name" must not be blank.')
    fmt, packs = _format_and_packs(spec, body, row.format, row.packs)
    description = _str(body, "description", MAX_DESCRIPTION)
    is_public = body.get("is_public", row.is_public)
    if not isinstance(is_public, bool):
        fail(400, '"is_public" must be true or false.')
    deck = _cards(spec, body)
    edited = None
    if deck is not None:
        if "version" not in body:
            fail(400, 'Say which version you edited: send "version" (the deck\'s "version" when you read it) '
                      'with "sections" or "decklist".')
        edited = _int(body["version"], "version", 1, MAX_ID)
    elif "version" in body:
        _int(body["version"], "version", 1, MAX_ID)
    try:
        updated = deck_store.update_deck(stored, name if name is not None else row.name,
                                         description if description is not None else row.description,
                                         fmt.id, packs, is_public, deck, edited, "updated through the API")
    except deck_store.VersionConflict as exc:
        fail(409, str(exc), version=exc.latest)
    return jsonify(deck_json(updated))


def delete_deck(deck_id: int):
    _user()
    stored = _own(deck_id)
    with database.atomic():
        deck_store.delete_deck(stored)
    return "", 204


@bp.route("/decks/<int:deck_id>/versions")
def deck_versions(deck_id: int):
    stored = _visible(deck_id)
    return jsonify({"versions": [
        {"number": v.number, "created_at": _time(v.created_at), "note": v.note,
         "cards": sum(e["qty"] for entries in v.data.get("sections", {}).values() for e in entries)}
        for v in deck_store.versions(stored.row)]})


@bp.route("/decks/<int:deck_id>/versions/<int:number>")
def deck_version(deck_id: int, number: int):
    stored = _visible(deck_id)
    version = deck_store.version(stored.row, number)
    if version is None:
        fail(404, f"Deck {deck_id} has no version {number}.")
    return jsonify(deck_json(deck_store.StoredDeck(stored.row, version)))


@bp.route("/decks/<int:deck_id>/check")
def check_stored_deck(deck_id: int):
    """The construction check of a stored deck (its latest version), as in POST /api/check."""
    stored = _visible(deck_id)
    user_id = current_user.id if current_user.is_authenticated else None
    return jsonify(checks.check_stored(stored, user_id=user_id).to_json())


# --------------------------------------------------------------------------- collection

def _entry(ref, owned: collection.Owned) -> dict:
    return {"printing": ref.id, "game": ref.game, "card": ref.card_key, "set": ref.set_code,
            "number": ref.number, **owned._asdict()}


def _printing_refs(ids) -> dict[int, Any]:
    """PrintingRef values (id, game, card key, set, number) for database ids, in one query per 500."""
    from deckhub.importers.collection_csv import PrintingRef
    out: dict[int, Any] = {}
    ids = list(dict.fromkeys(ids))
    for start in range(0, len(ids), 500):
        query = (models.Printing.select(models.Printing.id, models.Card.game, models.Card.key,
                                        models.CardSet.code, models.Printing.number)
                 .join(models.Card).switch(models.Printing).join(models.CardSet)
                 .where(models.Printing.id.in_(ids[start:start + 500])).tuples())
        for pid, game, key, code, number in query:
            out[pid] = PrintingRef(pid, game, key, code, number)
    return out


@bp.route("/collection")
def get_collection():
    """The printings the user has any quantity of, by printing id; `?game=` narrows to one game."""
    user = _user()
    page, per_page = _page_args()
    query = (models.OwnedCard.select(models.OwnedCard.printing, *[getattr(models.OwnedCard, f) for f in collection.FIELDS])
             .where((models.OwnedCard.owner == user.id)
                    & ((models.OwnedCard.quantity > 0) | (models.OwnedCard.foil_quantity > 0)
                       | (models.OwnedCard.want_quantity > 0) | (models.OwnedCard.trade_quantity > 0))))
    if "game" in request.args:
        spec = _game(request.args["game"])
        query = (query.join(models.Printing).join(models.Card).where(models.Card.game == spec.slug))
    total = query.count()
    rows = list(query.order_by(models.OwnedCard.printing).paginate(page, per_page).tuples())
    refs = _printing_refs(pid for pid, *_ in rows)
    return jsonify({"entries": [_entry(refs[pid], collection.Owned(*values)) for pid, *values in rows if pid in refs],
                    "total": total, "page": page, "per_page": per_page})


def _resolve_printing(i: int, change: dict, indexes: dict) -> int:
    """A change names a printing by `printing` (its id) or by `game` + `card` (+ `set`, `number`)."""
    where = f"changes[{i}]"
    if "printing" in change:
        if any(k in change for k in ("game", "card", "set", "number")):
            fail(400, f'{where}: name the printing by "printing" or by "game" and "card", not both.')
        return _int(change["printing"], f"{where}.printing", 1, MAX_ID)
    game, card = change.get("game"), change.get("card")
    if not isinstance(card, str) or not card:
        fail(400, f'{where}: send "printing" (an id from GET /api/collection) or "game" and "card".')
    spec = _game(game)
    index = indexes.get(spec.slug) or indexes.setdefault(spec.slug, collection.game_index(spec.slug))
    refs = index.by_card.get(card)
    if not refs:
        fail(400, f"{where}: {spec.name} has no card {card[:80]!r}.", unknown_cards=[card[:200]])
    set_code, number = change.get("set"), change.get("number")
    for key, value in (("set", set_code), ("number", number)):
        if value is not None and not isinstance(value, str):
            fail(400, f'{where}.{key} must be text.')
    if set_code is not None:
        refs = [r for r in refs if r.set_code == set_code]
    if number is not None:
        from deckhub.importers.collection_csv import norm_number
        refs = [r for r in refs if norm_number(r.number) == norm_number(number)]
    if not refs:
        fail(400, f"{where}: {card[:80]!r} has no printing in that set with that number.")
    if len(refs) > 1:
        choices = "; ".join(f"{r.set_code} #{r.number}" for r in refs[:20])
        fail(400, f'{where}: {card[:80]!r} has several printings ({choices}); say which with "set" and "number", '
                  'or send "printing".')
    return refs[0].id


@bp.route("/collection/changes", methods=["POST"])
def change_collection():
    """Add deltas to quantities, all in one transaction; each quantity stays within 0..1,000,000."""
    user = _user()
    body = json_body()
    _unknown_fields(body, ("changes",))
    changes = body.get("changes")
    if not isinstance(changes, list) or not changes:
        fail(400, '"changes" must be a non-empty list of {"printing", "field", "delta"} objects.')
    if len(changes) > MAX_CHANGES:
        fail(400, f"At most {MAX_CHANGES} changes in one request.")
    planned: list[tuple[int, str, int]] = []
    indexes: dict = {}
    for i, change in enumerate(changes):
        if not isinstance(change, dict):
            fail(400, f"changes[{i}] must be an object.")
        _unknown_fields(change, ("printing", "game", "card", "set", "number", "field", "delta"))
        pid = _resolve_printing(i, change, indexes)
        field = change.get("field", "quantity")
        if field not in collection.FIELDS:
            fail(400, f'changes[{i}].field must be one of {", ".join(collection.FIELDS)}.')
        delta = _int(change.get("delta"), f"changes[{i}].delta", -MAX_QUANTITY, MAX_QUANTITY)
        planned.append((pid, field, delta))
    refs = _printing_refs(pid for pid, _, _ in planned)
    missing = sorted({pid for pid, _, _ in planned if pid not in refs})
    if missing:
        fail(400, f"No printing(s) {', '.join(map(str, missing[:20]))}.")
    after: dict[int, collection.Owned] = {}
    # Rows are changed in printing order (a stable sort keeps each printing's own changes in the order
    # sent), so two requests naming the same printings in opposite orders cannot deadlock.
    planned.sort(key=lambda change: change[0])
    try:
        with write_transaction():
            for pid, field, delta in planned:
                after[pid] = collection.adjust(user.id, pid, field, delta)
    except LookupError:  # a printing vanished (catalogue reload) between the check and the write
        fail(409, "A printing disappeared while the changes were written; nothing was changed. Try again.")
    return jsonify({"entries": [_entry(refs[pid], owned) for pid, owned in after.items()]})


# --------------------------------------------------------------------------- simulations

def run_json(run: models.SimulationRun) -> dict:
    return {"id": run.id, "deck": run.deck_id, "version": run.version, "game": run.game, "games": run.games,
            "seed": run.seed, "options": run.options, "status": run.status, "done": run.done,
            "result": run.result, "stuck": run.stuck, "error": run.error,
            "unknown": _unknown_json(run.game, run.unknown), "settings": simulations.settings(run),
            "created_at": _time(run.created_at), "updated_at": _time(run.updated_at)}


def _unknown_json(game: str, missing: dict | None) -> dict | None:
    """What a run played without: how many cards, and each card's unknown fields (null: nothing)."""
    if not missing:
        return None
    catalogue = get_catalogue(game)
    return {"cards": len(missing), "values": [
        {"card": key, "name": catalogue.get(key).display_name if catalogue.get(key) else key, "fields": fields}
        for key, fields in missing.items()]}


@bp.route("/decks/<int:deck_id>/simulations", methods=["GET", "POST"])
def deck_simulations(deck_id: int):
    return start_simulation(deck_id) if request.method == "POST" else list_simulations(deck_id)


def list_simulations(deck_id: int):
    _user()
    stored = _own(deck_id)
    return jsonify({"simulations": [run_json(r) for r in simulations.runs_for(stored.row, 100)]})


def start_simulation(deck_id: int):
    """Start N automated goldfish games of the deck's latest version in the background (202)."""
    user = _user()
    stored = _own(deck_id)
    body = json_body()
    _unknown_fields(body, ("games", "seed", "options", "allow_unknown"))
    games = _int(body.get("games", 1000), "games", 1, MAX_GAMES)
    seed = body.get("seed")
    seed = random.SystemRandom().randrange(1, MAX_SEED) if seed is None else _int(seed, "seed", 0, MAX_SEED)
    options = body.get("options", {})
    allow_unknown = body.get("allow_unknown", False)
    if not isinstance(allow_unknown, bool):
        fail(400, '"allow_unknown" must be true or false.')
    if not isinstance(options, dict):
        fail(400, '"options" must be an object of the game\'s goldfish options.')
    if len(json.dumps(options)) > MAX_OPTIONS_JSON:
        fail(413, "Those options are too large.")
    if find_engine(get_game(stored.row.game)) is None:
        fail(400, f"{get_game(stored.row.game).name} has no goldfish engine yet.")
    try:
        run = simulations.start(user.id, stored.row, stored.version, games, seed, options, allow_unknown)
    except simulations.UnknownValues as exc:
        fail(400, str(exc), unknown_values=_unknown_json(stored.row.game, exc.missing)["values"])
    except simulations.SimulationError as exc:
        fail(exc.status, str(exc))
    except (TypeError, ValueError, AttributeError) as exc:  # an option value of the wrong shape
        fail(400, f"Those options cannot be used: {str(exc)[:200]}")
    response = jsonify(run_json(models.SimulationRun.get_by_id(run.id)))
    response.status_code = 202
    response.headers["Location"] = f"/api/simulations/{run.id}"
    return response


@bp.route("/simulations/<int:run_id>", methods=["GET", "DELETE"])
def simulation(run_id: int):
    return cancel_simulation(run_id) if request.method == "DELETE" else get_simulation(run_id)


def cancel_simulation(run_id: int):
    """Cancel a queued or running run (its unplayed chunks are dropped); an ended run is left as it is."""
    run = simulations.cancel(_user().id, run_id)
    if run is None:
        fail(404, "No simulation of yours has that number.")
    return jsonify(run_json(run))


def get_simulation(run_id: int):
    user = _user()
    run = models.SimulationRun.get_or_none((models.SimulationRun.id == run_id) & (models.SimulationRun.owner == user.id))
    if run is None:
        fail(404, "No simulation of yours has that number.")
    return jsonify(run_json(run))


# --------------------------------------------------------------------------- tuning runs

def tuning_json(run: models.TuningRun) -> dict:
    return {"id": run.id, "deck": run.deck_id, "version": run.version, "game": run.game, "budget": run.budget,
            "seed": run.seed, "candidates": run.candidate_source, "options": run.options, "status": run.status,
            "done": run.done, "total": run.total, "result": run.result, "error": run.error,
            "created_at": _time(run.created_at), "updated_at": _time(run.updated_at)}


@bp.route("/decks/<int:deck_id>/tunings", methods=["POST"])
def start_tuning(deck_id: int):
    """Start a tuning run of the deck's latest version in the background (202)."""
    user = _user()
    stored = _own(deck_id)
    body = json_body()
    _unknown_fields(body, ("budget", "seed", "options", "candidates", "allow_unknown"))
    budget = _int(body.get("budget", tunings.DEFAULT_BUDGET), "budget", 1, MAX_TUNING_BUDGET)
    seed = body.get("seed")
    seed = random.SystemRandom().randrange(1, MAX_SEED) if seed is None else _int(seed, "seed", 0, MAX_SEED)
    candidates = body.get("candidates", "collection")
    if candidates not in tunings.CANDIDATE_SOURCES:
        fail(400, f'"candidates" is one of {", ".join(tunings.CANDIDATE_SOURCES)}.')
    allow_unknown = body.get("allow_unknown", False)
    if not isinstance(allow_unknown, bool):
        fail(400, '"allow_unknown" is true or false.')
    options = body.get("options", {})
    if not isinstance(options, dict):
        fail(400, '"options" must be an object of the game\'s goldfish options.')
    if len(json.dumps(options)) > MAX_OPTIONS_JSON:
        fail(413, "Those options are too large.")
    if find_engine(get_game(stored.row.game)) is None:
        fail(400, f"{get_game(stored.row.game).name} has no goldfish engine yet.")
    try:
        run = tunings.start(user.id, stored.row, stored.version, budget, seed, options, candidates, allow_unknown)
    except simulations.SimulationError as exc:
        fail(exc.status, str(exc))
    except (TypeError, ValueError, AttributeError) as exc:  # an option value of the wrong shape
        fail(400, f"Those options cannot be used: {str(exc)[:200]}")
    response = jsonify(tuning_json(run))
    response.status_code = 202
    response.headers["Location"] = f"/api/tunings/{run.id}"
    return response


@bp.route("/tunings/<int:run_id>", methods=["GET", "DELETE"])
def tuning(run_id: int):
    user = _user()
    if request.method == "DELETE":
        run = tunings.cancel(user.id, run_id)
    else:
        run = models.TuningRun.get_or_none((models.TuningRun.id == run_id) & (models.TuningRun.owner == user.id))
    if run is None:
        fail(404, "No tuning run of yours has that number.")
    return jsonify(tuning_json(run))


# --------------------------------------------------------------------------- public decks (community)

@bp.route("/v1/decks/public")
def public_decks():
    """Everyone's public decks, as on `/decks/public`: `game`, `card`, `q`, `sort=newest|copied`, `page`."""
    from deckhub import public_decks as browser
    page, per_page = _page_args(browser.PER_PAGE)
    args = request.args
    try:
        result = browser.browse(args.get("game"), args.get("card", ""), args.get("q", ""),
                                args.get("sort") or "newest", page, min(per_page, browser.MAX_PER_PAGE))
    except browser.BrowseError as exc:
        fail(400, str(exc))
    return jsonify({"decks": [deck_summary(d.row, d.version, d.owner) | {"copies": d.copies} for d in result.decks],
                    "total": result.total, "page": result.page, "per_page": result.per_page,
                    "cards": [{"game": c.game, "id": c.key, "name": c.display_name} for c in result.cards]})

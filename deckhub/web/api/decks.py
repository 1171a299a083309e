"""A user's decks: list and create (`/api/decks`), read, change and delete (`/api/decks/<id>`).

A deck's cards are sent whole, as `sections` (`{"Deck": [{"card": id, "qty": n}]}`) or as a
`decklist` text; each change of cards keeps a new version, and a change of cards must say which
version it edited (409 with the latest `version` on a conflict). Public decks are readable by all,
changed by their owner only (403).
"""
from __future__ import annotations

from flask import jsonify, request

from deckhub.services import decks as deck_store
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.decklist import Deck
from deckhub.games import get_game
from deckhub.services.limits import (MAX_CARD_KEY, MAX_COPIES_PER_ENTRY, MAX_DECK_ENTRIES, MAX_DECK_NAME, MAX_DECKLIST,
                            MAX_DESCRIPTION, MAX_ID, MAX_NAME_FIELD, MAX_PACKS)
from deckhub.web.api.auth import own_deck, user
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import flag, game, json_body, page_args, text, time, unknown_fields, whole
from deckhub.web.api.routes import own as bp
from deckhub.web.lookups import deck_or_404

DECK_FIELDS = ("name", "game", "format", "packs", "is_public", "description", "sections", "decklist")
DECK_UPDATE_FIELDS = DECK_FIELDS + ("version",)


def deck_summary(row: models.Deck, version: int, owner: str | None = None) -> dict:
    """`version` is the latest version's number (versions are numbered 1, 2, ... and never removed)."""
    return {"id": row.id, "name": row.name, "game": row.game, "format": row.format, "packs": row.packs,
            "is_public": bool(row.is_public), "description": row.description or "",
            "owner": owner or row.owner.username, "version": version,
            "created_at": time(row.created_at), "updated_at": time(row.updated_at)}


def deck_json(stored: deck_store.StoredDeck) -> dict:
    out = deck_summary(stored.row, stored.version.number)
    sections = stored.version.data.get("sections", {})
    out["sections"] = {name: [{"card": e["card"], "qty": e["qty"]} for e in entries]
                       for name, entries in sections.items()}
    return out


def _name(body: dict, required: bool) -> str | None:
    name = text(body, "name", MAX_DECK_NAME, required=required)
    if name is not None and not name.strip():
        fail(400, '"name" must not be blank.')
    return name


def _format_and_packs(spec, body: dict, current_format: str | None, current_packs: int | None):
    """The (format, packs) a create or update asks for, with the same rules as `deckhub check`."""
    format_id = current_format
    if "format" in body:
        format_id = text(body, "format", MAX_NAME_FIELD, nullable=True)
    try:
        fmt = spec.format(format_id)
    except LookupError as exc:
        fail(400, str(exc).strip("'\""))
    packs = current_packs if fmt.needs_packs else None
    if "packs" in body:
        packs = body["packs"]
        if packs is not None:
            whole(packs, "packs", 1, MAX_PACKS)
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
        section = spec.section(name) if isinstance(name, str) and len(name) <= MAX_NAME_FIELD else None
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
            if not isinstance(key, str) or not key or len(key) > MAX_CARD_KEY:
                fail(400, f'{where}.card must be a card id (text).')
            whole(qty, f"{where}.qty", 1, MAX_COPIES_PER_ENTRY)
            entries += 1
            if entries > MAX_DECK_ENTRIES:
                fail(400, f"A deck may have at most {MAX_DECK_ENTRIES} entries.")
            if catalogue.get(key) is None:
                unknown.append(key)
                continue
            deck.add(section.name, key, qty)
            if deck.sections[section.name][key] > MAX_COPIES_PER_ENTRY:
                fail(400, f"{where}: at most {MAX_COPIES_PER_ENTRY} copies of one card in a section.")
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
        if qty > MAX_COPIES_PER_ENTRY:
            fail(400, f"At most {MAX_COPIES_PER_ENTRY} copies of one card in a section.")
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
    me = user()
    return jsonify({"decks": [deck_summary(row, n_versions, me.username)
                              for row, n_versions in deck_store.user_decks(me)]})


def create_deck():
    me = user()
    body = json_body()
    unknown_fields(body, DECK_FIELDS)
    name = _name(body, required=True)
    spec = game(body.get("game"))
    fmt, packs = _format_and_packs(spec, body, None, None)
    description = text(body, "description", MAX_DESCRIPTION) or ""
    is_public = flag(body, "is_public", False)
    deck = _cards(spec, body) or Deck(spec.slug)
    stored = deck_store.create_deck(me.id, spec.slug, fmt.id, name, packs, deck, note="created through the API",
                                    description=description, is_public=is_public)
    response = jsonify(deck_json(stored))
    response.status_code = 201
    response.headers["Location"] = f"/api/decks/{stored.row.id}"
    return response


# One rule per path with all its methods: werkzeug answers 405 instead of 404 when an id too large
# for the `int` converter follows another rule of the same path with other methods.
@bp.route("/decks/<int:deck_id>", methods=["GET", "PATCH", "DELETE"])
def deck(deck_id: int):
    return {"GET": get_deck, "PATCH": update_deck, "DELETE": delete_deck}[request.method](deck_id)


def get_deck(deck_id: int):
    return jsonify(deck_json(deck_or_404(deck_id)))


def update_deck(deck_id: int):
    """Change any of name, format, packs, is_public, description, cards; new cards keep a new version.
    Only what the body names is written: a setting it leaves out keeps whatever value it has then."""
    stored = own_deck(deck_id)
    body = json_body()
    unknown_fields(body, DECK_UPDATE_FIELDS)
    row = stored.row
    spec = get_game(row.game)
    if "game" in body and body["game"] != row.game:
        fail(400, f"A deck's game cannot change (this one is {row.game}); create a new deck instead.")
    settings = {}
    name = _name(body, required=False)
    if name is not None:
        settings["name"] = name
    if "format" in body or "packs" in body:
        fmt, settings["packs"] = _format_and_packs(spec, body, row.format, row.packs)
        settings["format"] = fmt.id
    description = text(body, "description", MAX_DESCRIPTION)
    if description is not None:
        settings["description"] = description
    if "is_public" in body:
        settings["is_public"] = flag(body, "is_public", row.is_public)
    deck = _cards(spec, body)
    edited = None
    if deck is not None:
        if "version" not in body:
            fail(400, 'Say which version you edited: send "version" (the deck\'s "version" when you read it) '
                      'with "sections" or "decklist".')
        edited = whole(body["version"], "version", 1, MAX_ID)
    elif "version" in body:
        whole(body["version"], "version", 1, MAX_ID)
    try:
        updated = deck_store.update_deck(stored, settings, deck, edited, "updated through the API")
    except deck_store.VersionConflict as exc:
        fail(409, str(exc), version=exc.latest)
    return jsonify(deck_json(updated))


def delete_deck(deck_id: int):
    deck_store.delete_deck(own_deck(deck_id))
    return "", 204


@bp.route("/v1/decks/public")
def public_decks():
    """Everyone's public decks, as on `/decks/public`: `game`, `card`, `q`, `sort=newest|copied`, `page`."""
    from deckhub.services import public_decks as browser
    page, per_page = page_args(browser.PER_PAGE, browser.MAX_PER_PAGE)
    args = request.args
    try:
        result = browser.browse(args.get("game"), args.get("card", ""), args.get("q", ""),
                                args.get("sort") or "newest", page, per_page)
    except browser.BrowseError as exc:
        fail(400, str(exc))
    return jsonify({"decks": [deck_summary(d.row, d.version, d.owner) | {"copies": d.copies} for d in result.decks],
                    "total": result.total, "page": result.page, "per_page": result.per_page,
                    "cards": [{"game": c.game, "id": c.key, "name": c.display_name} for c in result.cards]})

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
from deckhub.games import all_games, get_game
from deckhub.services.limits import MAX_COPIES_PER_ENTRY, MAX_DECK_ENTRIES, MAX_NAME_FIELD
from deckhub.web.api.auth import own_deck, user
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import json_body, page_args, time
from deckhub.web.api.routes import own as bp
from deckhub.web.lookups import deck_or_404


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


def _format_and_packs(spec, body: dict, current_format: str | None, current_packs: int | None):
    """The (format, packs) a create or update asks for, with the same rules as `deckhub check`."""
    try:
        fmt = spec.format(body.get("format", current_format))
    except LookupError as exc:
        fail(400, str(exc).strip("'\""))
    packs = current_packs if fmt.needs_packs else None
    if "packs" in body:
        packs = body["packs"]
        if packs is not None and not fmt.needs_packs:
            fail(400, f"The {spec.name} {fmt.name} format is not played with packs; send \"packs\": null.")
    if fmt.needs_packs and packs is None:
        fail(400, f"The {spec.name} {fmt.name} format needs the number of packs used (\"packs\": N).")
    return fmt, packs


def _sections(spec, value) -> Deck:
    """`{"Deck": [{"card": key, "qty": n}, ...], ...}` (shaped as the document says) -> a Deck, its
    sections, cards and copies as the game has them; every problem is a 400."""
    catalogue = get_catalogue(spec.slug)
    deck = Deck(spec.slug)
    unknown: list[str] = []
    entries = 0
    for name, items in value.items():
        section = spec.section(name) if len(name) <= MAX_NAME_FIELD else None
        if section is None:
            fail(400, f"{spec.name} decks have no section {name[:80]!r}; the sections are "
                      + ", ".join(s.name for s in spec.sections) + ".")
        for i, item in enumerate(items):
            where = f'sections["{section.name}"][{i}]'
            key, qty = item["card"], item["qty"]
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


def _decklist(spec, value: str) -> Deck:
    from deckhub.importers.decklists import read_decklist
    parse = read_decklist(value, spec, get_catalogue(spec.slug), games=all_games())
    if parse.errors:
        fail(400, f"{len(parse.errors)} line(s) of the deck list could not be read; nothing was saved.",
             errors=[e.to_json() for e in parse.errors[:200]])
    for _, _, qty in parse.deck.entries():
        if qty > MAX_COPIES_PER_ENTRY:
            fail(400, f"At most {MAX_COPIES_PER_ENTRY} copies of one card in a section.")
    return parse.deck


def _cards(spec, body: dict) -> Deck | None:
    """The cards a body sends (as "sections" or as a "decklist", the document allows one), or None."""
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
    spec = get_game(body["game"])
    fmt, packs = _format_and_packs(spec, body, None, None)
    deck = _cards(spec, body) or Deck(spec.slug)
    stored = deck_store.create_deck(me.id, spec.slug, fmt.id, body["name"], packs, deck, note="created through the API",
                                    description=body["description"], is_public=body["is_public"])
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
    row = stored.row
    spec = get_game(row.game)
    if "game" in body and body["game"] != row.game:
        fail(400, f"A deck's game cannot change (this one is {row.game}); create a new deck instead.")
    settings = {key: body[key] for key in ("name", "description", "is_public") if key in body}
    if "format" in body or "packs" in body:
        fmt, settings["packs"] = _format_and_packs(spec, body, row.format, row.packs)
        settings["format"] = fmt.id
    deck = _cards(spec, body)
    edited = None
    if deck is not None:
        if "version" not in body:
            fail(400, 'Say which version you edited: send "version" (the deck\'s "version" when you read it) '
                      'with "sections" or "decklist".')
        edited = body["version"]
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
    page, per_page = page_args(browser.MAX_PER_PAGE)
    args = request.args
    try:
        result = browser.browse(args.get("game"), args.get("card", ""), args.get("q", ""),
                                args.get("sort") or "newest", page, per_page)
    except browser.BrowseError as exc:
        fail(400, str(exc))
    return jsonify({"decks": [deck_summary(d.row, d.version, d.owner) | {"copies": d.copies} for d in result.decks],
                    "total": result.total, "page": result.page, "per_page": result.per_page,
                    "cards": [{"game": c.game, "id": c.key, "name": c.display_name} for c in result.cards]})

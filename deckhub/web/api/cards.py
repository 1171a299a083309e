"""The catalogue: the games and their cards (public).

GET /api/games                       -> [{"slug", "name", "cards", "printings", "sets": [{"code", "name", "size", "known"}]}]
GET /api/cards?game=SLUG&q=TEXT      -> {"cards": [card...], "total": N}
    with the search page's filters (set, type, in_text, each game field: `level=4`, `level_min`,
    `level_max`, `civilizations=Light`...), `page` (from 1) and `per_page` (at most MAX_CARDS_PER_PAGE).
GET /api/cards/<game>/<key>          -> one card, plus its aliases, sources and provenance, and
    `disputed`: {field: [{"value", "supporters", "sources"}]} for each field players entered
    different values for (the field itself stays null until the dispute is settled)
A card is {"id", "name", "version", "type", <each game field, null when unknown>, <other known facts>,
"text", "printings": [{"set", "number", "rarity", "promo_code"}]}: 404 for an unknown game or card,
400 for a filter value that cannot be used.
"""
from __future__ import annotations

from typing import Any

from flask import current_app, jsonify, request

from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community.agreement import disputes_of
from deckhub.core import search as core_search
from deckhub.core.cards import Card
from deckhub.games import all_games
from deckhub.services.limits import CARDS_PER_PAGE, MAX_CARDS_PER_PAGE
from deckhub.web.api.errors import fail
from deckhub.web.api.routes import catalogue as bp
from deckhub.web.lookups import game_or_404

_RESERVED = ("id", "name", "version", "type", "text", "printings")


def card_json(card: Card, game) -> dict[str, Any]:
    """A card as the API gives it: game fields flattened at the top level, unknown values null."""
    out: dict[str, Any] = {"id": card.key, "name": card.name, "version": card.version, "type": card.type}
    for f in game.fields:
        if f.key not in _RESERVED:
            out[f.key] = card.attrs.get(f.key)
    for key, value in card.attrs.items():
        if key not in _RESERVED:
            out.setdefault(key, value)
    out["text"] = card.text
    out["printings"] = [{"set": p.set_code, "number": p.number, "rarity": p.rarity, "promo_code": p.promo_code}
                        for p in card.printings]
    return out


@bp.route("/games")
def games():
    out = []
    for game in all_games():
        catalogue = get_catalogue(game.slug)
        sets = core_search.set_summaries(catalogue)
        out.append({"slug": game.slug, "name": game.name, "cards": len(catalogue),
                    "printings": sum(len(c.printings) for c in catalogue),
                    "sets": [{"code": s.code, "name": s.name, "size": s.size, "known": s.known} for s in sets]})
    return jsonify(out)


@bp.route("/cards")
def cards():
    game = game_or_404(request.args.get("game"))
    catalogue = get_catalogue(game.slug)
    per_page = min(current_app.config.get("PAGE_SIZE", CARDS_PER_PAGE), MAX_CARDS_PER_PAGE)
    req = core_search.parse_request(game, catalogue, request.args, per_page, MAX_CARDS_PER_PAGE)
    if req.problems:
        fail(400, "; ".join(req.problems) + ".")
    result = core_search.run_search(game, catalogue, req, clamp=False)
    return jsonify({"cards": [card_json(c, game) for c in result.cards], "total": result.total})


@bp.route("/cards/<slug>/<path:key>")
def card(slug: str, key: str):
    game = game_or_404(slug)
    found = get_catalogue(game.slug).get(key)
    if found is None:
        fail(404, f"{game.name} has no card {key[:120]!r}.")
    out = card_json(found, game)
    out.update(game=game.slug, display_name=found.display_name, aliases=list(found.aliases),
               sources=list(found.sources), provenance=dict(found.provenance),
               disputed={key: [{"value": c.value, "supporters": list(c.supporters), "sources": list(c.sources)}
                               for c in competing] for key, competing in disputes_of(game.slug, found.key).items()})
    return jsonify(out)

"""The JSON API (read-only catalogue for now)."""
from __future__ import annotations

from flask import Blueprint, jsonify

from deckhub.catalogue_store import get_catalogue
from deckhub.games import all_games

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.route("/games")
def games():
    out = []
    for game in all_games():
        catalogue = get_catalogue(game.slug)
        out.append({"slug": game.slug, "name": game.name, "cards": len(catalogue),
                    "printings": sum(len(c.printings) for c in catalogue)})
    return jsonify(out)

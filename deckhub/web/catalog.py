"""The card browser: games, sets, cards, search."""
from __future__ import annotations

from flask import Blueprint, render_template

from deckhub.catalogue_store import get_catalogue
from deckhub.games import all_games

bp = Blueprint("catalog", __name__)


@bp.route("/")
def index():
    rows = []
    for game in all_games():
        catalogue = get_catalogue(game.slug)
        rows.append((game, catalogue))
    return render_template("catalog/index.html", rows=rows)


@bp.route("/cards")
def search():
    return render_template("catalog/index.html", rows=[(g, get_catalogue(g.slug)) for g in all_games()])

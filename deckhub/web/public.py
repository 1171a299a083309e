"""Community pages: everyone's public decks.

Views parse the query, call one service function (`public_decks.browse`) and render.
"""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from deckhub import limits, public_decks
from deckhub.games import all_games, get_game

bp = Blueprint("public", __name__)


def _page_arg() -> int:
    text = request.args.get("page")
    if text in (None, ""):
        return 1
    page = limits.int_in_range(text, 1, 10**9)
    if page is None:
        abort(400, "page must be a whole number from 1.")
    return page


@bp.route("/decks/public")
def decks():
    args = request.args
    try:
        result = public_decks.browse(args.get("game"), args.get("card", ""), args.get("q", ""),
                                     args.get("sort") or "newest", _page_arg())
        error, status = None, 200
    except public_decks.BrowseError as exc:
        result, error, status = None, str(exc), 400
    return render_template("public/decks.html", result=result, error=error, games=all_games(),
                           sorts=public_decks.SORTS, get_game=get_game, args=args), status

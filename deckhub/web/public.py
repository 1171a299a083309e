"""Community pages: everyone's public decks, and the public want and trade lists users opt in to.

Views parse the query, call one service function (`public_decks.browse`, `trading.*`) and render.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import BooleanField

from deckhub.services import limits, public_decks, trading
from deckhub.games import all_games, get_game

bp = Blueprint("public", __name__)


class ListsVisibilityForm(FlaskForm):
    public = BooleanField("Show my want and trade lists publicly")


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


@bp.route("/users/<name>/<kind>")
def user_list(name: str, kind: str):
    if kind not in trading.KINDS:
        abort(404, "A player's public lists are /users/NAME/wants and /users/NAME/trades.")
    user = trading.public_user(name)
    if user is None:
        abort(404, "This player does not show their want and trade lists publicly (or there is no such player).")
    listing = trading.public_list(user, kind, _page_arg())
    return render_template("public/list.html", user=user, kind=kind, listing=listing,
                           game_names={g.slug: g.name for g in all_games()})


@bp.route("/collection/public-lists", methods=["POST"])
@login_required
def lists_visibility():
    form = ListsVisibilityForm()
    if not form.validate_on_submit():
        abort(400, "This form has expired or was not sent by DeckHub. Reload the page and try again.")
    if trading.set_lists_public(current_user.id, form.public.data):
        flash("Your want and trade lists are public now: anyone can see them, and they appear in other "
              "players' matches.", "success")
    else:
        flash("Your want and trade lists are private again.", "info")
    return redirect(url_for("collection.wants"), code=303)

"""*My card values*: list, edit, delete and propose my own card values; the one values form of a deck.

The rules live in `deckhub.services.card_values`; these views parse forms, call it and render. Everything
is the signed-in user's own: nobody else's values are ever read here.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from deckhub.services import card_values as service
from deckhub.services.community.fields import PRINTED
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.engine import find_engine
from deckhub.games import all_games, get_game
from deckhub.web.community import outcomes
from deckhub.web.lookups import deck_or_404, game_or_404
from deckhub.web.redirects import safe_next

bp = Blueprint("card_values", __name__, url_prefix="/card-values")


def typed_values(form) -> dict[str, dict[str, str]]:
    """The values form's `cv__<card key>__<field>` inputs that hold something: {key: {field: text}}."""
    values: dict[str, dict[str, str]] = {}
    for name, value in form.items():
        if name.startswith("cv__") and name.count("__") >= 2 and value.strip():
            _, key, field = name.split("__", 2)
            if key and field:
                values.setdefault(key[:200], {})[field[:60]] = value.strip()[:2000]
    return values


def _games():
    return [g for g in all_games() if service.enterable(g.slug)]


@bp.route("/")
@login_required
def index():
    games = _games()
    if not games:
        abort(404, "No game here lets players set card values.")
    counts = {g.slug: len(service.values_of(current_user.id, g.slug)) for g in games}
    best = max(games, key=lambda g: counts[g.slug])  # the game I have values of (the first if none)
    return redirect(url_for("card_values.game", slug=best.slug))


def _render_game(spec, status: int = 200, error: str | None = None, form=None):
    rows = service.listing(current_user.id, spec.slug)
    counts = {g.slug: sum(len(v) for v in service.values_of(current_user.id, g.slug).values()) for g in _games()}
    return render_template("card_values/game.html", spec=spec, rows=rows, games=_games(), counts=counts,
                           error=error, form=form or {}, printed=PRINTED), status


@bp.route("/<slug>", methods=["GET", "POST"])
@login_required
def game(slug: str):
    spec = game_or_404(slug)
    if not service.enterable(spec.slug):
        abort(404, f"{spec.name} has no card values a player can set.")
    if request.method == "GET":
        return _render_game(spec)
    action = request.form.get("action")
    selection = [tuple(item.split("|", 1)) for item in request.form.getlist("select") if "|" in item][:5000]
    changes: dict[str, dict] = {}
    if action == "save":
        listed = [tuple(item.split("|", 1)) for item in request.form.getlist("listed") if "|" in item][:5000]
        typed = typed_values(request.form)
        for key, field in listed:  # an emptied input deletes that value
            changes.setdefault(key, {})[field] = typed.get(key, {}).get(field)
    kind = request.form.get("source_kind")
    if action == "propose" and kind not in ("printed", "url"):  # nothing is chosen for the player
        return _render_game(spec, 400, "Choose where these values come from: a printed card you own, or a web "
                                       "page (give its address).", request.form)
    source = PRINTED if kind == "printed" else (request.form.get("source_url") or "").strip()
    try:
        done = service.change_values(current_user, spec.slug, action, changes, selection, source)
    except service.CardValuesError as exc:
        return _render_game(spec, 400, str(exc), request.form)
    if action == "save":
        flash("Your values are saved.", "info")
    elif action == "delete":
        flash(f"{done} value{'s' if done != 1 else ''} deleted.", "info")
    else:
        told = outcomes([p.status for p in done])
        flash(f"{len(done)} proposal{'s' if len(done) != 1 else ''} sent to the curators "
              f"({sum(len(p.values) for p in done)} values)"
              + (". They stay yours until a curator approves them." if told.startswith(" ") else told), "info")
    return redirect(url_for("card_values.game", slug=spec.slug))


@bp.route("/decks/<int:deck_id>", methods=["GET", "POST"])
@login_required
def deck_form(deck_id: int):
    """Every value a deck still needs, in one form, pre-filled from mine; saved as mine."""
    stored = deck_or_404(deck_id)
    spec = get_game(stored.row.game)
    if not service.enterable(spec.slug):
        abort(404, f"{spec.name} has no card values a player can set.")
    engine = find_engine(spec)
    catalogue = get_catalogue(spec.slug)
    back = safe_next(url_for("decks.show", deck_id=deck_id))
    error = None
    typed = typed_values(request.form) if request.method == "POST" else {}
    if request.method == "POST":
        try:
            service.keep_typed(current_user.id, spec.slug, typed)
        except service.CardValuesError as exc:
            error = str(exc)
        else:
            flash(f"{sum(len(v) for v in typed.values())} values saved as yours (not reviewed).", "info")
            return redirect(back)
    rows = service.values_form(engine, stored.deck, catalogue, service.values_of(current_user.id, spec.slug), typed)
    return render_template("card_values/deck.html", stored=stored, spec=spec, rows=rows, back=back, error=error,
                           form=request.form), (400 if error else 200)

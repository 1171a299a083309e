"""Taking a deck to the table: its games played (logged by the owner), the registration sheet to
print, the proxy sheet, and the exports for other sites and online tables."""
from __future__ import annotations

import datetime as dt

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import DateField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from deckhub.games import get_game
from deckhub.services import limits, played_games
from deckhub.services import decks as store
from deckhub.services.catalogue_store import get_catalogue
from deckhub.web.lookups import deck_or_404

bp = Blueprint("table", __name__, url_prefix="/decks")

RESULT_WORDS = {"win": "Win", "loss": "Loss", "draw": "Draw"}
ORDER_WORDS = {"first": "Went first", "second": "Went second"}
RECENT = 10  # games the deck page lists; the games page lists them all


class GameForm(FlaskForm):
    played_on = DateField("Date played", validators=[DataRequired(message="Write the day you played as YYYY-MM-DD.")])
    version = IntegerField("Deck version", validators=[DataRequired(), NumberRange(1, limits.MAX_ID)])
    result = SelectField("Result", choices=list(RESULT_WORDS.items()))
    order = SelectField("Turn order", choices=[("", "not noted"), ("first", "I went first"),
                                               ("second", "I went second")])
    opponent = StringField("Opponent's deck or game notes",
                           validators=[Optional(), Length(max=limits.MAX_OPPONENT)])
    note = TextAreaField("Note (yours only)", validators=[Optional(), Length(max=limits.MAX_GAME_NOTE)])


def game_form(stored: store.StoredDeck) -> GameForm:
    """The log form, set to today and the deck's latest version."""
    return GameForm(formdata=None, played_on=dt.date.today(), version=stored.version.number)


def record_context(stored: store.StoredDeck) -> dict:
    """What the deck page's *Games played* section shows the current visitor: the record when they
    may see it (`record` None otherwise), the log form for the owner."""
    if not played_games.record_visible(stored, current_user):
        return {"record": None}
    owner = store.owns(current_user, stored.row)
    return {"record": played_games.history(stored), "game_form": game_form(stored) if owner else None,
            "result_words": RESULT_WORDS, "order_words": ORDER_WORDS, "recent": RECENT}


def record_key(stored: store.StoredDeck) -> tuple:
    """The part of a kept public deck page's key that its shown record adds."""
    return played_games.stamp(stored) if stored.row.is_public and stored.row.show_record else ()


def _games_page(stored: store.StoredDeck, form: GameForm | None, status: int = 200):
    context = record_context(stored)
    if form is not None:
        context["game_form"] = form
    return render_template("decks/games.html", stored=stored, spec=get_game(stored.row.game),
                           owner=store.owns(current_user, stored.row), everything=True, **context), status


@bp.route("/<int:deck_id>/games")
def games(deck_id: int):
    stored = deck_or_404(deck_id)
    if not played_games.record_visible(stored, current_user):
        abort(404, "This deck's games played are its owner's.")
    return _games_page(stored, None)


@bp.route("/<int:deck_id>/games", methods=["POST"])
@login_required
def log_game(deck_id: int):
    stored = deck_or_404(deck_id, mine=True)
    form = GameForm()
    if form.validate_on_submit():
        try:
            played_games.record(stored, form.result.data, form.played_on.data, form.version.data,
                                form.order.data or None, form.opponent.data or "", form.note.data or "")
        except played_games.GameLogError as exc:
            form.form_errors.append(str(exc))
        else:
            flash(f"{RESULT_WORDS[form.result.data]} logged.", "success")
            return redirect(url_for("decks.show", deck_id=deck_id, _anchor="games"), code=303)
    return _games_page(stored, form, 400)


@bp.route("/<int:deck_id>/games/<int:game_id>/delete", methods=["POST"])
@login_required
def delete_game(deck_id: int, game_id: int):
    stored = deck_or_404(deck_id, mine=True)
    if not played_games.delete(stored, game_id):
        abort(404, "This deck has no such game logged.")
    flash("Game deleted.", "info")
    return redirect(url_for("table.games", deck_id=deck_id), code=303)


# --------------------------------------------------------------------------- registration sheet

def sheet_sections(stored: store.StoredDeck) -> list[dict]:
    """Each of the game's sections with its cards as a registration sheet lists them: count, name,
    set and collector number of the card's first numbered printing (None where no number is known)."""
    spec = get_game(stored.row.game)
    catalogue = get_catalogue(spec.slug)
    deck = stored.deck
    out = []
    for section in spec.sections:
        rows = []
        for key, qty in deck.sections.get(section.name, {}).items():
            card = catalogue.get(key)
            printing = next((p for p in card.printings if p.number), None) if card else None
            printing = printing or (card.printings[0] if card and card.printings else None)
            card_set = catalogue.sets.get(printing.set_code) if printing else None
            rows.append({"qty": qty, "name": card.display_name if card else key,
                         "set": card_set.name if card_set else (printing.set_code if printing else None),
                         "number": printing.number if printing else None})
        rows.sort(key=lambda r: r["name"].casefold())
        out.append({"name": section.name, "rows": rows, "count": sum(r["qty"] for r in rows)})
    return out


@bp.route("/<int:deck_id>/print")
def print_sheet(deck_id: int):
    stored = deck_or_404(deck_id)
    spec = get_game(stored.row.game)
    player = " ".join((request.args.get("player") or "").split())[:80]
    event = " ".join((request.args.get("event") or "").split())[:120]
    day = request.args.get("date") or ""
    try:
        day = dt.date.fromisoformat(day).isoformat() if day else ""
    except ValueError:
        day = ""
    sections = sheet_sections(stored)
    return render_template("decks/print.html", stored=stored, spec=spec, sections=sections,
                           fmt=spec.format(stored.row.format), player=player, event=event, day=day,
                           total=sum(s["count"] for s in sections))

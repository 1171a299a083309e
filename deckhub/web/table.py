"""Taking a deck to the table: its games played (logged by the owner), the registration sheet to
print, the proxy sheet, and the exports for other sites and online tables."""
from __future__ import annotations

import datetime as dt

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import DateField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from deckhub.core import proxies as proxy_layout
from deckhub.games import get_game
from deckhub.services import limits, played_games, table_pictures
from deckhub.services import decks as store
from deckhub.services.catalogue_store import get_catalogue
from deckhub.web import page_cache
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


def log_form_html(stored: store.StoredDeck, form: GameForm | None = None) -> Markup:
    """The owner's log form: `form` as sent back (with its errors), else a fresh one, which is the
    same all day for one deck version and sharing setting and so is kept (see `page_cache`)."""
    if form is not None:
        return Markup(render_template("decks/_log_game.html", stored=stored, game_form=form))
    row = stored.row
    catalogue = get_catalogue(row.game)
    key = page_cache.page_key(row.id, stored.version.number, dt.date.today(), row.is_public, row.show_record)
    html = page_cache.kept(catalogue, "deck-log-form", key)
    if html is None:
        html = page_cache.keep(catalogue, "deck-log-form", key, render_template(
            "decks/_log_game.html", stored=stored, game_form=game_form(stored)))
    return Markup(html)


def record_context(stored: store.StoredDeck, viewer, form: GameForm | None = None) -> dict:
    """What the deck page's *Games played* section shows `viewer` (the current user): the record
    when they may see it (`record` None otherwise), the log form for the owner (`form` when sent back)."""
    if not played_games.record_visible(stored, viewer):
        return {"record": None}
    owner = store.owns(viewer, stored.row)
    return {"record": played_games.history(stored), "log_form": log_form_html(stored, form) if owner else None,
            "result_words": RESULT_WORDS, "order_words": ORDER_WORDS, "recent": RECENT}


def record_key(stored: store.StoredDeck) -> tuple:
    """The part of a kept public deck page's key that its shown record adds."""
    return played_games.stamp(stored) if stored.row.is_public and stored.row.show_record else ()


def _games_page(stored: store.StoredDeck, form: GameForm | None, status: int = 200):
    context = record_context(stored, current_user, form)
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


# --------------------------------------------------------------------------- proxies and online tables

def _paper() -> proxy_layout.Sheet:
    paper = request.args.get("paper") or "a4"
    if paper not in proxy_layout.PAPERS:
        abort(400, "Proxy sheets print on A4 (?paper=a4) or Letter (?paper=letter).")
    return proxy_layout.sheet(paper)


@bp.route("/proxies.css")
def proxy_css():
    """Where the proxy sheet's cards and crop marks go, for A4 and Letter (from the one layout the PDF uses)."""
    return Response(proxy_layout.stylesheet(), mimetype="text/css", headers={"Cache-Control": "public, max-age=3600"})


@bp.route("/<int:deck_id>/proxies")
def proxy_sheet(deck_id: int):
    stored = deck_or_404(deck_id)
    layout = _paper()
    try:
        cards = table_pictures.proxy_cards(stored.deck)
    except table_pictures.TableError as exc:
        abort(400, str(exc))
    catalogue = get_catalogue(stored.row.game)
    names = {key: (catalogue.get(key).display_name if catalogue.get(key) else key) for key in set(cards)}
    return render_template("decks/proxies.html", stored=stored, layout=layout, papers=proxy_layout.PAPERS,
                           pages=proxy_layout.pages(cards), names=names, total=len(cards),
                           marks=len(layout.crop_marks()))


@bp.route("/<int:deck_id>/proxies.pdf")
def proxy_pdf(deck_id: int):
    stored = deck_or_404(deck_id)
    layout = _paper()
    try:
        body = table_pictures.proxy_pdf(stored, layout.paper)
    except table_pictures.TableError as exc:
        abort(400, str(exc))
    return Response(body, mimetype="application/pdf", headers={
        "Content-Disposition": f'inline; filename="proxies-{deck_id}-{layout.paper}.pdf"'})


def _sheet_deck(deck_id: int) -> store.StoredDeck:
    """The deck of a Tabletop Simulator picture: one the visitor may read, or any deck whose link
    token the address carries (Tabletop Simulator fetches the pictures without the player's session)."""
    shared = table_pictures.shared_deck(deck_id, request.args.get("t") or "")
    return shared or deck_or_404(deck_id)


@bp.route("/<int:deck_id>/tts/sheet-<int:number>.png")
def tts_sheet(deck_id: int, number: int):
    stored = _sheet_deck(deck_id)
    version = limits.int_in_range(request.args["v"], 1, limits.MAX_ID) if request.args.get("v") else None
    if request.args.get("v") and version is None:
        abort(404, "?v= is a version number of the deck.")
    try:
        body = table_pictures.tts_sheet(stored, number, version)
    except table_pictures.TableError as exc:
        abort(404, str(exc))
    return Response(body, mimetype="image/png", headers={"Cache-Control": "private, max-age=3600"})


@bp.route("/<int:deck_id>/tts/back.png")
def tts_back(deck_id: int):
    stored = _sheet_deck(deck_id)
    return Response(table_pictures.tts_back(stored.row.game), mimetype="image/png",
                    headers={"Cache-Control": "private, max-age=86400"})

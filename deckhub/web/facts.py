"""Card facts in bulk in the browser: a facts CSV uploaded (checked, then proposed) and downloaded,
and the *Most wanted* page (what each catalogue knows, `GET /api/games/SLUG/completeness`, is the
JSON API's, in `web/api/completeness.py`).

The upload keeps no state on the server between its check and its commit: the checked page carries
the file's text in a hidden field, and the commit checks it all again (`facts.commit_import`), so any
worker may serve either step and an edited form can do no more than a new upload could.
"""
from __future__ import annotations

import datetime as dt

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.utils import secure_filename

from deckhub import community
from deckhub import facts as service
from deckhub.games import UnknownGame, all_games, get_game
from deckhub.importers.facts_csv import IDENTITY, SOURCE

bp = Blueprint("facts", __name__)

MAX_FILE_BYTES = 2 * 1024 * 1024  # a whole game's facts are a few hundred kilobytes
MOST_WANTED = 100


class UploadForm(FlaskForm):
    file = FileField("CSV file", validators=[FileRequired("Choose a CSV file of card facts.")])


def _game_or_404(slug: str):
    try:
        return get_game(slug)
    except UnknownGame:
        known = ", ".join(g.slug for g in all_games())
        abort(404, description=f"DeckHub has no game called {slug[:80]!r}. The games are: {known}.")


def _limits() -> dict:
    return {"rate_limit": int(current_app.config.get("PROPOSAL_RATE_LIMIT", community.RATE_LIMIT)),
            "window": dt.timedelta(seconds=int(current_app.config.get("PROPOSAL_RATE_WINDOW",
                                                                      community.RATE_WINDOW.total_seconds())))}


def _help() -> dict:
    return {"identity": IDENTITY, "source": SOURCE, "printed": community.PRINTED, "games": list(all_games()),
            "max_proposals": service.MAX_FILE_PROPOSALS, "max_rows": service.WEB_MAX_ROWS, "limit_mb": MAX_FILE_BYTES / (1024 * 1024)}


def _preview_page(text: str, filename: str, preview: service.FactsPreview, status: int, message: str = ""):
    return render_template("facts/preview.html", text=text, filename=filename, preview=preview, message=message,
                           game_names={g.slug: g.name for g in all_games()}), status


@bp.route("/facts/import", methods=["GET", "POST"])
@login_required
def import_upload():
    """Upload a facts CSV: the answer is its dry run (every change, every problem); nothing is written."""
    form = UploadForm()
    if form.validate_on_submit():
        data = form.file.data.read(MAX_FILE_BYTES + 1)
        filename = (form.file.data.filename or "facts.csv")[:200]
        if len(data) > MAX_FILE_BYTES:
            form.file.errors.append(f"The file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; "
                                    "split it (one set a file works well).")
        else:
            try:
                preview = service.preview_import(data, service.WEB_MAX_ROWS)
            except service.FactsFileError as exc:
                form.file.errors.append(str(exc))
            else:
                return _preview_page(service.decode_text(data), filename, preview, 200 if preview.ok else 400)
    return render_template("facts/import.html", form=form, **_help()), (400 if request.method == "POST" else 200)


@bp.route("/facts/import/commit", methods=["POST"])
@login_required
def import_commit():
    """Propose a checked file: checked again, then one proposal per changed card, all or nothing."""
    text = request.form.get("csv", "")
    filename = (request.form.get("filename") or "facts.csv")[:200]
    if not text.strip() or len(text.encode("utf-8")) > MAX_FILE_BYTES:
        abort(400, description="No facts file came with this form (or it is too large): upload it again.")
    try:
        made = service.commit_import(current_user, text, max_rows=service.WEB_MAX_ROWS, **_limits())
    except service.FactsFileError as exc:
        abort(400, description=f"The file cannot be read: {exc}")
    except service.ImportRejected as exc:
        return _preview_page(text, filename, exc.preview, 429 if exc.limited else 400, str(exc))
    if not made:
        flash(f"Nothing to propose: every value in {filename} is what the catalogue has already.", "info")
        return redirect(url_for(".import_upload"), code=303)
    flash(f"Thank you: {len(made)} proposal{'s' if len(made) != 1 else ''} from {filename} "
          f"{'wait' if len(made) != 1 else 'waits'} for a curator.", "success")
    return redirect(url_for("community.mine"), code=303)


@bp.route("/games/<slug>/facts.csv")
def export(slug: str):
    """What the catalogue knows of a game's cards (`?set=CODE`: one set's), as a facts CSV to fill in
    and upload again."""
    game = _game_or_404(slug)
    code = request.args.get("set") or None
    try:
        body = service.export_csv(game.slug, code)
    except service.UnknownSet as exc:
        abort(404, description=str(exc))
    name = f"deckhub-facts-{game.slug}{'-' + secure_filename(code) if code else ''}.csv"
    return Response(body.encode("utf-8"), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{name}"',
        "X-Content-Type-Options": "nosniff",
    })


@bp.route("/most-wanted")
def most_wanted():
    """The unknown facts that hold back the most decks and goldfish games, each with where to enter it."""
    slug = (request.args.get("game") or "").strip()
    game = _game_or_404(slug) if slug else None
    wanted = service.most_wanted(game.slug if game else None, MOST_WANTED)
    return render_template("facts/most_wanted.html", game=game, wanted=wanted, games=list(all_games()),
                           game_names={g.slug: g.name for g in all_games()})

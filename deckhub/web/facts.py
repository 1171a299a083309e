"""Card facts in bulk in the browser: a facts CSV uploaded (checked, then proposed) and downloaded,
and the *Most wanted* page (what each catalogue knows, `GET /api/games/SLUG/completeness`, is the
JSON API's, in `web/api/completeness.py`).

An upload is a job (see `deckhub.services.facts_uploads`): the request stores the file and queues its dry
run; the upload's page refreshes itself while a worker checks it (no JavaScript needed), then shows
every change and problem, and proposing writes what the worker stored.
"""
from __future__ import annotations

import datetime as dt
import json

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.utils import secure_filename

from deckhub.services.community.dump import catalogue_dump
from deckhub.services.community.errors import RateLimited
from deckhub.services.community.fields import PRINTED
from deckhub.services.community.rate_limits import RATE_LIMIT, RATE_WINDOW
from deckhub.services import facts as service
from deckhub.services import facts_uploads as uploads
from deckhub.games import all_games
from deckhub.importers.facts_csv import IDENTITY, SOURCE
from deckhub.services.limits import MAX_PAGE, int_in_range
from deckhub.web.community import outcomes
from deckhub.web.lookups import game_or_404

bp = Blueprint("facts", __name__)

MOST_WANTED = 100


class UploadForm(FlaskForm):
    file = FileField("CSV file", validators=[FileRequired("Choose a CSV file of card facts.")])


def _limits() -> dict:
    return {"rate_limit": int(current_app.config.get("PROPOSAL_RATE_LIMIT", RATE_LIMIT)),
            "window": dt.timedelta(seconds=int(current_app.config.get("PROPOSAL_RATE_WINDOW",
                                                                      RATE_WINDOW.total_seconds())))}


def _help() -> dict:
    return {"identity": IDENTITY, "source": SOURCE, "printed": PRINTED, "games": list(all_games()),
            "max_proposals": service.MAX_FILE_PROPOSALS, "max_rows": service.WEB_MAX_ROWS, "limit_mb": uploads.MAX_UPLOAD_BYTES / (1024 * 1024)}


@bp.route("/facts/import", methods=["GET", "POST"])
@login_required
def import_upload():
    """Upload a facts CSV: it is stored and its dry run queued; nothing is proposed yet."""
    form = UploadForm()
    status = 400 if request.method == "POST" else 200
    if form.validate_on_submit():
        try:
            row = uploads.create(current_user, form.file.data.read(uploads.MAX_UPLOAD_BYTES + 1),
                                 form.file.data.filename or "facts.csv")
        except uploads.UploadError as exc:
            form.file.errors.append(str(exc))
            status = exc.status
        else:
            return redirect(url_for(".import_preview", token=row.token), code=303)
    return render_template("facts/import.html", form=form, **_help()), status


def _upload_or_404(token: str):
    upload = uploads.get(current_user, token)
    if upload is None:
        abort(404, description="There is no facts file waiting with that link (it may have expired: files wait "
                               "two hours). Upload it again.")
    return upload


@bp.route("/facts/import/<token>")
@login_required
def import_preview(token: str):
    """The upload's check: its progress while it runs (the page refreshes itself), then every change and
    every problem, a page of rows at a time."""
    upload = _upload_or_404(token)
    if upload.state != "ready":
        return render_template("facts/progress.html", upload=upload, job=uploads.job_status(upload), token=token), \
            (400 if upload.state == "failed" else 200)
    rows, page, pages = uploads.preview_rows(upload, int_in_range(request.args.get("page"), 1, MAX_PAGE) or 1)
    return render_template("facts/preview.html", upload=upload, summary=upload.summary, rows=rows, token=token,
                           page=page, pages=pages, max_suggested=uploads.MAX_SUGGESTED, game_names={g.slug: g.name for g in all_games()}), \
        (400 if upload.summary["problems"] else 200)


@bp.route("/facts/import/<token>/propose", methods=["POST"])
@login_required
def import_propose(token: str):
    """Propose a checked file: one proposal per changed card, all or nothing."""
    upload = _upload_or_404(token)
    try:
        made = uploads.propose(current_user, token, **_limits())
    except uploads.UploadError as exc:
        abort(exc.status, description=str(exc))
    except RateLimited as exc:
        abort(429, description=f"{exc} Nothing was proposed; the checked file waits here until it expires.")
    if not made:
        flash(f"Nothing to propose: every value in {upload.filename} is what the catalogue has already.", "info")
        return redirect(url_for(".import_upload"), code=303)
    flash(f"Thank you: {len(made)} proposal{'s' if len(made) != 1 else ''} from {upload.filename}"
          f"{outcomes([p.status for p in made])}", "success")
    return redirect(url_for("community.mine"), code=303)


@bp.route("/facts/import/<token>/discard", methods=["POST"])
@login_required
def import_discard(token: str):
    _upload_or_404(token)
    uploads.discard(current_user, token)
    flash("The facts file was discarded; nothing was proposed.", "info")
    return redirect(url_for(".import_upload"), code=303)


@bp.route("/games/<slug>/facts.csv")
def export(slug: str):
    """What the catalogue knows of a game's cards (`?set=CODE`: one set's), as a facts CSV to fill in
    and upload again."""
    game = game_or_404(slug)
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


@bp.route("/games/<slug>/catalogue.json")
def dump(slug: str):
    """The game's catalogue with every fact's provenance, dated and versioned (an open dump)."""
    game = game_or_404(slug)
    body = catalogue_dump(game.slug)
    name = f"deckhub-{game.slug}-{body['date']}-v{body['catalogue_version']}.json"
    return Response(json.dumps(body, ensure_ascii=False, indent=1).encode("utf-8"), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "X-Content-Type-Options": "nosniff"})


@bp.route("/most-wanted")
def most_wanted():
    """The unknown facts that hold back the most decks and goldfish games, each with where to enter it."""
    slug = (request.args.get("game") or "").strip()
    game = game_or_404(slug) if slug else None
    wanted = service.most_wanted(game.slug if game else None, MOST_WANTED)
    return render_template("facts/most_wanted.html", game=game, wanted=wanted, games=list(all_games()),
                           game_names={g.slug: g.name for g in all_games()})

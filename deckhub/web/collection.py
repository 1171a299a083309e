"""My collection in the browser: overview, set checklists, ± controls, CSV import/export, want list.

Every page is the signed-in user's own: URLs carry no user name, and the only per-user URLs
(pending imports) are random tokens bound to their user, so anyone else gets a 404.

Large imports: the commit runs in a background thread of the worker that received it, and the
progress is written to the pending upload's status file in the instance folder, so the progress
page (a plain page that refreshes itself every second, no JavaScript needed) shows it from any
worker. Small files are committed within the request and land on the same result page.
"""
from __future__ import annotations

import threading
from urllib.parse import urlsplit

from flask import (Blueprint, Response, abort, current_app, flash, jsonify, redirect, render_template, request,
                   url_for)
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms import HiddenField, IntegerField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, NumberRange, Optional, Regexp

from deckhub import collection as service
from deckhub.games import UnknownGame, all_games, get_game
from deckhub.importers.collection_csv import COLUMNS, MAX_QUANTITY, QTY_LABELS, CollectionFileError
from deckhub.limits import MAX_ID
from deckhub.web.lookups import deck_or_404

bp = Blueprint("collection", __name__, url_prefix="/collection")

PREVIEW_PAGE = 200  # rows per page of the dry run


class ImportForm(FlaskForm):
    file = FileField("CSV file", validators=[FileRequired("Choose a CSV file to import.")])
    game = SelectField("Game", validators=[Optional()])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game.choices = [SelectChoice("", "Each row's game column says")] + [
            SelectChoice(g.slug, g.name) for g in all_games()]


class AdjustForm(FlaskForm):
    """One change: `field` and `delta`, or both in one button value, `step` = "foil_quantity:-1"."""

    printing = IntegerField(validators=[DataRequired(), NumberRange(1, MAX_ID)])
    step = StringField(validators=[Optional(), Regexp(r"^[a-z_]+:[+-]?\d{1,7}$")])
    field = StringField(validators=[Optional()])
    delta = IntegerField(validators=[Optional(), NumberRange(-MAX_QUANTITY, MAX_QUANTITY)])
    next = HiddenField()

    def change(self) -> tuple[str, int] | None:
        if self.step.data:
            name, _, delta = self.step.data.partition(":")
        else:
            name, delta = self.field.data, self.delta.data
        if name not in service.FIELDS or delta is None or abs(int(delta)) > MAX_QUANTITY:
            return None
        return name, int(delta)


def _store() -> service.UploadStore:
    folder = current_app.config.get("COLLECTION_UPLOAD_DIR") or f"{current_app.instance_path}/collection-imports"
    return service.UploadStore(folder)


def _safe_next(target: str | None, default: str) -> str:
    target = target or ""
    parts = urlsplit(target)
    if target.startswith("/") and not target.startswith("//") and not parts.netloc and not parts.scheme \
            and "\\" not in target:
        return target
    return default


def _game_or_404(slug: str):
    try:
        return get_game(slug)
    except UnknownGame:
        abort(404, description=f"DeckHub has no game called “{slug[:80]}”.")


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(exc):
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    return render_template("collection/too_large.html", limit_mb=limit / (1024 * 1024)), 413


@bp.app_template_global("collection_owned")
def collection_owned(printing_ids) -> dict:
    """{printing id: Owned} of the signed-in user, in one query (for pages that show ± controls)."""
    if not current_user.is_authenticated:
        return {}
    if isinstance(printing_ids, int):
        printing_ids = [printing_ids]
    return service.owned_for(current_user, printing_ids)


@bp.app_template_global("collection_printing_id")
def collection_printing_id(card, printing) -> int | None:
    """The database id of one of a `core.cards.Card`'s printings (the card pages show core values;
    the ± partial needs the id)."""
    refs = service.game_index(card.game).by_card.get(card.key, [])
    try:
        position = card.printings.index(printing)
    except ValueError:
        return None
    if position < len(refs) and (refs[position].set_code, refs[position].number) == (printing.set_code, printing.number):
        return refs[position].id
    return next((r.id for r in refs if (r.set_code, r.number) == (printing.set_code, printing.number)), None)


@bp.app_context_processor
def _collection_globals():
    return {"QTY_LABELS": QTY_LABELS, "NO_CARDS_OWNED": service.NOTHING}


# --------------------------------------------------------------------------- overview and checklists

@bp.route("/")
@login_required
def overview():
    return render_template("collection/overview.html", games=service.collection_overview(current_user))


@bp.route("/<slug>/sets/<code>")
@login_required
def checklist(slug: str, code: str):
    game = _game_or_404(slug)
    show = request.args.get("show", "all")
    checklist = service.set_checklist(current_user, game.slug, code, show)
    if checklist is None:
        abort(404, description=f"{game.name} has no set “{code[:80]}”.")
    return render_template("collection/checklist.html", checklist=checklist, filters=service.CHECKLIST_FILTERS)


@bp.route("/<slug>/sets/<code>/print")
@login_required
def checklist_print(slug: str, code: str):
    game = _game_or_404(slug)
    checklist = service.set_checklist(current_user, game.slug, code, request.args.get("show", "all"))
    if checklist is None:
        abort(404, description=f"{game.name} has no set “{code[:80]}”.")
    return render_template("collection/checklist_print.html", checklist=checklist, filters=service.CHECKLIST_FILTERS)


@bp.route("/wants")
@login_required
def wants():
    rows = [r for r in service.export_rows(current_user) if r.want_quantity > 0 or r.trade_quantity > 0]
    names = {g.slug: g.name for g in all_games()}
    return render_template("collection/wants.html", rows=rows, game_names=names)


@bp.route("/adjust", methods=["POST"])
@login_required
def adjust():
    """A ± button: add `delta` to one quantity of one printing, then go back where the user was."""
    form = AdjustForm()
    wants_json = request.accept_mimetypes.best == "application/json"
    change = form.change() if form.validate() else None
    if change is None:
        if wants_json:
            return jsonify({"error": "bad request", "fields": form.errors}), 400
        abort(400, description="That change could not be read. Reload the page and try again.")
    try:
        owned = service.adjust(current_user, form.printing.data, *change)
    except LookupError:
        abort(404, description="There is no such printing.")
    if wants_json:
        return jsonify({"printing": form.printing.data, **owned._asdict()})
    target = _safe_next(form.next.data, url_for(".overview"))
    return redirect(f"{target.split('#', 1)[0]}#p{form.printing.data}", code=303)


@bp.route("/decks/<int:deck_id>/add-missing", methods=["POST"])
@login_required
def add_missing(deck_id: int):
    """Put what a deck (mine, or a public one) still needs on my want list."""
    from deckhub.catalogue_store import get_catalogue
    stored = deck_or_404(deck_id)
    own = stored.row.owner_id == current_user.id
    added = service.add_missing_to_wants(current_user, stored.version.data, get_catalogue(stored.row.game),
                                         deck_id=stored.row.id if own else None,
                                         shared=request.form.get("shared") == "1")
    copies = sum(n for _, _, n in added)
    if copies:
        flash(f"Added {copies} card{'s' if copies != 1 else ''} to your want list.", "success")
    else:
        flash("Your want list already covers every card this deck is missing.", "info")
    return redirect(_safe_next(request.form.get("next"), url_for("decks.show", deck_id=deck_id)), code=303)


# --------------------------------------------------------------------------- import

@bp.route("/import", methods=["GET", "POST"])
@login_required
def import_upload():
    form = ImportForm()
    if form.validate_on_submit():
        upload = form.file.data
        data = upload.read()
        try:
            service.parse_collection_csv(data)  # unreadable files are refused here, before storing
        except CollectionFileError as exc:
            form.file.errors.append(str(exc))
        else:
            token = _store().save(current_user, data, upload.filename or "upload.csv", form.game.data or None)
            return redirect(url_for(".import_preview", token=token), code=303)
    return render_template("collection/import.html", form=form, columns=COLUMNS,
                           limit_mb=(current_app.config.get("MAX_CONTENT_LENGTH") or 0) / (1024 * 1024)), \
        (400 if form.errors else 200)


def _pending_or_404(token: str) -> tuple[dict, service.UploadStore]:
    store = _store()
    meta = store.meta(token, current_user)
    if meta is None:
        abort(404, description="There is no pending import with that link (it may have expired: "
                               "uploads wait two hours). Upload the file again.")
    return meta, store


@bp.route("/import/<token>")
@login_required
def import_preview(token: str):
    meta, store = _pending_or_404(token)
    if meta["status"].get("state") in ("running", "done"):
        return redirect(url_for(".import_progress", token=token))
    data = store.data(token, current_user)
    if data is None:
        abort(404)
    try:
        preview = service.preview_import(current_user, data, meta.get("default_game"))
    except CollectionFileError as exc:
        store.discard(token, current_user)
        flash(str(exc), "error")
        return redirect(url_for(".import_upload"))
    show = request.args.get("show") or ("problems" if not preview.ok else "all")
    if show == "problems":
        rows = preview.plan.problem_rows
    elif show == "changes":
        rows = [r for r in preview.rows if (c := preview.change_for(r)) and c.changed]
    else:
        show, rows = "all", preview.rows
    page = max(1, request.args.get("page", 1, type=int) or 1)
    pages = max(1, -(-len(rows) // PREVIEW_PAGE))
    page = min(page, pages)
    return render_template("collection/preview.html", meta=meta, token=token, preview=preview, show=show,
                           rows=rows[(page - 1) * PREVIEW_PAGE: page * PREVIEW_PAGE], page=page, pages=pages,
                           total_rows=len(rows), game_names={g.slug: g.name for g in all_games()})


@bp.route("/import/<token>/commit", methods=["POST"])
@login_required
def import_commit(token: str):
    meta, store = _pending_or_404(token)
    if not store.claim(token, current_user):  # already committing or committed: show how it goes
        return redirect(url_for(".import_progress", token=token), code=303)
    background = meta.get("bytes", 0) > current_app.config.get("COLLECTION_IMPORT_BACKGROUND_BYTES", 64 * 1024)
    if background:
        thread = threading.Thread(target=service.run_import_job, args=(store, token, current_user.id),
                                  name=f"collection-import-{token[:8]}", daemon=True)
        thread.start()
    else:
        service.run_import_job(store, token, current_user.id)
    return redirect(url_for(".import_progress", token=token), code=303)


@bp.route("/import/<token>/progress")
@login_required
def import_progress(token: str):
    meta, _ = _pending_or_404(token)
    if meta["status"].get("state") == "pending":
        return redirect(url_for(".import_preview", token=token))
    return render_template("collection/progress.html", meta=meta, status=meta["status"], token=token)


@bp.route("/import/<token>/status")
@login_required
def import_status(token: str):
    meta, _ = _pending_or_404(token)
    return jsonify(meta["status"])


@bp.route("/import/<token>/discard", methods=["POST"])
@login_required
def import_discard(token: str):
    meta, store = _pending_or_404(token)
    if meta["status"].get("state") == "running":
        flash("This import is being written; it cannot be cancelled now.", "warning")
        return redirect(url_for(".import_progress", token=token), code=303)
    store.discard(token, current_user)
    flash("The upload was discarded; nothing was imported.", "info")
    return redirect(url_for(".import_upload"), code=303)


# --------------------------------------------------------------------------- export

@bp.route("/export.csv")
@login_required
def export():
    slug = request.args.get("game") or None
    if slug:
        slug = _game_or_404(slug).slug
    name = f"deckhub-collection-{current_user.username}{'-' + slug if slug else ''}.csv"
    body = service.export_csv(current_user, slug)
    return Response(body.encode("utf-8"), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{name}"',
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
    })

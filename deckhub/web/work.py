"""A set's shared work: its work list, who has claimed which collector numbers, and its progress chart."""
from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import IntegerField
from wtforms.validators import InputRequired, NumberRange

from deckhub.services.community import work_lists
from deckhub.services.community.errors import CommunityError, NotFound
from deckhub.web import charts
from deckhub.web.lookups import game_or_404

bp = Blueprint("work", __name__)


class ClaimForm(FlaskForm):
    first = IntegerField("From number", validators=[InputRequired(), NumberRange(min=1, max=99_999)])
    last = IntegerField("To number", validators=[InputRequired(), NumberRange(min=1, max=99_999)])


class ReleaseForm(FlaskForm):
    pass


def _game_and_set(slug: str, code: str):
    game = game_or_404(slug)
    try:
        claims = work_lists.live_claims(game.slug, code)
        items = work_lists.work_list(game.slug, code)
    except NotFound:
        abort(404, description=f"{game.name} has no set “{code[:80]}”.")
    return game, claims, items


@bp.route("/games/<slug>/sets/<code>/work")
def work_page(slug: str, code: str):
    game, claims, items = _game_and_set(slug, code)
    return render_template("community/work.html", game=game, code=code, claims=claims, items=items[:500],
                           total=len(items), form=ClaimForm(), release_form=ReleaseForm(),
                           limits=(work_lists.MAX_CLAIM_SPAN, work_lists.CLAIM_DAYS, work_lists.MAX_CLAIMS))


@bp.route("/games/<slug>/sets/<code>/claims", methods=["POST"])
@login_required
def claim(slug: str, code: str):
    game = game_or_404(slug)
    form = ClaimForm()
    if not form.validate_on_submit():
        flash("Give the first and last collector numbers you will work on (whole numbers).", "error")
        return redirect(url_for("work.work_page", slug=game.slug, code=code))
    try:
        made = work_lists.claim(current_user, game.slug, code, form.first.data, form.last.data)
    except NotFound:
        abort(404, description=f"{game.name} has no set “{code[:80]}”.")
    except CommunityError as exc:
        flash(str(exc), "error")
    else:
        flash(f"Numbers {made.first}–{made.last} are yours until {made.until:%Y-%m-%d}.", "success")
    return redirect(url_for("work.work_page", slug=game.slug, code=code))


@bp.route("/games/<slug>/sets/<code>/claims/<int:claim_id>/release", methods=["POST"])
@login_required
def release(slug: str, code: str, claim_id: int):
    game = game_or_404(slug)
    if not ReleaseForm().validate_on_submit():
        abort(400, description="The form expired; try again.")
    try:
        work_lists.release(current_user, claim_id)
    except NotFound:
        abort(404, description="You hold no such claim.")
    flash("Released.", "success")
    return redirect(url_for("work.work_page", slug=game.slug, code=code))


@bp.route("/games/<slug>/sets/<code>/progress.svg")
def progress_chart(slug: str, code: str):
    game = game_or_404(slug)
    try:
        days = work_lists.progress(game.slug, code)
    except NotFound:
        abort(404, description=f"{game.name} has no set “{code[:80]}”.")
    svg = charts.line("Known facts of the set, by day", [d.strftime("%m-%d") for d, _ in days],
                      [n for _, n in days], "known facts")
    return Response(svg, mimetype="image/svg+xml")

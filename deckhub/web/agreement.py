"""Players settling facts together: *Confirm* a pending value, a curator settling a dispute,
*Recently applied* (trusted players' unreviewed values), notices and contributors' pages."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import Length, Optional

from deckhub.services.community import agreement, confirming, credit, notices, reverting, trust
from deckhub.services.community.errors import CommunityError, NotAllowed, NotFound
from deckhub.services.community.fields import MAX_SOURCE
from deckhub.web.community import ReasonForm, _limits, _uploaded_scan, curator_required, outcome
from deckhub.web.lookups import game_or_404

bp = Blueprint("agreement", __name__)


class ConfirmForm(FlaskForm):
    source = StringField("Your source (optional)", validators=[Optional(), Length(max=MAX_SOURCE)])


class SettleForm(FlaskForm):
    value = StringField("Value", validators=[Length(min=1, max=64)])


class AcceptForm(FlaskForm):
    pass


def _card_page(slug: str, key: str):
    return redirect(url_for("catalog.card", slug=slug, key=key))


def _on_card(form: FlaskForm, refused: str, missing: str, act):
    """What confirming and settling share: a form that does not validate is a 400 (`refused`), an
    unknown proposal or card a 404 (`missing`). `act()` returns (game, card key, message): the
    message is flashed and the card page shown. What the catalogue refuses is flashed, and None
    returned (the caller says where to go)."""
    if not form.validate_on_submit():
        abort(400, description=refused)
    try:
        slug, key, message = act()
    except NotFound:
        abort(404, description=missing)
    except CommunityError as exc:
        flash(str(exc), "error")
        return None
    flash(message, "success")
    return _card_page(slug, key)


@bp.route("/proposals/<int:proposal_id>/confirm", methods=["POST"])
@login_required
def confirm(proposal_id: int):
    """Enter someone's pending value as one's own (the same checks and limits as a proposal)."""
    form = ConfirmForm()

    def act():
        made = confirming.confirm(current_user, proposal_id, source=form.source.data or None,
                                  scan=_uploaded_scan(), **_limits())
        return made.game, made.card_key, f"Confirmed: {outcome(made.status)}"
    return (_on_card(form, "A source is at most 500 characters long.", "There is no proposal with that number.", act)
            or redirect(request.referrer if request.referrer and request.referrer.startswith(request.host_url)
                        else url_for("community.mine")))


@bp.route("/games/<slug>/cards/<path:key>/disputes/<field>/settle", methods=["POST"])
@curator_required
def settle(slug: str, key: str, field: str):
    game = game_or_404(slug)

    def act():
        agreement.settle_dispute(current_user, game.slug, key, field, form.value.data)
        return game.slug, key, "Settled: the catalogue uses the chosen value; the other players were told."
    form = SettleForm()
    return _on_card(form, "Choose one of the entered values.", "No such card.", act) or _card_page(game.slug, key)


def _checker_required():
    if not trust.may_check(current_user, proposer_id=0):
        abort(403, description="Curators and trusted players check recently applied values.")


@bp.route("/review/recent")
@login_required
def recently_applied():
    """Trusted players' values applied at once, waiting for a curator or another trusted player."""
    _checker_required()
    slug = request.args.get("game") or None
    if slug:
        game_or_404(slug)
    return render_template("community/recently_applied.html", changes=trust.recently_applied(slug),
                           accept_form=AcceptForm(), reason_form=ReasonForm())


@bp.route("/review/recent/<int:change_id>/accept", methods=["POST"])
@login_required
def accept(change_id: int):
    if not AcceptForm().validate_on_submit():
        abort(400, description="The form expired; try again.")
    try:
        trust.accept(current_user, [change_id])
    except NotFound:
        abort(404, description="That value does not wait for a check.")
    except NotAllowed as exc:
        abort(403, description=str(exc))
    except CommunityError as exc:
        flash(str(exc), "error")
    else:
        flash("Accepted.", "success")
    return redirect(url_for("agreement.recently_applied"))


@bp.route("/review/recent/proposals/<int:proposal_id>/revert", methods=["POST"])
@login_required
def revert(proposal_id: int):
    form = ReasonForm()
    if not form.validate_on_submit():
        abort(400, description="A reason is at most 500 characters long.")
    try:
        reverting.revert(proposal_id, current_user, form.reason.data or "")
    except NotFound:
        abort(404, description="There is no proposal with that number.")
    except NotAllowed as exc:
        abort(403, description=str(exc))
    except CommunityError as exc:
        flash(str(exc), "error")
    else:
        flash("Reverted: the old values are back, and the author's trust counts it.", "success")
    return redirect(url_for("agreement.recently_applied"))


@bp.route("/notices")
@login_required
def notices_page():
    return render_template("community/notices.html", notices=notices.recent(current_user), form=AcceptForm())


@bp.route("/notices/read", methods=["POST"])
@login_required
def notices_read():
    if not AcceptForm().validate_on_submit():
        abort(400, description="The form expired; try again.")
    notices.mark_read(current_user)
    return redirect(url_for("agreement.notices_page"))


@bp.route("/contributors/<name>")
def contributor(name: str):
    try:
        found = credit.contributor(name[:60])
    except NotFound:
        abort(404, description="No contributor by that name.")
    return render_template("community/contributor.html", c=found)

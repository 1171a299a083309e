"""My account: personal API tokens (create, shown once; list; revoke).

A new token is shown on the page that answers the creating POST and nowhere else: it is not
flashed (the session cookie is signed, not encrypted) and the answer is marked `no-store`.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, Length

from deckhub import api_tokens

bp = Blueprint("account", __name__, url_prefix="/account")


class TokenForm(FlaskForm):
    name = StringField("Token name", validators=[DataRequired(), Length(1, api_tokens.MAX_NAME)])


def _page(form: TokenForm, new_token: str | None = None, status: int = 200):
    response = render_template("account/index.html", form=form, tokens=api_tokens.user_tokens(current_user),
                               new_token=new_token, max_active=api_tokens.MAX_ACTIVE)
    return response, status, {"Cache-Control": "no-store"}


@bp.route("/")
@login_required
def index():
    return _page(TokenForm())


@bp.route("/tokens", methods=["POST"])
@login_required
def create_token():
    form = TokenForm()
    if form.validate_on_submit():
        try:
            row, token = api_tokens.create(current_user, form.name.data)
        except api_tokens.TokenError as exc:
            form.name.errors.append(str(exc))
        else:
            return _page(TokenForm(formdata=None), new_token=token, status=201)
    return _page(form, status=400)


@bp.route("/tokens/<int:token_id>/revoke", methods=["POST"])
@login_required
def revoke_token(token_id: int):
    row = api_tokens.revoke(current_user, token_id)
    if row is None:
        abort(404, "You have no live token with that number.")
    flash(f"Token “{row.name}” ({row.prefix}…) revoked: it no longer works.", "info")
    return redirect(url_for(".index"), code=303)

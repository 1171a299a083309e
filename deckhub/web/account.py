"""My account: password change, "sign out everywhere", personal API tokens (create, shown once; list; revoke).

A new token is shown on the page that answers the creating POST and nowhere else: it is not
flashed (the session cookie is signed, not encrypted) and the answer is marked `no-store`.
"""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required, login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from deckhub.services import accounts, api_tokens, sessions

bp = Blueprint("account", __name__, url_prefix="/account")


class TokenForm(FlaskForm):
    name = StringField("Token name", validators=[DataRequired(), Length(1, api_tokens.MAX_NAME)])


class PasswordForm(FlaskForm):
    current = PasswordField("Current password", validators=[DataRequired(), Length(1, accounts.MAX_PASSWORD)])
    password = PasswordField("New password", validators=[DataRequired(), Length(accounts.MIN_PASSWORD, accounts.MAX_PASSWORD)])
    confirm = PasswordField("Repeat the new password", validators=[DataRequired(), EqualTo("password", "The passwords differ.")])


class EmptyForm(FlaskForm):
    """A button that only needs its CSRF token."""


def _page(form: TokenForm | None = None, new_token: str | None = None, status: int = 200,
          password_form: PasswordForm | None = None):
    response = render_template("account/index.html", form=form or TokenForm(formdata=None),
                               tokens=api_tokens.user_tokens(current_user), new_token=new_token,
                               max_active=api_tokens.MAX_ACTIVE, min_password=accounts.MIN_PASSWORD,
                               password_form=password_form or PasswordForm(formdata=None))
    return response, status, {"Cache-Control": "no-store"}


@bp.route("/")
@login_required
def index():
    return _page(TokenForm())


@bp.route("/password", methods=["POST"])
@login_required
def change_password():
    """A new password signs out every other browser; this one gets a new session."""
    form = PasswordForm()
    if form.validate_on_submit():
        try:
            user = accounts.change_password(current_user._get_current_object(), form.current.data, form.password.data)
        except accounts.AccountError as exc:
            getattr(form, exc.field).errors.append(str(exc))
        else:
            login_user(user)
            flash("Password changed. Every other browser signed in to your account has been signed out.", "success")
            return redirect(url_for(".index"), code=303)
    return _page(password_form=form, status=400)


@bp.route("/sign-out-everywhere", methods=["POST"])
@login_required
def sign_out_everywhere():
    if not EmptyForm().validate_on_submit():
        abort(400, "This form has expired or was not sent by DeckHub. Reload the page and try again.")
    sessions.end_all(current_user._get_current_object())
    logout_user()
    flash("Signed out everywhere: every browser and “keep me signed in” cookie of your account must log in again.",
          "info")
    return redirect(url_for("auth.login"), code=303)


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

"""Sign up, log in, log out."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import login_required, login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from deckhub.accounts import AccountError, authenticate, create_user

bp = Blueprint("auth", __name__)


class SignupForm(FlaskForm):
    username = StringField("User name", validators=[DataRequired(), Length(3, 40)])
    password = PasswordField("Password", validators=[DataRequired(), Length(8, 200)])
    confirm = PasswordField("Repeat the password", validators=[DataRequired(), EqualTo("password", "The passwords differ.")])


class LoginForm(FlaskForm):
    username = StringField("User name", validators=[DataRequired(), Length(1, 40)])
    password = PasswordField("Password", validators=[DataRequired(), Length(1, 200)])
    remember = BooleanField("Keep me signed in")


def _safe_next(default: str) -> str:
    """Only redirect to a path on this site after logging in (no open redirects)."""
    target = request.args.get("next", "")
    parts = urlsplit(target)
    if target.startswith("/") and not target.startswith("//") and not parts.netloc and not parts.scheme:
        return target
    return default


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    form = SignupForm()
    if form.validate_on_submit():
        try:
            user = create_user(form.username.data, form.password.data)
        except AccountError as exc:
            form.username.errors.append(str(exc))
        else:
            login_user(user)
            flash(f"Welcome to DeckHub, {user.username}!", "success")
            return redirect(url_for("catalog.index"))
    return render_template("auth/signup.html", form=form), (400 if form.errors else 200)


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    if form.validate_on_submit():
        user = authenticate(form.username.data, form.password.data)
        if user is None:
            form.password.errors.append("That user name and password do not match.")
        else:
            login_user(user, remember=form.remember.data)
            flash(f"Signed in as {user.username}.", "success")
            return redirect(_safe_next(url_for("catalog.index")))
    return render_template("auth/login.html", form=form), (400 if form.errors else 200)


@bp.route("/logout", methods=["POST"])
@login_required
def logout():
    logout_user()
    flash("Signed out.", "info")
    return redirect(url_for("catalog.index"))

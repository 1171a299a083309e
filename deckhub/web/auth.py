"""Sign up, log in, log out."""
from __future__ import annotations

import datetime as dt

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from deckhub.services import accounts, ratelimit, sessions
from deckhub.services.accounts import AccountError, TooManySignups, authenticate, create_user
from deckhub.web.redirects import safe_next

bp = Blueprint("auth", __name__)


class SignupForm(FlaskForm):
    username = StringField("User name", validators=[DataRequired(), Length(3, 40)])
    password = PasswordField("Password", validators=[DataRequired(), Length(accounts.MIN_PASSWORD, accounts.MAX_PASSWORD)])
    confirm = PasswordField("Repeat the password", validators=[DataRequired(), EqualTo("password", "The passwords differ.")])


class LoginForm(FlaskForm):
    username = StringField("User name", validators=[DataRequired(), Length(1, 40)])
    password = PasswordField("Password", validators=[DataRequired(), Length(1, accounts.MAX_PASSWORD)])
    remember = BooleanField("Keep me signed in")


@bp.route("/signup", methods=["GET", "POST"])
def signup():
    form = SignupForm()
    if form.validate_on_submit():
        try:
            user = create_user(form.username.data, form.password.data, signup_address=request.remote_addr or "-",
                               signup_limit=current_app.config.get("SIGNUP_LIMIT", accounts.SIGNUP_LIMIT))
        except TooManySignups as exc:
            form.username.errors.append(str(exc))
            return render_template("auth/signup.html", form=form), 429
        except AccountError as exc:
            getattr(form, exc.field).errors.append(str(exc))
        else:
            login_user(sessions.start(user))
            flash(f"Welcome to DeckHub, {user.username}!", "success")
            return redirect(url_for("catalog.index"))
    return render_template("auth/signup.html", form=form), (400 if form.errors else 200)


LOGIN_WINDOW = dt.timedelta(minutes=15)
LOGIN_LIMIT = 10  # failed attempts per account name, and per client address, within the window


def _login_buckets(username: str) -> list[str]:
    return [f"login:{accounts.models.name_key(username)}", f"login-ip:{request.remote_addr or '-'}"]


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    if form.validate_on_submit():
        buckets = _login_buckets(form.username.data)
        # The attempt is counted before the password is checked (and given back if it was right),
        # so simultaneous wrong guesses cannot all slip past the limit.
        if not ratelimit.take(buckets, LOGIN_LIMIT, LOGIN_WINDOW):
            form.password.errors.append("Too many failed attempts. Wait 15 minutes and try again.")
            return render_template("auth/login.html", form=form), 429
        user = authenticate(form.username.data, form.password.data)
        if user is None:
            form.password.errors.append("That user name and password do not match.")
        else:
            ratelimit.clear(buckets[:1])
            ratelimit.give_back(buckets[1:])
            login_user(sessions.start(user), remember=form.remember.data)
            flash(f"Signed in as {user.username}.", "success")
            return redirect(safe_next(url_for("catalog.index")))
    return render_template("auth/login.html", form=form), (400 if form.errors else 200)


@bp.route("/logout", methods=["POST"])
@login_required
def logout():
    sessions.end(current_user.get_id())
    logout_user()
    flash("Signed out.", "info")
    return redirect(url_for("catalog.index"))

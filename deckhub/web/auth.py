"""Sign up, log in, log out."""
from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from deckhub.services import accounts, sessions
from deckhub.services.accounts import AccountError, TooManyLogins, TooManySignups
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
            user = accounts.sign_up(form.username.data, form.password.data, request.remote_addr or "-",
                                    current_app.config.get("SIGNUP_LIMIT", accounts.SIGNUP_LIMIT))
        except TooManySignups as exc:
            form.username.errors.append(str(exc))
            return render_template("auth/signup.html", form=form), 429
        except AccountError as exc:
            getattr(form, exc.field).errors.append(str(exc))
        else:
            login_user(user)
            flash(f"Welcome to DeckHub, {user.username}!", "success")
            return redirect(url_for("catalog.index"))
    return render_template("auth/signup.html", form=form), (400 if form.errors else 200)


@bp.route("/login", methods=["GET", "POST"])
def login():
    form = LoginForm()
    if form.validate_on_submit():
        try:
            user = accounts.log_in(form.username.data, form.password.data, request.remote_addr or "-")
        except TooManyLogins as exc:
            form.password.errors.append(str(exc))
            return render_template("auth/login.html", form=form), 429
        except AccountError as exc:
            getattr(form, exc.field).errors.append(str(exc))
        else:
            login_user(user, remember=form.remember.data)
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

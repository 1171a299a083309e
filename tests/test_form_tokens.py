"""web.form_tokens reuses a browser's form token through Flask-WTF's per-request slot (it has no
public way to be handed one). These pin what that relies on, so a Flask-WTF upgrade that moves the
slot fails here rather than on every form: a token put in the slot is the one `generate_csrf` and a
form write, the slot is where `generate_csrf` leaves the token it signed, and a reused token stays
valid while tokens have no time limit."""
from __future__ import annotations

from flask import Flask, g, render_template_string, session
from flask_wtf import FlaskForm
from flask_wtf.csrf import generate_csrf, validate_csrf

from deckhub.web import form_tokens


def flask_app(**config) -> Flask:
    app = Flask(__name__)
    app.config.update(SECRET_KEY="test", WTF_CSRF_TIME_LIMIT=None, **config)
    form_tokens.register(app)
    return app


def test_a_token_put_in_the_slot_is_what_flask_wtf_and_its_forms_write():
    app = flask_app()
    with app.test_request_context():
        session["csrf_token"] = "a browser's secret"
        signed = generate_csrf()
    with app.test_request_context():
        session["csrf_token"] = "a browser's secret"
        g.csrf_token = signed  # what form_tokens does at the start of a request
        assert generate_csrf() == signed
        assert FlaskForm().csrf_token.current_token == signed
        assert render_template_string("{{ csrf_token() }}") == signed
        validate_csrf(signed)  # raises when invalid


def test_the_token_flask_wtf_signed_is_the_one_written_and_kept_for_the_browser():
    app = flask_app()
    with app.test_request_context():
        assert form_tokens.written_token() is None  # no form written yet
        token = form_tokens.form_token()
        assert form_tokens.written_token() == token == generate_csrf()
        assert app.extensions["deckhub.form_tokens"].get(session["csrf_token"]) == token


def test_a_browser_gets_back_the_token_first_signed_for_it():
    app = flask_app()
    app.add_url_rule("/", "page", lambda: render_template_string("{{ csrf_token() }}"))
    client = app.test_client()
    first = client.get("/").get_data(as_text=True)
    with client.session_transaction() as browser:
        secret = browser["csrf_token"]
    kept = app.extensions["deckhub.form_tokens"]
    assert kept.get(secret) == first
    kept.put(secret, "the kept token")  # not signed again: whatever was kept is written
    assert client.get("/").get_data(as_text=True) == "the kept token"
    assert app.test_client().get("/").get_data(as_text=True) not in (first, "the kept token")

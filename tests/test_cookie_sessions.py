"""web.cookie_sessions keeps session cookies whose signature it checked: a kept cookie must read
exactly as Flask's own check would (contents, expiry, tampering, another key), and what one
request changes in its session must never show in another's."""
from __future__ import annotations

import datetime as dt
import time

from flask import Flask, flash, get_flashed_messages, session
from itsdangerous import TimestampSigner

from deckhub.web import cookie_sessions


def flask_app(**config) -> Flask:
    app = Flask(__name__)
    app.config.update(SECRET_KEY="test", **config)
    cookie_sessions.register(app)

    @app.route("/set/<value>")
    def _set(value):
        session["value"] = value
        session["items"] = ["a", ("b", 1)]
        return "ok"

    @app.route("/get")
    def _get():
        items = session.get("items")
        if items is not None:
            items.append("changed in a request")  # changed in place, never saved
        return f"{session.get('value')}|{items}"

    @app.route("/flash")
    def _flash():
        flash("once")
        return "ok"

    @app.route("/flashes")
    def _flashes():
        return ",".join(get_flashed_messages())

    return app


def test_a_kept_cookie_reads_as_signed_and_changes_in_place_do_not_stay():
    client = flask_app().test_client()
    client.get("/set/x")
    first = client.get("/get").get_data(as_text=True)
    assert first == "x|['a', ('b', 1), 'changed in a request']"
    assert client.get("/get").get_data(as_text=True) == first  # read from the kept cookie, afresh


def test_flashes_are_shown_once():
    client = flask_app().test_client()
    client.get("/flash")
    assert client.get("/flashes").get_data(as_text=True) == "once"
    assert client.get("/flashes").get_data(as_text=True) == ""


def test_a_tampered_cookie_or_another_key_is_refused():
    app = flask_app()
    client = app.test_client()
    client.get("/set/x")
    cookie = client.get_cookie("session").value
    client.get("/get")  # kept now
    client.set_cookie("session", cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB"))
    assert client.get("/get").get_data(as_text=True) == "None|None"
    client.set_cookie("session", cookie)
    app.secret_key = "another"
    assert client.get("/get").get_data(as_text=True) == "None|None"
    app.config["SECRET_KEY_FALLBACKS"] = ["test"]  # a rotated key still signs in, as in Flask
    assert client.get("/get").get_data(as_text=True).startswith("x|")


def test_a_kept_cookie_expires_with_the_session_lifetime(monkeypatch):
    app = flask_app(PERMANENT_SESSION_LIFETIME=dt.timedelta(seconds=60))
    client = app.test_client()
    client.get("/set/x")
    assert client.get("/get").get_data(as_text=True).startswith("x|")  # kept now
    later = int(time.time()) + 61  # the signer's clock, which the full check reads too
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: later)
    assert client.get("/get").get_data(as_text=True) == "None|None"

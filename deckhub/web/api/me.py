"""`GET /api/me`: who the credentials belong to, and whether they came as a token or a session.
(Tokens themselves are made and revoked on the account page, never through the API.)"""
from __future__ import annotations

from flask import g, jsonify

from deckhub.web.api.auth import user
from deckhub.web.api.routes import own as bp


@bp.route("/me")
def me():
    who = user()
    return jsonify({"username": who.username, "is_curator": bool(who.is_curator),
                    "auth": "token" if g.get("api_token") else "session"})

"""Who an API request is from, and the API's one CSRF decision (the policy is in the package
docstring): a bearer token needs no CSRF token, a signed-in session's write does."""
from __future__ import annotations

from flask import current_app, g, request
from flask_login import current_user
from flask_wtf.csrf import CSRFError

from deckhub.services import api_tokens
from deckhub.services import decks as deck_store
from deckhub.services.limits import MAX_BODY
from deckhub.web.api.errors import ApiError, fail, under_api
from deckhub.web.lookups import deck_or_404

WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="DeckHub"'}


def before_request() -> None:
    """On every `/api/` path: the body limit, then the token (when sent), then the CSRF check."""
    if not under_api():
        return
    request.max_content_length = min(MAX_BODY, current_app.config.get("MAX_CONTENT_LENGTH") or MAX_BODY)
    _token_login()
    _check_csrf()


def _token_login() -> None:
    header = request.headers.get("Authorization")
    if header is None:
        return
    token = api_tokens.bearer_token(header)
    user = api_tokens.authenticate(token) if token else None
    if user is None:
        raise ApiError(401, "That API token is not valid (revoked, mistyped, or not a Bearer token). "
                            "Create one on your account page.", CHALLENGE)
    g._login_user = user  # Flask-Login's current_user for this request only; no session is written
    g.api_token = True


def _check_csrf() -> None:
    """The only place the API decides on CSRF. Requests no route takes (404, 405) are left to
    routing, so their answer stays the routing error."""
    if request.method not in WRITE_METHODS or g.get("api_token") or request.routing_exception is not None:
        return
    if not current_app.config.get("WTF_CSRF_ENABLED", True) or not current_user.is_authenticated:
        return
    csrf = current_app.extensions["csrf"]  # the site's Flask-WTF CSRFProtect (web/__init__.py)
    try:
        csrf.protect()
    except CSRFError:
        fail(400, "A write signed in by the site's session needs the page's CSRF token in an X-CSRFToken "
                  "header; scripts should send an API token instead (Authorization: Bearer ...).")


def user():
    """The signed-in user (by token or session), or a 401."""
    if not current_user.is_authenticated:
        raise ApiError(401, "Sign in: send `Authorization: Bearer <token>` with a token from your account page.",
                       CHALLENGE)
    return current_user


def own_deck(deck_id: int) -> deck_store.StoredDeck:
    """A deck the caller may change: 401 signed out, 404 not visible, 403 someone else's public deck."""
    user()
    stored = deck_or_404(deck_id)
    if not deck_store.owns(current_user, stored.row):
        fail(403, "This public deck belongs to someone else: you may read and copy it, not change it.")
    return stored

"""DeckHub's JSON API: everything under `/api/`, described by `openapi.py` (served at
`GET /api/openapi.json`; a test keeps the document and the routes in step).

One module per resource (`cards`, `completeness`, `checks`, `decks`, `versions`, `games`, `exports`, `collection`,
`card_values`, `simulations`, `tunings`, `impacts`, `me`, `document`, `proposals`), on the blueprints of `routes`; the rest
is shared by all of them:
- `errors`: every 4xx and 5xx under `/api/` is `{"error": message, "status": code}` JSON (with
  named extras such as `errors`, `unknown_cards`, `version`, `unknown_values`), whoever raised it;
- `auth`: who a request is from, and the one CSRF policy;
- `inputs`: reading bodies and query arguments, each checked against the OpenAPI document's own
  schema of its operation (`openapi`, where every shape, limit and default is stated once), every
  problem a 400 that names the field; views keep only the checks that need a game, the catalogue or
  the database.

Authentication and CSRF (the same words are in the document and the README):
- `Authorization: Bearer dh_...` with a personal token from the account page. A request that
  sends the header must carry a live token, or it is refused with 401 on any `/api/` path, even
  one that needs no account. Token requests are never CSRF-checked: a browser does not add the
  header by itself, so another site cannot forge one, and a token opens no session.
- The site's session cookie also works (the browser's own pages may call the API), but then every
  write (POST, PUT, PATCH, DELETE, `POST /api/check` included) must carry the page's CSRF token in
  an `X-CSRFToken` header, exactly as a form would; without it the request is refused with 400 and
  nothing changes.
- A request with neither acts as nobody: it needs no CSRF token (there is nobody to forge it for);
  public routes answer it, a user's own things answer 401.
This is decided in one place, `auth.before_request`; the API's blueprints are exempt from the
forms' CSRF check (`deckhub.web.csrf`), which would otherwise refuse every token request.

Every body is checked completely before anything is written, and every write is one transaction
in a service: a refused request changes nothing. Limits come from `deckhub.services.limits`, which the
OpenAPI document imports too.
"""
from __future__ import annotations

import importlib

from flask import Flask

RESOURCES = ("cards", "completeness", "checks", "decks", "versions", "games", "exports", "collection",
             "card_values", "simulations", "tunings", "impacts", "me", "document", "proposals")


def register(app: Flask) -> None:
    """Add the API's routes, its error shape and its authentication to `app`."""
    from deckhub.web.api import auth, completeness, errors, inputs, routes

    csrf = app.extensions["csrf"]  # the site's Flask-WTF CSRFProtect (web/__init__.py)
    for name in RESOURCES:
        importlib.import_module(f"{__name__}.{name}")  # each module adds its routes to `routes`
    for blueprint in routes.BLUEPRINTS:
        app.register_blueprint(blueprint)
        csrf.exempt(blueprint)  # the API's CSRF policy is `auth.before_request`
    completeness.add_to(app)
    inputs.operations()  # the document's schemas are checked, and compiled, when the app is made
    errors.register(app)
    app.before_request(auth.before_request)

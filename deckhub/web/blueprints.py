"""Every area's blueprint (and the JSON API package), registered in one place, and the links the
site's header shows."""
from __future__ import annotations

import importlib

from flask import Flask

# (module, blueprint attribute); an area adds itself here.
AREAS = [
    ("deckhub.web.auth", "bp"),
    ("deckhub.web.catalog", "bp"),
    ("deckhub.web.decks", "bp"),
    ("deckhub.web.table", "bp"),
    ("deckhub.web.collection", "bp"),
    ("deckhub.web.goldfish", "bp"),
    ("deckhub.web.stats", "bp"),
    ("deckhub.web.community", "bp"),
    ("deckhub.web.agreement", "bp"),
    ("deckhub.web.work", "bp"),
    ("deckhub.web.account", "bp"),
    ("deckhub.web.facts", "bp"),
    ("deckhub.web.card_values", "bp"),
    ("deckhub.web.public", "bp"),
    ("deckhub.web.operations", "bp"),
    ("deckhub.web.jobs", "bp"),
]

# (label, endpoint, who sees it) for the header navigation: False everyone, True the signed-in,
# "curator" curators only.
NAV_LINKS = [
    ("Games", "catalog.index", False),
    ("Card search", "catalog.search", False),
    ("Public decks", "public.decks", False),
    ("Most wanted", "facts.most_wanted", False),
    ("My decks", "decks.index", True),
    ("Collection", "collection.overview", True),
    ("Goldfish", "goldfish.index", True),
    ("My card values", "card_values.index", True),
    ("Review", "community.review", "curator"),
    ("Jobs", "jobs.index", "curator"),
    ("Account", "account.index", True),
]


def register(app: Flask) -> None:
    for module, attr in AREAS:
        app.register_blueprint(getattr(importlib.import_module(module), attr))
    from deckhub.web import api
    api.register(app)  # the JSON API: its routes, error shape, authentication and CSRF policy
    app.jinja_env.globals["nav_links"] = NAV_LINKS

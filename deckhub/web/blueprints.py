"""Every area's blueprint (and the JSON API package), registered in one place, and the parts of
base.html every page shows: the links in its head and the site's header."""
from __future__ import annotations

import importlib

from flask import Flask, render_template, request
from markupsafe import Markup

from deckhub.core.caches import LRU
from deckhub.web import page_cache

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
    app.jinja_env.globals.update(_site_parts(LRU(PARTS_KEPT)))


PARTS_KEPT = 2048  # the head links per script root, and the header of each visitor seen most recently


def _site_parts(written: LRU[str]) -> dict:
    """base.html's links in <head> and its header (navigation, who is signed in, the log-out form):
    every page shows them and only who is asking changes them, so each is written once per script
    root and visitor (signed out, or signed in with their name and standing) and kept; a kept
    header's form token is the browser's own (see `page_cache`)."""
    def part(template: str, key: tuple, **context) -> Markup:
        key = (template, request.script_root, *key)
        html = page_cache.kept_in(written, key)
        if html is None:
            html = page_cache.keep_in(written, key, render_template(template, **context))
        return Markup(html)

    def site_head() -> Markup:
        return part("_site_head.html", ())

    def site_header(user) -> Markup:
        signed_in = bool(user.is_authenticated)
        curator = signed_in and bool(user.is_curator)
        return part("_site_header.html", (signed_in, curator, user.username if signed_in else None),
                    user=user, signed_in=signed_in, curator=curator)

    return {"site_head": site_head, "site_header": site_header}

"""Every area's blueprint (and the JSON API package), registered in one place, and the links the
site's header shows."""
from __future__ import annotations

import importlib

from flask import Flask, request, url_for
from markupsafe import Markup

from deckhub.core.caches import LRU

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
    app.jinja_env.globals["header_links"] = _header_links(LRU(HEADERS_KEPT))


HEADERS_KEPT = 64  # (script root, signed in, curator): three kinds of visitor per script root


def _header_links(written: LRU[Markup]):
    """The header's navigation links for a kind of visitor (signed out, signed in, curator), as
    base.html wrote them link by link: written once per kind and script root, since every page
    shows them and only who is asking changes them."""
    def header_links(signed_in: bool, curator: bool) -> Markup:
        key = (request.script_root, bool(signed_in), bool(curator))
        links = written.get(key)
        if links is None:
            shown = [(label, endpoint) for label, endpoint, private in NAV_LINKS
                     if not private or (signed_in and (private != "curator" or curator))]
            links = written.put(key, Markup("").join(Markup('<a href="{}">{}</a>').format(url_for(endpoint), label)
                                                     for label, endpoint in shown))
        return links

    return header_links

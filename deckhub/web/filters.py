"""Template helpers shared by every page."""
from __future__ import annotations

from flask import Flask, request, url_for

URLS_KEPT = 8192  # links a worker keeps written (a page links the same routes on every request)

from deckhub.core.caches import LRU
from deckhub.core.engine import value_words
from deckhub.core.options import TURN_ORDER_WORDS
from deckhub.games import all_games, get_game


def register(app: Flask) -> None:
    @app.context_processor
    def _globals():
        return {"games": all_games(), "get_game": get_game}

    app.add_template_filter(value_words, "words")
    app.jinja_env.globals["url_for"] = app_url_for(app)
    app.jinja_env.globals["turn_order_words"] = TURN_ORDER_WORDS  # the Go first / Go second / Random radios

    @app.template_filter("unknown")
    def _unknown(value, label: str = "unknown"):
        """Unknown card facts are shown as unknown, never as a blank or a zero."""
        if value is None or value == [] or value == "":
            return label
        if isinstance(value, (list, tuple)):
            return ", ".join(str(v) for v in value)
        return value


def app_url_for(app: Flask):
    """Templates' `url_for`, keeping the links it wrote: a page writes twenty or more (the site's
    navigation, its forms), and building a URL from the route map cost more than the rest of a
    link. Only links within the site are kept, per script root (the map never changes while the
    app runs), the most recently written; external URLs, relative endpoints and unhashable values
    are built every time."""
    written: LRU[str] = LRU(URLS_KEPT)

    def cached_url_for(endpoint: str, **values) -> str:
        if endpoint.startswith(".") or values.get("_external"):
            return url_for(endpoint, **values)
        try:
            key = (request.script_root, endpoint, tuple(sorted(values.items())))
            url = written.get(key)
        except TypeError:  # a list among the values
            return url_for(endpoint, **values)
        if url is None:
            url = written.put(key, url_for(endpoint, **values))
        return url

    return cached_url_for

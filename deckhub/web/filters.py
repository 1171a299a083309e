"""Template helpers shared by every page."""
from __future__ import annotations

from flask import Flask, current_app, g, request, url_for
from flask.templating import Environment

URLS_KEPT = 8192  # links a worker keeps written (a page links the same routes on every request)

from deckhub.core.caches import LRU
from deckhub.core.engine import value_words
from deckhub.core.options import TURN_ORDER_WORDS
from deckhub.games import UnknownGame, all_games, get_game
from deckhub.services.catalogue_store import get_catalogue


class TemplateEnvironment(Environment):
    """Flask's template environment, each template's globals one plain dict made when it loads
    instead of Jinja's ChainMap over the environment's: every render copies a template's globals
    and every `{% from %}` compares two templates' keys, which a ChainMap does key by key in Python
    (a short page's render cost more than its own text). Every global is set by `create_app`,
    before any template loads, as Jinja asks."""

    def make_globals(self, d):
        return {**self.globals, **(d or {})}


def register(app: Flask) -> None:
    @app.context_processor
    def _globals():
        return {"games": all_games(), "get_game": get_game}

    app.add_template_filter(value_words, "words")
    app.jinja_env.globals["url_for"] = app_url_for(app)
    app.jinja_env.globals["turn_order_words"] = TURN_ORDER_WORDS  # the Go first / Go second / Random radios
    app.jinja_env.globals.update(set_name=set_name, card_name=card_name, format_name=format_name)  # macros see them too

    @app.template_filter("counted")
    def _counted(number, noun: str, plural: str | None = None) -> str:
        """"1 set", "2 sets": a count and its noun, never "1 sets"."""
        word = noun if number == 1 else (plural or noun + "s")
        return f"{number:,} {word}" if isinstance(number, int) else f"{number} {word}"

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


def link(endpoint: str, **values) -> str:
    """A link as the templates' `url_for` writes it, kept once written (`app_url_for`): for the
    rows and prefixes written in Python."""
    return current_app.jinja_env.globals["url_for"](endpoint, **values)


def _request_catalogue(game: str):
    """A game's catalogue, looked up once a request (a page names many cards and sets)."""
    cache = g.setdefault("named_catalogues", {})
    if game not in cache:
        try:
            cache[game] = get_catalogue(game)
        except (UnknownGame, LookupError):
            cache[game] = None
    return cache[game]


def set_name(game: str, code: str | None) -> str:
    """A set as players call it ("Battle for Meridell"), never its code; the code only if the
    catalogue no longer has the set."""
    catalogue = _request_catalogue(game) if code else None
    card_set = catalogue.sets.get(code) if catalogue else None
    return card_set.name if card_set else (code or "")


def card_name(game: str, key: str | None) -> str:
    """A card as players call it ("Kaia, Brave Seeker"), never its key."""
    catalogue = _request_catalogue(game) if key else None
    card = catalogue.get(key) if catalogue else None
    return card.display_name if card else (key or "")


def format_name(game: str, format_id: str | None) -> str:
    """A format as the game's rules call it ("Starter Set (basic game)"), never its id."""
    try:
        return get_game(game).format(format_id).name
    except LookupError:
        return format_id or ""

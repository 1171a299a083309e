"""The card browser: games, a game's sets, a set's checklist, a card, and the search page.

Every page reads the worker's in-memory catalogue (`get_catalogue`), never one query per card;
searching and listing are `deckhub.core.search` functions, so the views only parse and render.
"""
from __future__ import annotations

import functools
import re
from urllib.parse import quote

from flask import (Blueprint, abort, current_app, g, get_template_attribute, render_template, request,
                   send_from_directory, url_for)
from flask_login import current_user
from markupsafe import Markup, escape

from deckhub.services.catalogue_store import get_catalogue
from deckhub.core import search as core_search
from deckhub.core.format_summary import summarize_formats
from deckhub.games import all_games, get_game
from deckhub.web.filters import link
from deckhub.web.lookups import game_or_404

bp = Blueprint("catalog", __name__)

MAX_PER_PAGE = 200


def _card_or_404(game, catalogue, key: str):
    card = catalogue.get(key)
    if card is None:
        abort(404, description=f"{game.name} has no card with the id “{key[:120]}”. "
                               "Try the card search to find it by name.")
    return card


@bp.route("/")
def index():
    rows = [(g, c, core_search.set_summaries(c)) for g, c in ((g, get_catalogue(g.slug)) for g in all_games())]
    return render_template("catalog/index.html", rows=rows)


@bp.route("/games/<slug>")
def game(slug: str):
    spec = game_or_404(slug)
    catalogue = get_catalogue(spec.slug)
    return render_template("catalog/game.html", game=spec, catalogue=catalogue,
                           sets=core_search.set_summaries(catalogue), known=_known_facts(spec.slug),
                           unplaced=core_search.cards_without_set(catalogue),
                           choices=core_search.filter_choices(catalogue, spec), UNKNOWN_SET=core_search.UNKNOWN_SET)


@bp.route("/games/<slug>/formats")
def formats(slug: str):
    """The game's formats: what each checks, its version and source, and its ban lists' cards."""
    spec = game_or_404(slug)
    return render_template("catalog/formats.html", game=spec,
                           formats=summarize_formats(spec, get_catalogue(spec.slug)))


@bp.route("/games/<slug>/sets/<code>")
def card_set(slug: str, code: str):
    spec = game_or_404(slug)
    catalogue = get_catalogue(spec.slug)
    try:
        rows = core_search.set_rows(catalogue, code)
    except KeyError:
        abort(404, description=f"{spec.name} has no set “{code[:80]}”. The game page lists its sets.")
    summary = next(s for s in core_search.set_summaries(catalogue) if s.code == code)
    from deckhub.services.community.work_lists import live_claims
    return render_template("catalog/set.html", game=spec, catalogue=catalogue, card_set=catalogue.sets[code],
                           summary=summary, rows=rows, known=_known_facts(spec.slug), claims=live_claims(spec.slug, code))


def _known_facts(slug: str) -> dict:
    """What the game and set pages' completeness bars show (see `deckhub.services.facts`)."""
    from deckhub.services import facts
    return facts.known_facts(slug)


@bp.route("/games/<slug>/cards/<path:key>")
def card(slug: str, key: str):
    return render_card(slug, key)


def render_card(slug: str, key: str, flag_form=None, flag_index: int | None = None, status: int = 200):
    """The card page; `flag_form` is a player's flag on the reading at `flag_index` sent back with
    its errors (nothing they typed lost)."""
    spec = game_or_404(slug)
    catalogue = get_catalogue(spec.slug)
    card = _card_or_404(spec, catalogue, key)
    from deckhub.services.card_values import card_rows
    from deckhub.services.community.agreement import disputes_of, waiting_values
    from deckhub.services.community.audit import field_origins
    from deckhub.services.community.fields import fields_by_key
    from deckhub.services.community.readings import card_readings
    from deckhub.services.trading import card_traders
    mine = card_rows(current_user.id, spec.slug, card) if current_user.is_authenticated else []
    traders = card_traders(spec.slug, card.key, current_user.id if current_user.is_authenticated else None)
    return render_template("catalog/card.html", game=spec, catalogue=catalogue, card=card,
                           origins=field_origins(card), mine=mine, traders=traders,
                           disputed=disputes_of(spec.slug, card.key), waiting=waiting_values(spec.slug, card.key),
                           field_labels={k: f.label for k, f in fields_by_key(spec.slug).items()},
                           readings=card_readings(spec.slug, card.key), flag_form=flag_form,
                           flag_index=flag_index), status


@bp.route("/games/<slug>/cards/<path:key>/picture")
def picture(slug: str, key: str):
    """A card's picture (?size=card or thumb): its approved scan or loaded image, else its drawn
    face. Cached by browsers until the catalogue changes (the ETag is its version)."""
    from deckhub.services import card_images
    size = request.args.get("size", "card")
    if size not in card_images.SIZES:
        abort(404, description="A card picture's size is “card” or “thumb”.")
    set_code = request.args.get("set") or None
    try:
        shown = card_images.picture(slug, key, size, set_code)
    except card_images.NoSuchPicture as exc:
        abort(404, description=str(exc))
    response = current_app.response_class(shown.body, mimetype=shown.content_type)
    response.set_etag(f"{slug}-{shown.stamp}-{size}-{set_code or ''}-{len(shown.body)}")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'"
    response.cache_control.public = True
    response.cache_control.max_age = 86400 if request.args.get("v") == str(shown.stamp) else 300
    return response.make_conditional(request)


SEARCHES_KEPT = 256  # rendered searches per catalogue version (typed by visitors: a bounded family)


@bp.route("/cards")
def search():
    """The card search. Below the site's header the page is a function of the query arguments and
    the catalogue, so a game's searches are rendered once per catalogue version and arguments
    (a corrected card replaces the catalogue and with it every kept search)."""
    slug = (request.args.get("game") or "").strip()
    if not slug:
        query, content = _search_content(None, None)
    else:
        spec = game_or_404(slug)
        catalogue = get_catalogue(spec.slug)
        key = (request.script_root, tuple(sorted((k, tuple(request.args.getlist(k))) for k in request.args)))
        query, content = catalogue.memo_each("web.searches", key, lambda: _search_content(spec, catalogue),
                                             limit=SEARCHES_KEPT)
    return render_template("catalog/search.html", req=query, content=content)


def _search_content(spec, catalogue) -> tuple[core_search.SearchRequest, Markup]:
    page_size = current_app.config.get("PAGE_SIZE", 50)
    req = core_search.parse_request(spec, catalogue, request.args, page_size, MAX_PER_PAGE)
    choices, unplaced = None, False
    if spec is not None:
        result = core_search.run_search(spec, catalogue, req)
        choices = core_search.filter_choices(catalogue, spec)
        unplaced = bool(core_search.cards_without_set(catalogue))
        catalogues = {spec.slug: catalogue}
    else:
        catalogues = {game.slug: get_catalogue(game.slug) for game in all_games()}
        result = (core_search.run_search_all([(game, catalogues[game.slug]) for game in all_games()], req)
                  if req.q else None)
    # rendered from what is passed here only, not the signed-in page's context (its user, form
    # token): kept for everyone, it must not see them, and their processors are not run for it;
    # its macros come in ready (a template's `{% from %}` costs more than the rest of a short page)
    template = current_app.jinja_env.get_template("catalog/_search.html")
    return req, Markup(template.render(
        game=spec, catalogue=catalogue, catalogues=catalogues, req=req, result=result, choices=choices,
        unplaced=unplaced, UNKNOWN_SET=core_search.UNKNOWN_SET, games=all_games(), get_game=get_game, request=request,
        card_link=get_template_attribute("_card.html", "card_link"),
        pagination=get_template_attribute("catalog/_pagination.html", "pagination")))


@bp.route("/assets/catalog.css")
def stylesheet():
    """The card pages' styles (kept beside their templates; pages using `_card.html` may link it too)."""
    source, _, _ = current_app.jinja_env.loader.get_source(current_app.jinja_env, "catalog/catalog.css")
    response = current_app.response_class(source, mimetype="text/css")
    response.cache_control.public = True
    response.cache_control.max_age = 3600
    response.add_etag()
    return response.make_conditional(request)


@bp.route("/favicon.ico")
def favicon():
    """The site icon where browsers look for it first, so no page logs a 404 for it (pages also link the SVG)."""
    response = send_from_directory(current_app.static_folder, "favicon.ico", mimetype="image/x-icon", max_age=86400)
    response.cache_control.public = True
    return response


# ---------------------------------------------------------------- helpers for every template

_ALLOWED_TAGS = re.compile(r"&lt;(/?)(b|i|em|strong)&gt;", re.IGNORECASE)


@bp.app_template_filter("card_text")
def card_text(text: str | None) -> Markup:
    """Rules text as HTML: escaped, keeping the sources' <b>/<i> emphasis, one line per ability."""
    return Markup(_card_text_html(text)) if text else Markup("")


@bp.app_template_filter("card_plain")
def card_plain(text: str | None) -> str:
    """Rules text without its emphasis tags, for a summary cut short (a cut could leave a tag open)."""
    return _EMPHASIS.sub("", text) if text else ""


_EMPHASIS = re.compile(r"</?(?:b|i|em|strong)>", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def _card_text_html(text: str) -> str:
    # a pure function of the text, asked for every tile of every board: kept for the texts in use
    html = _ALLOWED_TAGS.sub(lambda m: f"<{m.group(1)}{m.group(2).lower()}>", str(escape(text)))
    lines = [line.strip() for line in re.split(r"\r?\n", html) if line.strip()]
    return "".join(f"<p>{line}</p>" for line in lines)


@bp.app_template_global()
def url_with(**changes) -> str:
    """The current page's URL with some query arguments changed (None removes one): for pagination."""
    args = request.args.to_dict(flat=False)
    for key, value in changes.items():
        if value is None:
            args.pop(key, None)
        else:
            args[key] = [str(value)]
    return url_for(request.endpoint, **(request.view_args or {}), **args)


@bp.app_template_global()
def card_url(card) -> str:
    """The card page of a `core.cards.Card` (cheap enough to call for every row of a long list)."""
    prefixes = g.setdefault("_card_url_prefixes", {})
    prefix = prefixes.get(card.game)
    if prefix is None:
        prefix = prefixes[card.game] = link("catalog.card", slug=card.game, key="~")[:-1]
    return prefix + quote(card.key, safe="/")


@bp.app_template_global()
def picture_url(game_slug: str, key: str, size: str = "thumb", set_code: str | None = None) -> str:
    """The address of a card's picture (`catalog.picture`); it names the catalogue version, so a
    newly approved scan or loaded image is fetched at once and an unchanged picture comes from cache."""
    stamps = g.setdefault("_picture_stamps", {})
    stamp = stamps.get(game_slug)
    if stamp is None:
        stamp = stamps[game_slug] = getattr(get_catalogue(game_slug), "stamp", 0)
    prefixes = g.setdefault("_card_url_prefixes", {})
    prefix = prefixes.get(game_slug)
    if prefix is None:
        prefix = prefixes[game_slug] = link("catalog.card", slug=game_slug, key="~")[:-1]
    query = f"?size={size}&v={stamp}" + (f"&set={quote(set_code, safe='')}" if set_code else "")
    return f"{prefix}{quote(key, safe='/')}/picture{query}"


@bp.app_template_global()
def result_rows(cards, game, catalogues) -> Markup:
    """The search results' rows. A row shows only its card's catalogue facts, so each is rendered
    once per catalogue version (memoized on the catalogue, which a corrected fact replaces)."""
    row = get_template_attribute("catalog/_result_row.html", "result_row")
    game_column = game is None
    out = []
    for card in cards:
        catalogue = catalogues[card.game]
        spec = game or get_game(card.game)
        out.append(catalogue.memo_each("web.result_row", (card.key, game_column, request.script_root),
                                       lambda: row(card, spec, catalogue, game_column)))
    return Markup("".join(out))


_FORM_ARGS = frozenset({"q", "page", "in_text"})  # query arguments the filters do not show
FILTER_FORMS_KEPT = 256


@bp.app_template_global()
def search_filters(game, catalogue, choices, req, unplaced) -> Markup:
    """The search form's filters for `game`. They show the catalogue's sets and values with the
    chosen ones selected, the same for everyone asking with the same filters, so each is rendered
    once per catalogue version and set of filter arguments (a bounded family: they are typed)."""
    args = request.args
    key = (request.script_root, tuple(sorted((k, tuple(args.getlist(k))) for k in args if k not in _FORM_ARGS)))
    write = get_template_attribute("catalog/_filters.html", "search_filters")
    return Markup(catalogue.memo_each("web.search_filters", key, lambda: write(
        game, catalogue, choices, req, unplaced, args, core_search.UNKNOWN_SET), limit=FILTER_FORMS_KEPT))


@bp.app_template_global()
def card_fact_rows(card, game, extras: bool = False) -> list[tuple[str, str, object]]:
    """(label, key, value) for each game field of a card, value None when unknown.

    Fields sharing a label (Kaijudo's printed "Power" 2500+ and its number 2500) show once, the
    first known one winning. Long "text" fields are left out unless `extras`, which also adds the
    card's facts that the game spec does not name (e.g. a source's note).
    """
    rows: dict[str, tuple[str, str, object]] = {}
    for f in game.fields:
        if f.kind == "text" and not extras:
            continue
        value = card.attrs.get(f.key)
        if f.label not in rows or (rows[f.label][2] in (None, "", []) and value not in (None, "", [])):
            rows[f.label] = (f.label, f.key, value)
    out = list(rows.values())
    if extras:
        named = {f.key for f in game.fields}
        out.extend((key.replace("_", " ").capitalize(), key, value)
                   for key, value in card.attrs.items() if key not in named)
    return out


@bp.app_template_global()
def card_picture(game_slug: str, key: str | None, set_code: str | None = None):
    """The approved scan showing a card (its printing in `set_code` if there is one), or None.

    One lookup per game and request, so deck lists and goldfish boards can ask for every card."""
    if not key:
        return None
    from deckhub.services.scans import pick_image
    return pick_image(request_card_images(game_slug).get(key), set_code)


def request_card_images(game_slug: str) -> dict:
    """{card key: its approved scans} of a game, read once per request."""
    from deckhub.services.scans import card_images
    pictures = g.setdefault("_card_pictures", {})
    images = pictures.get(game_slug)
    if images is None:
        images = pictures[game_slug] = card_images(game_slug)
    return images

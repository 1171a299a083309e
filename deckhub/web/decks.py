"""Decks in the browser: my decks, the editor with its validation panel, import/export, versions."""
from __future__ import annotations

import secrets
from operator import itemgetter

from flask import (Blueprint, Response, abort, flash, redirect, render_template, request,
                   url_for)
from flask_login import current_user, login_required
from markupsafe import Markup, escape
from flask_wtf import FlaskForm
from wtforms import BooleanField, FileField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from deckhub.services import checks, deck_needs, limits, table_exports, trading
from deckhub.services import decks as store
from deckhub.web import charts, page_cache, table
from deckhub.web.lookups import deck_or_404
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.deckdiff import diff_decks
from deckhub.core.decklist import Deck
from deckhub.core.deckstats import deck_stats
from deckhub.core.faces import group_cards
from deckhub.core.legality import UNVERIFIED
from deckhub.core.engine import find_engine
from deckhub.core.search import search_cards
from deckhub.games import all_games, get_game
from deckhub.importers.deck_exports import EXPORTS, ExportError
from deckhub.importers.decklists import read_decklist

bp = Blueprint("decks", __name__, url_prefix="/decks")

MAX_PASTE = limits.MAX_DECKLIST  # characters; a deck list is a few kilobytes


class NewDeckForm(FlaskForm):
    name = StringField("Deck name", validators=[DataRequired(), Length(1, store.MAX_NAME)])
    game = SelectField("Game", validators=[DataRequired()])
    format = SelectField("Format", validate_choice=False)
    packs = IntegerField("Packs (Limited only)", validators=[Optional(), NumberRange(1, 60)])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game.choices = [(g.slug, g.name) for g in all_games()]
        self.format.choices = [("", "the game's standard format")] + [
            (f.id, f"{g.name}: {f.name}") for g in all_games() for f in g.formats]


class ImportForm(NewDeckForm):
    decklist = TextAreaField("Deck list", validators=[Optional(), Length(max=MAX_PASTE)])
    upload = FileField("…or a deck file (.txt, .o8d, .json)")
    keep_parsed = BooleanField("Keep the lines that could be read and drop the others")


class PasteForm(FlaskForm):
    decklist = TextAreaField("Paste cards", validators=[DataRequired(), Length(max=MAX_PASTE)])
    mode = SelectField("", choices=[("add", "Add to the deck"), ("replace", "Replace the deck")])
    keep_parsed = BooleanField("Keep the lines that could be read and drop the others")


class SettingsForm(FlaskForm):
    name = StringField("Deck name", validators=[DataRequired(), Length(1, store.MAX_NAME)])
    description = TextAreaField("Notes", validators=[Optional(), Length(max=limits.MAX_DESCRIPTION)])
    format = SelectField("Format", validate_choice=False)
    packs = IntegerField("Packs (Limited only)", validators=[Optional(), NumberRange(1, 60)])
    is_public = BooleanField("Public: anyone with the link can view (read-only) and copy it")
    show_record = BooleanField("Show my record: visitors of the public deck see its games played (never your notes)")


# --------------------------------------------------------------------------- helpers

def _own(deck_id: int) -> store.StoredDeck:
    return deck_or_404(deck_id, mine=True)


def _visible(deck_id: int) -> store.StoredDeck:
    return deck_or_404(deck_id)


def _report(stored: store.StoredDeck, catalogue, viewer):
    """The deck's check, with the viewer's own card values where the catalogue knows nothing (see
    `checks.check_stored`)."""
    return checks.check_stored(stored, catalogue, viewer.id if viewer.is_authenticated else None)


def _rows(deck: Deck, catalogue, spec, report):
    """Each section's cards, sorted by type then name, with the problems that name them and, once
    each, the facts the catalogue lacks of them (an unverified check is not a badge a card)."""
    flagged: dict[str, list] = {}
    lacking: dict[str, dict[str, None]] = {}
    for v in report.violations:
        for key in v.keys:
            if v.severity == UNVERIFIED:
                lacking.setdefault(key, {})[v.missing or "what the checks need"] = None
            else:
                flagged.setdefault(key, []).append(v)
    sections = []
    for section in spec.sections:
        entries = deck.sections.get(section.name, {})
        rows = []
        for key, qty in entries.items():
            card = catalogue.get(key)
            rows.append({"key": key, "qty": qty, "card": card, "problems": flagged.get(key, []),
                         "lacking": list(lacking.get(key, {}))})
        rows.sort(key=lambda r: ((r["card"].type or "~") if r["card"] else "~", r["card"].name if r["card"] else r["key"]))
        sections.append({"name": section.name, "rows": rows, "count": sum(entries.values())})
    return sections


def _format_and_packs(spec, format_id: str | None, packs: int | None):
    try:
        fmt = spec.format(format_id or None)
    except LookupError:
        fmt = spec.format(None)
    return fmt, (packs if fmt.needs_packs else None)


def _chosen_format(spec, form):
    """The format picked in a new-deck form when it belongs to the chosen game, else the game's default."""
    fmt_id = form.format.data if form.format.data in {f.id for f in spec.formats} else None
    return _format_and_packs(spec, fmt_id, form.packs.data)


def _read_upload(form) -> tuple[str | bytes | None, str | None]:
    upload = form.upload.data if hasattr(form, "upload") else None
    if upload and getattr(upload, "filename", ""):
        return upload.read(MAX_PASTE * 4 + 1), upload.filename
    return form.decklist.data or None, None


# --------------------------------------------------------------------------- pages

@bp.route("/")
@login_required
def index():
    page = limits.int_in_range(request.args.get("page") or "1", 1, limits.MAX_PAGE)
    if page is None:
        abort(400, description="page must be a whole number from 1.")
    form = NewDeckForm(game=request.args.get("game"))
    return render_template("decks/index.html", decks=store.my_decks_page(current_user, page), form=form)


@bp.route("/new", methods=["POST"])
@login_required
def new():
    form = NewDeckForm()
    if not form.validate_on_submit():
        return render_template("decks/index.html", decks=store.my_decks_page(current_user), form=form), 400
    spec = get_game(form.game.data)
    fmt, packs = _chosen_format(spec, form)
    stored = store.create_deck(current_user.id, spec.slug, fmt.id, form.name.data, packs)
    flash(f"Deck “{stored.row.name}” created. Add cards with the search below or paste a list.", "success")
    return redirect(url_for("decks.edit", deck_id=stored.row.id))


@bp.route("/import", methods=["GET", "POST"])
@login_required
def import_deck():
    form = ImportForm(game=request.args.get("game"))
    parse = None
    if form.validate_on_submit():
        spec = get_game(form.game.data)
        data, filename = _read_upload(form)
        if not data:
            form.decklist.errors.append("Paste a deck list or choose a file.")
        elif len(data) > MAX_PASTE * 4:
            form.decklist.errors.append("That file is too large for a deck list.")
        else:
            parse = read_decklist(data, spec, get_catalogue(spec.slug), filename=filename, games=all_games())
            if not parse.errors or form.keep_parsed.data:
                fmt, packs = _chosen_format(spec, form)
                stored = store.create_deck(current_user.id, spec.slug, fmt.id, form.name.data, packs,
                                           parse.deck, note="imported")
                for notice in parse.notices:
                    flash(notice, "info")
                if parse.errors:
                    flash(f"{len(parse.errors)} line(s) could not be read and were left out.", "warning")
                return redirect(url_for("decks.show", deck_id=stored.row.id))
    status = 400 if (form.errors or (parse and parse.errors)) else 200
    return render_template("decks/import.html", form=form, parse=parse), status


def _anonymous_page_key(stored: store.StoredDeck, view: tuple[str, str], viewer) -> tuple | None:
    """A public deck looks the same to every visitor who is not signed in (see `page_cache`) until
    the deck or its settings change (one page per view of it)."""
    if viewer.is_authenticated:
        return None
    row = stored.row
    return page_cache.page_key(row.id, stored.version.number, row.updated_at, row.name, row.format, row.packs,
                               row.description, row.owner.username, *view, *table.record_key(stored))


VIEWS, PILES = ("table", "grid", "stacks"), ("type", "cost")


def _view() -> tuple[str, str]:
    """The deck page's view (`?view=table|grid|stacks&by=type|cost`); anything else is the table."""
    view, by = request.args.get("view", "table"), request.args.get("by", "type")
    return (view if view in VIEWS else "table", by if by in PILES else "type")


@bp.route("/<int:deck_id>")
def show(deck_id: int):
    stored = _visible(deck_id)
    spec = get_game(stored.row.game)
    catalogue = get_catalogue(spec.slug)
    view = _view()
    viewer = current_user._get_current_object()  # asked a dozen times below: through the proxy once
    key = _anonymous_page_key(stored, view, viewer)
    return (page_cache.kept(catalogue, "decks", key)
            or page_cache.keep(catalogue, "decks", key, _render_show(stored, spec, catalogue, view, viewer)))


def _flags(report) -> tuple:
    """What the check found, as the key of the pages that show it (a viewer's own card values can
    change it)."""
    return tuple((v.keys, v.cards, v.severity, v.rule, v.message, v.missing) for v in report.violations)


def _sections_html(stored: store.StoredDeck, spec, catalogue, view: tuple[str, str], report, flags: tuple) -> Markup:
    """The deck page's card list, kept (see `page_cache`) per deck version (`StoredDeck.stamp`), view
    and the problems the check flags on its cards (`_flags`), so every viewer of a deck shares one list: written once,
    not on each signed-in request."""
    key = page_cache.page_key(*stored.stamp, *view, flags)
    html = page_cache.kept(catalogue, "deck-sections", key)
    if html is None:
        sections = _rows(stored.deck, catalogue, spec, report)
        visual = ([(section, group_cards(section["rows"], itemgetter("card"), view[1], spec.face.cost))
                   for section in sections] if view[0] != "table" else None)
        html = page_cache.keep(catalogue, "deck-sections", key, render_template(
            "decks/_show_sections.html", stored=stored, spec=spec, sections=sections, view=view[0], by=view[1],
            visual=visual))
    return Markup(html)


def _stats_html(stored: store.StoredDeck, spec, catalogue) -> Markup:
    """The deck page's statistics panel (types, curve, breakdown of the catalogue's facts): the same
    for every viewer of one deck version, so kept (see `page_cache`) per version (`StoredDeck.stamp`)."""
    key = page_cache.page_key(*stored.stamp)
    html = page_cache.kept(catalogue, "deck-stats", key)
    if html is None:
        html = page_cache.keep(catalogue, "deck-stats", key, render_template(
            "decks/_stats_panel.html", stored=stored, stats=deck_stats(stored.deck, catalogue, spec.extras)))
    return Markup(html)


def _violations_html(stored: store.StoredDeck, catalogue, fmt, report, flags: tuple, owner: bool,
                     signed_in: bool) -> Markup:
    """The validation panel, kept (see `page_cache`) per deck and format, what the check found
    (`flags` and the rest of `report` the panel shows) and the viewer's standing."""
    row = stored.row
    key = page_cache.page_key(row.id, fmt.id, row.packs, flags, tuple(report.counts.items()), report.enterable,
                              tuple(f.id for f in report.fits), report.yours, owner, signed_in, request.path)
    html = page_cache.kept(catalogue, "deck-violations", key)
    if html is None:
        html = page_cache.keep(catalogue, "deck-violations", key, render_template(
            "decks/_violations.html", stored=stored, report=report, fmt=fmt, owner=owner))
    return Markup(html)


def _head_html(stored: store.StoredDeck, spec, catalogue, owner: bool, signed_in: bool) -> Markup:
    """The deck page's heading and actions (some twenty links), kept (see `page_cache`) per deck
    version, its settings and whether the viewer owns it or is signed in: one for every viewer."""
    row = stored.row
    share = (request.scheme, request.host) if owner and row.is_public else None  # the share link's absolute URL
    key = page_cache.page_key(row.id, stored.version.number, row.name, row.format, row.packs, row.description,
                              row.is_public, row.owner.username, owner, signed_in, share)
    html = page_cache.kept(catalogue, "deck-head", key)
    if html is None:
        html = page_cache.keep(catalogue, "deck-head", key, render_template(
            "decks/_head.html", stored=stored, spec=spec, fmt=spec.format(row.format), owner=owner,
            has_engine=find_engine(spec) is not None, exports=EXPORTS))
    return Markup(html)


def _needs_html(stored: store.StoredDeck, catalogue, needs: list) -> Markup:
    """The *Against my collection* panel of `deck_needs` rows, kept (see `page_cache`) per deck
    version and what the panel shows of them (each card's copies owned and wanted, and the viewer's
    other decks using it): written once for a viewer until their collection or decks change, and
    shared by viewers who hold the same of the deck's cards."""
    key = page_cache.page_key(*stored.stamp, request.full_path,
                              tuple((r.owned, r.wanted, r.other_decks, r.in_other_decks, r.latest_decks,
                                     *r.used_elsewhere) for r in needs))
    html = page_cache.kept(catalogue, "deck-needs", key)
    if html is None:
        html = page_cache.keep(catalogue, "deck-needs", key, render_template(
            "collection/_deck_needs.html", needs=needs, needs_table=needs_table(needs), deck=stored.row))
    return Markup(html)


def _render_show(stored: store.StoredDeck, spec, catalogue, view: tuple[str, str], viewer) -> str:
    signed_in = viewer.is_authenticated
    report = _report(stored, catalogue, viewer)
    needs = (deck_needs.deck_needs(viewer, stored.version.data, catalogue, deck_id=stored.row.id,
                                   deck_stamp=stored.stamp) if signed_in else None)
    owner = store.owns(viewer, stored.row)
    missing = deck_needs.missing_total(needs) if owner else 0  # the owner sees who trades the missing cards
    flags = _flags(report)
    return render_template("decks/show.html", stored=stored, owner=owner,
                           needs_html=_needs_html(stored, catalogue, needs) if needs is not None else None,
                           head_html=_head_html(stored, spec, catalogue, owner, signed_in),
                           violations_html=_violations_html(stored, catalogue, spec.format(stored.row.format),
                                                            report, flags, owner, signed_in),
                           sections_html=_sections_html(stored, spec, catalogue, view, report, flags),
                           stats_html=_stats_html(stored, spec, catalogue),
                           suppliers=trading.who_has_cards(spec.slug, {r.card_key: r.missing for r in needs},
                                                           viewer.id, stored.row.id) if missing else None,
                           **table.record_context(stored, viewer))


def needs_table(needs) -> tuple[int, int, Markup]:
    """Of `deck_needs` rows: (copies missing, copies to find if the owner's other decks keep theirs,
    the rows of the *Against my collection* table, a card each), in one pass; the rows are written
    here rather than by a dozen template expressions a card on every signed-in visit."""
    missing_total = short_total = 0
    named: dict[str, str] = {}  # each of the viewer's other decks, escaped once (it shares many cards)
    out = []
    for row in needs:
        needed, owned = row.needed, row.owned
        missing = needed - owned
        elsewhere, free = "", owned - row.in_other_decks
        if row.used_elsewhere:
            uses = []
            for use in row.used_elsewhere:
                name = named.get(use.deck_name)
                if name is None:
                    name = named[use.deck_name] = escape(use.deck_name)
                uses.append(f"{use.qty} in “{name}”")
            more = row.other_decks - len(uses)
            if more > 0:  # the first few decks are named, the rest counted
                uses.append(f"…and {more} more deck{'s' if more != 1 else ''} ({row.in_other_decks} copies in all)")
            elsewhere = f"{', '.join(uses)}\n          <br><small>you own {owned}, {max(0, free)} free</small>"
        if missing > 0:
            missing_total += missing
        short_total += max(0, needed - max(0, free))
        badges = ("" if row.known else ' <span class="badge">not in the catalogue</span>') + (
            f'\n          <span class="badge">wanted {row.wanted}</span>' if row.wanted else "")
        out.append(f'<tr class="{"short" if missing > 0 else "covered"}">\n        <td>{escape(row.name)}{badges}</td>'
                   f"\n        <td>{needed}</td>\n        <td>{owned}</td>\n        <td>{missing if missing > 0 else ''}</td>"
                   f"\n        <td>{elsewhere}</td>\n      </tr>")
    return missing_total, short_total, Markup("\n      ".join(out))


@bp.route("/<int:deck_id>/edit")
@login_required
def edit(deck_id: int):
    stored = _own(deck_id)
    spec = get_game(stored.row.game)
    catalogue = get_catalogue(spec.slug)
    report = _report(stored, catalogue, current_user)
    query = (request.args.get("q") or "").strip()[:100]
    results = search_cards(catalogue, spec, query, {})[:20] if query else []
    token = request.args.get("s") or ""
    return render_template("decks/edit.html", stored=stored, spec=spec, report=report, query=query,
                           results=[(card, store.sections_for(stored, card)) for card in results],
                           sections=_rows(stored.deck, catalogue, spec, report),
                           fmt=spec.format(stored.row.format), paste_form=PasteForm(), owner=True,
                           edit_session=token if store.valid_session_token(token) else secrets.token_urlsafe(12))


def _edit_session() -> str | None:
    """The editing session a ± click belongs to (`s`, from the editor's forms), or None: one version a click."""
    token = request.form.get("s") or None
    if token is not None and not store.valid_session_token(token):
        abort(400, "That editing session is not one this site made; open the editor again.")
    return token


@bp.route("/<int:deck_id>/cards", methods=["POST"])
@login_required
def change_card(deck_id: int):
    stored = _own(deck_id)
    key = request.form.get("card", "")
    try:
        delta = int(request.form.get("delta", "0"))
    except ValueError:
        abort(400, "The change must be a whole number of copies.")
    token = _edit_session()
    try:
        store.change_quantity(stored, request.form.get("section", ""), key, delta, session=token)
    except store.DeckError as exc:
        abort(400, str(exc))
    q = request.form.get("q", "")
    return redirect(url_for("decks.edit", deck_id=deck_id, q=q or None, s=token, _anchor=f"card-{key}"))


@bp.route("/<int:deck_id>/save", methods=["POST"])
@login_required
def save_session(deck_id: int):
    """Save: close the editing session (its version stays); the editor opens a new one."""
    _own(deck_id)
    token = _edit_session()
    if token is not None:
        store.close_session(deck_id, token)
    flash("Saved. Your next change starts a new version.", "success")
    return redirect(url_for("decks.edit", deck_id=deck_id), code=303)


@bp.route("/<int:deck_id>/paste", methods=["POST"])
@login_required
def paste(deck_id: int):
    stored = _own(deck_id)
    spec = get_game(stored.row.game)
    catalogue = get_catalogue(spec.slug)
    form = PasteForm()
    parse = None
    if form.validate_on_submit():
        parse = read_decklist(form.decklist.data, spec, catalogue, games=all_games())
        if not parse.errors or form.keep_parsed.data:
            store.paste_list(stored, parse.deck, replace=form.mode.data == "replace")
            for notice in parse.notices:
                flash(notice, "info")
            if parse.errors:
                flash(f"{len(parse.errors)} line(s) could not be read and were left out.", "warning")
            return redirect(url_for("decks.edit", deck_id=deck_id))
    report = _report(stored, catalogue, current_user)
    return render_template("decks/edit.html", stored=stored, spec=spec, report=report, query="", results=[],
                           sections=_rows(stored.deck, catalogue, spec, report), fmt=spec.format(stored.row.format),
                           paste_form=form, parse=parse, owner=True, edit_session=secrets.token_urlsafe(12)), 400


@bp.route("/<int:deck_id>/settings", methods=["GET", "POST"])
@login_required
def settings(deck_id: int):
    stored = _own(deck_id)
    spec = get_game(stored.row.game)
    form = SettingsForm(obj=stored.row)
    form.format.choices = [(f.id, f.name) for f in spec.formats]
    if form.validate_on_submit():
        fmt, packs = _format_and_packs(spec, form.format.data, form.packs.data)
        store.edit_settings(stored, name=form.name.data, description=form.description.data, format=fmt.id, packs=packs,
                            is_public=form.is_public.data, show_record=form.show_record.data)
        flash("Deck settings saved.", "success")
        return redirect(url_for("decks.show", deck_id=deck_id))
    return render_template("decks/settings.html", stored=stored, form=form, spec=spec), (400 if form.errors else 200)


@bp.route("/<int:deck_id>/copy", methods=["POST"])
@login_required
def copy(deck_id: int):
    stored = _visible(deck_id)
    new = store.copy_deck(stored, current_user.id)
    flash(f"Copied to your decks as “{new.row.name}”.", "success")
    return redirect(url_for("decks.edit", deck_id=new.row.id))


@bp.route("/<int:deck_id>/delete", methods=["POST"])
@login_required
def delete(deck_id: int):
    stored = _own(deck_id)
    store.delete_deck(stored)
    flash(f"Deck “{stored.row.name}” deleted.", "info")
    return redirect(url_for("decks.index"))


@bp.route("/<int:deck_id>/export")
@bp.route("/<int:deck_id>/export.<fmt>")
def export(deck_id: int, fmt: str | None = None):
    """`?format=` one of the exporter table's (or the older `export.txt`/`.o8d`/`.json`)."""
    stored = _visible(deck_id)
    name = request.args.get("format") or {"txt": "text"}.get(fmt, fmt) or ""
    try:
        chosen, body = table_exports.export(stored, name, request.url_root,
                                            store.owns(current_user, stored.row))
    except ExportError as exc:
        abort(404, str(exc))
    filename = "".join(ch if ch.isalnum() or ch in "-_ " else "_" for ch in stored.row.name).strip() or "deck"
    return Response(body, mimetype=chosen.mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}.{chosen.extension}"'})


@bp.route("/<int:deck_id>/versions")
def versions(deck_id: int):
    stored = _visible(deck_id)
    rows = store.versions(stored.row)
    newest = rows[0].number
    a, b = (limits.int_in_range(request.args.get(name), 1, limits.MAX_ID) if request.args.get(name) else default
            for name, default in (("from", max(1, newest - 1)), ("to", newest)))
    if a is None or b is None:
        abort(400, "?from= and ?to= are version numbers (1, 2, ...).")
    old, new = store.version(stored.row, a), store.version(stored.row, b)
    if old is None or new is None:
        abort(404, "That deck has no such version.")
    catalogue = get_catalogue(stored.row.game)
    changes = diff_decks(Deck.from_json(old.data), Deck.from_json(new.data))
    # each version's net change from the one before it: an editing session is one entry with its net diff
    steps = {newer.number: diff_decks(Deck.from_json(older.data), Deck.from_json(newer.data))
             for newer, older in zip(rows, rows[1:])}
    return render_template("decks/versions.html", stored=stored, versions=rows, changes=changes,
                           catalogue=catalogue, a=a, b=b, steps=steps)


@bp.route("/<int:deck_id>/charts/<kind>.svg")
def chart(deck_id: int, kind: str):
    stored = _visible(deck_id)
    spec = get_game(stored.row.game)
    stats = deck_stats(stored.deck, get_catalogue(spec.slug), spec.extras)
    svg = charts.deck_chart(stats, kind, spec.extras.get("colours"))
    if svg is None:
        abort(404, "No such chart for this game.")
    return Response(svg, mimetype="image/svg+xml")


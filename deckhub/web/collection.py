"""My collection in the browser: overview, set checklists, ± controls, CSV import/export, want list.

Every page is the signed-in user's own: URLs carry no user name, and the only per-user URLs
(pending imports) are random tokens bound to their user, so anyone else gets a 404.

Imports are jobs (see `deckhub.services.collection_imports`): the upload is planned by a queue task and the
preview pages read the stored plan a page at a time; the commit is another task. While a task
runs, the page refreshes itself every second (no JavaScript needed) and shows the job's status.
"""
from __future__ import annotations

import re
from urllib.parse import quote

from flask import (Blueprint, Response, abort, current_app, flash, jsonify, redirect, render_template, request,
                   url_for)
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from markupsafe import Markup, escape
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms import IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional, Regexp

from deckhub.services import checklists, owned_sets
from deckhub.services import collection as service
from deckhub.services import deck_needs
from deckhub.services import collection_imports as uploads
from deckhub.games import all_games, get_game
from deckhub.importers.collection_csv import COLUMNS, MAX_QUANTITY, QTY_LABELS
from deckhub.services.limits import MAX_ID, MAX_PAGE, int_in_range
from deckhub.services.catalogue_store import get_catalogue
from deckhub.web import page_cache
from deckhub.web.filters import link as _link
from deckhub.web.lookups import deck_or_404, game_or_404
from deckhub.web.redirects import safe_next

bp = Blueprint("collection", __name__, url_prefix="/collection")

PREVIEW_PAGE = 200  # rows per page of the dry run


class ImportForm(FlaskForm):
    file = FileField("CSV file", validators=[FileRequired("Choose a CSV file to import.")])
    game = SelectField("Game", validators=[Optional()])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game.choices = [SelectChoice("", "Each row's game column says")] + [
            SelectChoice(g.slug, g.name) for g in all_games()]


class PasteListForm(FlaskForm):
    """A list in the deck-list syntax (`3 Argus, Vigilant Seer`), checked like a CSV file before anything
    changes. Its fields are named paste-game, paste-decklist, paste-mode (the upload form shares the page)."""

    game = SelectField("Game of the list", validators=[DataRequired("Choose the list's game.")])
    decklist = TextAreaField("Cards", validators=[DataRequired("Paste at least one line such as “3 Argus, Vigilant Seer”."),
                                                  Length(max=200_000)])
    mode = SelectField("What the numbers mean", choices=[SelectChoice("add", "Add these to what I have"),
                                                         SelectChoice("set", "Set my quantities to these")],
                       default="add")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game.choices = [SelectChoice(g.slug, g.name) for g in all_games()]


class AdjustForm(FlaskForm):
    """One change: `field` and `delta`, or both in one button value, `step` = "foil_quantity:-1"."""

    printing = IntegerField(validators=[DataRequired(), NumberRange(1, MAX_ID)])
    step = StringField(validators=[Optional(), Regexp(r"^([a-z_]+:[+-]?\d{1,7}|set)$")])
    field = StringField(validators=[Optional()])
    delta = IntegerField(validators=[Optional(), NumberRange(-MAX_QUANTITY, MAX_QUANTITY)])

    def typed(self) -> dict[str, int] | None:
        """The quantities typed into the boxes (`step` = "set", sent by Enter or the Set button), or
        None when a box holds no whole number from 0 up; a blank box is left alone."""
        values = {}
        for name in service.FIELDS:
            text = (request.form.get(f"set_{name}") or "").strip()
            if not text:
                continue
            if not text.isdecimal() or int(text) > MAX_QUANTITY:
                return None
            values[name] = int(text)
        return values or None

    def change(self) -> tuple[str, int] | None:
        if self.step.data:
            name, _, delta = self.step.data.partition(":")
        else:
            name, delta = self.field.data, self.delta.data
        if name not in service.FIELDS or delta is None or abs(int(delta)) > MAX_QUANTITY:
            return None
        return name, int(delta)


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(exc):
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    return render_template("collection/too_large.html", limit_mb=limit / (1024 * 1024)), 413


@bp.app_template_global("collection_owned")
def collection_owned(printing_ids) -> dict:
    """{printing id: Owned} of the signed-in user, in one query (for pages that show ± controls)."""
    if not current_user.is_authenticated:
        return {}
    if isinstance(printing_ids, int):
        printing_ids = [printing_ids]
    return service.owned_for(current_user, printing_ids)


@bp.app_template_global("card_url_prefix")
def card_url_prefix(game: str) -> str:
    """A game's card page address up to its card key (the rule ends in the key), for pages that
    link many cards: prefix + key|urlencode is that card's page."""
    return _link("catalog.card", slug=game, key="-")[:-1]


@bp.app_template_filter("path_part")
def path_part(key: str) -> str:
    """A card key as its card page's address ends, as `card_url` writes it: unchanged when nothing
    in it needs quoting, else percent-quoted (cheaper than `urlencode` for a page of card links)."""
    return key if _PLAIN_KEY(key) else quote(key, safe="/")


@bp.app_template_global("collection_printing_id")
def collection_printing_id(card, printing) -> int | None:
    """The database id of one of a `core.cards.Card`'s printings (for the ± partial on card pages)."""
    return service.printing_id(card, printing)


# the fixed parts of the ± form (`owned_form` below):
# (field, its place in an Owned, its label, the label capitalised, its largest value), the labels escaped here
OWNED_FIELDS = tuple((f, service.Owned._fields.index(f), escape(label), escape(label.capitalize()), MAX_QUANTITY)
                     for f, label in QTY_LABELS.items())
bp.add_app_template_global(OWNED_FIELDS, "OWNED_FIELDS")

_PLAIN_KEY = re.compile(r"[A-Za-z0-9_.~/-]*").fullmatch  # a card key that quote(key, safe="/") leaves as it is
_PLAIN_CODE = re.compile(r"[A-Za-z0-9_.~-]*").fullmatch  # a set code that quote(code, safe="") leaves as it is


def _html(text: str) -> str:
    """Text escaped for HTML as markupsafe escapes it (rows written in Python). Most names need
    nothing: looking for the five characters, and replacing them when found, costs a tenth to a third
    of one `str.translate` through a table, which looks up every character."""
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;").replace("'", "&#39;")
    return text


def _owned_fields_html(fields) -> tuple:
    """Each field's markup around what a row writes in it (its printing's name, twice, and its
    value), worked out once: (index in Owned, (start, middle) for a value of 0, the same for any
    other value, the markup after the value up to the name, after the name up to the name, the end).
    A row then joins a dozen pieces a field instead of writing every label and attribute again."""
    return tuple((i, _field_start(f, label, "", " disabled"), _field_start(f, label, " has", ""),
                  f'" min="0" max="{largest}" inputmode="numeric" class="owned-value" aria-label="{capitalised}: ',
                  f' (type a number, then Enter)">\n'
                  f'    <button type="submit" name="step" value="{f}:1" class="small secondary" aria-label="One more {label}: ',
                  '">+</button></span>') for f, i, label, capitalised, largest in fields)


def _field_start(field: str, label: str, has: str, disabled: str) -> tuple[str, str]:
    """A field's markup up to the printing's name, and from there to the field's value."""
    return (f'\n  <span class="owned-control{has}"><span class="owned-label">{label}</span>\n'
            f'    <button type="submit" name="step" value="{field}:-1" class="small secondary" aria-label="One less {label}: ',
            f'"{disabled}>&minus;</button>\n    <input type="number" name="set_{field}" value="')


_OWNED_FIELDS_HTML = _owned_fields_html(OWNED_FIELDS)


@bp.app_template_global("owned_form")
def owned_form(printing_id: int, owned, name: str, next: str, token: str, action: str, fields=OWNED_FIELDS) -> Markup:
    """The ± form of one printing, the one markup behind collection/_owned_controls.html and the set
    checklist: one plain POST form whose buttons each send "quantity:+1", "foil_quantity:-1", ..., and
    whose boxes take a typed quantity (Enter or Set sends step=set with every box). Written in Python:
    a checklist writes one a row, and a template macro cost most of the page.

    Its text arguments arrive ESCAPED already (`|e`, `_html`, or Markup): name, next, token, action;
    a page of many rows works them out once. `printing_id` is a whole number, `owned` a
    collection.Owned (four whole numbers), `fields` [(field, index in owned, label, capitalised label,
    largest value)] (OWNED_FIELDS, or some of them). Nothing is escaped in here."""
    out: list[str] = []
    _write_owned_form(out.append, printing_id, owned, name, _form_head(next, token, action),
                      _OWNED_FIELDS_HTML if fields is OWNED_FIELDS else _owned_fields_html(fields))
    return Markup("".join(out))


def _form_head(next: str, token: str, action: str) -> tuple[str, str, str]:
    """The ± form's markup up to its printing id, from there to the id again, and on to the
    printing's name: the same for every form of a page."""
    return (f'<form method="post" action="{action}" class="owned-controls" id="p',
            f'">\n  <input type="hidden" name="csrf_token" value="{token}">\n  <input type="hidden" name="printing" value="',
            f'">\n  <input type="hidden" name="next" value="{next}">\n'
            # first in the form, so Enter in a box sets the typed numbers instead of pressing the first −
            f'  <button type="submit" name="step" value="set" class="sr-only" tabindex="-1">Set the typed quantities of ')


_FORM_END = '\n  <button type="submit" name="step" value="set" class="small secondary owned-set">Set</button>\n</form>'


def _write_owned_form(add, printing_id, owned, name, head, fields) -> None:
    """`owned_form`'s markup, piece by piece to `add` (a page's list of pieces, no string per form)."""
    to_id, to_id_again, to_name = head
    add(f"{to_id}{printing_id}{to_id_again}{printing_id}{to_name}{name}</button>")
    for i, none, some, after_value, after_name, end in fields:
        value = owned[i]
        before_name, before_value = some if value else none
        add(f"{before_name}{name}{before_value}{value}{after_value}{name}{after_name}{name}{end}")
    add(_FORM_END)


@bp.app_template_global("checklist_rows")
def checklist_rows(rows, card_url: str, next: str, token: str, action: str) -> Markup:
    """A set checklist's rows (checklists.ChecklistRow) with their ± forms, written in Python like the
    want & trade list's rows. `card_url` (a card page's address up to its key), `next`, `token` and
    `action` arrive escaped."""
    out: list[str] = []
    add = out.append
    fields, head = _OWNED_FIELDS_HTML, _form_head(next, token, action)
    for printing_id, number, card_key, display_name, rarity, promo_code, owned, _, _ in rows:
        name = _html(display_name)
        quantity, foil = owned[0], owned[1]
        have = (f"{quantity} + {foil} foil" if foil else str(quantity)) if quantity + foil else '<span class="muted">&mdash;</span>'
        key = card_key if _PLAIN_KEY(card_key) else quote(card_key, safe="/")
        add(f'\n    <tr class="{"owned" if quantity + foil else "missing"}">\n'
            f'      <td>{_html(number) if number else "&mdash;"}</td>\n'
            f'      <td><a href="{card_url}{key}">{name}</a></td>\n'
            f'      <td>{_html("promo " + promo_code if promo_code else rarity or "")}</td>\n'
            f'      <td class="coll-have">{have}</td>\n'
            f'      <td class="no-print">')
        _write_owned_form(add, printing_id, owned, name, head, fields)
        add('</td>\n    </tr>')
    return Markup("".join(out))


@bp.app_template_global("want_trade_rows")
def want_trade_rows(rows, game_names: dict[str, str], sets: dict) -> Markup:
    """The want & trade list's rows (trading.MyListPage.rows): written in Python, not Jinja, as a
    template loop costs several times the rest of the page for its hundred rows. `sets`: (game, set
    code) -> (checklist address, set name)."""
    games = {slug: _html(name) for slug, name in game_names.items()}
    links = {key: (_html(url), _html(name)) for key, (url, name) in sets.items()}
    out = []
    add = out.append
    for r in rows:
        game = r.game
        url, title = links[game, r.set]
        name = f"{r.name}, {r.version}" if r.version else r.name
        add(f'<tr><td>{games.get(game) or _html(game)}</td>\n      <td><a href="{url}">{title}</a></td>\n'
            f'      <td>{_html(r.number) if r.number else "—"}</td><td>{_html(name)}</td>\n'
            f'      <td>{r.want_quantity or ""}</td><td>{r.trade_quantity or ""}</td>'
            f'<td>{r.quantity + r.foil_quantity}</td></tr>\n')
    return Markup("".join(out))


def _completion_bar(c, label: str, id: str = "") -> str:
    """`completion_bar` with its `label` and `id` escaped already (rows written in Python)."""
    text = f"{c.owned} of {c.size} ({c.percent:.0f}%)" if c.size else f"{c.owned} of {c.size}"
    at = f' id="{id}"' if id else ""
    return (f'<div class="coll-progress"{at}>\n    <progress max="{c.size or 1}" value="{c.owned}" '
            f'aria-label="{label}: {c.owned} of {c.size}">{text}</progress>\n'
            f'    <span class="coll-progress-text">{text}</span>\n  </div>')


@bp.app_template_global("completion_bar")
def completion_bar(c, label: str, id: str = "") -> Markup:
    """A completion bar (checklists.Completion): a native <progress> (announced by screen readers)
    with its text beside it; `label` names it for them."""
    return Markup(_completion_bar(c, _html(label), _html(id)))


def _set_rows(game) -> str:
    prefix = _html(_link("collection.checklist", slug=game.slug, code="~")[:-1])
    out = []
    add = out.append
    for s in game.sets:
        name = _html(s.name)
        code = s.code if _PLAIN_CODE(s.code) else quote(s.code, safe="")
        add(f'<tr><td><a href="{prefix}{code}">{name}</a></td>\n'
            f'            <td>{_completion_bar(s.completion, f"{name} completion")}</td></tr>\n')
    return "".join(out)


def _counted(number: int, noun: str) -> str:
    """The `counted` filter's "1 set", "2,586 cards"."""
    return f"{number:,} {noun if number == 1 else noun + 's'}"


@bp.app_template_global("collection_games_html")
def collection_games_html(games) -> Markup:
    """The overview's section per game (checklists.GameProgress): completion, totals and the table of
    its sets, written in Python, as a template loop with a macro per set cost most of the page."""
    out = []
    add = out.append
    for game in games:
        slug, name = _html(game.slug), _html(game.name)
        add(f'\n\n<section class="panel coll-game" aria-labelledby="game-{slug}">\n  <h2 id="game-{slug}">{name}</h2>\n  ')
        if not game.sets:
            add(f'\n  <p class="empty">No {name} cards are loaded yet.</p>\n  \n</section>')
            continue
        totals, started = game.totals, game.started
        export = (f'· <a href="{_html(_link("collection.export", game=game.slug))}">export {name} (CSV)</a>'
                  if started else "")
        add(f'\n  {_completion_bar(game.completion, f"{name} completion", f"completion-{slug}")}\n'
            f'  <p class="coll-totals">{_counted(totals.quantity, "card")}, {totals.foil_quantity} foil,\n'
            f'    {totals.want_quantity} wanted, {totals.trade_quantity} for trade\n    {export}</p>\n'
            f'  <details{" open" if started else ""}>\n    <summary>{_counted(len(game.sets), "set")}</summary>\n'
            f'    <table class="coll-sets">\n      <caption class="sr-only">{name} sets and how complete they are</caption>\n'
            f'      <thead><tr><th scope="col">Set</th><th scope="col">Completion</th></tr></thead>\n'
            f'      <tbody>\n      {_set_rows(game)}\n      </tbody>\n    </table>\n  </details>\n  \n</section>')
    return Markup("".join(out)[1:] + "\n" if out else "")


@bp.app_template_global("matched_users")
def matched_users(matches, mine_label: str, theirs_label: str) -> Markup:
    """The players matched (trading.Matches) with their cards, as list items for public/_matches.html,
    written in Python like the want & trade list's rows: a page may show fifty players and hundreds
    of cards. Card pages' addresses as `card_url` writes them. Written once per Matches and labels
    (Matches of a kept match are kept, and so is what was written of them)."""
    key = (request.script_root, mine_label, theirs_label)  # the addresses start with the site's root
    written = matches.written.get(key)
    if written is None:
        written = matches.written[key] = _matched_users(matches.users, mine_label, theirs_label)
    return written


def _matched_users(users, mine_label: str, theirs_label: str) -> Markup:
    mine_label, theirs_label = _html(mine_label), _html(theirs_label)
    prefixes: dict[str, str] = {}
    out = []
    add = out.append
    for m in users:
        name, count, copies = _html(m.username), len(m.cards), m.copies
        add(f'\n  <li>\n    <p><strong>{name}</strong> — {count} card{"s" if count != 1 else ""}, up to {copies} '
            f'cop{"y" if copies == 1 else "ies"}\n'
            f'      · <a href="{_html(_link("public.user_list", name=m.username, kind="trades"))}">trade list</a>\n'
            f'      · <a href="{_html(_link("public.user_list", name=m.username, kind="wants"))}">want list</a></p>\n'
            f'    <table class="match-cards">\n      <caption class="sr-only">Cards matched with {name}</caption>\n'
            f'      <thead><tr><th scope="col">Card</th><th scope="col">{mine_label}</th>'
            f'<th scope="col">{theirs_label}</th></tr></thead>\n      <tbody>\n      ')
        for c in m.cards:
            game, key = c.game, c.key
            prefix = prefixes.get(game)
            if prefix is None:
                prefix = prefixes[game] = _html(_link("catalog.card", slug=game, key="~")[:-1])
            address = key if _PLAIN_KEY(key) else quote(key, safe="/")  # neither leaves a character to escape
            card = f"{c.name}, {c.version}" if c.version else c.name
            add(f'<tr><td><a href="{prefix}{address}">{_html(card)}</a></td><td>{c.mine}</td><td>{c.theirs}</td></tr>\n')
        add('\n      </tbody>\n    </table>\n  </li>\n  ')
    return Markup("".join(out))


@bp.app_context_processor
def _collection_globals():
    return {"QTY_LABELS": QTY_LABELS, "NO_CARDS_OWNED": service.NOTHING, "MAX_QUANTITY": MAX_QUANTITY,
            "trade_capped_message": service.trade_capped_message}


# --------------------------------------------------------------------------- overview and checklists

@bp.route("/")
@login_required
def overview():
    """The collection by game and set, with a search box that finds a card to add right here."""
    q = (request.args.get("q") or "").strip()
    slug = request.args.get("game") or ""
    game = game_or_404(slug).slug if slug else None
    finds = service.find_cards(current_user, q, game) if q else None
    return render_template("collection/overview.html", games=checklists.collection_overview(current_user),
                           finds=finds, q=q, search_game=game)


@bp.route("/<slug>/sets/<code>")
@login_required
def checklist(slug: str, code: str):
    game = game_or_404(slug)
    name = checklists.set_name(game.slug, code)
    if name is None:
        abort(404, description=f"{game.name} has no set “{code[:80]}”.")
    return render_template("collection/checklist.html", set_name=name,
                           content=_checklist_html(game.slug, code, request.args.get("show", "all")))


CHECKLISTS_KEPT = 4 * 2**20  # characters of checklists kept per catalogue (a 234-card set's is 140,000)


def _checklist_html(game: str, code: str, show: str) -> Markup:
    """The checklist below the header, kept (see `page_cache`) per address and the player's collection
    (`owned_sets.kept_on`): a view that follows no change of theirs neither reads nor writes its
    hundreds of rows again, and any change of theirs shows at once."""
    kept_on = owned_sets.kept_on(current_user)
    key = page_cache.page_key(*kept_on, request.full_path) if kept_on is not None else None
    catalogue = get_catalogue(game)
    html = page_cache.kept(catalogue, "checklist", key, CHECKLISTS_KEPT)
    if html is None:
        html = page_cache.keep(catalogue, "checklist", key, render_template(
            "collection/_checklist.html", checklist=checklists.set_checklist(current_user, game, code, show),
            filters=checklists.CHECKLIST_FILTERS), CHECKLISTS_KEPT)
    return Markup(html)


@bp.route("/<slug>/sets/<code>/print")
@login_required
def checklist_print(slug: str, code: str):
    game = game_or_404(slug)
    checklist = checklists.set_checklist(current_user, game.slug, code, request.args.get("show", "all"))
    if checklist is None:
        abort(404, description=f"{game.name} has no set “{code[:80]}”.")
    return render_template("collection/checklist_print.html", checklist=checklist, filters=checklists.CHECKLIST_FILTERS)


@bp.route("/wants")
@login_required
def wants():
    page = int_in_range(request.args.get("page") or "1", 1, MAX_PAGE)
    if page is None:
        abort(400, description="page must be a whole number from 1.")
    names = {g.slug: g.name for g in all_games()}
    from deckhub.services.trading import my_list_page, my_lists
    listing = my_list_page(current_user, page)
    sets = {key: (_link("collection.checklist", slug=key[0], code=key[1]), name)
            for key, name in listing.set_names.items()}  # a link per set, not per row
    return render_template("collection/wants.html", listing=listing, rows=listing.rows, game_names=names,
                           sets=sets, lists=my_lists(current_user))


@bp.route("/adjust", methods=["POST"])
@login_required
def adjust():
    """A ± button adds `delta` to one quantity of one printing; Enter (or Set) in the boxes sets the
    typed quantities; then back where the user was."""
    form = AdjustForm()
    wants_json = request.accept_mimetypes.best == "application/json"
    valid = form.validate()
    typing = valid and form.step.data == "set"
    change = (form.typed() if typing else form.change()) if valid else None
    if change is None:
        if wants_json:
            return jsonify({"error": "bad request", "fields": form.errors}), 400
        abort(400, description=(f"Type a whole number from 0 to {MAX_QUANTITY:,} in each box." if typing else
                                "That change could not be read. Reload the page and try again."))
    try:
        owned, note = service.change_printing(current_user, form.printing.data, set_to=change if typing else None,
                                              add=None if typing else change)
    except LookupError:
        abort(404, description="There is no such printing.")
    if wants_json:
        return jsonify({"printing": form.printing.data, **owned._asdict(), **({"note": note} if note else {})})
    if note:
        flash(note, "warning")
    target = safe_next(url_for(".overview"))
    return redirect(f"{target.split('#', 1)[0]}#p{form.printing.data}", code=303)


@bp.route("/decks/<int:deck_id>/add-missing", methods=["POST"])
@login_required
def add_missing(deck_id: int):
    """Put what a deck (mine, or a public one) still needs on my want list."""
    stored = deck_or_404(deck_id)
    own = stored.row.owner_id == current_user.id
    added = deck_needs.add_missing_to_wants(current_user, stored.version.data, get_catalogue(stored.row.game),
                                         deck_id=stored.row.id if own else None,
                                         shared=request.form.get("shared") == "1")
    copies = sum(n for _, _, n in added)
    if copies:
        flash(f"Added {copies} card{'s' if copies != 1 else ''} to your want list.", "success")
    else:
        flash("Your want list already covers every card this deck is missing.", "info")
    return redirect(safe_next(url_for("decks.show", deck_id=deck_id)), code=303)


# --------------------------------------------------------------------------- import

def _import_page(form: ImportForm, paste_form: PasteListForm, parse=None, status: int = 200):
    if status == 200 and (form.errors or paste_form.errors or (parse and parse.errors)):
        status = 400
    return render_template("collection/import.html", form=form, paste_form=paste_form, parse=parse, columns=COLUMNS,
                           limit_mb=uploads.MAX_UPLOAD_BYTES / (1024 * 1024),
                           waiting_mb=uploads.MAX_WAITING_BYTES / (1024 * 1024)), status


def _dry_run(data: bytes, filename: str, game: str):
    """Keep a generated CSV as a pending import and show its dry run, exactly as an uploaded file's."""
    try:
        row = uploads.create(current_user, data, filename, game)
    except uploads.UploadError as exc:
        flash(str(exc), "error")
        return redirect(url_for(".import_upload"), code=303)
    return redirect(url_for(".import_preview", token=row.token), code=303)


@bp.route("/import/paste", methods=["POST"])
@login_required
def import_paste():
    """A pasted list: read like a deck list (line-numbered errors, did-you-mean), then the CSV dry run."""
    from deckhub.importers.decklists import read_decklist
    paste_form = PasteListForm(prefix="paste")
    parse = None
    if paste_form.validate_on_submit():
        spec = get_game(paste_form.game.data)
        parse = read_decklist(paste_form.decklist.data, spec, get_catalogue(spec.slug), games=all_games())
        if not parse.errors:
            counts = deck_needs.deck_counts(parse.deck.to_json())
            if counts:
                data = service.list_as_csv(current_user, spec.slug, counts, add=paste_form.mode.data == "add")
                return _dry_run(data, f"a pasted {spec.name} list", spec.slug)
            paste_form.decklist.errors.append("No line names a card with a number of copies, e.g. “3 Argus, Vigilant Seer”.")
    return _import_page(ImportForm(formdata=None), paste_form, parse)


@bp.route("/decks/<int:deck_id>/add-to-collection", methods=["POST"])
@login_required
def add_deck(deck_id: int):
    """“Add this deck to my collection” (mine or a public one): its cards added, through the CSV dry run."""
    stored = deck_or_404(deck_id)
    counts = deck_needs.deck_counts(stored.version.data)
    if not counts:
        flash("This deck has no cards to add yet.", "info")
        return redirect(url_for("decks.show", deck_id=deck_id), code=303)
    data = service.list_as_csv(current_user, stored.row.game, counts, add=True)
    return _dry_run(data, f"the deck “{stored.row.name}”", stored.row.game)


@bp.route("/import", methods=["GET", "POST"])
@login_required
def import_upload():
    form = ImportForm()
    status = 200
    if form.validate_on_submit():
        upload = form.file.data
        try:
            row = uploads.create(current_user, upload.read(), upload.filename or "upload.csv", form.game.data or None)
        except uploads.UploadError as exc:
            form.file.errors.append(str(exc))
            status = exc.status
        else:
            return redirect(url_for(".import_preview", token=row.token), code=303)
    return _import_page(form, PasteListForm(formdata=None, prefix="paste"), status=status)


def _upload_or_404(token: str):
    upload = uploads.get(current_user, token)
    if upload is None:
        abort(404, description="There is no pending import with that link (it may have expired: "
                               "uploads wait two hours). Upload the file again.")
    return upload


@bp.route("/import/<token>")
@login_required
def import_preview(token: str):
    upload = _upload_or_404(token)
    if upload.state != "ready":
        return redirect(url_for(".import_progress", token=token))
    summary = upload.summary
    show = request.args.get("show") or ("problems" if summary["problems"] else "all")
    if show not in ("all", "problems", "changes"):
        show = "all"
    page = int_in_range(request.args.get("page"), 1, MAX_PAGE) or 1
    rows, total = uploads.preview_rows(upload, show, page, PREVIEW_PAGE)
    pages = max(1, -(-total // PREVIEW_PAGE))
    if page > pages:
        page = pages
        rows, total = uploads.preview_rows(upload, show, page, PREVIEW_PAGE)
    for r in rows:
        r["picks"] = [label for label, _ in uploads.row_picks(r)]
    return render_template("collection/preview.html", upload=upload, summary=summary, token=token, show=show,
                           rows=rows, can_pick=any(r["picks"] for r in rows), page=page, pages=pages, total_rows=total,
                           game_names={g.slug: g.name for g in all_games()})


@bp.route("/import/<token>/commit", methods=["POST"])
@login_required
def import_commit(token: str):
    _upload_or_404(token)
    try:
        uploads.commit(current_user, token)
    except uploads.UploadError as exc:
        flash(str(exc), "error")
    return redirect(url_for(".import_progress", token=token), code=303)


@bp.route("/import/<token>/choose", methods=["POST"])
@login_required
def import_choose(token: str):
    """The suggestions picked for problem rows (`fix-LINE` = the pick's number): the dry run again."""
    _upload_or_404(token)
    picks = {}
    for name, value in request.form.items():
        line = name.removeprefix("fix-")
        if line == name or not value:
            continue
        if not (line.isdecimal() and value.isdecimal()) or int(line) > MAX_ID or int(value) > 1000:
            abort(400, description="Each pick is a row's line and the number of a suggestion it offers.")
        picks[int(line)] = int(value)
    try:
        uploads.choose(current_user, token, picks)
    except uploads.UploadError as exc:
        abort(exc.status, description=str(exc))
    return redirect(url_for(".import_progress", token=token), code=303)


@bp.route("/import/<token>/progress")
@login_required
def import_progress(token: str):
    upload = _upload_or_404(token)
    if upload.state == "ready" and not upload.error:
        return redirect(url_for(".import_preview", token=token))
    return render_template("collection/progress.html", upload=upload, job=uploads.job_status(upload), token=token)


@bp.route("/import/<token>/status")
@login_required
def import_status(token: str):
    upload = _upload_or_404(token)
    job = uploads.job_status(upload)
    return jsonify({"state": upload.state, "status": job.state, "phase": upload.phase, "done": upload.done,
                    "total": upload.total, "reason": upload.error, "summary": upload.summary,
                    **(upload.result or {})})


@bp.route("/import/<token>/discard", methods=["POST"])
@login_required
def import_discard(token: str):
    _upload_or_404(token)
    if uploads.discard(current_user, token) is False:
        flash("This import is being written; it cannot be cancelled now.", "warning")
        return redirect(url_for(".import_progress", token=token), code=303)
    flash("The upload was discarded; nothing was imported.", "info")
    return redirect(url_for(".import_upload"), code=303)


# --------------------------------------------------------------------------- export

@bp.route("/export.csv")
@login_required
def export():
    slug = request.args.get("game") or None
    if slug:
        slug = game_or_404(slug).slug
    name = f"deckhub-collection-{current_user.username}{'-' + slug if slug else ''}.csv"
    body = service.export_csv(current_user, slug)
    return Response(body.encode("utf-8"), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{name}"',
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
    })

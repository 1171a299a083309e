"""Community catalogue pages: propose card facts or a missing card, review proposals, card history.

The rules live in `deckhub.services.community`; these views parse forms, call it and render. Curator-only
views answer 403 to other signed-in users (and send anonymous visitors to log in).
"""
from __future__ import annotations

import datetime as dt
import re
from operator import attrgetter
from functools import lru_cache, wraps

from flask import (Blueprint, abort, current_app, flash, get_template_attribute, redirect, render_template, request,
                   url_for)
from flask_login import current_user, login_required
from flask_wtf import FlaskForm
from markupsafe import Markup
from markupsafe import escape as _escape
from wtforms import RadioField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, Optional

from deckhub.services.community import proposing, readings, reverting, review_queue, reviewing
from deckhub.services.community.audit import card_history, reverted_ids
from deckhub.services.community.errors import CommunityError, NotFound, ProposalInvalid, RateLimited
from deckhub.services.community.fields import (MAX_LIST_ITEM, MAX_LIST_ITEMS, MAX_NAME, MAX_NUMBER, MAX_RARITY, MAX_SOURCE,
                                               PRINTED, ProposableField, current_value, field_label, proposable_fields)
from deckhub.services.community.rate_limits import RATE_LIMIT, RATE_WINDOW
from deckhub.services.community.set_editor import SetGrid, row_anchor, set_grid
from deckhub.services import scans as service_scans
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.caches import LRU
from deckhub.web.catalog import card_url, render_card
from deckhub.web.lookups import game_or_404
from deckhub.web.redirects import safe_next


def escape_html(text) -> str:
    return str(_escape(text))

bp = Blueprint("community", __name__)

SOURCE_CHOICES = [SelectChoice("url", "A web page"), SelectChoice("printed", "A printed card I own")]


# ---------------------------------------------------------------------------------- forms

class ReasonForm(FlaskForm):
    reason = StringField("Reason", validators=[Optional(), Length(max=reviewing.MAX_REASON)])


class FlagForm(FlaskForm):
    sentence = TextAreaField("What the engine gets wrong", validators=[Length(max=readings.MAX_SENTENCE)])
    reference = StringField("Rule or card that shows it", validators=[Length(max=readings.MAX_REFERENCE)])


class SourceForm(FlaskForm):
    """Where proposed facts come from (every proposal form has it, the set editor too). Nothing is
    chosen for the player (an empty web address would be refused): the page offers the source of
    their last proposal instead, when there is one (`_offer_last_source`)."""

    source_kind = RadioField("Where do these facts come from?", choices=SOURCE_CHOICES,
                             validators=[InputRequired("Choose where these facts come from: a web page "
                                                       "(give its address) or a printed card you own.")])
    source_url = StringField("Web address of the source", validators=[Optional(), Length(max=MAX_SOURCE)])


def _value_field(spec: ProposableField):
    hint_len = Length(max=spec.max_length if spec.kind != "list" else MAX_LIST_ITEMS * (MAX_LIST_ITEM + 2))
    if spec.kind == "text":
        return TextAreaField(spec.label, validators=[Optional(), hint_len])
    if spec.choices:
        return SelectField(spec.label, choices=[SelectChoice("", "— no change —")] + [SelectChoice(c, c) for c in spec.choices],
                           validators=[Optional()], validate_choice=False)
    return StringField(spec.label, validators=[Optional(), hint_len])


@lru_cache(maxsize=None)
def _form_class(slug: str, new_card: bool):
    """The proposal form of a game: one input per proposable field (`f_<key>`), then the source."""
    attrs = {}
    if new_card:
        attrs["name"] = StringField("Name, as printed", validators=[Length(max=MAX_NAME)])
        attrs["version"] = StringField("Version", validators=[Optional(), Length(max=MAX_NAME)])
        attrs["card_set"] = SelectField("Set", choices=[], validate_choice=False)
        attrs["number"] = StringField("Collector number", validators=[Optional(), Length(max=MAX_NUMBER)])
        attrs["rarity"] = StringField("Rarity", validators=[Optional(), Length(max=MAX_RARITY)])
    for spec in proposable_fields(slug):
        attrs[f"f_{spec.key}"] = _value_field(spec)
    return type(f"ProposalForm_{slug}_{int(new_card)}", (SourceForm,), attrs)


def _raw_values(form, slug: str) -> dict:
    return {spec.key: getattr(form, f"f_{spec.key}").data or "" for spec in proposable_fields(slug)}


def _source(form) -> str:
    return PRINTED if form.source_kind.data == "printed" else (form.source_url.data or "")


OUTCOMES = {"agreed": "another player entered the same values, so the catalogue uses them now.",
            "disputed": "other players entered different values, so the field is disputed until a curator or "
                        "more players settle it.",
            "applied": "applied at once (you are trusted); it awaits a check."}


def outcome(status: str) -> str:
    """What became of a player's entry, in their words (a proposal's status once it was stored)."""
    return OUTCOMES.get(status, "it waits for another player or a curator.")


SETTLED_AS = {"agreed": "agreed with another player's and used now", "applied": "applied at once (you are trusted)",
              "disputed": "disputed", "held": "held: the card changed since", "approved": "approved"}


def outcomes(statuses: list[str], *, as_one: bool = False) -> str:
    """What became of many entries at once, to follow "batch #N (N cards)" (`as_one`: the batch
    waits) or "N proposals from FILE": " waits for a curator." or ": 2 disputed, 1 …"."""
    waiting = sum(1 for s in statuses if s not in SETTLED_AS)
    if waiting == len(statuses):
        return f" {'waits' if as_one or waiting == 1 else 'wait'} for a curator."
    parts = [f"{n} {SETTLED_AS[s]}" for s in SETTLED_AS if (n := statuses.count(s))]
    if waiting:
        parts.append(f"{waiting} {'wait' if waiting != 1 else 'waits'} for a curator")
    return ": " + ", ".join(parts) + "."


def _offer_last_source(form: SourceForm, source: str | None) -> None:
    """Preselect the source of the player's last proposal (a set is often entered from one checklist)."""
    if source == PRINTED:
        form.source_kind.data = "printed"
    elif source:
        form.source_kind.data, form.source_url.data = "url", source


_SOURCES_SHOWN: LRU[Markup] = LRU(256)  # the source fieldset as first shown, by the source it offers


def _source_inputs_html(source: str | None) -> Markup:
    """The set editor's source fieldset as a GET shows it, offering `source` (the player's last,
    `_offer_last_source`): it depends on that alone, so it is written once per source, and only
    then is a form built for it (a GET reads no form: the page writes its own token)."""
    def write() -> Markup:
        form = SourceForm()
        _offer_last_source(form, source)
        return Markup(get_template_attribute("community/_fields.html", "source_inputs")(form))
    return _SOURCES_SHOWN.get(source) or _SOURCES_SHOWN.put(source, write())


def _uploaded_scan(name: str = "scan") -> bytes | None:
    """The bytes of an uploaded scan, None when no file was chosen."""
    upload = request.files.get(name)
    if upload is None or not upload.filename:
        return None
    return upload.read(service_scans.MAX_BYTES + 1)


def _attach_errors(form, errors: dict[str, str]) -> list[str]:
    """Put each error under its form field; return those that belong to no field."""
    loose = []
    names = {"source": "source_url", "set": "card_set"}
    for key, message in errors.items():
        name = names.get(key, key if key in ("name", "version", "number", "rarity") else f"f_{key}")
        target = getattr(form, name, None)
        if target is not None and hasattr(target, "errors"):
            target.errors = list(target.errors or []) + [message]
        else:
            loose.append(message)
    return loose


def _limits() -> dict:
    return {"rate_limit": int(current_app.config.get("PROPOSAL_RATE_LIMIT", RATE_LIMIT)),
            "window": dt.timedelta(seconds=int(current_app.config.get("PROPOSAL_RATE_WINDOW", RATE_WINDOW.total_seconds())))}


def curator_required(view):
    @wraps(view)
    @login_required
    def wrapped(*args, **kwargs):
        if not reviewing.is_curator(current_user):
            abort(403, description="Only curators review proposals. Your own proposals are listed under “My proposals”.")
        return view(*args, **kwargs)
    return wrapped


# ---------------------------------------------------------------------------------- proposing

@bp.route("/games/<slug>/propose/card/<path:key>", methods=["GET", "POST"])
@login_required
def propose(slug: str, key: str):
    """Propose values for an existing card's fields."""
    spec = game_or_404(slug)
    card = get_catalogue(spec.slug).get(key)
    if card is None:
        abort(404, description=f"{spec.name} has no card with the id “{key[:120]}”.")
    form = _form_class(spec.slug, False)()
    problems: list[str] = []
    status = 200
    if request.method == "GET":
        _offer_last_source(form, proposing.last_source(current_user, spec.slug))
    if form.validate_on_submit():
        try:
            proposal = proposing.propose_facts(current_user, spec.slug, card.key, _raw_values(form, spec.slug),
                                               _source(form), scan=_uploaded_scan(), **_limits())
        except RateLimited as exc:
            problems, status = [str(exc)], 429
        except ProposalInvalid as exc:
            problems, status = _attach_errors(form, exc.errors), 400
        else:
            flash(f"Thank you: your proposal #{proposal.id} for {card.display_name}: {outcome(proposal.status)}", "success")
            return redirect(url_for("catalog.card", slug=spec.slug, key=card.key))
    elif request.method == "POST":
        status = 400
    return render_template("community/propose.html", game=spec, card=card, form=form, problems=problems,
                           fields=proposable_fields(spec.slug), current=current_value), status


@bp.route("/games/<slug>/propose/new-card", methods=["GET", "POST"])
@login_required
def propose_card(slug: str):
    """Propose a card the catalogue lacks (a set page links here with ?set=CODE)."""
    spec = game_or_404(slug)
    catalogue = get_catalogue(spec.slug)
    form = _form_class(spec.slug, True)()
    form.card_set.choices = [SelectChoice("", "— not known —")] + [
        SelectChoice(s.code, s.name) for s in sorted(catalogue.sets.values(), key=lambda s: s.position)]
    if request.method == "GET":
        _offer_last_source(form, proposing.last_source(current_user, spec.slug))
        if request.args.get("set") in catalogue.sets:
            form.card_set.data = request.args["set"]
    problems: list[str] = []
    status = 200
    if form.validate_on_submit():
        raw_card = {"name": form.name.data, "version": form.version.data, "type": form.f_type.data,
                    "set": form.card_set.data, "number": form.number.data, "rarity": form.rarity.data}
        try:
            proposal = proposing.propose_card(current_user, spec.slug, raw_card, _raw_values(form, spec.slug),
                                              _source(form), scan=_uploaded_scan(), **_limits())
        except RateLimited as exc:
            problems, status = [str(exc)], 429
        except ProposalInvalid as exc:
            problems, status = _attach_errors(form, exc.errors), 400
        else:
            flash(f"Thank you: your proposal #{proposal.id} to add {proposal.new_card['name']} waits for a curator.", "success")
            if proposal.new_card.get("set"):
                return redirect(url_for("catalog.card_set", slug=spec.slug, code=proposal.new_card["set"]))
            return redirect(url_for("community.mine"))
    elif request.method == "POST":
        status = 400
    has_versions = any(c.version for c in catalogue)
    return render_template("community/propose_card.html", game=spec, form=form, problems=problems,
                           fields=[f for f in proposable_fields(spec.slug) if f.key != "type"],
                           has_versions=has_versions), status


# ---------------------------------------------------------------------------------- proposals

@bp.route("/proposals")
@login_required
def mine():
    return render_template("community/mine.html", proposals=review_queue.user_proposals(current_user))


def _visible_proposal(proposal_id: int):
    try:
        proposal = review_queue.get_proposal(proposal_id)
    except NotFound:
        abort(404, description="There is no proposal with that number.")
    if proposal.proposer_id != current_user.id and not reviewing.is_curator(current_user):
        abort(404, description="There is no proposal with that number that you may see.")
    return proposal


@bp.route("/proposals/<int:proposal_id>")
@login_required
def proposal(proposal_id: int):
    """One proposal: its values against the card's, its status; a curator's review forms."""
    p = _visible_proposal(proposal_id)
    _, _, errors = review_queue.revalidate(p) if p.status == "pending" else (None, None, {})
    changes = card_history(p.game, p.card_key) if p.card_key else []
    changes = [c for c in changes if c.proposal_id == p.id]
    return render_template("community/proposal.html", p=p, game=game_or_404(p.game), rows=review_queue.diff(p),
                           errors=errors, changes=changes, reverted=reverting.is_reverted(p),
                           similar=_similar(p), card=get_catalogue(p.game).get(p.card_key) if p.card_key else None,
                           scan_ids=review_queue.scans_of([p.id]).get(p.id, []))


def _similar(p) -> list:
    """Cards whose names resemble a proposed missing card's (to spot a duplicate)."""
    if p.status != "pending" or not isinstance(p.new_card, dict) or not p.new_card.get("name"):
        return []
    return [c for c, _score in get_catalogue(p.game).suggest(str(p.new_card["name"])[:MAX_NAME], limit=5)]


@bp.route("/review")
@curator_required
def review():
    """The curators' queue: every pending proposal, oldest first, with its diff."""
    slug = request.args.get("game") or None
    if slug:
        game_or_404(slug)
    try:
        page = max(1, min(int(request.args.get("page", 1)), 10_000))
    except ValueError:
        page = 1
    per_page = 25
    items = review_queue.pending(slug, limit=per_page, offset=(page - 1) * per_page, batched=False)
    total = review_queue.pending_count(slug, batched=False)
    rows = {p.id: review_queue.diff(p) for p in items}
    errors = {p.id: review_queue.revalidate(p)[2] for p in items}
    return render_template("community/review.html", items=items, rows=rows, errors=errors, total=total, page=page,
                           pages=max(1, -(-total // per_page)), game_slug=slug,
                           recent=review_queue.reviewed(slug, limit=15), batches=review_queue.pending_batches(slug),
                           scans=review_queue.scans_of(p.id for p in items),
                           flags=readings.pending_flags(slug), flag_count=readings.pending_flag_count(slug))


@bp.route("/review/<int:proposal_id>/approve", methods=["POST"])
@curator_required
def approve(proposal_id: int):
    p = _visible_proposal(proposal_id)
    form = ReasonForm()
    if not form.validate_on_submit():
        abort(400, description="A reason is at most 500 characters long.")
    try:
        done = reviewing.approve(p.id, current_user, form.reason.data or "")
    except CommunityError as exc:
        flash(str(exc), "error")
        return redirect(url_for("community.proposal", proposal_id=p.id))
    flash(f"Approved proposal #{done.id}: the catalogue uses its values now.", "success")
    return redirect(safe_next(url_for("catalog.card", slug=done.game, key=done.card_key)))


def _reason() -> str:
    """A curator's reason from the posted form (refused with 400 when it is too long)."""
    form = ReasonForm()
    if not form.validate_on_submit():
        abort(400, description="A reason is at most 500 characters long.")
    return form.reason.data or ""


@bp.route("/review/<int:proposal_id>/reject", methods=["POST"])
@curator_required
def reject(proposal_id: int):
    p = _visible_proposal(proposal_id)
    try:
        reviewing.reject(p.id, current_user, _reason())
    except CommunityError as exc:
        flash(str(exc), "error")
        return redirect(url_for("community.proposal", proposal_id=p.id))
    flash(f"Rejected proposal #{p.id}; the catalogue is unchanged.", "success")
    return redirect(safe_next(url_for("community.proposal", proposal_id=p.id)))  # the queue page it came from


@bp.route("/review/<int:proposal_id>/revert", methods=["POST"])
@curator_required
def revert(proposal_id: int):
    p = _visible_proposal(proposal_id)
    try:
        reverting.revert(p.id, current_user, _reason())
    except CommunityError as exc:
        flash(str(exc), "error")
    else:
        flash(f"Reverted proposal #{p.id}: the old values and their provenance are back.", "success")
    return redirect(url_for("community.proposal", proposal_id=p.id))


# ---------------------------------------------------------------------------------- readings

@bp.route("/games/<slug>/cards/<path:key>/readings/<int:index>/flag", methods=["POST"])
@login_required
def flag_reading(slug: str, key: str, index: int):
    """A player's flag on one reading of the card page; errors come back on the page, text kept."""
    spec = game_or_404(slug)
    form = FlagForm()
    if form.validate_on_submit():
        try:
            readings.flag_reading(current_user, spec.slug, key, readings.FlagInput(
                index, form.sentence.data or "", form.reference.data or ""), **_limits())
        except NotFound:
            abort(404)
        except ProposalInvalid as exc:
            for name, message in exc.errors.items():
                getattr(form, name).errors = [*getattr(form, name).errors, message]
        except CommunityError as exc:
            form.sentence.errors = [*form.sentence.errors, str(exc)]
        else:
            flash("Thank you: your flag is with the curators.", "success")
            return redirect(url_for("catalog.card", slug=spec.slug, key=key) + "#readings-h")
    return render_card(spec.slug, key, flag_form=form, flag_index=index, status=400)


@bp.route("/games/<slug>/cards/<path:key>/readings/<int:index>/manual", methods=["POST"])
@curator_required
def set_manual(slug: str, key: str, index: int):
    spec = game_or_404(slug)
    try:
        readings.set_manual(current_user, spec.slug, key, index=index, reason=_reason())
    except NotFound:
        abort(404)
    except CommunityError as exc:
        flash(str(exc), "error")
    else:
        flash("Set to manual: every engine leaves this ability to manual moves from now on.", "success")
    return redirect(url_for("catalog.card", slug=spec.slug, key=key) + "#readings-h")


@bp.route("/games/<slug>/cards/<path:key>/readings/<int:index>/clear", methods=["POST"])
@curator_required
def clear_manual(slug: str, key: str, index: int):
    spec = game_or_404(slug)
    try:
        readings.clear_manual(current_user, spec.slug, key, index, reason=_reason())
    except NotFound:
        abort(404)
    except CommunityError as exc:
        flash(str(exc), "error")
    else:
        flash("Cleared: the engines read this ability as the compiler does again.", "success")
    return redirect(url_for("catalog.card", slug=spec.slug, key=key) + "#readings-h")


@bp.route("/review/flags/<int:flag_id>/manual", methods=["POST"])
@curator_required
def flag_manual(flag_id: int):
    try:
        done = readings.set_manual(current_user, "", "", reason=_reason(), flag_id=flag_id)
    except NotFound:
        abort(404)
    except CommunityError as exc:
        flash(str(exc), "error")
        return redirect(url_for("community.review"))
    flash(f"Flag #{flag_id}: the ability is set to manual for every engine.", "success")
    return redirect(safe_next(url_for("catalog.card", slug=done.game, key=done.card_key)))


@bp.route("/review/flags/<int:flag_id>/dismiss", methods=["POST"])
@curator_required
def flag_dismiss(flag_id: int):
    try:
        readings.dismiss_flag(current_user, flag_id, reason=_reason())
    except NotFound:
        abort(404)
    except CommunityError as exc:
        flash(str(exc), "error")
    else:
        flash(f"Dismissed flag #{flag_id}; the reading is unchanged.", "success")
    return redirect(url_for("community.review"))


# ---------------------------------------------------------------------------------- history

@bp.route("/games/<slug>/history/<path:key>")
def history(slug: str, key: str):
    """Every recorded change of a card's fields (also of a card that a revert removed)."""
    spec = game_or_404(slug)
    card = get_catalogue(spec.slug).get(key)
    changes = card_history(spec.slug, key)
    if card is None and not changes:
        abort(404, description=f"{spec.name} has no card with the id “{key[:120]}”.")
    return render_template("community/history.html", game=spec, card=card, key=key, changes=changes,
                           reverted=reverted_ids(changes), label=lambda f: field_label(spec.slug, f))


# ---------------------------------------------------------------------------------- set editor

NEW_ROWS = 3      # blank rows for missing cards (a page sent back with errors keeps as many as were filled)
MAX_NEW_ROWS = 50
_NEW_CELL = re.compile(r"^n:(\d{1,2}):(.+)$")


def _grid_changes(grid: SetGrid, form, files) -> tuple[list, dict, list[int]]:
    """(cells, scans, form row of each new card) from a posted grid.

    A cell counts as changed when its text differs from what the page showed; new rows count
    when any of their inputs is filled."""
    changes: list = []
    scans: dict = {}
    for row in grid.rows:
        key = row.card.key
        for spec, (shown, _how) in zip(grid.fields, row.cells):
            sent = form.get(f"c:{key}:{spec.key}")
            if sent is not None and sent.strip() != shown.strip():
                changes.append((key, spec.key, sent))
        upload = files.get(f"s:{key}")
        if upload is not None and upload.filename:
            scans[key] = upload.read(service_scans.MAX_BYTES + 1)
    new_rows: dict[int, dict[str, str]] = {}
    for name, value in form.items():
        match = _NEW_CELL.match(name)
        if match and int(match.group(1)) < MAX_NEW_ROWS and value.strip():
            new_rows.setdefault(int(match.group(1)), {})[match.group(2)] = value
    for name, upload in files.items():
        match = re.match(r"^s:n:(\d{1,2})$", name)
        if match and int(match.group(1)) < MAX_NEW_ROWS and upload.filename:
            new_rows.setdefault(int(match.group(1)), {})["__scan"] = upload
    order = []
    for index in sorted(new_rows):
        cells = new_rows[index]
        card = proposing.NewCard(cells.pop("name", "").strip(), cells.pop("number", "").strip() or None,
                                 cells.pop("rarity", "").strip() or None, cells.pop("version", "").strip() or None)
        upload = cells.pop("__scan", None)
        if upload is not None:
            scans[card] = upload.read(service_scans.MAX_BYTES + 1)
        known = {f.key for f in grid.fields}
        values = [(card, k, v) for k, v in cells.items() if k in known]
        changes.extend(values or [(card, "type", "")])  # a row with only its identity still adds the card
        order.append(index)
    return changes, scans, order


def _grid_errors(errors: dict[str, str], order: list[int]) -> tuple[dict[str, str], list[str]]:
    """Service errors keyed by the grid's input names (cell errors), and those of no cell."""
    cells, loose = {}, []
    for key, message in errors.items():
        if key.startswith("new:"):
            _, index, field_key = key.split(":", 2)
            name = f"n:{order[int(index)]}:{field_key}" if int(index) < len(order) else None
            if field_key == "scan" and name:
                name = f"s:n:{order[int(index)]}"
        elif ":" in key:
            card_key, field_key = key.rsplit(":", 1)
            name = f"s:{card_key}" if field_key == "scan" else f"c:{card_key}:{field_key}"
        else:
            name = None
        if name:
            cells[name] = message
        loose.append(message)
    return cells, loose


def _grid_rows_html(grid: SetGrid, sent, cell_errors: dict[str, str]) -> Markup:
    """The grid's card rows as HTML: written in Python, not Jinja, as a 234-card set has about
    4,000 cells and a template loop takes several times as long (benchmarks/bench_set_editor.py).

    The page as first shown is kept on the catalogue beside its grid (see `service.set_grid`)."""
    if sent or cell_errors:
        return _write_rows(grid, sent, cell_errors)
    prefix = card_url(grid.rows[0].card) if grid.rows else ""
    kept_for, html = get_catalogue(grid.game).memo(("web.set_editor_rows", grid.code, prefix),
                                                   lambda: (grid, _write_rows(grid, None, {})))
    return html if kept_for is grid else _write_rows(grid, None, {})  # (the catalogue changed meanwhile)


def _write_rows(grid: SetGrid, sent, cell_errors: dict[str, str]) -> Markup:
    esc = escape_html
    columns = []
    for spec in grid.fields:
        label = esc(spec.label)
        extra = (f' list="dl-{spec.key}" autocomplete="off"' if spec.choices else "") + (' size="4"' if spec.kind == "int" else "")
        columns.append((spec.key, label, spec.kind == "text", extra))
    out: list[str] = []
    add = out.append
    anchors: set[str | None] = {None}
    for row in grid.rows:
        card = row.card
        key = esc(card.key)
        name = esc(card.display_name)
        anchor = row_anchor(row.number)
        add(f'<tr id="{esc(anchor)}">' if anchor not in anchors else "<tr>")
        anchors.add(anchor)
        add(f'<td>{esc(row.number) if row.number else "&mdash;"}</td><th scope="row"><a href="{esc(card_url(card))}" tabindex="-1">{name}</a>'
            f'</th><td>{esc(row.rarity or "?")}</td>')
        for (field_key, label, multi, extra), (shown, how) in zip(columns, row.cells):
            cell = f"c:{card.key}:{field_key}"
            value = sent.get(cell, shown) if sent else shown
            bad = cell_errors.get(cell) if cell_errors else None
            attrs = f' aria-describedby="prov-{how}"' if shown else ""
            if bad:
                attrs += f' aria-invalid="true" title="{esc(bad)}"'
            cls = (how if shown else "unknown") + (" se-bad" if bad else "")
            if multi:
                add(f'<td class="{cls}"><textarea name="c:{key}:{field_key}" rows="1" aria-label="{name}: {label}"{attrs}>'
                    f'{esc(value)}</textarea></td>')
            else:
                add(f'<td class="{cls}"><input name="c:{key}:{field_key}" value="{esc(value) if value else ""}" '
                    f'aria-label="{name}: {label}"{extra}{attrs}></td>')
        bad = cell_errors.get(f"s:{card.key}") if cell_errors else None
        add((f'<td class="se-bad" title="{esc(bad)}">' if bad else "<td>")
            + f'<input type="file" name="s:{key}" accept="image/jpeg,image/png,image/webp" aria-label="{name}: scan"></td></tr>\n')
    return Markup("".join(out))


_VERSION = attrgetter("card.version")


def _grid_heads_html(grid: SetGrid) -> tuple[Markup, Markup]:
    """(the choice fields' datalists, the field columns' headings): the grid's alone, kept beside it."""
    def write(grid: SetGrid) -> tuple[Markup, Markup]:
        esc = escape_html
        lists = "".join(f'<datalist id="dl-{esc(f.key)}">' + "".join(f'<option value="{esc(c)}">' for c in f.choices)
                        + "</datalist>" for f in grid.fields if f.choices)
        heads = "".join(f'<th scope="col" title="{esc(f.describe())}">{esc(f.label)}</th>' for f in grid.fields)
        return Markup(lists), Markup(heads)
    kept_for, html = get_catalogue(grid.game).memo(("web.set_editor_heads", grid.code), lambda: (grid, write(grid)))
    return html if kept_for is grid else write(grid)


def _new_rows_html(grid: SetGrid, count: int, sent, cell_errors: dict[str, str]) -> Markup:
    """The rows for missing cards; blank ones are kept beside the grid's card rows (`_grid_rows_html`)."""
    if sent or cell_errors:
        return _write_new_rows(grid, count, sent, cell_errors)
    kept_for, html = get_catalogue(grid.game).memo(("web.set_editor_new_rows", grid.code, count),
                                                   lambda: (grid, _write_new_rows(grid, count, None, {})))
    return html if kept_for is grid else _write_new_rows(grid, count, None, {})


def _write_new_rows(grid: SetGrid, count: int, sent, cell_errors: dict[str, str]) -> Markup:
    """The blank rows for cards the set is missing (with what was sent, when a page comes back
    with errors), written like the card rows above them: about fifty cells, each a few pieces;
    a version box when a card of the set has a version."""
    has_versions = any(map(_VERSION, grid.rows))
    esc = escape_html
    out: list[str] = []
    add = out.append

    def typed(name: str) -> str:  # what was sent in a cell (nothing on a page as first shown)
        return esc(sent.get(name, "")) if sent else ""

    def invalid(name: str) -> str:
        bad = cell_errors.get(name) if cell_errors else None
        return f' aria-invalid="true" title="{esc(bad)}"' if bad else ""

    columns = []
    for spec in grid.fields:
        key = esc(spec.key)
        if spec.kind == "text":
            columns.append((spec.key, key, esc(spec.label), None))
        else:
            columns.append((spec.key, key, esc(spec.label), (f' list="dl-{key}" autocomplete="off"' if spec.choices else "")))
    for i in range(count):
        n, shown = f"n:{i}:", f"New card {i + 1}"
        add(f'\n    <tr class="se-new-row"><td><input name="{n}number" value="{typed(n + "number")}" '
            f'aria-label="{shown}: number" size="4" placeholder="No."></td>\n      <th scope="row"><input name="{n}name" '
            f'value="{typed(n + "name")}" aria-label="{shown}: name" placeholder="missing card\'s name"{invalid(n + "name")}>')
        if has_versions:
            add(f'<input name="{n}version" value="{typed(n + "version")}" aria-label="{shown}: version" '
                f'placeholder="version, if printed">')
        add(f'</th>\n      <td><input name="{n}rarity" value="{typed(n + "rarity")}" '
            f'aria-label="{shown}: rarity" size="4" placeholder="?"></td>')
        for (field_key, key, label, listed), spec in zip(columns, grid.fields):
            name, bad = n + field_key, invalid(n + field_key)
            cls = "unknown se-bad" if bad else "unknown"
            if listed is None:
                add(f'\n      <td class="{cls}"><textarea name="{n}{key}" rows="1" aria-label="{shown}: {label}"{bad} '
                    f'placeholder="?">{typed(name)}</textarea></td>')
            else:
                size = ' size="4"' if spec.kind == "int" else ""
                add(f'\n      <td class="{cls}"><input name="{n}{key}" value="{typed(name)}" aria-label="{shown}: {label}"'
                    f'{listed}{bad} placeholder="?"{size}></td>')
        add(f'\n      <td><input type="file" name="s:n:{i}" accept="image/jpeg,image/png,image/webp" aria-label="{shown}: scan">'
            f'</td></tr>')
    return Markup("".join(out))


@bp.route("/games/<slug>/sets/<code>/edit", methods=["GET", "POST"])
@login_required
def set_editor(slug: str, code: str):
    """A set's every card and field as one grid; saving sends the changed cells as one batch."""
    spec = game_or_404(slug)
    try:
        grid = set_grid(spec.slug, code)
    except NotFound:
        abort(404, description=f"{spec.name} has no set “{code[:80]}”. The game page lists its sets.")
    form = SourceForm() if request.method != "GET" else None  # a GET shows the kept fieldset (below)
    status, problems, cell_errors, sent = 200, [], {}, {}
    if request.method == "GET" and request.args.get("goto") is not None:
        wanted = request.args["goto"][:40]
        row = grid.row_numbered(wanted)
        if row is not None:
            return redirect(url_for("community.set_editor", slug=spec.slug, code=code, _anchor=row_anchor(row.number)))
        status, problems = 404, [f"No card of {grid.name} has the number “{wanted.strip()}”."]
    if request.method == "POST":
        request.max_form_parts = proposing.MAX_BATCH_CELLS + 2 * MAX_NEW_ROWS * (len(grid.fields) + 5)
        if not form.validate_on_submit():
            status = 400
            problems = ([m for name in ("source_kind", "source_url") for m in getattr(form, name).errors]
                        or ["This form has expired: reload the page."])
            sent = request.form
        else:
            changes, scans, order = _grid_changes(grid, request.form, request.files)
            try:
                batch = proposing.propose_batch(current_user, spec.slug, changes, _source(form), scans=scans,
                                                set_code=code, **_limits())
            except RateLimited as exc:
                status, problems = 429, [str(exc)]
            except ProposalInvalid as exc:
                cell_errors, problems = _grid_errors(exc.errors, order)
                problems = problems if len(problems) <= 12 else problems[:12] + [f"… and {len(problems) - 12} more (marked in the grid)."]
                status = 400
            else:
                statuses = [p.status for p in review_queue.batch_proposals(batch.id)]
                flash(f"Thank you: batch #{batch.id} ({len(statuses)} card{'s' if len(statuses) != 1 else ''})"
                      f"{outcomes(statuses, as_one=True)}", "success")
                return redirect(url_for("community.batch", batch_id=batch.id))
            sent = request.form
    new_rows = max(NEW_ROWS, len({m.group(1) for m in map(_NEW_CELL.match, sent) if m}))
    source_html = (_source_inputs_html(proposing.last_source(current_user, spec.slug)) if request.method == "GET"
                   else None)
    return render_template("community/set_editor.html", game=spec, grid=grid, form=form, problems=problems,
                           source_html=source_html,
                           rows_html=_grid_rows_html(grid, sent, cell_errors), heads_html=_grid_heads_html(grid),
                           new_rows_html=_new_rows_html(grid, min(new_rows, MAX_NEW_ROWS), sent, cell_errors)), status


# ---------------------------------------------------------------------------------- batches

def _visible_batch(batch_id: int):
    try:
        batch = review_queue.get_batch(batch_id)
    except NotFound:
        abort(404, description="There is no batch with that number.")
    if batch.proposer_id != current_user.id and not reviewing.is_curator(current_user):
        abort(404, description="There is no batch with that number that you may see.")
    return batch


_PER_CARD = re.compile(r"^([dr]):(\d{1,12})$")


def _batch_decisions(posted) -> tuple[dict[int, str], dict[int, str]]:
    """({proposal id: "approve" | "reject"}, {proposal id: its own reason}) from a batch review form."""
    decisions: dict[int, str] = {}
    reasons: dict[int, str] = {}
    for name, value in posted.items():
        match = _PER_CARD.match(name)
        if match is None:
            continue
        if match.group(1) == "d" and value in ("approve", "reject"):
            decisions[int(match.group(2))] = value
        elif match.group(1) == "r" and value.strip():
            reasons[int(match.group(2))] = value
    return decisions, reasons


@bp.route("/batches/<int:batch_id>", methods=["GET", "POST"])
@login_required
def batch(batch_id: int):
    """A batch as a cell diff; a curator approves all, some or none of its cards (POST)."""
    b = _visible_batch(batch_id)
    status = 200
    if request.method == "POST":
        if not reviewing.is_curator(current_user):
            abort(403, description="Only curators review proposals.")
        form = ReasonForm()
        if not form.validate_on_submit():
            abort(400, description="A reason is at most 500 characters long.")
        decisions, reasons = _batch_decisions(request.form)
        if request.form.get("all") in ("approve", "reject"):
            decisions = {p.id: request.form["all"] for p in review_queue.batch_proposals(b.id) if p.status == "pending"}
        reasons = {pid: text for pid, text in reasons.items() if pid in decisions}  # a later card's draft reason waits
        try:
            done = reviewing.review_batch(b.id, current_user, decisions, form.reason.data or "", reasons)
        except CommunityError as exc:
            flash(str(exc), "error")
            status = 400
        else:
            parts = [f"{len(done[k])} {k}" for k in ("approved", "rejected") if done[k]]
            flash(f"Batch #{b.id}: {', '.join(parts) or 'nothing decided'}"
                  + (f"; {len(done['failed'])} could not be approved (see below)" if done["failed"] else "") + ".",
                  "error" if done["failed"] else "success")
            return redirect(url_for("community.batch", batch_id=b.id))
    view = review_queue.batch_diff(b.id)
    return render_template("community/batch.html", b=b, game=game_or_404(b.game), view=view), status


@bp.route("/scans/<int:scan_id>")
def scan(scan_id: int):
    """A scan's image: approved ones for everyone, waiting ones for their sender and curators."""
    row = service_scans.visible_scan(scan_id, current_user)
    if row is None:
        abort(404, description="There is no picture with that number that you may see.")
    response = current_app.response_class(bytes(row.data), mimetype=row.mime)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'"
    response.cache_control.max_age = 86400
    if row.approved:
        response.cache_control.public = True
    else:
        response.cache_control.private = True
    return response

"""The goldfish sandbox: start a game from a deck, take legal actions, undo, restart, play out.

Every action is a form post followed by a redirect (post/redirect/get), so the board works without
JavaScript; `static/goldfish.js` only saves the page jump and adds keyboard shortcuts. A post that
asks for JSON (`Accept: application/json`) gets the step recorded, or 409 with the game's step.
"""
from __future__ import annotations

import json
import re

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from markupsafe import Markup

from deckhub.services import card_values
from deckhub.services import goldfish as store
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.engine import find_engine
from deckhub.core.state import MANUAL_KINDS
from deckhub.core.session_values import CARD_VALUES
from deckhub.games import get_game
from deckhub.web import page_cache
from deckhub.web.api.inputs import parse_json
from deckhub.web.card_values import typed_values
from deckhub.web.lookups import deck_or_404

bp = Blueprint("goldfish", __name__, url_prefix="/goldfish")

MAX_ACTION_JSON = 2_000


def _session(session_id: int):
    row = store.own_session(session_id, current_user)
    if row is None:
        abort(404, "No goldfish game of yours has that number.")
    return row


def _step() -> int | None:
    value = request.form.get("step")
    if value is None or value == "":
        return None
    try:
        return int(value)
    except ValueError:
        abort(400, "The step must be a whole number.")


def options_from_form(engine) -> dict:
    """The engine's options as the form sent them (unchecked boxes are false).

    Card values the player types come as `cv__<card key>__<field>` fields (the values form); the
    goldfish and simulation services keep them as the player's own."""
    options = {}
    values = typed_values(request.form)
    if values and engine.option(CARD_VALUES):
        options[CARD_VALUES] = values
    for spec in engine.options:
        if spec.name == CARD_VALUES:
            continue
        if spec.kind == "bool":
            options[spec.name] = request.form.get(f"opt_{spec.name}") in ("on", "true", "1", "y")
        elif f"opt_{spec.name}" in request.form and request.form[f"opt_{spec.name}"] != "":
            options[spec.name] = request.form[f"opt_{spec.name}"][:200]
    return options


@bp.route("/")
@login_required
def index():
    """The player's games; archived ones only with `?archived=1` (the list links them with their count)."""
    archived = request.args.get("archived") == "1"
    return render_template("goldfish/index.html", sessions=store.user_sessions(current_user, archived),
                           archived=archived, archived_count=store.archived_count(current_user))


@bp.route("/<int:session_id>/archive", methods=["POST"])
@login_required
def archive(session_id: int):
    """Archive a game (`archived` = "1") or put it back in the list ("0")."""
    session = _session(session_id)
    archived = request.form.get("archived", "1") == "1"
    store.set_archived(session, archived)
    flash(f"Game #{session.id} " + ("archived: it is kept, out of the list." if archived else "is back in the list."),
          "info")
    return redirect(url_for("goldfish.index", archived="1" if not archived else None), code=303)


@bp.route("/<int:session_id>/delete", methods=["GET", "POST"])
@login_required
def delete(session_id: int):
    """GET asks to confirm (a page, so it works without JavaScript); POST deletes the game for good."""
    session = _session(session_id)
    if request.method == "GET":
        return render_template("goldfish/delete.html", session=session)
    store.delete_session(session)
    flash(f"Game #{session.id} deleted.", "info")
    return redirect(url_for("goldfish.index", archived="1" if session.archived else None), code=303)


@bp.route("/decks/<int:deck_id>", methods=["GET", "POST"])
@login_required
def start(deck_id: int):
    stored = deck_or_404(deck_id)
    spec = get_game(stored.row.game)
    engine = find_engine(spec)
    if engine is None:
        abort(404, f"{spec.name} has no goldfish engine yet.")
    seed = store.random_seed()
    error = None
    if request.method == "POST":
        try:
            seed_text = (request.form.get("seed") or "").strip()
            seed = int(seed_text) if seed_text else store.random_seed()
            session = store.start(current_user.id, stored.row, stored.deck, options_from_form(engine), seed)
        except ValueError as exc:  # GoldfishError is a ValueError; so is a seed that is not a number
            error = str(exc) if isinstance(exc, store.GoldfishError) else "A seed is a whole number."
        else:
            return redirect(url_for("goldfish.board", session_id=session.id))
    rows, used = values_rows(engine, stored.deck, spec)
    return render_template("goldfish/start.html", stored=stored, spec=spec, engine=engine, seed=seed,
                           error=error, form=request.form, rows=rows, used=used), (400 if error else 200)


def values_rows(engine, deck, spec) -> tuple[list, int]:
    """(the values form's rows for `deck`, how many of my values the game will use): every card whose
    values the engine needs and neither the catalogue nor my values know, with what was typed kept."""
    if not engine.option(CARD_VALUES):
        return [], 0
    catalogue = get_catalogue(spec.slug)
    mine = card_values.values_of(current_user.id, spec.slug)
    typed = typed_values(request.form) if request.method == "POST" else {}
    used = sum(len(v) for v in card_values.effective_values(catalogue, mine, deck).values())
    return card_values.values_form(engine, deck, catalogue, mine, typed), used


def _on_tile(label: str, name: str) -> str:
    """An action's label on its own card's tile, without the card's name ("Move to zone 4")."""
    short = label.replace(f" with {name}", "").replace(f"{name}: ", "").replace(name, "")
    short = re.sub(r"\s+(?=[,.;:])|(?<=\s)\s+", "", short).strip(" :,")  # "Play the Hero , tapping" -> "Play the Hero, tapping"
    return short[:1].upper() + short[1:] if short else label


def _move_groups(state) -> list[tuple[str, list[tuple[int, str]]]]:
    """The cards a manual move can take, zone by zone: face-up cards by name; a face-down zone as its
    top and bottom card and a count, not one line per hidden card."""
    groups = []
    for z in type(state).ZONES:
        ids = state.zones.get(z.name) or []
        if not ids:
            continue
        if z.hidden:
            options = [(ids[-1], f"the top card of {z.label}")]
            if len(ids) > 1:
                options.append((ids[0], f"the bottom card of {z.label}"))
            groups.append((f"{z.label} ({len(ids)} face down)", options))
        else:
            groups.append((f"{z.label} ({len(ids)})", [(i, state.cards[i].display_name) for i in reversed(ids)]))
    return groups


def _changed(engine, options: dict) -> dict:
    """The options a game was started with that differ from their defaults: the board's header
    names those, not every setting of the start page."""
    return {name: value for name, value in options.items()
            if (spec := engine.option(name)) is None or value != spec.default}


def _board_context(game, replay_step: int | None = None):
    state = game.state
    view = state.view()
    by_card: dict[int, list] = {}
    general = []
    for action in state.legal_actions(manual=False):
        entry = (state.action_to_string(action), json.dumps(action, separators=(",", ":")))
        if isinstance(action.get("card"), int) and action.get("kind") not in ("choose", "decline"):
            by_card.setdefault(action["card"], []).append((_on_tile(entry[0], state.name_of(action["card"])), entry[1], entry[0]))
        else:
            general.append(entry)
    manual = []
    if not state.is_terminal():
        seen = set()
        for action in state.manual_actions():
            if action["kind"] in ("manual.move",):
                continue
            entry = (state.action_to_string(action), json.dumps(action, separators=(",", ":")))
            if entry[1] not in seen:
                seen.add(entry[1])
                manual.append(entry)
    zones = [(z.name, z.label) for z in type(state).ZONES if z.manual_target]
    spec = get_game(game.session.game)
    engine = find_engine(spec)
    view["options"] = _changed(engine, view["options"])
    return {"game": game, "view": view, "by_card": by_card, "general": general, "manual": manual,
            "move_groups": _move_groups(state), "move_zones": zones, "spec": spec, "engine": engine,
            "step": game.step, "replay_step": replay_step,
            "deck_row": store.session_deck(game.session)}


def _finished_page_key(session, replay_step: int | None = None) -> tuple | None:
    """A finished game's page is kept (see `page_cache`): everything it shows besides the game itself
    is the deck it links and who is signed in."""
    if session.result is None:
        return None
    deck = store.session_deck(session)
    return page_cache.page_key(session.id, session.created_at, session.seed, replay_step,
                               deck and (deck.id, deck.name), current_user.id, current_user.username,
                               current_user.is_curator)


def _board_page(session, key: tuple | None, template: str, context: dict) -> str:
    return page_cache.keep(get_catalogue(session.game), "goldfish", key, render_template(template, **context))


@bp.route("/<int:session_id>")
@login_required
def board(session_id: int):
    session = _session(session_id)
    key = _finished_page_key(session)
    page = page_cache.kept(get_catalogue(session.game), "goldfish", key)
    if page is not None:
        return page
    try:
        game = store.load(session)
    except store.GoldfishError as exc:
        return render_template("goldfish/broken.html", session=session, message=str(exc)), 409
    return _board_page(session, key, "goldfish/board.html", _board_context(game))


def _action_from_form() -> dict:
    raw = request.form.get("action")
    if raw is not None:
        if len(raw) > MAX_ACTION_JSON:
            abort(400, "That action is too long to be real.")
        try:
            action = parse_json(raw)  # a lone surrogate or a deep nest is refused here, as in every JSON body
        except ValueError as exc:
            abort(400, f"The action is not valid JSON: {exc}")
        return action
    kind = request.form.get("kind", "")
    if kind not in MANUAL_KINDS:
        abort(400, "Choose an action on the board.")
    action: dict = {"kind": kind}
    for field in ("card", "delta"):
        if request.form.get(field, "") != "":
            try:
                action[field] = int(request.form[field])
            except ValueError:
                abort(400, f"{field} must be a whole number.")
    for field in ("to", "zone", "counter"):
        if request.form.get(field):
            action[field] = request.form[field][:60]
    if request.form.get("at") == "bottom":
        action["at"] = "bottom"
    return action


def _after(session_id: int, message: str | None = None):
    if message:
        flash(message, "error")
    return redirect(url_for("goldfish.board", session_id=session_id, _anchor="board"))


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json"


def _change(session_id: int, change):
    """Apply one change to the player's own session; a refused change is explained and changes nothing.
    The board shown next is the changed game's (a restart or undo of a finished game is a new one).

    A client that asks for JSON gets what was recorded (`session`, `step`, `result`), or the refusal
    with the step the game is at: 409 when the game moved on from the step the change was made at."""
    session = _session(session_id)
    try:
        game = change(store.load(session))
    except store.GoldfishError as exc:
        if not _wants_json():
            return _after(session_id, str(exc))
        stale = isinstance(exc, store.StaleStep)
        return jsonify({"error": str(exc), "session": session.id,
                        "step": exc.step if stale else len(session.actions)}), (409 if stale else 400)
    if _wants_json():
        return jsonify({"applied": True, "session": game.session.id, "step": game.step,
                        "result": game.session.result})
    return _after(game.session.id)


@bp.route("/<int:session_id>/act", methods=["POST"])
@login_required
def act(session_id: int):
    action = _action_from_form()
    return _change(session_id, lambda game: store.act(game, action, _step()))


@bp.route("/<int:session_id>/undo", methods=["POST"])
@login_required
def undo(session_id: int):
    try:
        count = max(1, min(store.MAX_ACTIONS, int(request.form.get("count") or 1)))
    except ValueError:
        abort(400, "Undo takes a whole number of steps.")
    def undo_game(game):
        new = store.undo(game, count, _step())
        if new.session.id != game.session.id:
            flash(Markup('This game was over; undoing continues it as a new game #{}. The finished game '
                         '<a href="{}">#{}</a> stays as it ended.').format(
                new.session.id, url_for("goldfish.board", session_id=game.session.id), game.session.id), "info")
        return new
    return _change(session_id, undo_game)


@bp.route("/<int:session_id>/restart", methods=["POST"])
@login_required
def restart(session_id: int):
    def restart_game(game):
        new = store.restart(game)
        note = " as a new game; the earlier one stays in your history" if new.session.id != game.session.id else ""
        flash(f"Restarted with the same seed ({game.session.seed}){note}.", "info")
        return new
    return _change(session_id, restart_game)


@bp.route("/<int:session_id>/new", methods=["POST"])
@login_required
def new_game(session_id: int):
    session = store.new_seed(_session(session_id))
    flash(f"New game with seed {session.seed}.", "info")
    return redirect(url_for("goldfish.board", session_id=session.id))


@bp.route("/<int:session_id>/play-out", methods=["POST"])
@login_required
def play_out(session_id: int):
    return _change(session_id, lambda game: store.play_to_end(game, _step()))


@bp.route("/<int:session_id>/replay")
@login_required
def replay_view(session_id: int):
    """A finished (or unfinished) game step by step, read-only."""
    session = _session(session_id)
    total = len(session.actions)
    step = request.args.get("step", type=int)
    step = total if step is None else max(0, min(total, step))
    key = _finished_page_key(session, step)
    page = page_cache.kept(get_catalogue(session.game), "goldfish", key)
    if page is not None:
        return page
    try:
        state = store.rebuild(session, step)
    except store.GoldfishError as exc:
        return render_template("goldfish/broken.html", session=session, message=str(exc)), 409
    game = store.Game(session, state)
    context = _board_context(game, replay_step=step)
    next_label = state.action_to_string(session.actions[step]) if step < total else None
    context.update(by_card={}, general=[], manual=[], total=total, next_action_label=next_label)
    return _board_page(session, key, "goldfish/replay.html", context)

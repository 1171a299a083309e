"""Simulations: many automated goldfish games of a deck's latest version, run in the background.

`POST /api/decks/<id>/simulations` starts one (202; refused with the missing values listed in
`unknown_values` unless `allow_unknown`), `GET` lists a deck's runs, `GET /api/simulations/<id>`
polls one and `DELETE` cancels it. At most MAX_ACTIVE_RUNS of a user's runs, tuning runs included,
are queued or running at once (429, decided by the `simulations` service).
"""
from __future__ import annotations

import json
import random

from flask import jsonify, request

from deckhub.store import models
from deckhub.services import simulations
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.engine import find_engine
from deckhub.games import get_game
from deckhub.services.limits import MAX_OPTIONS_JSON, MAX_SEED
from deckhub.web.api.auth import own_deck, user
from deckhub.web.api.errors import ApiError, fail
from deckhub.web.api.inputs import json_body, time
from deckhub.web.api.routes import own as bp


def run_json(run: models.SimulationRun) -> dict:
    return {"id": run.id, "deck": run.deck_id, "version": run.version, "game": run.game, "games": run.games,
            "seed": run.seed, "options": run.options, "status": run.status, "done": run.done,
            "result": run.result, "stuck": run.stuck, "error": run.error,
            "unknown": _unknown_json(run.game, run.unknown), "settings": simulations.settings(run),
            "created_at": time(run.created_at), "updated_at": time(run.updated_at)}


def _unknown_json(game: str, missing: dict | None) -> dict | None:
    """What a run played without: how many cards, and each card's unknown fields (null: nothing)."""
    if not missing:
        return None
    catalogue = get_catalogue(game)
    return {"cards": len(missing), "values": [
        {"card": key, "name": catalogue.get(key).display_name if catalogue.get(key) else key, "fields": fields}
        for key, fields in missing.items()]}


def run_inputs(body: dict, stored) -> tuple[int, dict, bool]:
    """The seed (a random one if none), goldfish options and `allow_unknown` of a simulation or a
    tuning run of `stored` (a body `json_body` checked), whose game must have an engine."""
    seed = body.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(1, MAX_SEED)
    if len(json.dumps(body["options"])) > MAX_OPTIONS_JSON:
        fail(413, "Those options are too large.")
    if find_engine(get_game(stored.row.game)) is None:
        fail(400, f"{get_game(stored.row.game).name} has no goldfish engine yet.")
    return seed, body["options"], body["allow_unknown"]


def start_run(start, *args):
    """`start(*args)` of a service, its refusals as API errors (an option of the wrong shape a 400)."""
    try:
        return start(*args)
    except ApiError:
        raise
    except simulations.SimulationError as exc:
        fail(exc.status, str(exc))
    except (TypeError, ValueError, AttributeError) as exc:
        fail(400, f"Those options cannot be used: {str(exc)[:200]}")


def accepted(body: dict, location: str):
    """A 202 for a queued run, pointing at where to poll it."""
    response = jsonify(body)
    response.status_code = 202
    response.headers["Location"] = location
    return response


@bp.route("/decks/<int:deck_id>/simulations", methods=["GET", "POST"])
def deck_simulations(deck_id: int):
    return start_simulation(deck_id) if request.method == "POST" else list_simulations(deck_id)


def list_simulations(deck_id: int):
    stored = own_deck(deck_id)
    return jsonify({"simulations": [run_json(r) for r in simulations.runs_for(stored.row, 100)]})


def _start(user_id, stored, games, seed, options, allow_unknown):
    try:
        return simulations.start(user_id, stored.row, stored.version, games, seed, options, allow_unknown)
    except simulations.UnknownValues as exc:
        fail(400, str(exc), unknown_values=_unknown_json(stored.row.game, exc.missing)["values"])


def start_simulation(deck_id: int):
    """Start N automated goldfish games of the deck's latest version in the background (202)."""
    me = user()
    stored = own_deck(deck_id)
    body = json_body()
    seed, options, allow_unknown = run_inputs(body, stored)
    run = start_run(_start, me.id, stored, body["games"], seed, options, allow_unknown)
    return accepted(run_json(run), f"/api/simulations/{run.id}")


@bp.route("/simulations/<int:run_id>", methods=["GET", "DELETE"])
def simulation(run_id: int):
    me = user()
    if request.method == "DELETE":
        run = simulations.cancel(me.id, run_id)  # queued or running: its unplayed chunks are dropped
    else:
        run = simulations.own_run(me.id, run_id)
    if run is None:
        fail(404, "No simulation of yours has that number.")
    return jsonify(run_json(run))

"""Tuning runs: every one-for-one swap of a deck tried in paired goldfish games, in the background.

`POST /api/decks/<id>/tunings` starts one (202), `GET /api/tunings/<id>` polls it and `DELETE`
cancels it; they count with simulations against a user's runs at once (`simulations`).
"""
from __future__ import annotations

from flask import jsonify, request

from deckhub.store import models
from deckhub.services import tunings
from deckhub.web.api.auth import own_deck, user
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import json_body, time
from deckhub.web.api.routes import own as bp
from deckhub.web.api.simulations import accepted, run_inputs, start_run


def tuning_json(run: models.TuningRun) -> dict:
    return {"id": run.id, "deck": run.deck_id, "version": run.version, "game": run.game, "budget": run.budget,
            "seed": run.seed, "candidates": run.candidate_source, "options": run.options, "status": run.status,
            "done": run.done, "total": run.total, "result": run.result, "error": run.error,
            "created_at": time(run.created_at), "updated_at": time(run.updated_at)}


@bp.route("/decks/<int:deck_id>/tunings", methods=["POST"])
def start_tuning(deck_id: int):
    """Start a tuning run of the deck's latest version in the background (202)."""
    me = user()
    stored = own_deck(deck_id)
    body = json_body()
    seed, options, allow_unknown = run_inputs(body, stored)
    run = start_run(tunings.start, me.id, stored.row, stored.version, body["budget"], seed, options,
                    body["candidates"], allow_unknown)
    return accepted(tuning_json(run), f"/api/tunings/{run.id}")


@bp.route("/tunings/<int:run_id>", methods=["GET", "DELETE"])
def tuning(run_id: int):
    me = user()
    if request.method == "DELETE":
        run = tunings.cancel(me.id, run_id)
    else:
        run = tunings.own_run(me.id, run_id)
    if run is None or run.candidate_source in (tunings.IMPACT, tunings.COMPARISON):
        fail(404, "No tuning run of yours has that number.")
    return jsonify(tuning_json(run))

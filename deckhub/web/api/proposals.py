"""Proposals from a community's scripts (`/api/proposals`): send values for one card or a batch,
list mine, confirm someone's pending value. The same checks, rate limits (confirmations count)
and agreement and trust rules as the site's forms."""
from __future__ import annotations

import base64
import binascii
import datetime as dt

from flask import current_app, jsonify, request

from deckhub.services.community import submissions
from deckhub.services.community.errors import CommunityError, NotAllowed, NotFound, RateLimited
from deckhub.services.community.rate_limits import RATE_LIMIT, RATE_WINDOW
from deckhub.web.api.auth import user
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import json_body, query
from deckhub.web.api.routes import own as bp


def _limits() -> dict:
    return {"rate_limit": int(current_app.config.get("PROPOSAL_RATE_LIMIT", RATE_LIMIT)),
            "window": dt.timedelta(seconds=int(current_app.config.get("PROPOSAL_RATE_WINDOW", RATE_WINDOW.total_seconds())))}


# how the API answers what the community catalogue refuses (anything else it refuses is a 400)
STATUS_OF = ((RateLimited, 429), (NotFound, 404), (NotAllowed, 403), (CommunityError, 400))


def _refused(exc: CommunityError):
    fail(next(code for kind, code in STATUS_OF if kind in type(exc).__mro__), str(exc)[:2000])


@bp.route("/proposals", methods=["GET", "POST"])
def proposals():
    me = user()
    if request.method == "GET":
        args = query("status", "game")
        return jsonify({"proposals": [submissions.outcome(p) for p in submissions.mine(me, args["status"], args["game"])]})
    body = json_body()
    try:
        made = submissions.submit(me, body["game"], body["source"], body["cards"], **_limits())
    except CommunityError as exc:
        _refused(exc)
    return jsonify({"proposals": [submissions.outcome(p) for p in made]}), 201


def _scan(body: dict) -> bytes | None:
    """The scan sent as Base64 text, None when none was sent."""
    if body.get("scan") is None:
        return None
    try:
        return base64.b64decode(body["scan"], validate=True)
    except (binascii.Error, ValueError):
        fail(400, '"scan" is not Base64 text: send the image file\'s bytes encoded as Base64.')


@bp.route("/proposals/<int:proposal_id>/confirm", methods=["POST"])
def confirm(proposal_id: int):
    """Confirm another player's value; the body (my own source, a scan) is optional."""
    me = user()
    body = json_body(optional=True)
    try:
        made = submissions.confirm_one(me, proposal_id, body.get("source"), _scan(body), **_limits())
    except CommunityError as exc:
        _refused(exc)
    return jsonify({"proposals": [submissions.outcome(made)]}), 201

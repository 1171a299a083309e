"""Construction checks: a deck list sent as text (`POST /api/check`, stateless, public) and a
stored deck's latest version (`GET /api/decks/<id>/check`); both answer `checks`' report, the
same JSON as `deckhub check --json`, with the caller's own card values where the catalogue has none.
"""
from __future__ import annotations

from flask import jsonify
from flask_login import current_user

from deckhub.services import card_values, checks
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import json_body
from deckhub.web.api.routes import check, own
from deckhub.web.lookups import deck_or_404


def _user_id() -> int | None:
    return current_user.id if current_user.is_authenticated else None


@check.route("/check", methods=["POST"])
def api_check():
    """`{"game", "format", "packs", "decklist"}` -> the report; it changes nothing."""
    body = json_body()
    game = body["game"]
    try:
        return jsonify(checks.check_text(game, body["decklist"], body.get("format"), body.get("packs"),
                                         card_values.catalogue_for(_user_id(), game)))
    except LookupError as exc:
        fail(400, str(exc).strip("'\""))
    except checks.CheckError as exc:
        fail(400, str(exc))


@own.route("/decks/<int:deck_id>/check")
def check_stored_deck(deck_id: int):
    """The check of a stored deck visible to the caller (its latest version)."""
    return jsonify(checks.check_stored(deck_or_404(deck_id), user_id=_user_id()).to_json())

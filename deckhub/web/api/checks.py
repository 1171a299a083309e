"""Construction checks: a deck list sent as text (`POST /api/check`, stateless, public) and a
stored deck's latest version (`GET /api/decks/<id>/check`); both answer `checks`' report, the
same JSON as `deckhub check --json`, with the caller's own card values where the catalogue has none.
"""
from __future__ import annotations

from flask import jsonify
from flask_login import current_user

from deckhub.services import card_values, checks
from deckhub.games import get_game
from deckhub.services.limits import MAX_DECKLIST
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import is_int, json_body
from deckhub.web.api.routes import check, own
from deckhub.web.lookups import deck_or_404


def _user_id() -> int | None:
    return current_user.id if current_user.is_authenticated else None


@check.route("/check", methods=["POST"])
def api_check():
    """`{"game", "format", "packs", "decklist"}` -> the report; it changes nothing."""
    body = json_body()
    game, text = body.get("game"), body.get("decklist")
    fmt, packs = body.get("format"), body.get("packs")
    if not isinstance(game, str) or not isinstance(text, str):
        fail(400, '"game" and "decklist" must be strings: {"game": "kaijudo", "decklist": "4 Card Name\\n..."}.')
    if len(text) > MAX_DECKLIST:
        fail(413, f"A deck list may be at most {MAX_DECKLIST} characters.")
    if fmt is not None and not isinstance(fmt, str) or packs is not None and not is_int(packs):
        fail(400, '"format" must be a string and "packs" a whole number.')
    try:
        get_game(game)
        return jsonify(checks.check_text(game, text, fmt, packs, card_values.catalogue_for(_user_id(), game)))
    except LookupError as exc:
        fail(400, str(exc).strip("'\""))
    except checks.CheckError as exc:
        fail(400, str(exc))


@own.route("/decks/<int:deck_id>/check")
def check_stored_deck(deck_id: int):
    """The check of a stored deck visible to the caller (its latest version)."""
    return jsonify(checks.check_stored(deck_or_404(deck_id), user_id=_user_id()).to_json())

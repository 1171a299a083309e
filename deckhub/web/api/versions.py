"""A deck's versions (`/api/decks/<id>/versions`) and one of them whole (`.../versions/<n>`);
readable wherever the deck is."""
from __future__ import annotations

from flask import jsonify

from deckhub.services import decks as deck_store
from deckhub.web.api.decks import deck_json
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import time
from deckhub.web.api.routes import own as bp
from deckhub.web.lookups import deck_or_404


@bp.route("/decks/<int:deck_id>/versions")
def deck_versions(deck_id: int):
    stored = deck_or_404(deck_id)
    return jsonify({"versions": [
        {"number": v.number, "created_at": time(v.created_at), "note": v.note,
         "cards": sum(e["qty"] for entries in v.data.get("sections", {}).values() for e in entries)}
        for v in deck_store.versions(stored.row)]})


@bp.route("/decks/<int:deck_id>/versions/<int:number>")
def deck_version(deck_id: int, number: int):
    stored = deck_or_404(deck_id)
    version = deck_store.version(stored.row, number)
    if version is None:
        fail(404, f"Deck {deck_id} has no version {number}.")
    return jsonify(deck_json(deck_store.StoredDeck(stored.row, version)))

"""A visible deck written for other sites and online tables: `GET /api/decks/<id>/export?format=`
(text, o8d, json, untap, tts), the file the deck page's export links give."""
from __future__ import annotations

from flask import Response, request
from flask_login import current_user

from deckhub.importers.deck_exports import ExportError
from deckhub.services import decks as deck_store
from deckhub.services import table_exports
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import query
from deckhub.web.api.routes import own as bp
from deckhub.web.lookups import deck_or_404


@bp.route("/decks/<int:deck_id>/export")
def export_deck(deck_id: int):
    stored = deck_or_404(deck_id)
    try:
        fmt, body = table_exports.export(stored, query("format")["format"], request.url_root,
                                          deck_store.owns(current_user, stored.row))
    except ExportError as exc:
        fail(400, str(exc))
    return Response(body, mimetype=fmt.mimetype)

"""`GET /api/openapi.json`: the API's OpenAPI document (`openapi`), public."""
from __future__ import annotations

from flask import jsonify

from deckhub.web.api.openapi import document
from deckhub.web.api.routes import own as bp


@bp.route("/openapi.json")
def openapi():
    return jsonify(document())

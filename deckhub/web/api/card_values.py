"""My own values for cards the catalogue does not know (`/api/card-values`): private, read per game,
merged by PUT (a null deletes a value), all or nothing."""
from __future__ import annotations

from flask import jsonify, request

from deckhub.services import card_values
from deckhub.web.api.auth import user
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import json_body, query
from deckhub.web.api.routes import own as bp


@bp.route("/card-values", methods=["GET", "PUT"])
def card_values_route():
    me = user()
    if request.method == "GET":
        slug = query("game")["game"]
        return jsonify({"game": slug, "values": card_values.values_of(me.id, slug)})
    body = json_body()
    try:
        after = card_values.put_values(me.id, body["game"], body["values"])
    except card_values.CardValuesError as exc:
        fail(400, str(exc))
    return jsonify({"game": body["game"], "values": after})

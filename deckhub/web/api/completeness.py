"""What each catalogue knows: `GET /api/games/<slug>/completeness` (public).

Per set, its cards, and per field how many have a known value, by provenance (`facts.completeness_json`).
"""
from __future__ import annotations

from flask import Flask, jsonify

from deckhub.services import facts
from deckhub.web.lookups import game_or_404

RULE = "/api/games/<slug>/completeness"
ENDPOINT = "facts.completeness"  # its name from when the facts pages served it (see `routes`)


def completeness(slug: str):
    return jsonify(facts.completeness_json(game_or_404(slug).slug))


def add_to(app: Flask) -> None:
    app.add_url_rule(RULE, ENDPOINT, completeness)

"""Issue 29: one schema for the API. Request bodies and query arguments are checked against the
OpenAPI document's own schemas (`deckhub.web.api.inputs`), so a shape, a limit and a default are
stated once, in the document; the answers still name the field, in the API's one error shape."""
from __future__ import annotations

import re
from pathlib import Path

import jsonschema_rs
import pytest

from deckhub.services import limits
from deckhub.store import models
from deckhub.store.db import database
from deckhub.games import all_games
from deckhub.web.api import inputs
from deckhub.web.api.openapi import document

API = Path(__file__).resolve().parents[1] / "deckhub" / "web" / "api"
ARGUS = "argus-vigilant-seer"
GAMES = ", ".join(g.slug for g in all_games())


def test_every_operation_is_checked_against_its_own_documented_schemas(app):
    operations = inputs.operations()
    documented = {(path, method): op for path, item in document()["paths"].items()
                  for method, op in item.items() if method != "parameters"}
    assert set(operations) == set(documented)
    for key, op in documented.items():
        assert (operations[key].body is not None) == ("requestBody" in op), key
        assert "$ref" not in repr(operations[key]), key  # every reference written out
        query = {p["name"] for p in document()["paths"][key[0]].get("parameters", []) + op.get("parameters", [])
                 if p["in"] == "query"}
        assert set(operations[key].query) == query, key
    decks = operations[("/api/decks", "post")].body.schema
    assert decks["properties"]["sections"]["additionalProperties"]["items"]["properties"]["qty"]["maximum"] \
        == limits.MAX_COPIES_PER_ENTRY


def test_a_document_that_breaks_json_schema_stops_the_app_being_made(app, monkeypatch):
    broken = {**document(), "components": {**document()["components"],
                                           "schemas": {**document()["components"]["schemas"],
                                                       "Broken": {"type": "whole number"}}}}
    monkeypatch.setattr(inputs, "document", lambda: broken)
    inputs._operations.cache_clear()
    try:
        with pytest.raises(jsonschema_rs.ValidationError):
            inputs.operations()
    finally:
        monkeypatch.undo()
        inputs._operations.cache_clear()
    assert inputs.operations()


def test_the_views_check_no_shapes_of_their_own():
    """Types, unknown fields and ranges are the document's: no API module but `inputs` tests a type."""
    for path in API.glob("*.py"):
        if path.name not in ("inputs.py", "openapi.py"):
            assert not re.search(r"\bisinstance\(", path.read_text(encoding="utf-8")), path.name


@pytest.fixture
def alice(app, client, auth):
    auth.signup("alice")
    return client


COPIES, DECKLIST = limits.MAX_COPIES_PER_ENTRY, limits.MAX_DECKLIST
DECK = {"name": "x", "game": "kaijudo"}
REFUSED = [  # (method, url, body, status, the whole message)
    ("POST", "/api/decks", {**DECK, "sections": {"Deck": [{"card": ARGUS, "qty": 0}]}}, 400,
     f'"sections.Deck[0].qty" must be from 1 to {COPIES}.'),
    ("POST", "/api/decks", {**DECK, "sections": {"Deck": [{"card": ARGUS, "qty": 2.0}]}}, 400,
     '"sections.Deck[0].qty" must be a whole number.'),
    ("POST", "/api/decks", {**DECK, "is_public": 1}, 400, '"is_public" must be true or false.'),
    ("POST", "/api/decks", {**DECK, "colour": "red"}, 400,
     "Unknown field(s): 'colour'; the fields are name, game, format, packs, is_public, description, sections, "
     "decklist."),
    ("POST", "/api/decks", {"game": "kaijudo"}, 400, '"name" is required.'),
    ("POST", "/api/decks", {**DECK, "name": "  "}, 400, '"name" must not be blank.'),
    ("POST", "/api/decks", {**DECK, "game": "chess"}, 400, f'"game" must be one of {GAMES}.'),
    ("POST", "/api/decks", {**DECK, "description": None}, 400, '"description" must be text.'),
    ("POST", "/api/decks", {**DECK, "decklist": "x" * (DECKLIST + 1)}, 413,
     f'"decklist" may be at most {DECKLIST} characters.'),
    ("POST", "/api/check", {"game": "kaijudo", "decklist": "x" * (DECKLIST + 1)}, 413,
     f'"decklist" may be at most {DECKLIST} characters.'),
    ("POST", "/api/decks", {**DECK, "decklist": "", "sections": {}}, 400,
     'Send the cards either as "sections" or as a "decklist", not both.'),
    ("POST", "/api/collection/changes", {"changes": [{"printing": 1, "delta": 1}, {"delta": 1}]}, 400,
     'changes[1]: Name the printing either by "printing" (an id from GET /api/collection) or by "game" and '
     '"card" (the card id), adding "set" and "number" when the card has several printings; not both.'),
    ("POST", "/api/collection/changes", {"changes": [{"printing": 1, "delta": 1, "note": "x"}]}, 400,
     "changes[0] has unknown field(s): 'note'; the fields are printing, game, card, set, number, field, delta."),
    ("POST", "/api/collection/changes", {"changes": [{"printing": 1, "delta": True}]}, 400,
     '"changes[0].delta" must be a whole number.'),
    ("POST", "/api/collection/changes", {"changes": []}, 400, '"changes" must not be empty.'),
    ("POST", "/api/collection/changes", [], 400, "The request body must be an object."),
    ("PUT", "/api/card-values", {"game": "kaijudo", "values": {ARGUS: {"power": 1.5}}}, 400,
     f'"values.{ARGUS}.power" must be a whole number or text or null.'),
    ("GET", "/api/card-values", None, 400, f'Send "game" in the query (?game=...): one of {GAMES}.'),
    ("GET", "/api/collection?page=0", None, 400, f'"page" must be from 1 to {limits.MAX_PAGE}.'),
    ("GET", "/api/collection?per_page=x", None, 400, '"per_page" must be a whole number.'),
    ("GET", "/api/collection?game=", None, 400, f'"game" must be one of {GAMES}.'),
]


def test_a_refused_request_names_its_first_problem_in_the_api_error_shape(alice):
    deck = alice.post("/api/decks", json={"name": "Mine", "game": "kaijudo"}).get_json()
    with database.connection_context():
        before = models.Deck.select().count(), models.DeckVersion.select().count(), models.OwnedCard.select().count()
    for method, url, body, status, message in REFUSED + [
            ("PATCH", f"/api/decks/{deck['id']}", {"version": 0}, 400, f'"version" must be from 1 to {limits.MAX_ID}.'),
            ("POST", f"/api/decks/{deck['id']}/simulations", {"games": limits.MAX_GAMES + 1}, 400,
             f'"games" must be from 1 to {limits.MAX_GAMES}.'),
            ("POST", f"/api/decks/{deck['id']}/tunings", {"candidates": "friends"}, 400,
             '"candidates" must be one of collection, catalogue.')]:
        response = alice.open(url, method=method, json=body)
        assert (response.status_code, response.get_json()) == (status, {"error": message, "status": status}), url
    with database.connection_context():
        assert (models.Deck.select().count(), models.DeckVersion.select().count(),
                models.OwnedCard.select().count()) == before


def test_a_view_gets_the_documents_defaults_written_into_its_body(app):
    """Defaults are read from the document (copies of them: a view may change its body)."""
    with app.test_request_context("/api/decks/1/simulations", method="POST", json={"seed": None}):
        body = inputs.json_body()
    assert body == {"games": limits.DEFAULT_GAMES, "seed": None, "options": {}, "allow_unknown": False}
    body["options"]["first"] = True
    schema = document()["components"]["schemas"]["SimulationStart"]
    assert schema["properties"]["options"]["default"] == {}
    with app.test_request_context("/api/decks/1/tunings", method="POST", json={}):
        assert inputs.json_body() == {"budget": limits.DEFAULT_TUNING_BUDGET, "candidates": "collection",
                                      "options": {}, "allow_unknown": False}
    with app.test_request_context("/api/decks", method="POST",
                                  json={**DECK, "sections": {"Deck": [{"card": ARGUS}]}}):
        assert inputs.json_body() == {**DECK, "is_public": False, "description": "",
                                      "sections": {"Deck": [{"card": ARGUS, "qty": 1}]}}
    with app.test_request_context("/api/decks/1", method="PATCH", json={"name": "y"}):
        assert inputs.json_body() == {"name": "y"}  # an update changes only what it names
    with app.test_request_context("/api/collection/changes", method="POST", json={"changes": [{"printing": 1, "delta": 1}]}):
        assert inputs.json_body()["changes"] == [{"printing": 1, "delta": 1, "field": "quantity"}]
    with app.test_request_context("/api/v1/decks/public?page=&per_page=100000", method="GET"):
        assert inputs.page_args(limits.MAX_PUBLIC_DECKS_PER_PAGE) == (1, limits.MAX_PUBLIC_DECKS_PER_PAGE)


def test_a_deck_entry_without_qty_is_one_copy_as_the_document_says(alice):
    created = alice.post("/api/decks", json={**DECK, "sections": {"Deck": [{"card": ARGUS}]}})
    assert created.status_code == 201 and created.get_json()["sections"] == {"Deck": [{"card": ARGUS, "qty": 1}]}

"""Issue 19, finding 10: the JSON API is one package (`deckhub/web/api/`) with one error shape, one
CSRF policy and the limits of `deckhub.services.limits`, which the OpenAPI document states too."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from peewee import OperationalError

from deckhub.services import api_tokens, limits
from deckhub.store import models
from deckhub.store.db import database
from deckhub.web.api.openapi import document

from conftest import csrf_token

PACKAGE = Path(__file__).resolve().parents[1] / "deckhub"
API = PACKAGE / "web" / "api"
ARGUS = "argus-vigilant-seer"
PASSWORD = "correct horse"
WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def _api_rules(app):
    return [rule for rule in app.url_map.iter_rules() if rule.rule == "/api" or rule.rule.startswith("/api/")]


def _sources(root: Path = PACKAGE):
    return {path: path.read_text(encoding="utf-8") for path in root.rglob("*.py")}


# --------------------------------------------------------------------------- the package

def test_every_api_route_is_served_by_the_api_package_and_nothing_else_is(app):
    api_views = {rule.endpoint for rule in _api_rules(app)}
    assert len(api_views) >= 18
    for endpoint in api_views:
        module = app.view_functions[endpoint].__module__
        assert module.startswith("deckhub.web.api."), f"{endpoint} lives in {module}"
    for rule in app.url_map.iter_rules():
        if rule.endpoint not in api_views:
            assert not app.view_functions[rule.endpoint].__module__.startswith("deckhub.web.api"), rule.rule
    assert not (PACKAGE / "web" / "api.py").exists() and not (PACKAGE / "web" / "api_v1.py").exists()


def test_one_csrf_decision_point_and_one_error_shape():
    """Only `web/api/auth.py` decides on CSRF for the API and only the package exempts its blueprints
    from the forms' check; only `web/api/errors.py` builds the JSON error body."""
    protect, exempt, error_body = set(), set(), set()
    for path, text in _sources().items():
        name = str(path.relative_to(PACKAGE))
        if re.search(r"\bcsrf\.protect\(", text):
            protect.add(name)
        if re.search(r"\bcsrf\.exempt\(", text) or "CSRF_EXEMPT" in text:
            exempt.add(name)
        for node in ast.walk(ast.parse(text)):  # jsonify({"error": ..., "status": ...})
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "jsonify" and node.args:
                keys = {k.value for k in getattr(node.args[0], "keys", ()) if isinstance(k, ast.Constant)}
                if {"error", "status"} <= keys:
                    error_body.add(name)
    assert protect == {"web/api/auth.py"}
    assert exempt == {"web/api/__init__.py"}
    assert error_body == {"web/api/errors.py"}


def test_the_api_finds_decks_through_the_one_helper():
    for path, text in _sources(API).items():
        assert not re.search(r"\.(visible_deck|own_deck)\(", text), path.name
        assert "deckhub.commands" not in text, path.name


# --------------------------------------------------------------------------- errors

def test_every_error_under_api_is_json(app, client, monkeypatch):
    import deckhub.services.checks
    import deckhub.core.search

    cases = [(client.get("/api/no-such-thing"), 404), (client.get("/api"), 404), (client.delete("/api/games"), 405),
             (client.get("/api/decks/99999999999"), 404), (client.get("/api/cards?game=kaijudo&set=nope&level=x"), 400),
             (client.post("/api/check", data=b"x" * (limits.MAX_BODY + 1), content_type="application/json"), 413),
             (client.get("/api/decks"), 401)]

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    def full(*args, **kwargs):
        raise OperationalError("database or disk is full")

    monkeypatch.setattr(deckhub.core.search, "set_summaries", broken)
    cases.append((client.get("/api/games"), 500))
    monkeypatch.setattr(deckhub.services.checks, "check_text", full)
    cases.append((client.post("/api/check", json={"game": "kaijudo", "decklist": ""}), 503))
    for response, status in cases:
        body = response.get_json()
        assert response.status_code == status and response.mimetype == "application/json", (status, response.data[:80])
        assert body["status"] == status and isinstance(body["error"], str) and body["error"]
    assert "<html" not in client.get("/api/").get_data(as_text=True).lower()


# --------------------------------------------------------------------------- the CSRF policy

def _signed_in(csrf_app):
    client = csrf_app.test_client()
    page = client.get("/signup").get_data(as_text=True)
    client.post("/signup", data={"username": "alice", "password": PASSWORD, "confirm": PASSWORD,
                                 "csrf_token": csrf_token(page)})
    assert client.get("/api/me").get_json()["auth"] == "session"
    return client


def _write_urls(app):
    """Every write route of the API with made-up arguments: the CSRF decision comes before the view."""
    adapter = app.url_map.bind("localhost")
    values = {"deck_id": 1, "run_id": 1, "number": 1, "slug": "kaijudo", "key": ARGUS, "game_id": 1, "proposal_id": 1}
    for rule in _api_rules(app):
        for method in sorted(rule.methods & WRITES):
            yield method, adapter.build(rule.endpoint, {k: values[k] for k in rule.arguments}, method=method)


def _everything():
    with database.connection_context():
        return tuple(m.select().count() for m in (models.Deck, models.DeckVersion, models.OwnedCard,
                                                   models.SimulationRun, models.TuningRun, models.ApiToken))


def test_session_writes_need_the_csrf_token_on_every_api_write_and_tokens_never_do(csrf_app):
    client = _signed_in(csrf_app)
    urls = list(_write_urls(csrf_app))
    assert {url for _, url in urls} >= {"/api/check", "/api/decks", "/api/decks/1", "/api/collection/changes",
                                        "/api/card-values", "/api/decks/1/simulations", "/api/decks/1/tunings",
                                        "/api/simulations/1", "/api/tunings/1"}
    body = {"game": "kaijudo", "decklist": "", "name": "x"}
    before = _everything()
    for method, url in urls:
        for headers in ({}, {"X-CSRFToken": "forged"}):
            refused = client.open(url, method=method, json=body, headers=headers)
            assert refused.status_code == 400 and "X-CSRFToken" in refused.get_json()["error"], (method, url)
    assert _everything() == before
    token = csrf_token(client.get("/account/").get_data(as_text=True))
    with database.connection_context():
        _, api_token = api_tokens.create(models.User.get(username="alice"), "script")
    for method, url in urls:
        for who, headers in (("session with its token", {"X-CSRFToken": token}),
                             ("bearer token", {"Authorization": f"Bearer {api_token}"})):
            answer = (client if who.startswith("session") else csrf_app.test_client()).open(
                url, method=method, json=body, headers=headers)
            assert "X-CSRFToken" not in (answer.get_json() or {}).get("error", ""), (who, method, url)
    anonymous = csrf_app.test_client()
    assert anonymous.post("/api/check", json={"game": "kaijudo", "decklist": ""}).status_code == 200
    assert anonymous.post("/api/decks", json=body).status_code == 401  # acts as nobody: no CSRF question
    assert client.post("/api/no-such-route", json=body).status_code == 404  # routing errors stay what they are
    assert client.post("/api/games", json=body).status_code == 405


# --------------------------------------------------------------------------- limits

def test_no_module_of_the_api_defines_a_number_and_the_document_writes_none():
    """Limits live in deckhub.services.limits: the API's modules and the OpenAPI document import them."""
    def numeric(node) -> bool:
        return all(isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop))
                   for n in ast.walk(node)) and any(isinstance(n, ast.Constant) and type(n.value) is int
                                                     for n in ast.walk(node))
    for path in API.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = [t.id for node in tree.body if isinstance(node, ast.Assign) and numeric(node.value)
                     for t in node.targets if isinstance(t, ast.Name)]
        assert constants == [], f"{path.name} defines {constants}: put limits in deckhub/services/limits.py"
    tree = ast.parse((API / "openapi.py").read_text(encoding="utf-8"))
    literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and type(n.value) is int}
    assert literals <= {0, 1, 1024}, f"numbers written in openapi.py: {sorted(literals - {0, 1, 1024})}"


def test_the_document_states_the_limits_the_api_enforces(app, client, auth):
    schemas = document()["components"]["schemas"]
    changes = schemas["CollectionChanges"]["properties"]["changes"]
    assert changes["maxItems"] == limits.MAX_COLLECTION_CHANGES
    assert schemas["TuningStart"]["properties"]["budget"]["maximum"] == limits.MAX_TUNING_BUDGET
    assert schemas["TuningStart"]["properties"]["seed"]["maximum"] == limits.MAX_SEED
    assert schemas["SimulationStart"]["properties"]["games"]["maximum"] == limits.MAX_GAMES
    assert schemas["DeckEntry"]["properties"]["card"]["maxLength"] == limits.MAX_CARD_KEY
    collection_page = {p["name"]: p for p in document()["paths"]["/api/collection"]["get"]["parameters"]}
    assert collection_page["per_page"]["schema"]["default"] == limits.ENTRIES_PER_PAGE
    assert str(limits.MAX_ACTIVE_RUNS) in document()["paths"]["/api/decks/{deck_id}/simulations"]["post"][
        "responses"]["429"]["description"]

    auth.signup("alice")
    deck = client.post("/api/decks", json={"name": "x", "game": "kaijudo"}).get_json()["id"]
    one = {"game": "kaijudo", "card": ARGUS, "delta": 1}
    too_many = client.post("/api/collection/changes", json={"changes": [one] * (limits.MAX_COLLECTION_CHANGES + 1)})
    assert too_many.status_code == 400 and f"{limits.MAX_COLLECTION_CHANGES}" in too_many.get_json()["error"]
    budget = client.post(f"/api/decks/{deck}/tunings", json={"budget": limits.MAX_TUNING_BUDGET + 1})
    assert budget.status_code == 400 and f"{limits.MAX_TUNING_BUDGET}" in budget.get_json()["error"]
    games = client.post(f"/api/decks/{deck}/simulations", json={"games": limits.MAX_GAMES + 1})
    assert games.status_code == 400 and f"{limits.MAX_GAMES}" in games.get_json()["error"]
    long_key = client.patch(f"/api/decks/{deck}", json={"version": 1, "sections": {
        "Deck": [{"card": "x" * (limits.MAX_CARD_KEY + 1), "qty": 1}]}})
    assert long_key.status_code == 400
    page = client.get(f"/api/collection?per_page={limits.MAX_ENTRIES_PER_PAGE + 1}").get_json()
    assert page["per_page"] == limits.MAX_ENTRIES_PER_PAGE
    assert client.get(f"/api/collection?page={limits.MAX_PAGE + 1}").status_code == 400
    with database.connection_context():
        assert models.OwnedCard.select().count() == 0 and models.TuningRun.select().count() == 0

"""schemathesis against the served OpenAPI document, through the WSGI app (no network).

Each operation gets its own database with a small world in it (alice's private and public decks,
bob's public and private decks, a collection entry, a finished simulation) and is sent a bounded,
derandomized set of generated requests: schema-valid ones and schema-violating ones, with
alice's token. Path ids are drawn from the world's real ids as often as from random numbers,
so the operations are exercised on real rows, on other people's rows and on missing ones.
Checks: no 5xx, documented status codes and content types, responses that match their schema,
and, for requests that violate the schema, a 4xx.
"""
from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation as Location
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, negative_data_rejection,
                                               response_schema_conformance, status_code_conformance)

from deckhub.services import api_tokens, simulations
from deckhub.store import models
from deckhub.core.decklist import Deck
from deckhub.store.db import database
from deckhub.services.decks import create_deck
from deckhub.web.api.openapi import document

# DECKHUB_API_FUZZ=N runs N examples an operation with a random seed instead (a deeper run by hand).
DEEP = int(os.environ.get("DECKHUB_API_FUZZ") or 0)
EXAMPLES = {GenerationMode.POSITIVE: DEEP or 25, GenerationMode.NEGATIVE: DEEP or 15}
MAX_TEST_GAMES = 20  # simulations started by generated requests stay short
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]

def _operations() -> list[tuple[str, str, GenerationMode]]:
    """Every operation with valid data; those with parameters or a body also with invalid data."""
    out = []
    for path, item in document()["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            out.append((path, method.upper(), GenerationMode.POSITIVE))
            if item.get("parameters") or op.get("parameters") or op.get("requestBody"):
                out.append((path, method.upper(), GenerationMode.NEGATIVE))
    return out


OPERATIONS = _operations()
STATUSES: dict = {}


@pytest.fixture
def world(app):
    with database.connection_context():
        # Accounts made directly (no password hashing: the requests use a token, never a log-in).
        models.User.create(username="curator", password_hash="-", is_curator=True)
        alice = models.User.create(username="alice", password_hash="-")
        bob = models.User.create(username="bob", password_hash="-")
        _, token = api_tokens.create(alice, "schemathesis")
        small = Deck("kaijudo", {"Deck": {"argus-vigilant-seer": 4}})
        own = create_deck(alice.id, "kaijudo", "standard", "Private", deck=small)
        own_public = create_deck(alice.id, "huntik", "limited", "Public", packs=2)
        models.Deck.update(is_public=True).where(models.Deck.id == own_public.row.id).execute()
        others = create_deck(bob.id, "neopets-tcg", None, "Bob's public")
        models.Deck.update(is_public=True).where(models.Deck.id == others.row.id).execute()
        hidden = create_deck(bob.id, "kaijudo", "standard", "Bob's private", deck=small)
        printing = models.Printing.select().first()
        models.OwnedCard.create(owner=alice.id, printing=printing, quantity=2)
        run = models.SimulationRun.create(deck=own.row, version=1, owner=alice.id, game="kaijudo", games=10, seed=1,
                                          status="done", done=10, result={"wins": 0}, stuck=[])
        bob_run = models.SimulationRun.create(deck=hidden.row, version=1, owner=bob.id, game="kaijudo", games=10,
                                              seed=1, status="failed", error="x")
        printings = [p.id for p in models.Printing.select(models.Printing.id).order_by(models.Printing.id).limit(20)]
    ids = {
        "deck_id": [own.row.id, own_public.row.id, others.row.id, hidden.row.id],
        "run_id": [run.id, bob_run.id],
        "number": [1, 2],
        "slug": ["kaijudo"],
        "key": ["argus-vigilant-seer", "no-such-card"],
    }
    return {"token": token, "ids": ids, "printings": printings}


# A request that breaks the document's rules must be refused: 413 (too large) counts as refused too.
CONFIG = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {
    "expected-statuses": [400, 401, 403, 404, 405, 413, 415, 422]}}})


@pytest.fixture
def schema(app, world):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=CONFIG)


def _valid_id(value) -> bool:
    return type(value) is int and 1 <= value <= 2**31 - 1


def _use_real_rows(case, data, world, positive: bool) -> None:
    """Half the time, a valid id (path or body) becomes one of the world's rows, and a deck update
    keeps to the fields any deck accepts; values a negative case made invalid are left alone."""
    for name, choices in world["ids"].items():
        value = (case.path_parameters or {}).get(name)
        if (_valid_id(value) or name in ("slug", "key")) and value is not None \
                and data.draw(st.booleans(), label=f"real {name}"):
            case.path_parameters[name] = data.draw(st.sampled_from(choices), label=name)
    body = case.body
    if isinstance(body, dict) and isinstance(body.get("changes"), list):
        for change in body["changes"]:
            if isinstance(change, dict) and _valid_id(change.get("printing")) and data.draw(st.booleans()):
                change["printing"] = data.draw(st.sampled_from(world["printings"]), label="printing")
    if positive and case.operation.method.upper() == "PATCH" and isinstance(body, dict) and data.draw(st.booleans()):
        for key in ("game", "format", "packs", "sections", "decklist"):
            body.pop(key, None)


def _shorten(case) -> None:
    body = case.body
    if isinstance(body, dict) and isinstance(body.get("games"), int) and not isinstance(body["games"], bool):
        body["games"] = min(body["games"], MAX_TEST_GAMES)  # a 0 or negative stays as invalid as it was


@pytest.mark.parametrize("path, method, mode", OPERATIONS, ids=[f"{m} {p} {g.value}" for p, m, g in OPERATIONS])
def test_operation(schema, world, path, method, mode):
    operation = schema[path][method]
    headers = {"Authorization": f"Bearer {world['token']}"}
    checks = CHECKS + ([negative_data_rejection] if mode is GenerationMode.NEGATIVE else [])

    @settings(max_examples=EXAMPLES[mode], derandomize=not DEEP, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
    def run(case, data):
        if mode is GenerationMode.NEGATIVE:
            # The credentials are ours (below), so a case whose only fault is in its headers or
            # cookies would be sent as a valid request: leave those out.
            assume(any(case.meta.is_negative_at(loc) for loc in (Location.PATH, Location.QUERY, Location.BODY)))
        case.cookies = {}
        _use_real_rows(case, data, world, mode is GenerationMode.POSITIVE)
        if mode is GenerationMode.POSITIVE:
            _shorten(case)
        response = case.call(headers=headers)
        STATUSES.setdefault((path, method, mode.value), []).append(response.status_code)
        case.validate_response(response, checks=checks, headers=headers)

    run()


def teardown_module(module):
    for key, statuses in sorted(STATUSES.items()):
        print(key, sorted(set(statuses)), sum(200 <= s < 300 for s in statuses), "/", len(statuses))

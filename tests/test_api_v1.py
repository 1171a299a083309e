"""The public JSON API: tokens, who may do what, decks, collection, simulations, and the document.

Every refused request is also checked to have changed nothing (no partial writes).
"""
from __future__ import annotations

import re

import pytest

from deckhub.services import api_tokens, collection, simulations
from deckhub.store import models
from deckhub.services.accounts import create_user
from deckhub.store.db import database
from deckhub.web.api.openapi import document

from conftest import csrf_token

ARGUS = "argus-vigilant-seer"


class Api:
    """A test client speaking JSON with one user's token (or none)."""

    def __init__(self, client, token: str | None = None):
        self.client, self.token = client, token

    def __call__(self, method: str, url: str, json=None, **kwargs):
        headers = kwargs.pop("headers", {})
        if self.token:
            headers.setdefault("Authorization", f"Bearer {self.token}")
        return self.client.open(url, method=method, json=json, headers=headers, **kwargs)


@pytest.fixture
def users(app):
    """Three accounts: the first is the site's curator, so neither alice nor bob is one."""
    with database.connection_context():
        create_user("curator", "correct horse")
        alice, bob = create_user("alice", "correct horse"), create_user("bob", "correct horse")
        _, alice_token = api_tokens.create(alice, "tests")
        _, bob_token = api_tokens.create(bob, "tests")
    return {"alice": (alice, alice_token), "bob": (bob, bob_token)}


@pytest.fixture
def alice(app, users):
    return Api(app.test_client(), users["alice"][1])


@pytest.fixture
def bob(app, users):
    return Api(app.test_client(), users["bob"][1])


@pytest.fixture
def anon(app, users):
    return Api(app.test_client())


def _state():
    """Everything the API can write, as a value: compared before and after refused requests."""
    with database.connection_context():
        return (
            sorted(models.Deck.select(models.Deck.id, models.Deck.name, models.Deck.format, models.Deck.packs,
                                      models.Deck.is_public, models.Deck.description).tuples()),
            sorted(models.DeckVersion.select(models.DeckVersion.deck, models.DeckVersion.number).tuples()),
            sorted(models.OwnedCard.select(models.OwnedCard.owner, models.OwnedCard.printing, models.OwnedCard.quantity,
                                           models.OwnedCard.foil_quantity, models.OwnedCard.want_quantity,
                                           models.OwnedCard.trade_quantity).tuples()),
            models.SimulationRun.select().count(),
        )


def _deck(api, **body):
    body = {"name": "Test deck", "game": "kaijudo", **body}
    response = api("POST", "/api/decks", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


# --------------------------------------------------------------------------- tokens

def test_a_token_is_stored_hashed_authenticates_and_stops_when_revoked(app, users, alice):
    user, token = users["alice"]
    assert re.fullmatch(r"dh_[A-Za-z0-9_-]{43}", token)
    with database.connection_context():
        row = models.ApiToken.get(models.ApiToken.user == user.id)
        assert row.token_hash == api_tokens.hash_token(token) and token not in (row.token_hash, row.prefix)
        assert token.startswith(row.prefix) and row.last_used_at is None
    me = alice("GET", "/api/me")
    assert me.status_code == 200 and me.get_json() == {"username": "alice", "is_curator": False, "auth": "token"}
    with database.connection_context():
        assert models.ApiToken.get_by_id(row.id).last_used_at is not None
        assert api_tokens.revoke(users["bob"][0], row.id) is None  # not bob's to revoke
        assert api_tokens.revoke(user, row.id).revoked_at is not None
        assert api_tokens.revoke(user, row.id) is None  # already revoked
    refused = alice("GET", "/api/me")
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"].startswith("Bearer")
    assert refused.get_json()["status"] == 401


def test_a_bad_authorization_header_is_refused_on_every_api_path(anon):
    for header in ("Bearer dh_nope", "Bearer ", "Basic YWxpY2U6eA==", "Bearer dh_" + "x" * 5000, "dh_x", "Bearer\tx"):
        for method, url in (("GET", "/api/me"), ("GET", "/api/games"), ("POST", "/api/check")):
            response = anon(method, url, {"game": "kaijudo", "decklist": ""}, headers={"Authorization": header})
            assert response.status_code == 401 and response.mimetype == "application/json", (url, header[:20])


def test_api_tokens_do_not_open_the_html_pages(app, users, alice):
    """Tokens are for /api/ only: a page needs the session."""
    response = alice.client.get("/decks/", headers={"Authorization": f"Bearer {users['alice'][1]}"})
    assert response.status_code == 302 and "/login" in response.location


def test_token_limit(app, users):
    with database.connection_context():
        user = users["bob"][0]
        for i in range(api_tokens.MAX_ACTIVE - 1):
            api_tokens.create(user, f"t{i}")
        with pytest.raises(api_tokens.TokenError):
            api_tokens.create(user, "one too many")
        with pytest.raises(api_tokens.TokenError):
            api_tokens.create(user, "   ")


# --------------------------------------------------------------------------- the account page

def test_account_page_creates_a_token_shown_once_lists_and_revokes(app, client, auth):
    assert client.get("/account/").status_code == 302  # signed-in only
    auth.signup("alice")
    page = client.get("/account/")
    assert page.status_code == 200 and "You have no API tokens" in page.get_data(as_text=True)
    assert 'href="/account/"' in page.get_data(as_text=True)  # the header links to it
    created = client.post("/account/tokens", data={"name": "sync script"})
    html = created.get_data(as_text=True)
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"
    token = re.search(r'id="new-token"[^>]*value="(dh_[^"]+)"', html).group(1)
    assert app.test_client().get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    listing = client.get("/account/").get_data(as_text=True)
    assert "sync script" in listing and token[:10] in listing and token not in listing  # shown once only
    with database.connection_context():
        token_id = models.ApiToken.get().id
    other = app.test_client()
    other.post("/signup", data={"username": "bob", "password": "correct horse", "confirm": "correct horse"})
    assert other.post(f"/account/tokens/{token_id}/revoke").status_code == 404  # not bob's
    assert app.test_client().get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    revoked = client.post(f"/account/tokens/{token_id}/revoke", follow_redirects=True)
    assert "revoked" in revoked.get_data(as_text=True)
    assert app.test_client().get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert client.post("/account/tokens", data={"name": ""}).status_code == 400


def test_account_forms_need_the_csrf_token(csrf_app):
    client = csrf_app.test_client()
    page = client.get("/signup").get_data(as_text=True)
    client.post("/signup", data={"username": "alice", "password": "correct horse", "confirm": "correct horse",
                                 "csrf_token": csrf_token(page)})
    assert client.post("/account/tokens", data={"name": "x"}).status_code == 400
    page = client.get("/account/").get_data(as_text=True)
    ok = client.post("/account/tokens", data={"name": "x", "csrf_token": csrf_token(page)})
    assert ok.status_code == 201


# --------------------------------------------------------------------------- sessions and CSRF

def test_session_writes_need_the_csrf_header_token_writes_do_not(csrf_app):
    client = csrf_app.test_client()
    page = client.get("/signup").get_data(as_text=True)
    client.post("/signup", data={"username": "alice", "password": "correct horse", "confirm": "correct horse",
                                 "csrf_token": csrf_token(page)})
    assert client.get("/api/me").get_json()["auth"] == "session"
    body = {"name": "Session deck", "game": "kaijudo"}
    refused = client.post("/api/decks", json=body)
    assert refused.status_code == 400 and "X-CSRFToken" in refused.get_json()["error"]
    assert client.post("/api/decks", json=body, headers={"X-CSRFToken": "forged"}).status_code == 400
    with database.connection_context():
        assert models.Deck.select().count() == 0
    token = csrf_token(client.get("/account/").get_data(as_text=True))
    assert client.post("/api/decks", json=body, headers={"X-CSRFToken": token}).status_code == 201
    with database.connection_context():
        _, api_token = api_tokens.create(models.User.get(username="alice"), "script")
    fresh = csrf_app.test_client()  # no cookie, no CSRF token: the bearer token alone
    created = fresh.post("/api/decks", json=body, headers={"Authorization": f"Bearer {api_token}"})
    assert created.status_code == 201 and "Set-Cookie" not in created.headers  # a token opens no session
    assert fresh.get("/api/me").status_code == 401
    assert fresh.post("/api/check", json={"game": "kaijudo", "decklist": "1 Argus, Vigilant Seer"}).status_code == 200


# --------------------------------------------------------------------------- decks

def test_deck_lifecycle_keeps_versions(alice):
    deck = _deck(alice, sections={"deck": [{"card": ARGUS, "qty": 3}]}, description="notes")
    assert deck["sections"] == {"Deck": [{"card": ARGUS, "qty": 3}]} and deck["version"] == 1
    assert deck["format"] == "standard" and deck["packs"] is None and deck["is_public"] is False
    deck_id = deck["id"]
    renamed = alice("PATCH", f"/api/decks/{deck_id}", {"name": "Renamed", "is_public": True}).get_json()
    assert renamed["name"] == "Renamed" and renamed["is_public"] and renamed["version"] == 1
    assert renamed["description"] == "notes" and renamed["sections"] == deck["sections"]
    changed = alice("PATCH", f"/api/decks/{deck_id}", {"decklist": "4 Argus, Vigilant Seer", "version": 1}).get_json()
    assert changed["version"] == 2 and changed["sections"] == {"Deck": [{"card": ARGUS, "qty": 4}]}
    same = alice("PATCH", f"/api/decks/{deck_id}", {"sections": {"Deck": [{"card": ARGUS, "qty": 4}]},
                                                    "version": 2}).get_json()
    assert same["version"] == 2  # nothing changed, no new version
    versions = alice("GET", f"/api/decks/{deck_id}/versions").get_json()["versions"]
    assert [(v["number"], v["cards"]) for v in versions] == [(2, 4), (1, 3)]
    first = alice("GET", f"/api/decks/{deck_id}/versions/1").get_json()
    assert first["sections"] == {"Deck": [{"card": ARGUS, "qty": 3}]}
    assert alice("GET", f"/api/decks/{deck_id}/versions/3").status_code == 404
    report = alice("GET", f"/api/decks/{deck_id}/check").get_json()
    assert report["legal"] is False and report["counts"] == {"Deck": 4}
    listing = alice("GET", "/api/decks").get_json()["decks"]
    assert [(d["id"], d["version"], d["owner"]) for d in listing] == [(deck_id, 2, "alice")]
    assert "sections" not in listing[0]
    assert alice("DELETE", f"/api/decks/{deck_id}").status_code == 204
    assert alice("GET", f"/api/decks/{deck_id}").status_code == 404
    assert alice("GET", "/api/decks").get_json() == {"decks": []}


def test_limited_formats_need_packs(alice):
    deck = _deck(alice, game="huntik", format="limited", packs=3)
    assert (deck["format"], deck["packs"]) == ("limited", 3)
    assert alice("POST", "/api/decks", {"name": "x", "game": "huntik", "format": "limited"}).status_code == 400
    assert alice("POST", "/api/decks", {"name": "x", "game": "kaijudo", "packs": 2}).status_code == 400
    constructed = alice("PATCH", f"/api/decks/{deck['id']}", {"format": None}).get_json()
    assert constructed["packs"] is None and constructed["format"] != "limited"


def test_who_may_read_and_write_a_deck(alice, bob, anon):
    private = _deck(alice)["id"]
    public = _deck(alice, is_public=True)["id"]
    before = _state()
    for api in (bob, anon):
        assert api("GET", f"/api/decks/{private}").status_code == 404
        assert api("GET", f"/api/decks/{private}/versions").status_code == 404
        assert api("GET", f"/api/decks/{private}/check").status_code == 404
        assert api("GET", f"/api/decks/{public}").get_json()["owner"] == "alice"
        assert api("GET", f"/api/decks/{public}/versions/1").status_code == 200
    assert anon("GET", "/api/decks").status_code == 401
    assert bob("GET", "/api/decks").get_json() == {"decks": []}
    for method, body in (("PATCH", {"name": "mine now"}), ("DELETE", None)):
        assert bob(method, f"/api/decks/{public}", body).status_code == 403
        assert bob(method, f"/api/decks/{private}", body).status_code == 404
        assert anon(method, f"/api/decks/{public}", body).status_code == 401
        assert anon(method, f"/api/decks/{private}", body).status_code == 401
    assert bob("POST", f"/api/decks/{public}/simulations", {"games": 1}).status_code == 403
    assert bob("GET", f"/api/decks/{private}/simulations").status_code == 404
    assert anon("POST", "/api/decks", {"name": "x", "game": "kaijudo"}).status_code == 401
    assert _state() == before


VALID_PATCH = None  # the body is a valid partial update (PATCH is not tried)
BAD_DECK_BODIES = [  # (body, status for POST /api/decks, status for PATCH /api/decks/<id>)
    ({}, 400, VALID_PATCH), ([], 400, 400), ("text", 400, 400), ({"name": "x"}, 400, VALID_PATCH),
    ({"game": "kaijudo"}, 400, VALID_PATCH), ({"game": "huntik"}, 400, 400),
    ({"name": "  ", "game": "kaijudo"}, 400, 400), ({"name": 5, "game": "kaijudo"}, 400, 400),
    ({"name": "x" * 121, "game": "kaijudo"}, 400, 400), ({"name": "x", "game": "chess"}, 400, 400),
    ({"name": "x", "game": ["kaijudo"]}, 400, 400), ({"name": "x", "game": "kaijudo", "format": "vintage"}, 400, 400),
    ({"name": "x", "game": "kaijudo", "format": 3}, 400, 400),
    ({"name": "x", "game": "kaijudo", "is_public": "yes"}, 400, 400),
    ({"name": "x", "game": "kaijudo", "packs": True}, 400, 400),
    ({"name": "x", "game": "kaijudo", "owner": "bob"}, 400, 400),
    ({"name": "x", "game": "kaijudo", "description": None}, 400, 400),
    ({"name": "x", "game": "kaijudo", "description": "x" * 5001}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": []}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": {"Sideboard": []}}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": {"Deck": {"card": ARGUS}}}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": {"Deck": [{"card": ARGUS, "qty": 0}]}}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": {"Deck": [{"card": ARGUS, "qty": 1000}]}}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": {"Deck": [{"card": ARGUS, "qty": 2.5}]}}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": {"Deck": [{"card": ARGUS, "qty": 600}, {"card": ARGUS, "qty": 600}]}}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": {"Deck": [{"card": ARGUS, "qty": 1, "foil": True}]}}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": {"Deck": [{"card": 12}]}}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": {"Deck": [{"card": ARGUS}, {"card": "no-such-card"}]}}, 400, 400),
    ({"name": "x", "game": "kaijudo", "sections": {"Deck": [{"card": f"c{i}", "qty": 1} for i in range(1001)]}}, 400, 400),
    ({"name": "x", "game": "kaijudo", "decklist": "4 Argus, Vigilant Seer\n2 No Such Card"}, 400, 400),
    ({"name": "x", "game": "kaijudo", "decklist": "x" * 200_001}, 413, 413),
    ({"name": "x", "game": "kaijudo", "decklist": "1 Argus, Vigilant Seer", "sections": {}}, 400, 400),
]


def test_bad_deck_bodies_are_clear_4xx_and_write_nothing(alice):
    deck_id = _deck(alice, sections={"Deck": [{"card": ARGUS, "qty": 2}]})["id"]
    before = _state()
    for i, (body, post_status, patch_status) in enumerate(BAD_DECK_BODIES):
        for method, url, status in (("POST", "/api/decks", post_status), ("PATCH", f"/api/decks/{deck_id}", patch_status)):
            if status is VALID_PATCH:
                continue
            response = alice(method, url, body)
            assert response.status_code == status, (i, method, response.get_json())
            assert response.mimetype == "application/json" and response.get_json()["status"] == status
    assert _state() == before


def test_unknown_cards_are_named(alice):
    body = alice("POST", "/api/decks", {"name": "x", "game": "kaijudo",
                                        "sections": {"Deck": [{"card": "no-such-card", "qty": 1}]}}).get_json()
    assert body["unknown_cards"] == ["no-such-card"] and "no-such-card" in body["error"]
    lines = alice("POST", "/api/decks", {"name": "x", "game": "kaijudo", "decklist": "1 Argus, Vigilant Seer\n2 Nope"})
    assert lines.get_json()["errors"][0]["line"] == 2


UNREADABLE = [b"", b"   ", b"{", b"\xff\xfe\x00", b"[" * 100_000, b"null", b"123", b'"text"', b"[]",
              b'{"name": "x", "game": "kaijudo", ' + b'"a": [' * 50_000 + b"]" * 50_000 + b"}"]


def test_unreadable_bodies_are_400_on_every_write(alice):
    deck_id = _deck(alice)["id"]
    before = _state()
    for raw in UNREADABLE:
        for method, url in (("POST", "/api/decks"), ("PATCH", f"/api/decks/{deck_id}"),
                            ("POST", "/api/collection/changes"), ("POST", f"/api/decks/{deck_id}/simulations"),
                            ("POST", "/api/check")):
            for content_type in ("application/json", "text/plain"):
                response = alice(method, url, data=raw, content_type=content_type)
                assert response.status_code == 400 and response.get_json()["status"] == 400, (url, raw[:10])
    assert _state() == before


def test_huge_bodies_are_413(alice):
    response = alice("POST", "/api/decks", data=b"x" * (1024 * 1024 + 1), content_type="application/json")
    assert response.status_code == 413 and response.get_json()["status"] == 413


# --------------------------------------------------------------------------- collection

def test_collection_changes_are_atomic_and_never_below_zero(app, alice, bob, users):
    ok = alice("POST", "/api/collection/changes", {"changes": [
        {"game": "kaijudo", "card": ARGUS, "delta": 3},
        {"game": "kaijudo", "card": ARGUS, "field": "want_quantity", "delta": 2},
    ]})
    assert ok.status_code == 200
    entry = ok.get_json()["entries"][0]
    assert (entry["card"], entry["quantity"], entry["want_quantity"]) == (ARGUS, 3, 2)
    printing = entry["printing"]
    down = alice("POST", "/api/collection/changes", {"changes": [{"printing": printing, "delta": -10}]}).get_json()
    assert down["entries"][0]["quantity"] == 0 and down["entries"][0]["want_quantity"] == 2
    listing = alice("GET", "/api/collection?game=kaijudo").get_json()
    assert listing["total"] == 1 and listing["entries"][0]["printing"] == printing
    assert alice("GET", "/api/collection?game=huntik").get_json()["total"] == 0
    assert bob("GET", "/api/collection").get_json()["entries"] == []  # each user sees their own only
    before = _state()
    for bad in (
        {"changes": [{"printing": printing, "delta": 1}, {"printing": 10**9, "delta": 1}]},  # unknown printing
        {"changes": [{"printing": printing, "delta": 1}, {"game": "kaijudo", "card": "nope", "delta": 1}]},
        {"changes": [{"printing": printing, "delta": 1}, {"printing": printing, "field": "shiny", "delta": 1}]},
        {"changes": [{"printing": printing, "delta": 1}, {"printing": printing, "delta": "1"}]},
        {"changes": [{"printing": printing, "delta": 1}, {"printing": printing, "delta": 10**7}]},
        {"changes": [{"printing": printing, "delta": 1}, {"printing": printing}]},
        {"changes": [{"printing": printing, "game": "kaijudo", "card": ARGUS, "delta": 1}]},
        {"changes": [{"printing": printing, "delta": 1, "note": "x"}]},
        {"changes": [{"printing": True, "delta": 1}]},
        {"changes": [{"delta": 1}]}, {"changes": []}, {"changes": {}}, {"changes": [1]}, {},
        {"changes": [{"printing": printing, "delta": 1}] * 1001},
    ):
        response = alice("POST", "/api/collection/changes", bad)
        assert response.status_code == 400 and response.get_json()["status"] == 400, bad
    assert _state() == before
    assert anon_status(app, "GET", "/api/collection") == 401
    assert anon_status(app, "POST", "/api/collection/changes", {"changes": [{"printing": printing, "delta": 1}]}) == 401


def anon_status(app, method, url, body=None) -> int:
    return app.test_client().open(url, method=method, json=body).status_code


def test_a_card_with_several_printings_needs_its_set_and_number(app, alice):
    with database.connection_context():
        index = collection.game_index("neopets-tcg")
    key, refs = next((k, r) for k, r in index.by_card.items() if len(r) > 1 and len({x.set_code for x in r}) > 1)
    vague = alice("POST", "/api/collection/changes", {"changes": [{"game": "neopets-tcg", "card": key, "delta": 1}]})
    assert vague.status_code == 400 and "several printings" in vague.get_json()["error"]
    chosen = alice("POST", "/api/collection/changes", {"changes": [
        {"game": "neopets-tcg", "card": key, "set": refs[1].set_code, "number": refs[1].number, "delta": 1}]})
    assert chosen.status_code == 200 and chosen.get_json()["entries"][0]["printing"] == refs[1].id


def test_collection_pages(app, alice, users):
    with database.connection_context():
        ids = [p.id for p in models.Printing.select().order_by(models.Printing.id).limit(7)]
    alice("POST", "/api/collection/changes", {"changes": [{"printing": i, "delta": 1} for i in ids]})
    first = alice("GET", "/api/collection?per_page=5").get_json()
    second = alice("GET", "/api/collection?per_page=5&page=2").get_json()
    assert first["total"] == second["total"] == 7
    assert [e["printing"] for e in first["entries"] + second["entries"]] == ids
    for bad in ("page=0", "per_page=x", "page=-1", "page=²", "game=chess"):
        assert alice("GET", f"/api/collection?{bad}").status_code == 400, bad


# --------------------------------------------------------------------------- simulations

def test_simulations_start_report_and_are_private(alice, bob, anon):
    deck_id = _deck(alice, decklist="40 Argus, Vigilant Seer")["id"]
    started = alice("POST", f"/api/decks/{deck_id}/simulations", {"games": 20, "seed": 7, "options": {"first": "second"}})
    assert started.status_code == 202, started.get_json()
    run = started.get_json()
    assert run["games"] == 20 and run["seed"] == 7 and run["version"] == 1 and run["options"]["first"] == "second"
    done = alice("GET", f"/api/simulations/{run['id']}").get_json()
    assert done["status"] == "done" and done["done"] == 20
    assert done["result"]["wins"] + sum(done["result"]["losses"].values()) == 20
    settings = done["settings"]  # what it played with, in the forms' words
    assert (settings["deck_version"], settings["games"], settings["seed"]) == (1, 20, 7)
    assert {"name": "first", "label": "Who goes first", "value": "second", "shown": "Go second"} in settings["options"]
    assert [r["id"] for r in alice("GET", f"/api/decks/{deck_id}/simulations").get_json()["simulations"]] == [run["id"]]
    assert bob("GET", f"/api/simulations/{run['id']}").status_code == 404
    assert anon("GET", f"/api/simulations/{run['id']}").status_code == 401
    before = _state()
    for bad in ({"games": 0}, {"games": 10**6}, {"games": "10"}, {"seed": -1}, {"seed": 2**31},
                {"options": {"no_such_option": 1}}, {"options": []}, {"options": {"turn_limit": "many"}},
                {"games": 10, "extra": 1}):
        response = alice("POST", f"/api/decks/{deck_id}/simulations", bad)
        assert response.status_code == 400, (bad, response.get_json())
    assert _state() == before
    assert alice("GET", "/api/simulations/999").status_code == 404


def test_running_simulations_are_capped(app, alice, users):
    deck_id = _deck(alice)["id"]
    with database.connection_context():
        deck = models.Deck.get_by_id(deck_id)
        for _ in range(3):
            models.SimulationRun.create(deck=deck, version=1, owner=users["alice"][0].id, game="kaijudo",
                                        games=10, seed=1, status="running")
    response = alice("POST", f"/api/decks/{deck_id}/simulations", {"games": 1})
    assert response.status_code == 429


# --------------------------------------------------------------------------- the document

def _flask_path(rule: str) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def test_every_api_route_is_documented_and_every_documented_path_is_a_route(app):
    routes = {(_flask_path(r.rule), m.lower()) for r in app.url_map.iter_rules() if r.rule.startswith("/api/")
              for m in r.methods - {"HEAD", "OPTIONS"}}
    documented = {(path, method) for path, item in document()["paths"].items() for method in item
                  if method != "parameters"}
    assert routes - documented == set(), "routes missing from deckhub/web/api/openapi.py"
    assert documented - routes == set(), "documented paths that are not routes"


def test_the_document_is_served_and_its_path_parameters_match(client):
    served = client.get("/api/openapi.json")
    assert served.status_code == 200 and served.get_json() == document()
    assert served.get_json()["openapi"].startswith("3.1")
    for path, item in document()["paths"].items():
        names = set(re.findall(r"{(\w+)}", path))
        for method, op in item.items():
            if method == "parameters":
                continue
            params = {p["name"] for p in item.get("parameters", []) + op.get("parameters", []) if p["in"] == "path"}
            assert params == names, (path, method)
            assert "security" in op and op["responses"], (path, method)


def test_every_documented_error_is_json(client):
    for url in ("/api/nothing", "/api/decks/0", "/api/decks/abc"):
        response = client.get(url)
        assert response.status_code in (401, 404) and response.mimetype == "application/json"


def test_concurrent_collection_changes_lose_nothing(app, users):
    """Eight clients each add 1 to the same quantity ten times at once, and take 1 from another below
    zero, naming the two in either order: every addition counts, the floor holds, nothing deadlocks."""
    import threading
    token = users["alice"][1]
    with database.connection_context():
        first, second = [p.id for p in models.Printing.select().order_by(models.Printing.id).limit(2)]
    errors: list = []

    def worker(n):
        client = app.test_client()
        for _ in range(10):
            changes = [{"printing": first, "delta": 1}, {"printing": second, "delta": -1}]
            response = client.post("/api/collection/changes", headers={"Authorization": f"Bearer {token}"},
                                   json={"changes": changes[::-1] if n % 2 else changes})  # both orders
            if response.status_code != 200:
                errors.append(response.get_data(as_text=True))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with database.connection_context():
        owned = collection.owned_for(users["alice"][0], [first, second])
    assert owned[first].quantity == 80 and owned[second].quantity == 0

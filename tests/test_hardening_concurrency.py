"""Issue 19, finding 1: real concurrent clients against a multi-worker server (gunicorn, 2 workers
of 4 threads, `deckhub serve --workers 2 --threads 4`: races between threads of one process as well
as between processes) over the backend under test.

16 browsers press the deck editor's "+" on one card 10 times each: every press answers a redirect
(never a 500) and counts, and versions are numbered 1..161 with no gap or duplicate. API clients
that all PATCH the same version: one wins, the others get a 409 and change nothing.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from load import Client, free_port, stop, wait_for  # noqa: E402

from conftest import _close_database  # noqa: E402
from deckhub.services import accounts, api_tokens  # noqa: E402
from deckhub.store import models
from deckhub.services import decks as store  # noqa: E402
from deckhub.store.db import database, init_database  # noqa: E402

ARGUS = "argus-vigilant-seer"
PASSWORD = "correct horse"
CLIENTS, PRESSES = 16, 10


@pytest.fixture
def server(databases, tmp_path):
    url = databases.with_catalogues()
    db = init_database(url)
    with db.connection_context():
        user = accounts.create_user("alice", PASSWORD)
        deck = store.create_deck(user.id, "kaijudo", "standard", "Racing").row.id
        _, token = api_tokens.create(user, "race")
    _close_database()
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "DECKHUB_SECRET_KEY": "concurrency-test-" + "x" * 32,
           "DECKHUB_INSECURE_COOKIES": "1", "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    log = open(tmp_path / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "deckhub.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--workers", "2", "--threads", "4"], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(port)
        yield {"port": port, "deck": deck, "token": token, "url": url}
    finally:
        stop([proc])
        log.close()
        init_database(url)
        _close_database()
    server_log = (tmp_path / "server.log").read_text()
    assert "Traceback" not in server_log, server_log[-3000:]


def _together(n: int, work) -> list:
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i):
        barrier.wait()
        results[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def _versions(url: str, deck_id: int) -> list[tuple[int, dict]]:
    db = init_database(url)
    with db.connection_context():
        rows = [(v.number, v.data) for v in models.DeckVersion.select().where(models.DeckVersion.deck == deck_id)
                .order_by(models.DeckVersion.number)]
    _close_database()
    return rows


def test_simultaneous_plus_presses_all_count(server):
    port, deck_id = server["port"], server["deck"]
    browsers = []
    for _ in range(CLIENTS):
        c = Client(port)
        token = c.csrf("/login")
        status, _, _ = c.request("POST", "/login", {"csrf_token": token, "username": "alice", "password": PASSWORD})
        assert status == 302
        browsers.append((c, c.csrf(f"/decks/{deck_id}/edit")))

    def press(i):
        c, token = browsers[i]
        return [c.request("POST", f"/decks/{deck_id}/cards",
                          {"csrf_token": token, "section": "Deck", "card": ARGUS, "delta": "1"})[0]
                for _ in range(PRESSES)]

    statuses = [s for result in _together(CLIENTS, press) for s in result]
    assert statuses == [302] * (CLIENTS * PRESSES), sorted(set(statuses))
    versions = _versions(server["url"], deck_id)
    assert [n for n, _ in versions] == list(range(1, CLIENTS * PRESSES + 2))
    # capped at 999 copies an entry, 160 presses stay far below: each press added exactly one
    assert versions[-1][1]["sections"]["Deck"] == [{"card": ARGUS, "qty": CLIENTS * PRESSES}]


def test_simultaneous_whole_list_patches_of_one_version_one_wins_the_rest_409(server):
    port, deck_id, token = server["port"], server["deck"], server["token"]
    auth = {"Authorization": f"Bearer {token}"}

    def patch(i):
        c = Client(port)
        status, body, _ = c.request("PATCH", f"/api/decks/{deck_id}", {
            "version": 1, "sections": {"Deck": [{"card": ARGUS, "qty": 1 + i % 3}]}}, json_body=True, headers=auth)
        return status, json.loads(body)

    results = _together(8, patch)
    codes = sorted(code for code, _ in results)
    assert codes == [200] + [409] * 7, codes
    for code, body in results:
        if code == 409:
            assert body["version"] == 2 and re.search(r"edited version 1", body["error"])
    assert [n for n, _ in _versions(server["url"], deck_id)] == [1, 2]
    c = Client(port)
    status, _, _ = c.request("PATCH", f"/api/decks/{deck_id}", {"sections": {"Deck": []}}, json_body=True, headers=auth)
    assert status == 400  # a whole list must say which version it edited


def _browser(port: int) -> Client:
    c = Client(port)
    token = c.csrf("/login")
    status, _, _ = c.request("POST", "/login", {"csrf_token": token, "username": "alice", "password": PASSWORD})
    assert status == 302
    return c


def _goldfish_game(url: str) -> int:
    """A new Kaijudo game of alice's (its first deck from the engine's own decks), at step 0."""
    from deckhub.services import goldfish
    from deckhub.core.engine import get_engine
    db = init_database(url)
    with db.connection_context():
        owner = models.User.get(models.User.username == "alice")
        _, deck = get_engine("kaijudo").decks()[0]
        row = store.create_deck(owner.id, "kaijudo", "standard", "Goldfish", deck=deck).row
        session_id = goldfish.start(owner.id, row, deck, {}, seed=11).id
    _close_database()
    return session_id


def _recorded_actions(url: str, session_id: int) -> list:
    db = init_database(url)
    with db.connection_context():
        actions = models.GoldfishSession.get_by_id(session_id).actions
    _close_database()
    return actions


DRAW = {"kind": "manual.draw"}
JSON = {"Accept": "application/json"}


def _moves(server, session_id: int, form: dict, n: int = 10) -> list[tuple[int, dict]]:
    """`n` browsers of alice's (one session, as tabs are) post `form` to the game's board at once."""
    first = _browser(server["port"])
    token = first.csrf(f"/goldfish/{session_id}")
    browsers = [first] + [Client(server["port"]) for _ in range(n - 1)]
    for tab in browsers[1:]:
        tab.cookies = dict(first.cookies)

    def move(i):
        status, body, _ = browsers[i].request("POST", f"/goldfish/{session_id}/act",
                                              {"csrf_token": token, **form}, headers=JSON)
        return status, json.loads(body)
    return _together(n, move)


def test_simultaneous_goldfish_moves_made_at_one_step_one_applies_the_rest_409(server):
    session_id = _goldfish_game(server["url"])
    results = _moves(server, session_id, {"step": "0", "action": json.dumps(DRAW)})
    codes = sorted(code for code, _ in results)
    assert codes == [200] + [409] * 9, codes
    for code, body in results:
        assert body["step"] == 1, body  # the step recorded, or the step the game moved on to
        if code == 409:
            assert "moved on" in body["error"]
    assert _recorded_actions(server["url"], session_id) == [DRAW]


def test_simultaneous_goldfish_moves_without_a_step_are_all_recorded_in_order(server):
    session_id = _goldfish_game(server["url"])
    results = _moves(server, session_id, {"action": json.dumps(DRAW)})
    assert [code for code, _ in results] == [200] * 10, results
    assert sorted(body["step"] for _, body in results) == list(range(1, 11))
    assert all(body["applied"] and body["session"] == session_id for _, body in results)
    assert _recorded_actions(server["url"], session_id) == [DRAW] * 10


ROUNDS = 30


def test_making_a_deck_private_survives_a_simultaneous_cards_patch(server):
    """Each round the deck is public; the owner makes it private (through the settings form or the API)
    while a cards PATCH lands: the deck ends private with the new cards."""
    port, deck_id, token = server["port"], server["deck"], server["token"]
    auth = {"Authorization": f"Bearer {token}"}
    browser = _browser(port)
    for round_ in range(ROUNDS):
        api = Client(port)
        status, body, _ = api.request("PATCH", f"/api/decks/{deck_id}", {"is_public": True}, json_body=True, headers=auth)
        assert status == 200, body
        version = json.loads(body)["version"]
        form_token = browser.csrf(f"/decks/{deck_id}/settings")
        cards = {"Deck": [{"card": ARGUS, "qty": 1 + round_ % 3}]}

        def make_private():
            if round_ % 2:
                return browser.request("POST", f"/decks/{deck_id}/settings",
                                       {"csrf_token": form_token, "name": "Racing", "description": "",
                                        "format": "standard"})[0]
            return Client(port).request("PATCH", f"/api/decks/{deck_id}", {"is_public": False},
                                        json_body=True, headers=auth)[0]

        def patch_cards():
            return api.request("PATCH", f"/api/decks/{deck_id}", {"version": version, "sections": cards},
                               json_body=True, headers=auth)[0]

        statuses = _together(2, lambda i: (make_private, patch_cards)[i]())
        assert statuses == [302 if round_ % 2 else 200, 200], (round_, statuses)
        status, body, _ = api.request("GET", f"/api/decks/{deck_id}", headers=auth)
        deck = json.loads(body)
        assert deck["is_public"] is False, round_
        assert deck["sections"] == cards and deck["version"] == version + 1, (round_, deck)


def test_simultaneous_saves_of_the_same_cards_keep_exact_counts(server):
    """16 API clients at once make decks of the same cards (listed in different orders), change them,
    make them public or private and delete some: no deadlock, no error, and the counts most wanted
    and the public deck list read equal the ones counted afresh from the rows."""
    from deckhub.services import tallies
    port, token = server["port"], server["token"]
    auth = {"Authorization": f"Bearer {token}"}
    db = init_database(server["url"])
    with db.connection_context():
        C = models.Card
        cards = [ARGUS, "halo-hawk", "cloudwalker-drone"] + [k for (k,) in C.select(C.key).where(
            (C.game == "kaijudo") & (C.type == "Creature") & C.key.not_in([ARGUS, "halo-hawk", "cloudwalker-drone"]))
            .order_by(C.key).limit(2).tuples()]
    _close_database()

    def work(i):
        api = Client(port)
        mine = cards[i % 5:] + cards[:i % 5]  # each client lists them in another order
        made = []
        for n in range(3):
            status, body, _ = api.request("POST", "/api/decks", {
                "game": "kaijudo", "format": "standard", "name": f"Race {i}.{n}", "is_public": n % 2 == 0,
                "sections": {"Deck": [{"card": k, "qty": 1 + n} for k in mine[n:]]}}, json_body=True, headers=auth)
            assert status == 201, body
            made.append(json.loads(body))
        first = made[0]
        status, body, _ = api.request("PATCH", f"/api/decks/{first['id']}", {
            "version": first["version"], "is_public": False,
            "sections": {"Deck": [{"card": k, "qty": 2} for k in reversed(mine[:3])]}}, json_body=True, headers=auth)
        assert status == 200, body
        return api.request("DELETE", f"/api/decks/{made[1]['id']}", headers=auth)[0]

    assert _together(CLIENTS, work) == [204] * CLIENTS
    db = init_database(server["url"])
    with db.connection_context():
        def kept():
            return ({(r.game, r.card_key): (r.decks, r.games) for r in models.CardDemand.select() if r.decks or r.games},
                    {r.game: r.decks for r in models.PublicDeckCount.select() if r.decks})
        before = kept()
        with db.atomic() as transaction:
            tallies.recount()
            fresh = kept()
            transaction.rollback()
    _close_database()
    assert before == fresh and before[1] == {"kaijudo": CLIENTS}

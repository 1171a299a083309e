"""Real games a deck played, logged on the deck page and through the API: the history with its win
rate per version (beside the simulated figures of that version) and per opponent, who may see it,
the limits, and the record moving with `export-user`."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from deckhub.services import api_tokens, backup, played_games
from deckhub.services import decks as deck_store
from deckhub.store import models
from deckhub.store.db import database

from conftest import csrf_token

ARGUS = "argus-vigilant-seer"
PASSWORD = "correct horse"


def _signup(client, name):
    client.post("/signup", data={"username": name, "password": PASSWORD, "confirm": PASSWORD})


def _deck(client, public=False) -> int:
    deck_id = int(client.post("/decks/new", data={"name": "Table deck", "game": "kaijudo", "format": ""})
                  .location.split("/")[2])
    client.post(f"/decks/{deck_id}/cards", data={"section": "Deck", "card": ARGUS, "delta": "4"})
    if public:
        client.post(f"/decks/{deck_id}/settings", data={"name": "Table deck", "format": "standard", "is_public": "y"})
    return deck_id


def _log(client, deck_id, **fields):
    data = {"played_on": "2026-11-28", "version": "1", "result": "win", "order": "first", "opponent": "", "note": ""}
    return client.post(f"/decks/{deck_id}/games", data={**data, **fields})


def _token(name: str) -> str:
    with database.connection_context():
        return api_tokens.create(models.User.get(models.User.username == name), "tests")[1]


def test_games_logged_on_the_deck_page_show_with_the_win_rate_per_version_and_opponent(app):
    client = app.test_client()
    _signup(client, "alice")
    deck_id = _deck(client)
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "Games played" in page and "No game logged yet" in page and 'name="played_on"' in page
    assert _log(client, deck_id, version="1", result="win", opponent="Fire rush").status_code == 303
    assert _log(client, deck_id, version="1", result="loss", opponent="fire rush", order="second").status_code == 303
    assert _log(client, deck_id, version="2", result="draw", opponent="Water control", note="mulliganed twice",
                order="").status_code == 303
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "Games played <small>(3)</small>" in page and "mulliganed twice" in page
    assert "Fire rush" in page and "Water control" in page and "not simulated" in page
    with database.connection_context():
        history = played_games.history(deck_store.own_deck(deck_id, models.User.get(username="alice")))
    assert [(t.label, t.games, t.wins, t.losses, t.draws) for t, _ in history.by_version] == [(2, 1, 0, 0, 1),
                                                                                            (1, 2, 1, 1, 0)]
    assert [(t.label, t.games, t.win_rate) for t in history.by_opponent] == [("fire rush", 2, 0.5),
                                                                            ("Water control", 1, 0.0)]
    # one opponent whatever the case, named as most often written (the newest spelling on a tie)
    assert [(t.label, t.games) for t in history.by_order] == [("first", 1), ("second", 1)]
    # the full history page lists every game and deletes one
    game_id = history.games[0].id
    assert client.post(f"/decks/{deck_id}/games/{game_id}/delete").status_code == 303
    assert "Games played <small>(2)</small>" in client.get(f"/decks/{deck_id}/games").get_data(as_text=True)
    assert client.post(f"/decks/{deck_id}/games/{game_id}/delete").status_code == 404


def _game_reads(client, url) -> tuple[str, int]:
    """The page, and how many statements read its deck's logged games."""
    sent, original = [], database.obj.execute_sql
    database.obj.execute_sql = lambda sql, params=None, *a, **k: sent.append(sql) or original(sql, params, *a, **k)
    try:
        page = client.get(url).get_data(as_text=True)
    finally:
        del database.obj.execute_sql
    return page, sum('FROM "played_game"' in sql and "EXISTS" not in sql for sql in sent)


def test_the_deck_page_reads_a_decks_games_only_when_it_has_any(app):
    client = app.test_client()
    _signup(client, "alice")
    deck_id = _deck(client)
    page, reads = _game_reads(client, f"/decks/{deck_id}")
    assert "No game logged yet" in page and reads == 0
    _log(client, deck_id, opponent="Fire rush")
    page, reads = _game_reads(client, f"/decks/{deck_id}")
    assert "Games played <small>(1)</small>" in page and "Fire rush" in page and reads == 1
    with database.connection_context():
        (game_id,) = [g.id for g in models.PlayedGame.select().where(models.PlayedGame.deck == deck_id)]
    client.post(f"/decks/{deck_id}/games/{game_id}/delete")
    page, reads = _game_reads(client, f"/decks/{deck_id}")
    assert "No game logged yet" in page and "Fire rush" not in page and reads == 0


@pytest.mark.parametrize("fields, message", [
    ({"result": "maybe"}, "Not a valid choice"),
    ({"version": "9"}, "versions 1 to 2"),
    ({"played_on": "2999-01-01"}, "between 1990 and today"),
    ({"played_on": "yesterday"}, "YYYY-MM-DD"),
    ({"opponent": "x" * 201}, "200 characters"),
])
def test_a_game_that_cannot_be_logged_is_refused_with_400_and_nothing_kept(app, fields, message):
    client = app.test_client()
    _signup(client, "alice")
    deck_id = _deck(client)
    response = _log(client, deck_id, **fields)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    with database.connection_context():
        assert models.PlayedGame.select().count() == 0


def test_the_simulated_figures_of_the_same_version_stand_beside_the_real_ones(app):
    client = app.test_client()
    _signup(client, "alice")
    deck_id = _deck(client)
    _log(client, deck_id, version="2", result="win")
    with database.connection_context():
        models.SimulationRun.create(deck=deck_id, version=2, owner=models.User.get(username="alice"), game="kaijudo",
                                    games=500, seed=1, status="done",
                                    result={"win_rate": 0.62, "win_turn": {"median": 7.0}})
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "62% of 500 goldfish games won, median by turn 7.0" in page
    api = client.get(f"/api/decks/{deck_id}/games").get_json()
    assert api["by_version"][0]["simulated"]["win_rate"] == 0.62


def test_the_record_is_the_owners_unless_a_public_deck_shows_it_and_notes_stay_private(app):
    owner, visitor = app.test_client(), app.test_client()
    _signup(owner, "alice")
    deck_id = _deck(owner, public=True)
    _log(owner, deck_id, opponent="Nature ramp", note="my secret read on the meta")
    for page in (visitor.get(f"/decks/{deck_id}").get_data(as_text=True),):
        assert "Nature ramp" not in page and "Games played" not in page
    assert visitor.get(f"/decks/{deck_id}/games").status_code == 404
    assert visitor.get(f"/api/decks/{deck_id}/games").status_code == 403
    owner.post(f"/decks/{deck_id}/settings", data={"name": "Table deck", "format": "standard", "is_public": "y",
                                                   "show_record": "y"})
    page = visitor.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "Nature ramp" in page and "my secret read" not in page and 'name="played_on"' not in page
    assert visitor.get(f"/decks/{deck_id}").get_data(as_text=True) == page  # a kept page for visitors...
    _log(owner, deck_id, opponent="Light control")
    assert "Light control" in visitor.get(f"/decks/{deck_id}").get_data(as_text=True)  # ...follows a new game
    shown = visitor.get(f"/api/decks/{deck_id}/games").get_json()
    assert {g["opponent"] for g in shown["games"]} == {"Nature ramp", "Light control"}
    assert all(g["note"] is None for g in shown["games"])
    # a visitor may not log or delete a game
    _signup(visitor, "bob")
    assert _log(visitor, deck_id).status_code == 404
    with database.connection_context():
        game_id = models.PlayedGame.select().first().id
    assert visitor.post(f"/decks/{deck_id}/games/{game_id}/delete").status_code == 404
    # a private deck's record is no one else's, whatever its setting
    owner.post(f"/decks/{deck_id}/settings", data={"name": "Table deck", "format": "standard", "show_record": "y"})
    assert visitor.get(f"/api/decks/{deck_id}/games").status_code == 404


def test_games_logged_through_the_api_with_the_interfaces_spellings(app):
    client = app.test_client()
    _signup(client, "alice")
    _signup(app.test_client(), "bob")
    deck_id = _deck(client)
    alice = {"Authorization": f"Bearer {_token('alice')}"}
    bob = {"Authorization": f"Bearer {_token('bob')}"}
    url = f"/api/decks/{deck_id}/games"
    made = client.post(url, headers=alice, json={"result": "win", "played_at": "2026-11-20", "version": 1,
                                                 "order": "first", "opponent": "Darkness", "note": "close one"})
    assert made.status_code == 201, made.get_json()
    assert made.get_json() | {"id": 0, "created_at": ""} == {
        "id": 0, "played_at": "2026-11-20", "version": 1, "result": "win", "order": "first", "opponent": "Darkness",
        "note": "close one", "created_at": ""}
    assert client.post(url, headers=alice, json={"result": "loss", "played_at": "2026-11-21"}).status_code == 201
    listed = client.get(url, headers=alice).get_json()
    assert [g["result"] for g in listed["games"]] == ["loss", "win"]
    assert listed["by_version"] == [{"version": 2, "games": 1, "wins": 0, "losses": 1, "draws": 0, "win_rate": 0.0,
                                     "simulated": None},
                                    {"version": 1, "games": 1, "wins": 1, "losses": 0, "draws": 0, "win_rate": 1.0,
                                     "simulated": None}]
    for body, status in [({"result": "won", "played_at": "2026-11-20"}, 400),
                         ({"result": "win"}, 400),
                         ({"result": "win", "played_at": "20 Nov"}, 400),
                         ({"result": "win", "played_at": "2026-11-20", "version": 7}, 400),
                         ({"result": "win", "played_at": "2026-11-20", "extra": 1}, 400)]:
        assert client.post(url, headers=alice, json=body).status_code == status, body
    assert client.post(url, headers=bob, json={"result": "win", "played_at": "2026-11-20"}).status_code == 404
    assert app.test_client().post(url, json={"result": "win", "played_at": "2026-11-20"}).status_code == 401
    game_id = listed["games"][0]["id"]
    assert client.delete(f"{url}/{game_id}", headers=bob).status_code == 404
    assert client.delete(f"{url}/{game_id}", headers=alice).status_code == 204
    assert len(client.get(url, headers=alice).get_json()["games"]) == 1


def test_a_deck_keeps_at_most_its_limit_of_games(app, monkeypatch):
    client = app.test_client()
    _signup(client, "alice")
    deck_id = _deck(client)
    monkeypatch.setattr(played_games, "MAX_PLAYED_GAMES", 2)
    assert _log(client, deck_id).status_code == 303 and _log(client, deck_id).status_code == 303
    response = _log(client, deck_id)
    assert response.status_code == 400 and "at most 2 games" in response.get_data(as_text=True)


def test_logged_games_and_the_show_record_setting_move_with_export_user(app):
    client = app.test_client()
    _signup(client, "alice")
    deck_id = _deck(client, public=True)
    client.post(f"/decks/{deck_id}/settings", data={"name": "Table deck", "format": "standard", "is_public": "y",
                                                    "show_record": "y"})
    _log(client, deck_id, result="draw", opponent="Light", note="time called", order="second")
    with database.connection_context():
        exported = backup.export_user("alice")
        deck = exported["decks"][0]
        assert deck["show_record"] is True
        assert [(g["result"], g["opponent"], g["note"], g["order"], g["played_on"]) for g in deck["games_played"]] == [
            ("draw", "Light", "time called", "second", "2026-11-28")]
        user, _ = backup.import_user(json.loads(json.dumps(exported)), username="alice2")
        moved = models.Deck.get(models.Deck.owner == user)
        assert moved.show_record and [(g.result, g.played_on) for g in moved.played_games] == [
            ("draw", dt.date(2026, 11, 28))]
        again = backup.export_user("alice2")
    assert again["decks"][0]["games_played"] == deck["games_played"]


def test_the_csrf_token_guards_the_log_form(csrf_app):
    client = csrf_app.test_client()
    signup = client.get("/signup").get_data(as_text=True)
    client.post("/signup", data={"username": "alice", "password": PASSWORD, "confirm": PASSWORD,
                                 "csrf_token": csrf_token(signup)})
    page = client.get("/decks/").get_data(as_text=True)
    deck_id = int(client.post("/decks/new", data={"name": "D", "game": "kaijudo", "format": "",
                                                  "csrf_token": csrf_token(page)}).location.split("/")[2])
    assert _log(client, deck_id).status_code == 400
    token = csrf_token(client.get(f"/decks/{deck_id}").get_data(as_text=True))
    assert _log(client, deck_id, csrf_token=token).status_code == 303

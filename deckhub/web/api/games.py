"""A deck's real games (`/api/decks/<id>/games`): log one, list them with the win rate per deck
version (and per opponent), delete one. The owner's alone, unless the deck is public and its owner
shows its record: then anyone reads it, without the free notes."""
from __future__ import annotations

from flask import jsonify, request
from flask_login import current_user

from deckhub.services import decks as deck_store
from deckhub.services import played_games
from deckhub.web.api.auth import own_deck
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import json_body, time
from deckhub.web.api.routes import own as bp
from deckhub.web.lookups import deck_or_404


def game_json(game, owner: bool) -> dict:
    return {"id": game.id, "played_at": game.played_on.isoformat(), "version": game.version, "result": game.result,
            "order": game.play_order, "opponent": game.opponent, "note": game.note if owner else None,
            "created_at": time(game.created_at)}


def _tally(t) -> dict:
    return {"games": t.games, "wins": t.wins, "losses": t.losses, "draws": t.draws,
            "win_rate": round(t.win_rate, 6) if t.win_rate is not None else None}


def history_json(stored: deck_store.StoredDeck, owner: bool) -> dict:
    history = played_games.history(stored)
    return {
        "games": [game_json(g, owner) for g in history.games],
        "total": _tally(history.total),
        "by_version": [{"version": t.label, **_tally(t),
                        "simulated": None if sim is None else {
                            "simulation": sim.run_id, "games": sim.games, "win_rate": sim.win_rate,
                            "median_win_turn": sim.median_turn}}
                       for t, sim in history.by_version],
        "by_opponent": [{"opponent": t.label, **_tally(t)} for t in history.by_opponent],
    }


@bp.route("/decks/<int:deck_id>/games", methods=["GET", "POST"])
def deck_games(deck_id: int):
    return log_game(deck_id) if request.method == "POST" else list_games(deck_id)


def list_games(deck_id: int):
    stored = deck_or_404(deck_id)
    if not played_games.record_visible(stored, current_user):
        fail(403, "This deck's games played are its owner's (a public deck shows them when its owner chooses).")
    return jsonify(history_json(stored, deck_store.owns(current_user, stored.row)))


def log_game(deck_id: int):
    stored = own_deck(deck_id)
    body = json_body()
    try:
        game = played_games.record(stored, body["result"], body["played_at"], body.get("version"), body.get("order"),
                                   body["opponent"], body["note"])
    except played_games.GameLogError as exc:
        fail(400, str(exc))
    response = jsonify(game_json(game, True))
    response.status_code = 201
    return response


@bp.route("/decks/<int:deck_id>/games/<int:game_id>", methods=["DELETE"])
def delete_game(deck_id: int, game_id: int):
    if not played_games.delete(own_deck(deck_id), game_id):
        fail(404, f"Deck {deck_id} has no game {game_id} logged.")
    return "", 204

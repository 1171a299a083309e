"""The read-only JSON API: shapes, search, filters, pagination, errors."""
from __future__ import annotations

import pytest

from conftest import TOY, with_toy
from deckhub.core.engine import get_engine
from deckhub.games import all_games, game_slugs, get_game, load_catalogue
from deckhub.importers.decklists import write_text


def test_games_shape_and_counts(client):
    response = client.get("/api/games")
    assert response.status_code == 200 and response.mimetype == "application/json"
    games = {g["slug"]: g for g in response.get_json()}
    assert set(games) == {g.slug for g in all_games()}
    for g in games.values():
        assert set(g) == {"slug", "name", "cards", "printings", "sets"}
        assert g["name"] == get_game(g["slug"]).name
        for s in g["sets"]:
            assert set(s) == {"code", "name", "size", "known"}
    assert (games["kaijudo"]["cards"], games["kaijudo"]["printings"]) == (1136, 1293)
    assert (games["huntik"]["cards"], games["huntik"]["printings"]) == (184, 184)
    assert games["neopets-tcg"]["printings"] == 1410
    meridell = next(s for s in games["neopets-tcg"]["sets"] if s["code"] == "battle-for-meridell")
    assert meridell == {"code": "battle-for-meridell", "name": "Battle for Meridell", "size": 140, "known": 140}


def test_cards_search_shape(client):
    body = client.get("/api/cards?game=kaijudo&q=argus+vigilant").get_json()
    assert body["total"] == 1 and set(body) == {"cards", "total"}
    card = body["cards"][0]
    assert card == {
        "id": "argus-vigilant-seer", "name": "Argus, Vigilant Seer", "version": None, "type": "Creature",
        "level": 4, "civilizations": ["Light"], "race": ["Battle Sphere"], "power": "2500", "power_value": 2500,
        "text": "Surveillance Drones — Whenever this creature wins a battle, you may draw a card.",
        "printings": [{"set": "rise-of-the-duel-masters", "number": "1", "rarity": "Common", "promo_code": None}],
    }


@pytest.mark.parametrize("slug", with_toy(game_slugs()))
def test_every_game_gives_its_fields_flattened_with_null_for_unknown(client, request, slug):
    if slug == TOY:
        request.getfixturevalue("toy_site")
    game = get_game(slug)
    body = client.get(f"/api/cards?game={game.slug}&per_page=100").get_json()
    assert body["total"] > 0 and len(body["cards"]) == min(100, body["total"])
    for card in body["cards"]:
        for key in ("id", "name", "version", "type", "text", "printings", *(f.key for f in game.fields)):
            assert key in card, key
        for p in card["printings"]:
            assert set(p) == {"set", "number", "rarity", "promo_code"}


@pytest.mark.parametrize("slug", with_toy(game_slugs()))
def test_every_game_checks_a_deck_through_the_api_as_on_the_command_line(client, request, slug):
    """POST /api/check of a deck each game's engine plays answers what `deckhub check --json` does."""
    from deckhub.services.checks import check_text

    if slug == TOY:
        request.getfixturevalue("toy_site")
    _name, deck = get_engine(slug).decks()[0]
    text = write_text(deck, load_catalogue(slug))
    response = client.post("/api/check", json={"game": slug, "decklist": text})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert body == check_text(slug, text, catalogue=load_catalogue(slug))
    assert body["errors"] == [] and body["format"] == get_game(slug).format().id
    assert body["counts"] == {s.name: deck.count(s.name) for s in get_game(slug).sections}


def test_huntik_version_and_one_card(client):
    body = client.get("/api/cards?game=huntik&q=dante+vale").get_json()
    dante = next(c for c in body["cards"] if c["id"] == "dante-vale-private-investigator")
    assert dante["version"] == "Private Investigator" and dante["atk"] == 5 and dante["def"] == 4
    one = client.get("/api/cards/huntik/dante-vale-private-investigator").get_json()
    assert one["display_name"] == "Dante Vale, Private Investigator" and one["game"] == "huntik"
    assert {"aliases", "sources", "provenance"} <= set(one)


def test_filters_and_pagination(client):
    body = client.get("/api/cards?game=kaijudo&type=Spell&civilizations=Fire&per_page=10").get_json()
    assert body["total"] > 10 and len(body["cards"]) == 10
    assert all(c["type"] == "Spell" and "Fire" in c["civilizations"] for c in body["cards"])
    page2 = client.get("/api/cards?game=kaijudo&type=Spell&civilizations=Fire&per_page=10&page=2").get_json()
    assert {c["id"] for c in page2["cards"]}.isdisjoint(c["id"] for c in body["cards"])
    past = client.get("/api/cards?game=kaijudo&type=Spell&page=999").get_json()
    assert past["cards"] == [] and past["total"] == 191
    ranged = client.get("/api/cards?game=kaijudo&level_min=8&level_max=9&per_page=100").get_json()
    assert ranged["cards"] and all(8 <= c["level"] <= 9 for c in ranged["cards"])
    exact = client.get("/api/cards?game=huntik&atk=6").get_json()
    assert exact["total"] == 7 and all(c["atk"] == 6 for c in exact["cards"])
    assert client.get("/api/cards?game=kaijudo&per_page=5000").get_json()["cards"].__len__() == 100


@pytest.mark.parametrize("url, status", [
    ("/api/cards?game=nope", 404), ("/api/cards", 400), ("/api/cards/nope/x", 404),
    ("/api/cards/kaijudo/no-such-card", 404), ("/api/cards?game=kaijudo&level=abc", 400),
    ("/api/cards?game=kaijudo&set=nope", 400), ("/api/cards?game=kaijudo&page=zero", 400),
    ("/api/nothing-here", 404),
])
def test_errors_are_json(client, url, status):
    response = client.get(url)
    assert response.status_code == status
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert body["status"] == status and body["error"]

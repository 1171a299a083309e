"""The statistics tab: odds for groups of cards, a sample hand, background simulations and their results."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckhub.core.engine import engines, get_engine
from deckhub.core.legality import check_deck
from deckhub.games import get_game, load_catalogue
from deckhub.services.decks import create_deck
from deckhub.store import models
from deckhub.store.db import database


BULL_RUSH = (Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks" / "[2ED]Bull_Rush.o8d").read_text(encoding="utf-8-sig")


@pytest.fixture
def deck_id(auth, client):
    auth.signup("alice")
    response = client.post("/decks/import", data={"name": "Bull Rush", "game": "kaijudo", "format": "", "decklist": BULL_RUSH})
    return int(response.location.rsplit("/", 1)[1])


def test_odds_table_and_sample_hand(client, deck_id):
    page = client.get(f"/decks/{deck_id}/stats/?group=type|Spell&k=1&order=second").get_data(as_text=True)
    assert "Type: Spell: 9 of 40 cards; at least 1" in page
    rows = re.findall(r"<tr><td>(opening hand|by turn \d)</td><td>(\d+)</td><td>([\d.]+)%</td></tr>", page)
    assert rows[0][:2] == ("opening hand", "5") and rows[1][:2] == ("by turn 1", "6")  # going second draws on turn 1
    both = client.get(f"/decks/{deck_id}/stats/?group=type|Spell&k=1&group2=type|Creature&k2=2").get_data(as_text=True)
    assert "Exact chance" in both and "2,000 shuffles, seed 0" in both
    sample = client.get(f"/decks/{deck_id}/stats/?sample=1").get_data(as_text=True)
    assert len(re.findall(r"<li>", sample.split('aria-label="Sample hand"')[1].split("</ol>")[0])) == 5
    weird = client.get(f"/decks/{deck_id}/stats/?group=nonsense|x&k=abc&hand=9999")
    assert weird.status_code == 200


def test_a_simulation_with_a_random_turn_order_is_split_first_and_second(client, deck_id):
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert 'name="opt_first" value="random"' in page and 'name="mulligan_policy"' not in page  # Kaijudo has no mulligan
    client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "120", "seed": "3", "opt_first": "random"})
    status = client.get(f"/decks/{deck_id}/stats/simulations/1.json").get_json()
    sides = status["result"]["by_turn_order"]
    assert sides["first"]["games"] + sides["second"]["games"] == 120 and min(s["games"] for s in sides.values()) > 30
    assert [o["shown"] for o in status["settings"]["options"] if o["name"] == "first"] == ["Random"]
    split = client.get(f"/decks/{deck_id}/stats/simulations/1/histogram.svg?split=order").data
    assert b"going first" in split and b"going second" in split and b"120 games, seed 3" in split
    refused = client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "50", "mulligan_policy": "keep"},
                          follow_redirects=True)
    assert "offer no mulligan" in refused.get_data(as_text=True)


def test_a_simulation_runs_in_the_background_and_is_kept_with_its_deck_version(client, deck_id):
    response = client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "200", "seed": "4", "opt_first": "on"})
    assert response.status_code == 302
    status = client.get(f"/decks/{deck_id}/stats/simulations/1.json").get_json()
    assert status["status"] == "done" and status["done"] == 200
    assert status["result"]["wins"] + sum(status["result"]["losses"].values()) == 200
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert "Run #1 (deck version 1, seed 4)" in page and "Most often left in hand" in page
    assert status["result"]["by_turn_order"]["first"]["games"] == 200 and status["result"]["card_impact"]
    assert "Going first" in page and "Card impact observed in these games" in page
    svg = client.get(f"/decks/{deck_id}/stats/simulations/1/histogram.svg")
    assert svg.status_code == 200 and b"<script" not in svg.data
    client.post(f"/decks/{deck_id}/cards", data={"section": "Deck", "card": "argus-vigilant-seer", "delta": "1"})
    client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "200", "seed": "4", "opt_first": "on"})
    page = client.get(f"/decks/{deck_id}/stats/?compare=1").get_data(as_text=True)
    assert "Run #2 (deck version 2, seed 4)" in page and "Run #1 (deck version 1, seed 4)" in page


@pytest.mark.parametrize("form", [{"games": "0"}, {"games": "1000000"}, {"games": "many"}, {"seed": "x"},
                                  {"games": "10", "opt_turn_limit": "-3"}])
def test_bad_simulation_requests_are_explained(client, deck_id, form):
    response = client.post(f"/decks/{deck_id}/stats/simulations", data=form, follow_redirects=True)
    assert response.status_code == 200 and 'class="flash error"' in response.get_data(as_text=True)
    assert "<tr id=\"run-" not in response.get_data(as_text=True)


def test_simulations_are_the_owners_alone(app, client, deck_id):
    other = app.test_client()
    other.post("/signup", data={"username": "bob", "password": "correct horse", "confirm": "correct horse"})
    assert other.get(f"/decks/{deck_id}/stats/").status_code == 404
    assert other.post(f"/decks/{deck_id}/stats/simulations", data={"games": "10"}).status_code == 404
    client.post(f"/decks/{deck_id}/settings", data={"name": "Bull Rush", "format": "standard", "is_public": "y"})
    page = other.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert "Only the deck's owner runs simulations" in page
    assert other.get(f"/decks/{deck_id}/stats/simulations/1.json").status_code == 404


def test_two_decks_compared_side_by_side_on_the_same_seed(client, deck_id):
    other = (Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks" / "[3RIS]Rocket_Storm.o8d").read_text(encoding="utf-8-sig")
    other_id = int(client.post("/decks/import", data={"name": "Rocket Storm", "game": "kaijudo", "format": "",
                                                      "decklist": other}).location.rsplit("/", 1)[1])
    client.post(f"/decks/{other_id}/stats/simulations", data={"games": "150", "seed": "21", "opt_first": "on"})
    client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "150", "seed": "21", "opt_first": "on"})
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert "Compare run #2 with a run of another deck" in page and "Rocket Storm" in page
    page = client.get(f"/decks/{deck_id}/stats/?compare=1").get_data(as_text=True)
    assert "Run #2 (deck version 1, seed 21)" in page and "Run #1 of “Rocket Storm” (deck version 1, seed 21)" in page
    assert "different seeds" not in page


def test_a_run_shows_the_settings_it_used_in_the_forms_words_and_in_its_json(client, deck_id):
    client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "30", "seed": "7", "opt_turn_limit": "12"})
    status = client.get(f"/decks/{deck_id}/stats/simulations/1.json").get_json()
    assert {"id", "status", "done", "games", "result", "unknown"} <= set(status)  # the keys scripts read stay
    settings = status["settings"]
    assert (settings["deck_version"], settings["games"], settings["seed"]) == (1, 30, 7)
    options = {o["name"]: o for o in settings["options"]}
    assert options["first"]["value"] == "random" and options["first"]["shown"] == "Random"  # none chosen: the rules' draw
    assert options["first"]["label"] == "Who goes first"
    assert options["turn_limit"] == {"name": "turn_limit", "label": "Turn limit", "value": 12, "shown": "12"}
    assert settings["card_values"] == []
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    panel = page.split('id="results"')[1]
    assert "<dt>Who goes first</dt><dd>Random</dd>" in panel
    assert "<dt>Turn limit</dt><dd>12</dd>" in panel and "<dt>Seed</dt><dd>7</dd>" in panel
    assert "<dt>Deck version</dt><dd>1</dd>" in panel and "<dt>Games</dt><dd>30</dd>" in panel
    assert "<summary>Settings of #1</summary>" in page  # each run of the table too
    for internal in ("True", "False", "turn_limit", "first:", "card_values", "{'"):
        assert internal not in panel.split("</dl>")[0], internal


def test_two_decks_compared_on_the_same_shuffles(app, client, deck_id):
    """A comparison is a job: started by a form, shown with its progress (the page refreshes itself
    without JavaScript while it runs), cancelled, and counted among the user's runs at once."""
    rocket = (Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks" / "[3RIS]Rocket_Storm.o8d").read_bytes()
    other = client.post("/decks/import", data={"name": "Rocket Storm", "game": "kaijudo", "format": "",
                                               "decklist": rocket.decode("utf-8")})
    other_id = int(other.location.rsplit("/", 1)[1])
    page = client.get(f"/decks/{deck_id}/stats/compare").get_data(as_text=True)
    assert f'<option value="{other_id}"' in page and "Rocket Storm" in page
    started = client.post(f"/decks/{deck_id}/stats/comparisons", data={"other": str(deck_id), "games": "40", "seed": "2"})
    assert started.status_code == 303 and "#comparison-" in started.location
    itself = client.get(f"/decks/{deck_id}/stats/compare").get_data(as_text=True)
    assert "B − A: +0.000" in itself and "The two lists are the same." in itself
    client.post(f"/decks/{deck_id}/stats/comparisons", data={"other": str(other_id), "games": "60", "seed": "2"})
    both = client.get(f"/decks/{deck_id}/stats/compare").get_data(as_text=True)
    assert "Bull Rush (A) and Rocket Storm (B)" in both and "Cards that differ" in both and "in B" in both
    run_id = int(re.findall(r'id="comparison-(\d+)"', both)[0])
    status = client.get(f"/decks/{deck_id}/stats/comparisons/{run_id}.json").get_json()
    assert status["status"] == "done" and status["done"] == status["games"] == 120
    assert {"a", "b", "delta", "ci", "games"} <= set(status["result"]) and status["result"]["games"] == 60
    too_many = client.post(f"/decks/{deck_id}/stats/comparisons", data={"other": str(other_id), "games": "1000000"},
                           follow_redirects=True).get_data(as_text=True)
    assert "plays 2 to 100,000 games" in too_many
    stranger = app.test_client()
    stranger.post("/signup", data={"username": "eve", "password": "correct horse", "confirm": "correct horse"})
    assert stranger.get(f"/decks/{deck_id}/stats/compare").status_code == 404  # a private deck stays private
    assert stranger.get(f"/decks/{deck_id}/stats/comparisons/{run_id}.json").status_code == 404
    mine = stranger.post("/decks/import", data={"name": "Eve's", "game": "kaijudo", "format": "", "decklist": BULL_RUSH})
    eve_id = int(mine.location.rsplit("/", 1)[1])
    hidden = stranger.post(f"/decks/{eve_id}/stats/comparisons", data={"other": str(deck_id), "games": "20"},
                           follow_redirects=True).get_data(as_text=True)
    assert "nor a public deck" in hidden and "Bull Rush (A)" not in hidden


def test_two_mulligan_policies_side_by_side_with_the_turn_order_split(auth, client):
    """A Huntik deck (its rules offer a mulligan) simulated under two policies on one seed: the page
    compares the runs side by side, each naming its policy and how many hands it sent back."""
    auth.signup("hana")
    huntik = (Path(__file__).resolve().parents[1] / "data" / "huntik" / "decks" / "evil-organization.txt").read_text()
    deck_id = int(client.post("/decks/import", data={"name": "Organization", "game": "huntik", "format": "",
                                                    "decklist": huntik}).location.rsplit("/", 1)[1])
    assert 'name="mulligan_policy"' in client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    for policy in ("keep", "fewer:2:type=minor hero"):
        client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "80", "seed": "9", "mulligan_policy": policy})
    second = client.get(f"/decks/{deck_id}/stats/simulations/2.json").get_json()
    assert second["status"] == "done" and 0 < second["result"]["mulligans"] < 80
    assert sum(side["games"] for side in second["result"]["by_turn_order"].values()) == 80
    page = client.get(f"/decks/{deck_id}/stats/?compare=1").get_data(as_text=True)
    panel = page.split('id="results"')[1]
    assert "<dt>Mulligan policy</dt><dd>keep</dd>" in panel and "<dt>Mulligan policy</dt><dd>fewer:2:type=minor hero</dd>" in panel
    assert f"Hands sent back (mulligans)</th><td>{second['result']['mulligans']} of 80" in panel
    assert "<td>0 of 80</td>" in panel and panel.count("Going first and second") == 2
    assert "different seeds" not in page


@pytest.mark.parametrize("slug", [e.game for e in engines()])
def test_every_game_measures_compares_and_tunes_from_the_statistics_tab(app, auth, client, slug):
    """Every game's deck can be measured card by card, compared and tuned from its pages (Huntik's
    games not won score round 8: its rules end every game after round 7)."""
    auth.signup("gina")
    engine = get_engine(slug)
    _name, deck = engine.decks()[0]
    with database.connection_context():
        owner = models.User.get(username="gina")
        deck_id = create_deck(owner.id, slug, get_game(slug).format(None).id, "Sample", deck=deck).row.id
    client.post(f"/decks/{deck_id}/stats/impacts", data={"budget": "150", "seed": "3", "allow_unknown": "1"})
    client.post(f"/decks/{deck_id}/stats/comparisons", data={"other": str(deck_id), "games": "20", "seed": "3"})
    client.post(f"/decks/{deck_id}/stats/tunings", data={"budget": "150", "seed": "3", "candidates": "catalogue",
                                                        "allow_unknown": "1"})
    with database.connection_context():
        runs = {r.candidate_source: r for r in models.TuningRun.select().where(models.TuningRun.deck == deck_id)}
    limit = engine.last_turn(engine.normalize_options({}))
    assert runs["impact"].status == "done" and runs["impact"].result["cards"], runs["impact"].error
    assert runs["impact"].result["settings"]["score"].endswith(f"scores {limit + 1}")
    assert runs["comparison"].status == "done" and runs["comparison"].result["delta"] == 0
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert "no turn or round limit" not in page and "Card impact run #" in page
    assert "catalogue" in runs or not check_deck(deck, get_game(slug), get_game(slug).format(None), load_catalogue(slug)).legal
    if "catalogue" in runs:  # (a sample deck the format refuses is not tuned)
        assert runs["catalogue"].status == "done" and runs["catalogue"].result["suggestions"]

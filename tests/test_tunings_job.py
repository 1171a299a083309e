"""Deck tuning as a job: round by round through real workers, the same result as `core.tuning.tune`,
the simulations' per-user limit, the statistics tab's form, and the API."""
from __future__ import annotations

import html
import os

import pytest

from deckhub.services import api_tokens, collection, tunings
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.decklist import Deck
from deckhub.core.legality import check_deck
from deckhub.core.tuning import tune
from deckhub.store.db import database
from deckhub.games import get_game

from conftest import make_app
from queue_workers import Worker, queue_config, redis_available, wait_for
from test_tuning import WEAK_SPOT

QUEUES = ["sqlite", pytest.param("redis", marks=pytest.mark.skipif(
    not redis_available() and os.environ.get("DECKHUB_REQUIRE_REDIS") != "1",
    reason="no Redis server on DECKHUB_TEST_REDIS_URL (.ci/run starts one)"))]
CANDIDATES = ("Halo Hawk", "Toolbot")


def _signed_in(app, name="alice"):
    client = app.test_client()
    client.post("/signup", data={"username": name, "password": "correct horse", "confirm": "correct horse"})
    deck = client.post("/decks/import", data={"name": "Weak spot", "game": "kaijudo", "format": "", "decklist": WEAK_SPOT})
    deck_id = int(deck.location.rsplit("/", 1)[1])
    with database.connection_context():
        user = models.User.get(username=name)
        for card in CANDIDATES:  # the collection the candidates come from
            printing = (models.Printing.select().join(models.Card)
                        .where((models.Card.game == "kaijudo") & (models.Card.name == card)).first())
            collection.adjust(user, printing.id, "quantity", 1)
        _, token = api_tokens.create(user, "script")
    return client, deck_id, {"Authorization": f"Bearer {token}"}


def _reference(budget: int, seed: int) -> dict:
    """`core.tuning.tune` in this process, one worker, on the same deck and candidates."""
    spec, catalogue = get_game("kaijudo"), get_catalogue("kaijudo")
    with database.connection_context():
        data = models.DeckVersion.select().order_by(models.DeckVersion.id.desc()).first().data
    fmt = spec.format(None)
    keys = sorted(catalogue.lookup(name)[0].key for name in CANDIDATES)
    result = tune("kaijudo", Deck.from_json(data), catalogue, keys,
                  lambda d: check_deck(d, spec, fmt, catalogue).legal, budget=budget, seed=seed)
    return result.to_json()


@pytest.fixture(params=QUEUES)
def queued(request, databases, tmp_path):
    url = databases.with_catalogues()
    queue = queue_config(request.param, tmp_path)
    app = make_app(url, WTF_CSRF_ENABLED=False, **queue)
    started: list[Worker] = []

    def worker(n: int = 1) -> Worker:
        started.append(Worker(url, queue, n, log=tmp_path / "worker.log"))
        return started[-1]
    app.start_worker = worker
    yield app
    for w in started:
        w.stop()
    if request.param == "redis":
        from deckhub.services.jobs import huey
        huey.storage.flush_queue()
    if not database.is_closed():
        database.close()


def _tuning(run_id: int) -> models.TuningRun:
    with database.connection_context():
        return models.TuningRun.get_by_id(run_id)


def test_a_tuning_run_through_two_workers_gives_the_single_process_result(queued, monkeypatch):
    monkeypatch.setattr(tunings, "CHUNK_GAMES", 150)  # many chunks a round, shared by the workers
    client, deck_id, headers = _signed_in(queued)
    started = client.post(f"/api/decks/{deck_id}/tunings", json={"budget": 900, "seed": 4}, headers=headers)
    assert started.status_code == 202, started.get_data(as_text=True)
    run_id = started.get_json()["id"]
    assert started.headers["Location"] == f"/api/tunings/{run_id}"
    assert client.get(f"/api/tunings/{run_id}", headers=headers).get_json()["status"] == "queued"
    queued.start_worker(2)
    run = wait_for(lambda: (r := _tuning(run_id)).status not in ("queued", "running") and r, timeout=240)
    assert run.status == "done", run.error
    with database.connection_context():
        assert models.TuningChunk.select().where(models.TuningChunk.run == run_id).count() > 4
    body = client.get(f"/api/tunings/{run_id}", headers=headers).get_json()
    reference = _reference(900, 4)
    assert body["result"]["suggestions"] == reference["suggestions"]
    assert body["result"]["baseline"] == reference["baseline"]
    assert body["done"] == body["result"]["games_played"] == reference["games_played"]
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert f"Tuning run #{run_id}" in page and html.escape(body["result"]["verdict"]) in page


def test_tuning_counts_against_the_simulation_limit_and_cancels(queued):
    client, deck_id, headers = _signed_in(queued)  # no worker: runs stay queued
    ids = []
    for seed in (1, 2):
        r = client.post(f"/api/decks/{deck_id}/tunings", json={"budget": 600, "seed": seed}, headers=headers)
        assert r.status_code == 202
        ids.append(r.get_json()["id"])
    assert client.post(f"/api/decks/{deck_id}/simulations", json={"games": 50}, headers=headers).status_code == 202
    refused = client.post(f"/api/decks/{deck_id}/tunings", json={"budget": 600}, headers=headers)
    assert refused.status_code == 429 and "You already have 3 simulations queued or running" in refused.get_json()["error"]
    gone = client.delete(f"/api/tunings/{ids[0]}", headers=headers)
    assert gone.status_code == 200 and gone.get_json()["status"] == "cancelled"
    response = client.post(f"/decks/{deck_id}/stats/tunings/{ids[1]}/cancel")
    assert response.status_code == 303 and _tuning(ids[1]).status == "cancelled"
    other = queued.test_client()
    other.post("/signup", data={"username": "bob", "password": "correct horse", "confirm": "correct horse"})
    assert other.get(f"/api/tunings/{ids[0]}").status_code in (401, 404)
    assert other.post(f"/decks/{deck_id}/stats/tunings/{ids[0]}/cancel").status_code == 404


def test_the_statistics_tab_form_tunes_and_refuses_bad_requests(app, client, auth):
    auth.signup()
    deck = client.post("/decks/import", data={"name": "Weak spot", "game": "kaijudo", "format": "", "decklist": WEAK_SPOT})
    deck_id = int(deck.location.rsplit("/", 1)[1])
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert "Suggest changes" in page and 'name="allow_unknown"' in page
    empty = client.post(f"/decks/{deck_id}/stats/tunings", data={"candidates": "collection", "budget": "500"},
                        follow_redirects=True).get_data(as_text=True)
    assert "no candidate cards to try" in empty  # an empty collection
    small = client.post(f"/decks/{deck_id}/stats/tunings", data={"candidates": "catalogue", "budget": "20"},
                        follow_redirects=True).get_data(as_text=True)
    assert "need a budget of at least" in small
    bad = client.post(f"/decks/{deck_id}/stats/tunings", data={"budget": "lots"}, follow_redirects=True)
    assert bad.status_code == 200 and "whole numbers" in bad.get_data(as_text=True)
    with database.connection_context():
        printing = (models.Printing.select().join(models.Card)
                    .where((models.Card.game == "kaijudo") & (models.Card.name == "Halo Hawk")).first())
        collection.adjust(models.User.get(username="alice"), printing.id, "quantity", 2)
    # the test app's queue runs tasks at once, so the run is done when the page comes back
    page = client.post(f"/decks/{deck_id}/stats/tunings", data={"candidates": "collection", "budget": "600", "seed": "9"},
                       follow_redirects=True).get_data(as_text=True)
    assert "Tuning run #1" in page and "legal swaps tried" in page and "Halo Hawk" in page
    with database.connection_context():
        run = models.TuningRun.get_by_id(1)
    assert run.status == "done" and run.result["suggestions"][0]["in"] == "Halo Hawk"


def test_tuning_a_deck_with_unknown_values_is_refused_unless_allowed(app, client, auth):
    auth.signup()
    darigan = (get_game("neopets-tcg") and open(os.path.join(os.path.dirname(__file__), "..", "data", "neopets-tcg",
                                                               "decks", "darigan-theme-deck.txt"), encoding="utf-8").read())
    deck = client.post("/decks/import", data={"name": "Darigan", "game": "neopets-tcg", "format": "", "decklist": darigan})
    deck_id = int(deck.location.rsplit("/", 1)[1])
    page = client.post(f"/decks/{deck_id}/stats/tunings", data={"candidates": "catalogue", "budget": "500"},
                       follow_redirects=True).get_data(as_text=True)
    assert "lack values the engine needs" in page and "Enter them, or tune anyway" in page
    with database.connection_context():
        assert models.TuningRun.select().count() == 0


def test_tune_command_takes_a_users_collection_as_candidates(app, monkeypatch, tmp_path):
    from click.testing import CliRunner

    from deckhub.services.accounts import create_user
    from deckhub.commands.tune import tune as tune_command

    monkeypatch.setenv("DATABASE_URL", app.config["DATABASE_URL"])
    with database.connection_context():
        carol = create_user("carol", "a long password 7")
        printing = (models.Printing.select().join(models.Card)
                    .where((models.Card.game == "kaijudo") & (models.Card.name == "Halo Hawk")).first())
        collection.adjust(carol, printing.id, "quantity", 1)
    deck = tmp_path / "weak.txt"
    deck.write_text(WEAK_SPOT)
    runner = CliRunner()
    result = runner.invoke(tune_command, ["--game", "kaijudo", "--deck", str(deck), "--candidates", "collection",
                                          "--user", "carol", "--budget", "600", "--json"])
    assert result.exit_code == 0, result.output
    import json
    data = json.loads(result.output)
    assert {s["in"] for s in data["suggestions"]} == {"Halo Hawk"}
    assert runner.invoke(tune_command, ["--game", "kaijudo", "--deck", str(deck), "--candidates", "collection"]).exit_code == 2
    for nobody in ("nobody", "%", "carol%", "c_rol"):  # an exact name, never a LIKE pattern
        assert runner.invoke(tune_command, ["--game", "kaijudo", "--deck", str(deck), "--candidates", "collection",
                                            "--user", nobody]).exit_code == 2, nobody

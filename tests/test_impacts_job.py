"""Card impact as a job: played through real workers as tuning runs are, the same result as
`core.impact.impact`, progress, cancel, the per-user limit, and the statistics tab's button."""
from __future__ import annotations

import html

from deckhub.core.decklist import Deck
from deckhub.core.impact import impact
from deckhub.services import tunings
from deckhub.services.catalogue_store import get_catalogue
from deckhub.store import models
from deckhub.store.db import database
from queue_workers import wait_for
from test_tunings_job import _signed_in, _tuning, queued  # noqa: F401  (the fixture, with its queues)


def test_an_impact_run_through_two_workers_gives_the_single_process_result(queued, monkeypatch):  # noqa: F811
    monkeypatch.setattr(tunings, "CHUNK_GAMES", 150)
    client, deck_id, headers = _signed_in(queued)
    started = client.post(f"/api/decks/{deck_id}/impacts", json={"budget": 600, "seed": 4}, headers=headers)
    assert started.status_code == 202, started.get_data(as_text=True)
    run_id = started.get_json()["id"]
    assert started.headers["Location"] == f"/api/impacts/{run_id}"
    assert client.get(f"/api/impacts/{run_id}", headers=headers).get_json()["status"] == "queued"
    assert client.get(f"/api/tunings/{run_id}", headers=headers).status_code == 404  # an impact run, not a tuning
    queued.start_worker(2)
    run = wait_for(lambda: (r := _tuning(run_id)).status not in ("queued", "running") and r, timeout=240)
    assert run.status == "done", run.error
    body = client.get(f"/api/impacts/{run_id}", headers=headers).get_json()
    with database.connection_context():
        data = models.DeckVersion.select().order_by(models.DeckVersion.id.desc()).first().data
    reference = impact("kaijudo", Deck.from_json(data), get_catalogue("kaijudo"), budget=600, seed=4).to_json()
    assert body["result"]["cards"] == reference["cards"] and body["result"]["verdict"] == reference["verdict"]
    assert body["done"] == body["result"]["games_played"] == reference["games_played"]
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert f"Card impact run #{run_id}" in page and html.escape(body["result"]["verdict"]) in page
    assert f"Tuning run #{run_id}" not in page
    chart = client.get(f"/decks/{deck_id}/stats/tunings/{run_id}/impact.svg")
    assert chart.status_code == 200 and b"seed 4" in chart.data and b"<script" not in chart.data


def test_impact_runs_count_against_the_limit_and_cancel(queued):  # noqa: F811
    client, deck_id, headers = _signed_in(queued)  # no worker: runs stay queued
    ids = [client.post(f"/api/decks/{deck_id}/impacts", json={"budget": 300, "seed": s}, headers=headers).get_json()["id"]
           for s in (1, 2, 3)]
    refused = client.post(f"/api/decks/{deck_id}/impacts", json={"budget": 300}, headers=headers)
    assert refused.status_code == 429
    gone = client.delete(f"/api/impacts/{ids[0]}", headers=headers)
    assert gone.status_code == 200 and gone.get_json()["status"] == "cancelled"
    page = client.post(f"/decks/{deck_id}/stats/impacts", data={"budget": "300", "seed": "5"}, follow_redirects=True)
    assert "Card impact run #" in page.get_data(as_text=True) and "started" in page.get_data(as_text=True)
    small = client.post(f"/decks/{deck_id}/stats/impacts", data={"budget": "20"}, follow_redirects=True)
    assert small.status_code == 200 and "at least 100 games" in small.get_data(as_text=True)
    other = queued.test_client()
    other.post("/signup", data={"username": "bob", "password": "correct horse", "confirm": "correct horse"})
    assert other.get(f"/api/impacts/{ids[1]}").status_code in (401, 404)

"""Two decks compared as a job: played through real workers in chunks, the same answer as
`core.compare.compare` (and `deckhub compare --json`), progress, cancel and the per-user limit."""
from __future__ import annotations

import re
from pathlib import Path

from deckhub.core.compare import compare
from deckhub.core.decklist import Deck
from deckhub.services import job_board, tunings
from deckhub.services.catalogue_store import get_catalogue
from deckhub.store import models
from deckhub.store.db import database
from queue_workers import wait_for
from test_tunings_job import _signed_in, _tuning, queued  # noqa: F401  (the fixture, with its queues)

ROCKET = (Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks" / "[3RIS]Rocket_Storm.o8d").read_text(encoding="utf-8-sig")


def _other_deck(client) -> int:
    made = client.post("/decks/import", data={"name": "Rocket Storm", "game": "kaijudo", "format": "", "decklist": ROCKET})
    return int(made.location.rsplit("/", 1)[1])


def _decks(deck_id: int, other_id: int) -> tuple[Deck, Deck]:
    with database.connection_context():
        rows = {v.deck_id: (v, v.deck.name) for v in models.DeckVersion.select().where(
            models.DeckVersion.deck.in_([deck_id, other_id]))}
    decks = []
    for ident in (deck_id, other_id):
        version, name = rows[ident]
        deck = Deck.from_json(version.data)
        deck.name = name
        decks.append(deck)
    return decks[0], decks[1]


def test_a_comparison_through_two_workers_gives_the_single_process_answer(queued, monkeypatch):  # noqa: F811
    monkeypatch.setattr(tunings, "CHUNK_GAMES", 70)  # several chunks for each deck
    client, deck_id, _headers = _signed_in(queued)
    other_id = _other_deck(client)
    started = client.post(f"/decks/{deck_id}/stats/comparisons", data={"other": str(other_id), "games": "150", "seed": "6"})
    assert started.status_code == 303
    page = client.get(f"/decks/{deck_id}/stats/compare").get_data(as_text=True)
    run_id = int(re.findall(r'id="comparison-(\d+)"', page)[0])
    assert '<meta http-equiv="refresh"' in page and "queued" in page and "Cancel" in page  # refreshes itself meanwhile
    queued.start_worker(2)
    run = wait_for(lambda: (r := _tuning(run_id)).status not in ("queued", "running") and r, timeout=240)
    assert run.status == "done", run.error
    deck_a, deck_b = _decks(deck_id, other_id)
    reference = compare("kaijudo", deck_a, deck_b, get_catalogue("kaijudo"), games=150, seed=6)
    assert run.result == reference and run.done == run.total == 300
    page = client.get(f"/decks/{deck_id}/stats/compare").get_data(as_text=True)
    assert "Weak spot (A) and Rocket Storm (B)" in page and '<meta http-equiv="refresh"' not in page
    assert f"{reference['delta']:+.3f}" in page


def test_comparisons_count_against_the_limit_and_cancel(queued):  # noqa: F811
    client, deck_id, headers = _signed_in(queued)  # no worker: runs stay queued
    other_id = _other_deck(client)
    for seed in (1, 2, 3):
        client.post(f"/decks/{deck_id}/stats/comparisons", data={"other": str(other_id), "games": "100", "seed": str(seed)})
    refused = client.post(f"/decks/{deck_id}/stats/comparisons", data={"other": str(other_id), "games": "100"},
                          follow_redirects=True).get_data(as_text=True)
    assert "wait for one to finish or cancel one" in refused
    with database.connection_context():
        ids = [r.id for r in tunings.runs_for(models.Deck.get_by_id(deck_id), comparison=True)]
    assert len(ids) == 3
    gone = client.post(f"/decks/{deck_id}/stats/comparisons/{ids[0]}/cancel")
    assert gone.status_code == 303 and _tuning(ids[0]).status == "cancelled"
    status = client.get(f"/decks/{deck_id}/stats/comparisons/{ids[1]}.json").get_json()
    assert status["status"] == "queued" and status["games"] == 200
    assert client.get(f"/api/tunings/{ids[1]}", headers=headers).status_code == 404  # a comparison, not a tuning
    assert client.get(f"/api/impacts/{ids[1]}", headers=headers).status_code == 404
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert f"Tuning run #{ids[1]}" not in page  # the statistics page lists tunings, not comparisons
    with database.connection_context():
        queued_jobs = job_board.board()["queued"]
    assert {(j.kind, j.id) for j in queued_jobs} >= {("Comparison", ids[1]), ("Comparison", ids[2])}

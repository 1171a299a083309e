"""Jobs through real `deckhub worker` consumers, on the embedded SQLite queue and on Redis.

A simulation end to end (same summary as `deckhub simulate --workers 2`), a worker killed with
SIGKILL in the middle of a run and a fresh one started (same summary again, nothing counted
twice), cancelling, and the per-user limit under concurrent requests from the form and the API.
"""
from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckhub.services import api_tokens, simulations
from deckhub.store import models
from deckhub.store.db import database

from conftest import make_app
from queue_workers import Worker, queue_config, redis_available, wait_for

DECKS = Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks"
BULL_RUSH = (DECKS / "[2ED]Bull_Rush.o8d").read_text(encoding="utf-8-sig")
QUEUES = ["sqlite", pytest.param("redis", marks=pytest.mark.skipif(
    not redis_available() and os.environ.get("DECKHUB_REQUIRE_REDIS") != "1",
    reason="no Redis server on DECKHUB_TEST_REDIS_URL (.ci/run starts one)"))]


@pytest.fixture(params=QUEUES)
def queued(request, databases, tmp_path):
    """An app whose jobs go to a real queue, the database's URL, and a way to start workers."""
    url = databases.with_catalogues()
    queue = queue_config(request.param, tmp_path)
    app = make_app(url, WTF_CSRF_ENABLED=False, **queue)
    started: list[Worker] = []

    def worker(workers: int = 1) -> Worker:
        started.append(Worker(url, queue, workers, log=tmp_path / "worker.log"))
        return started[-1]
    app.start_worker = worker
    app.worker_log = tmp_path / "worker.log"
    yield app
    for w in started:
        w.stop()
    simulations.set_chunk_games(simulations.CHUNK_GAMES)
    if request.param == "redis":
        from deckhub.services.jobs import huey
        huey.storage.flush_queue()
    if not database.is_closed():
        database.close()


def _signed_in(app, name="alice"):
    client = app.test_client()
    client.post("/signup", data={"username": name, "password": "correct horse", "confirm": "correct horse"})
    deck = client.post("/decks/import", data={"name": "Bull Rush", "game": "kaijudo", "format": "", "decklist": BULL_RUSH})
    return client, int(deck.location.rsplit("/", 1)[1])


def _run(run_id: int) -> models.SimulationRun:
    with database.connection_context():
        return models.SimulationRun.get_by_id(run_id)


def _reference(app, games: int, seed: int, options: dict) -> dict:
    """What `deckhub simulate --workers 2 --json` prints for the same deck, seed and options, on the
    database the worker played on (named, as a user would: without DATABASE_URL the command reads the
    instance folder's database, which the README's site command makes on a fresh clone)."""
    args = ["simulate", "--game", "kaijudo", "--deck", str(DECKS / "[2ED]Bull_Rush.o8d"), "--games", str(games),
            "--seed", str(seed), "--workers", "2", "--json"]
    args.append({"first": "--first", "second": "--second", "random": "--random-order"}[options["first"]])
    from deckhub.cli import main
    env = {"DATABASE_URL": app.config["DATABASE_URL"], "DECKHUB_SECRET_KEY": "test"}
    result = CliRunner().invoke(main, args, env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _same_summary(run: models.SimulationRun, reference: dict) -> None:
    mine = dict(run.result)
    theirs = dict(reference)
    mine.pop("games_per_second"), theirs.pop("games_per_second")
    assert mine == theirs


def _log(app) -> str:
    return app.worker_log.read_text(errors="replace")[-3000:] if app.worker_log.exists() else ""


def test_a_simulation_runs_through_a_worker_and_merges_into_the_simulate_summary(queued):
    simulations.set_chunk_games(300)  # 1,000 games in 4 chunks of unequal size
    client, deck_id = _signed_in(queued)
    response = client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "1000", "seed": "11", "opt_first": "on"})
    assert response.status_code == 302
    assert _run(1).status == "queued"  # nothing plays it until a worker runs
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert "queued: waiting for a worker" in page and 'name="csrf_token"' in page and ">Cancel</button>" in page
    queued.start_worker(2)
    run = wait_for(lambda: (r := _run(1)).status not in ("queued", "running") and r, timeout=180)
    assert run.status == "done", (run.error, _log(queued))
    assert run.done == 1000
    _same_summary(run, _reference(queued, 1000, 11, run.options))
    with database.connection_context():
        chunks = list(models.SimulationChunk.select().where(models.SimulationChunk.run == 1).order_by(models.SimulationChunk.number))
    assert [(c.start, c.stop, c.state) for c in chunks] == [(0, 300, "done"), (300, 600, "done"), (600, 900, "done"),
                                                            (900, 1000, "done")]
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert "Run #1 (deck version 1, seed 11)" in page and ">Cancel</button>" not in page


def test_a_worker_killed_in_the_middle_of_a_run_loses_nothing_and_counts_nothing_twice(queued):
    simulations.set_chunk_games(200)
    client, deck_id = _signed_in(queued)
    client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "3000", "seed": "5"})
    first = queued.start_worker(1)

    def a_chunk_is_being_played_after_some_are_done():
        with database.connection_context():
            C = models.SimulationChunk
            done = C.select().where((C.run == 1) & (C.state == "done")).count()
            return done >= 3 and C.select().where((C.run == 1) & (C.state == "running")).exists()
    wait_for(a_chunk_is_being_played_after_some_are_done, timeout=180, interval=0.02)
    first.kill9()
    with database.connection_context():
        C = models.SimulationChunk
        orphans = list(C.select().where((C.run == 1) & (C.state == "running")))
        done_at_kill = _run(1).done
    assert orphans, "the kill should leave a chunk half played"
    assert 0 < done_at_kill < 3000 and _run(1).status == "running"
    queued.start_worker(1)  # a fresh worker finds the dead one's chunk and plays it again
    run = wait_for(lambda: (r := _run(1)).status not in ("queued", "running") and r, timeout=240)
    assert run.status == "done", (run.error, _log(queued))
    assert run.done == 3000
    with database.connection_context():
        assert models.SimulationChunk.select().where((models.SimulationChunk.run == 1)
                                                     & (models.SimulationChunk.state == "done")).count() == 15
    _same_summary(run, _reference(queued, 3000, 5, run.options))


def test_a_queued_run_is_cancelled_by_the_api_and_the_worker_skips_it(queued):
    simulations.set_chunk_games(100)  # 20 chunks: a few sent, the rest waiting their turn
    client, deck_id = _signed_in(queued)
    with database.connection_context():
        _, token = api_tokens.create(models.User.get(username="alice"), "script")
    headers = {"Authorization": f"Bearer {token}"}
    started = client.post(f"/api/decks/{deck_id}/simulations", json={"games": 2000, "seed": 3}, headers=headers)
    assert started.status_code == 202 and started.get_json()["status"] == "queued"
    run_id = started.get_json()["id"]
    gone = client.delete(f"/api/simulations/{run_id}", headers=headers)
    assert gone.status_code == 200 and gone.get_json()["status"] == "cancelled"
    with database.connection_context():
        C = models.SimulationChunk
        assert [c.state for c in C.select(C.state).where(C.run == run_id)] == ["cancelled"] * 20
    assert client.delete(f"/api/simulations/{run_id}", headers=headers).get_json()["status"] == "cancelled"
    other = queued.test_client()
    other.post("/signup", data={"username": "bob", "password": "correct horse", "confirm": "correct horse"})
    assert other.delete(f"/api/simulations/{run_id}").status_code == 404
    # the form's button cancels another, and a worker then plays a third one only
    client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "2000", "seed": "3"})
    response = client.post(f"/decks/{deck_id}/stats/simulations/{run_id + 1}/cancel")
    assert response.status_code == 303 and _run(run_id + 1).status == "cancelled"
    client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "100", "seed": "3"})
    queued.start_worker(1)
    run = wait_for(lambda: (r := _run(run_id + 2)).status == "done" and r, timeout=120)
    assert run.done == 100
    assert _run(run_id).status == "cancelled" and _run(run_id).done == 0 and _run(run_id).result is None
    page = client.get(f"/decks/{deck_id}/stats/").get_data(as_text=True)
    assert page.count(">cancelled<") == 2


def test_the_per_user_limit_holds_under_concurrent_form_and_api_requests(queued):
    client, deck_id = _signed_in(queued)  # no worker: every run stays queued
    with database.connection_context():
        _, token = api_tokens.create(models.User.get(username="alice"), "script")
    answers: list[tuple[str, int, str]] = []
    barrier = threading.Barrier(8)

    def form():
        c = queued.test_client()
        c.post("/login", data={"username": "alice", "password": "correct horse"})
        barrier.wait()
        r = c.post(f"/decks/{deck_id}/stats/simulations", data={"games": "50", "seed": "1"}, follow_redirects=True)
        answers.append(("form", r.status_code, r.get_data(as_text=True)))

    def api():
        c = queued.test_client()
        barrier.wait()
        r = c.post(f"/api/decks/{deck_id}/simulations", json={"games": 50, "seed": 1},
                   headers={"Authorization": f"Bearer {token}"})
        answers.append(("api", r.status_code, r.get_data(as_text=True)))
    threads = [threading.Thread(target=f) for f in [form, api] * 4]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    with database.connection_context():
        assert models.SimulationRun.select().count() == 3
    api_refused = [a for a in answers if a[0] == "api" and a[1] == 429]
    form_refused = [a for a in answers if a[0] == "form" and "You already have 3 simulations queued or running" in a[2]]
    assert len(answers) == 8 and len(api_refused) + len(form_refused) == 5
    assert all("You already have 3 simulations queued or running" in a[2] for a in api_refused)


def test_a_collection_import_is_planned_and_committed_by_a_worker(queued):
    client, _ = _signed_in(queued)
    data = (b"game,set,number,name,quantity,foil_quantity\nkaijudo,Evo Fury,1,,3,1\n"
            b"kaijudo,evo-fury,2,Cloudwalker Drone,2,\nkaijudo,,,Cloudwalker Dronne,1,\n")
    bad = client.post("/collection/import", data={"file": (__import__("io").BytesIO(data), "mine.csv")},
                      content_type="multipart/form-data").headers["Location"]
    page = client.get(bad, follow_redirects=True).get_data(as_text=True)
    assert "Checking the file" in page and "queued: waiting for a worker" in page
    queued.start_worker(1)
    wait_for(lambda: client.get(bad + "/status").get_json()["state"] == "ready", timeout=120)
    page = client.get(bad).get_data(as_text=True)
    assert "1 row with problems" in page and "did you mean <q>Cloudwalker Drone</q>" in page
    good = client.post("/collection/import", data={"file": (__import__("io").BytesIO(data.rsplit(b"\n", 2)[0] + b"\n"), "mine.csv")},
                       content_type="multipart/form-data").headers["Location"]
    wait_for(lambda: client.get(good + "/status").get_json()["state"] == "ready", timeout=60)
    assert "Import 2 changes" in client.get(good).get_data(as_text=True)
    client.post(good + "/commit")
    status = wait_for(lambda: (s := client.get(good + "/status").get_json())["state"] == "done" and s, timeout=60)
    assert status["status"] == "done" and status["changed"] == 2 and status["printings"] == 2
    with database.connection_context():
        owned = {(o.quantity, o.foil_quantity) for o in models.OwnedCard.select()}
    assert owned == {(3, 1), (2, 0)}


def test_a_facts_file_is_checked_by_a_worker(queued):
    client, _ = _signed_in(queued)
    data = b"game,name,type,source\nneopets-tcg,Nosuchcard Zorblax,Item,https://example.org/facts\n"
    sent = client.post("/facts/import", data={"file": (__import__("io").BytesIO(data), "facts.csv")},
                       content_type="multipart/form-data").headers["Location"]
    assert "Waiting for a worker" in client.get(sent).get_data(as_text=True)
    queued.start_worker(1)
    wait_for(lambda: "1 problem" in client.get(sent).get_data(as_text=True), timeout=120)
    with database.connection_context():
        assert models.FactsUpload.get().state == "ready"


def test_trade_matches_another_player_made_stale_are_worked_out_again_by_a_worker(queued, monkeypatch):
    """bob offers more of a card alice wants: her want list page shows her kept matches, saying they
    are behind, without reading the site's offers; a worker brings them up to date."""
    from deckhub.services import collection, trading
    monkeypatch.setattr(trading, "TRUST_OTHERS_FOR", 0.0)  # each view reads the counts anew
    from deckhub.services.accounts import create_user
    client, _ = _signed_in(queued)
    with database.connection_context():
        alice, bob = models.User.get(models.User.username == "alice").id, create_user("bob", "correct horse").id
        trading.set_lists_public(bob, True)
        hawk = collection.game_index("kaijudo").by_card["halo-hawk"][0].id
        collection.set_quantities(alice, hawk, want_quantity=2)
        collection.set_quantities(bob, hawk, quantity=1, trade_quantity=1)
    page = client.get("/collection/wants").get_data(as_text=True)
    assert "<strong>bob</strong>" in page and "Worked out at" not in page
    with database.connection_context():
        collection.set_quantities(bob, hawk, quantity=3, trade_quantity=3)
    page = client.get("/collection/wants").get_data(as_text=True)
    assert "Other players’ lists have changed since" in page and "<strong>bob</strong>" in page
    queued.start_worker(1)
    wait_for(lambda: "Worked out at" not in client.get("/collection/wants").get_data(as_text=True), timeout=120)
    with database.connection_context():
        matches = trading.match_my_list(alice, "wants")
    assert matches.behind_since is None and [(c.key, c.theirs) for c in matches.users[0].cards] == [("halo-hawk", 3)]


def test_serve_starts_one_consumer_in_development_and_none_in_production(databases, tmp_path, monkeypatch):
    from flask import Flask

    import deckhub.cli as cli
    import deckhub.commands.serve as serve
    started, served = [], []

    class FakeConsumer:
        def __init__(self, args, env, **kwargs):
            started.append((args, env["DECKHUB_QUEUE_URL"]))
            self.returncode = None

        def poll(self):
            return self.returncode

        def send_signal(self, signum):
            started.append(signal.Signals(signum).name)

        def wait(self, timeout):
            self.returncode = 0
            return 0
    monkeypatch.setattr("subprocess.Popen", FakeConsumer)
    monkeypatch.setattr(Flask, "run", lambda self, **kw: served.append("dev"))
    monkeypatch.setattr(serve, "_gunicorn", lambda *a: served.append(f"gunicorn {a[3]}x{a[4]}"))  # processes x threads
    monkeypatch.setenv("DATABASE_URL", databases.with_catalogues())
    monkeypatch.setenv("DECKHUB_QUEUE_URL", f"sqlite:///{tmp_path / 'queue.sqlite3'}")
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "s" * 40)
    result = CliRunner().invoke(cli.main, ["serve"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert served == ["dev"] and started[0][0][-4:] == ["deckhub.cli", "worker", "--workers", "1"]
    assert started[0][1] == f"sqlite:///{tmp_path / 'queue.sqlite3'}" and started[1:] == ["SIGINT"]
    started.clear()
    result = CliRunner().invoke(cli.main, ["serve", "--workers", "2"], catch_exceptions=False)
    assert result.exit_code == 0 and served == ["dev", "gunicorn 2x1"] and started == []
    assert "starts no queue worker: run `deckhub worker`" in result.output
    result = CliRunner().invoke(cli.main, ["serve", "--workers", "3", "--threads", "4"], catch_exceptions=False)
    assert result.exit_code == 0 and served[-1] == "gunicorn 3x4"
    if not database.is_closed():
        database.close()


def test_the_whole_queue_is_bounded_too(queued, monkeypatch):
    monkeypatch.setattr(simulations, "MAX_ACTIVE_TOTAL", 4)
    alice, alice_deck = _signed_in(queued, "alice")
    bob, bob_deck = _signed_in(queued, "bob")
    for _ in range(3):
        alice.post(f"/decks/{alice_deck}/stats/simulations", data={"games": "50", "seed": "1"})
    bob.post(f"/decks/{bob_deck}/stats/simulations", data={"games": "50", "seed": "1"})
    page = bob.post(f"/decks/{bob_deck}/stats/simulations", data={"games": "50", "seed": "1"}, follow_redirects=True)
    assert "The site is busy: 4 simulations are queued or running" in page.get_data(as_text=True)
    with database.connection_context():
        assert models.SimulationRun.select().count() == 4
    alice.delete("/api/simulations/1")  # a cancelled run leaves room for another
    assert bob.post(f"/decks/{bob_deck}/stats/simulations", data={"games": "50", "seed": "1"}).status_code == 302
    with database.connection_context():
        assert models.SimulationRun.select().where(models.SimulationRun.status == "queued").count() == 4


def test_one_players_runs_do_not_starve_anothers(queued):
    """Alice fills the queue with three long runs, then Bob starts a short one: his chunks are played
    after at most a few more of hers (first in, first out on every chunk would play her whole backlog
    first). Counted in chunks by the order they finished, not timed, so a busy machine cannot fail it."""
    simulations.set_chunk_games(10)
    alice, alice_deck = _signed_in(queued, "alice")
    bob, bob_deck = _signed_in(queued, "bob")
    queued.start_worker(1)
    for seed in (1, 2, 3):  # 3 x 30 chunks
        assert alice.post(f"/decks/{alice_deck}/stats/simulations", data={"games": "300", "seed": str(seed)}).status_code == 302

    def alice_is_playing():
        with database.connection_context():
            return models.SimulationChunk.select().where(models.SimulationChunk.state == "done").count() >= 3
    wait_for(alice_is_playing, timeout=180, interval=0.02)
    assert bob.post(f"/decks/{bob_deck}/stats/simulations", data={"games": "20", "seed": "4"}).status_code == 302
    with database.connection_context():
        C, R = models.SimulationChunk, models.SimulationRun
        done_before_bob = C.select().where(C.state == "done").count()
        bob_run = R.get(R.owner == models.User.get(username="bob").id)
    run = wait_for(lambda: (r := _run(bob_run.id)).status not in ("queued", "running") and r, timeout=240)
    assert run.status == "done" and run.done == 20, (run.error, _log(queued))
    for run_id in (1, 2, 3):
        assert wait_for(lambda: (r := _run(run_id)).status not in ("queued", "running") and r, timeout=240).status == "done"
    with database.connection_context():
        order = [(c.run_id == bob_run.id) for c in C.select(C.run, C.updated_at).where(C.state == "done").order_by(C.updated_at)]
    assert len(order) == 92 and order.count(True) == 2
    alice_while_bob_waited = order[done_before_bob:order.index(True, order.index(True) + 1)].count(False)
    assert alice_while_bob_waited <= 6, (done_before_bob, order)  # FIFO: every chunk of hers queued before his (80+)
    assert all(_run(run_id).result["games"] == 300 for run_id in (1, 2, 3))


def test_the_sweep_sends_waiting_chunks_in_turn_and_sends_again_only_what_was_sent(queued):
    """Waiting chunks were never sent: the lost-message sweep leaves them alone however old they are,
    and sends again only queued ones; a worker that died between finishing its chunks and sending the
    owner's next ones leaves them waiting, and the sweep sends them, a window at a time."""
    from deckhub.services import jobs
    simulations.set_chunk_games(10)
    client, deck_id = _signed_in(queued)
    client.post(f"/decks/{deck_id}/stats/simulations", data={"games": "60", "seed": "1"})  # no worker runs
    C = models.SimulationChunk

    def states():
        with database.connection_context():
            return [c.state for c in C.select(C.state).order_by(C.number)]
    assert states() == ["queued"] * 2 + ["waiting"] * 4 and jobs.pending() == 2
    with database.connection_context():
        C.update(updated_at=models.utcnow() - jobs.LOST_AFTER * 2).execute()
    jobs.huey.storage.flush_queue()  # the two messages are lost
    jobs.recover()
    assert states() == ["queued"] * 2 + ["waiting"] * 4 and jobs.pending() == 2  # sent again, the rest wait
    jobs.huey.storage.flush_queue()
    with database.connection_context():
        C.update(state="done").where(C.state == "queued").execute()  # played; their worker died before feeding
    jobs.recover()
    assert states() == ["done"] * 2 + ["queued"] * 2 + ["waiting"] * 2 and jobs.pending() == 2


def test_every_job_kinds_recovery_runs_without_an_error(app):
    """The sweep runs each kind's recoverer and only logs a failure (one kind must not stop the
    others), so a broken one would go unseen: each runs here on its own, on a site with nothing lost."""
    from deckhub.services import jobs
    assert jobs._recoverers and jobs._last
    with app.app_context():
        for recover in (*jobs._recoverers, *jobs._last):
            with database.connection_context():
                recover()

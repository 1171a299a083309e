"""The job queue's cost: a 100,000-game simulation through workers, and page latency while it runs.

    python benchmarks/bench_queue.py [--games 100000] [--duration 10] [--queue-url URL] [--only throughput|pages]

1. Throughput: a Kaijudo run of N games started through the simulations service and played by two
   `deckhub worker` processes (already running, as on a site), timed from the start to the merged
   summary; next to `deckhub simulate --workers 2` with the same deck, seed and options, in the same
   run, once before and once after the queue's run (their mean is the baseline). The summaries must
   be equal (only games_per_second differs); the ratio is the queue's overhead (target <= 1.2x). Both wall clocks include what a user waits for: the command's process
   start, and the queue's dispatch and merge.
2. Pages: the public deck page's p95 at 16 clients (benchmarks/load.py's server: gunicorn, 2 workers)
   idle, then again while two workers play a 100,000-game run of the same site (target <= 2x).

Everything runs on loopback against a throw-away SQLite database and an SQLite queue file (or
`--queue-url redis://127.0.0.1:6379/0`). Every wait is bounded.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402  (the load benchmark's server, clients and percentiles)

ROOT = load.ROOT
DECK = load.DECK
SEED = 20260


def _env(database_url: str, queue_url: str) -> dict:
    return {**os.environ, "DATABASE_URL": database_url, "DECKHUB_QUEUE_URL": queue_url,
            "DECKHUB_QUEUE_NAME": f"deckhub-bench-{os.getpid()}", "DECKHUB_SECRET_KEY": "bench-" + "x" * 32,
            "DECKHUB_INSECURE_COOKIES": "1", "PYTHONPATH": str(ROOT)}


def _workers(env: dict, n: int, log: Path, nice: int = 10) -> list[subprocess.Popen]:
    """`n` separate `deckhub worker` processes (one consumer process each)."""
    out = open(log, "ab")
    return [subprocess.Popen([sys.executable, "-m", "deckhub.cli", "worker", "--workers", "1", "--nice", str(nice)],
                             env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True) for _ in range(n)]


def _stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for p in procs:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)


def throughput(games: int, database_url: str, queue_url: str, tmp: Path) -> dict:
    env = _env(database_url, queue_url)
    subprocess.run([sys.executable, "-m", "deckhub.cli", "db", "upgrade"], env=env, check=True,  # schema + catalogues
                   stdout=subprocess.DEVNULL)
    for key in ("DATABASE_URL", "DECKHUB_QUEUE_URL", "DECKHUB_QUEUE_NAME", "DECKHUB_SECRET_KEY"):
        os.environ[key] = env[key]
    from deckhub.app import create_app
    from deckhub.store import models
    from deckhub.services import simulations
    from deckhub.services.accounts import create_user
    from deckhub.services.catalogue_store import get_catalogue
    from deckhub.store.db import database
    from deckhub.services.decks import create_deck
    from deckhub.games import all_games, get_game
    from deckhub.importers.decklists import read_decklist
    create_app()
    with database.connection_context():
        user = create_user("bench", "correct horse battery")
        deck = read_decklist(DECK.read_bytes(), get_game("kaijudo"), get_catalogue("kaijudo"), filename=DECK.name,
                             games=all_games()).deck
        stored = create_deck(user.id, "kaijudo", "standard", "Bull Rush", deck=deck)
    before, before_s = _simulate(games, env)
    workers = _workers(env, 2, tmp / "workers.log", nice=0)  # nothing else to yield to here
    try:
        time.sleep(8)  # let both workers start (imports, catalogue) before the clock starts
        with database.connection_context():
            started = time.perf_counter()
            run = simulations.start(user.id, stored.row, stored.version, games, SEED, {"first": True})
        deadline = time.monotonic() + 1800
        while time.monotonic() < deadline:
            with database.connection_context():
                row = models.SimulationRun.get_by_id(run.id)
            if row.status not in ("queued", "running"):
                break
            time.sleep(0.05)
        queue_seconds = time.perf_counter() - started
    finally:
        _stop(workers)
    if row.status != "done":
        raise SystemExit(f"the run ended {row.status}: {row.error}\n" + (tmp / "workers.log").read_text()[-3000:])
    after, after_s = _simulate(games, env)
    reference = json.loads(after)
    mine = {k: v for k, v in row.result.items() if k != "games_per_second"}
    same = mine == {k: v for k, v in reference.items() if k != "games_per_second"}
    # the command ran once before the queue and once after: their mean is the baseline, so a machine
    # that gets busier or quieter during the benchmark weighs on both sides alike
    cli_seconds = (before_s + after_s) / 2
    simulate_compute = (games / json.loads(before)["games_per_second"] + games / reference["games_per_second"]) / 2
    return {"games": games, "queue_s": round(queue_seconds, 2), "simulate_wall_s": round(cli_seconds, 2),
            "simulate_wall_before_after_s": [round(before_s, 2), round(after_s, 2)],
            "simulate_compute_s": round(simulate_compute, 2), "ratio_vs_wall": round(queue_seconds / cli_seconds, 3),
            "ratio_vs_compute": round(queue_seconds / simulate_compute, 3), "same_summary": same}


def _simulate(games: int, env: dict) -> tuple[str, float]:
    """`deckhub simulate --workers 2 --json` on the benchmark's deck: its output and wall time."""
    started = time.perf_counter()
    cli = subprocess.run([sys.executable, "-m", "deckhub.cli", "simulate", "--game", "kaijudo", "--deck", str(DECK),
                          "--games", str(games), "--seed", str(SEED), "--workers", "2", "--first", "--json"],
                         env=env, check=True, capture_output=True, text=True)
    return cli.stdout, time.perf_counter() - started


def pages(games: int, duration: float, queue_url: str, tmp: Path) -> dict:
    url = f"sqlite:///{tmp / 'pages.sqlite3'}"
    env = _env(url, queue_url)
    os.environ.update({k: env[k] for k in ("DECKHUB_QUEUE_URL", "DECKHUB_QUEUE_NAME")})
    site, bare, procs = load.start_servers(2, url, tmp)
    workers: list[subprocess.Popen] = []
    try:
        state = load.prepare(site)
        request = load.scenarios(state)["deck page"]
        idle = load.drive(site, 16, duration, request, state["cookies"])
        workers = _workers(env, 2, tmp / "workers.log")
        time.sleep(8)
        client = load.Client(site)
        client.cookies.update(state["cookies"])
        deck_id = int(state["deck"].rsplit("/", 1)[1])
        token = client.csrf(f"/decks/{deck_id}/stats/")
        status, _, _ = client.request("POST", f"/decks/{deck_id}/stats/simulations",
                                      {"csrf_token": token, "games": str(games), "seed": "1"})
        assert status == 302, status

        def progress() -> tuple[str, int]:
            _, body, _ = client.request("GET", f"/decks/{deck_id}/stats/")
            run_id = int(re.findall(r'id="run-(\d+)"', body)[0])
            _, js, _ = client.request("GET", f"/decks/{deck_id}/stats/simulations/{run_id}.json")
            data = json.loads(js)
            return data["status"], data["done"]
        deadline = time.monotonic() + 60
        while progress()[1] == 0 and time.monotonic() < deadline:
            time.sleep(0.2)  # measure once the workers are playing
        busy = load.drive(site, 16, duration, request, state["cookies"])
        status_after, done_after = progress()
    finally:
        _stop(workers)
        load.stop(procs)
    return {"idle": idle, "during_run": busy, "p95_ratio": round(busy["p95_ms"] / idle["p95_ms"], 2),
            "run_status_after": status_after, "games_done_after": done_after}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of load per measurement")
    parser.add_argument("--queue-url", default=None, help="default: an SQLite queue file in a temporary folder")
    parser.add_argument("--only", choices=("throughput", "pages"), default=None)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="deckhub-queue-bench-"))
    queue_url = args.queue_url or f"sqlite:///{tmp / 'queue.sqlite3'}"
    results = {}
    try:
        if args.only in (None, "pages"):
            results["pages"] = pages(args.games, args.duration, queue_url, tmp)
            p = results["pages"]
            print(f"deck page at 16 clients: idle p95 {p['idle']['p95_ms']} ms ({p['idle']['throughput']} req/s), "
                  f"during a {args.games:,}-game run p95 {p['during_run']['p95_ms']} ms "
                  f"({p['during_run']['throughput']} req/s): {p['p95_ratio']}x (target <= 2x); "
                  f"errors {p['idle']['errors']} / {p['during_run']['errors']}; "
                  f"the run had played {p['games_done_after']:,} games ({p['run_status_after']})")
        if args.only in (None, "throughput"):
            results["throughput"] = t = throughput(args.games, f"sqlite:///{tmp / 'throughput.sqlite3'}", queue_url, tmp)
            print(f"{t['games']:,} Kaijudo games: two deckhub workers {t['queue_s']} s, deckhub simulate --workers 2 "
                  f"{t['simulate_wall_s']} s wall ({t['simulate_compute_s']} s playing): {t['ratio_vs_wall']}x the "
                  f"command, {t['ratio_vs_compute']}x its playing time (target <= 1.2x); same summary: {t['same_summary']}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(results))
    return 0 if results.get("throughput", {}).get("same_summary", True) else 1


if __name__ == "__main__":
    sys.exit(main())

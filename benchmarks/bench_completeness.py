"""Completeness API speed: `GET /api/games/SLUG/completeness` for each game, next to a same-run baseline.

    python benchmarks/bench_completeness.py [--requests N] [--database-url URL]

Issue 15: the completeness API answers in <= 50 ms. Absolute times drift on shared machines, so
each figure is also given as a ratio to a baseline measured in the same run the same way: a bare
Flask endpoint returning a word (benchmarks/bare_app.py) through its own test client. Two figures a
game, each the median and 95th percentile of N requests through DeckHub's WSGI app (database
connection, stamp check, JSON):
- "cold": the counts are computed again for every request, as on the first request after a curator
  approves a proposal (the catalogue changed);
- "warm": the counts of the current catalogue are reused, as on every other request.
A throw-away SQLite database with the shipped catalogues is made unless --database-url names one.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from deckhub.app import create_app  # noqa: E402
from deckhub.services.catalogue_store import get_catalogue  # noqa: E402
from deckhub.store.db import database  # noqa: E402
from deckhub.store.schema import upgrade  # noqa: E402
from deckhub.games import game_slugs  # noqa: E402

BUDGET_MS = 50.0


def timed(client, url: str, n: int, before=None) -> tuple[float, float]:
    times = []
    for _ in range(n):
        if before:
            before()
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.95))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/bench.sqlite3"
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": url})
        upgrade(database.obj)
        if not args.database_url:
            from deckhub.services.catalogue_loading import load_games
            with database.connection_context():
                load_games(game_slugs(), echo=lambda *_: None)
        client = app.test_client()
        from bare_app import app as bare
        bare_client = bare.test_client()
        timed(bare_client, "/", 50)
        base, base95 = timed(bare_client, "/", args.requests)
        print(f"completeness API, {args.requests} requests each; budget {BUDGET_MS:.0f} ms; "
              f"baseline (bare Flask endpoint) median {base:.3f} ms, p95 {base95:.3f} ms")
        print(f"{'game':20} {'kind':5} {'median':>9} {'p95':>9} {'ratio':>8}  verdict")
        worst = 0.0
        for slug in game_slugs():
            path = f"/api/games/{slug}/completeness"
            client.get(path)  # the worker's catalogue is loaded once, as `deckhub serve` does at start
            with database.connection_context():
                counted = get_catalogue(slug).memo_table("completeness")
            for kind, before in (("cold", counted.clear), ("warm", None)):
                median, p95 = timed(client, path, args.requests, before)
                worst = max(worst, p95)
                verdict = "ok" if p95 <= BUDGET_MS else "OVER BUDGET"
                print(f"{slug:20} {kind:5} {median:7.2f}ms {p95:7.2f}ms {median / base:7.1f}x  {verdict}")
    print(f"worst p95: {worst:.2f} ms ({worst / BUDGET_MS:.0%} of the budget)")
    return 0 if worst <= BUDGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""A web worker's memory on a small site and on a site 100 times larger, after 20,000 deck saves.

    python benchmarks/memory.py [--sizes 1,100] [--factor 1.0] [--saves 20000] [--database-url URL]

Each size gets a new database filled as `benchmarks/scale.py` fills it (1x: 100 users, 1,000 decks,
3,000 versions, 10,000 collection rows, 100 goldfish games; 100x a hundred times that). Then a new
process plays one web worker: it signs in, makes 50 decks of its own through the API, and saves
them `--saves` times in turn (`PATCH /api/decks/<id>` with 12 random cards: every save is a new
version, new deck-card rows and new counts), asking after every 20 saves for most wanted (all games
and one), the public deck list (newest, most copied, page 50), the deck just saved and a public deck
of someone else. It prints its resident memory (RSS, from /proc) after the first round of pages and
after the last save, and its peak. The line to read is the last: each size's RSS after the saves
divided by the smallest size's (the target is at most 2).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

OWN_DECKS = 50  # decks the worker's player saves in turn
PAGES_EVERY = 20  # saves between two rounds of pages


def rss_kib() -> dict[str, int]:
    """The process's resident memory now (VmRSS) and at its peak (VmHWM), in KiB."""
    status = Path("/proc/self/status").read_text()
    return {k: int(line.split()[1]) for line in status.splitlines() for k in ("VmRSS", "VmHWM")
            if line.startswith(k + ":")}


def worker(url: str, saves: int, seed: int) -> dict:
    """One web worker's life on the site at `url`: pages and `saves` deck saves; its memory."""
    from scale import GAME, PASSWORD

    from deckhub.app import create_app
    from deckhub.store import models as M
    from deckhub.store.db import database
    app = create_app({"SECRET_KEY": "benchmark", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False})
    rng = random.Random(seed)
    with app.app_context(), database.connection_context():
        keys = [k for (k,) in M.Card.select(M.Card.key).where(M.Card.game == GAME).tuples()]
        bencher = M.User.get(M.User.username == "bencher").id
        theirs = [d for (d,) in M.Deck.select(M.Deck.id).where((M.Deck.is_public == True) & (M.Deck.owner != bencher))  # noqa: E712
                  .order_by(M.Deck.id).limit(200).tuples()]
    client = app.test_client()
    assert client.post("/login", data={"username": "bencher", "password": PASSWORD}).status_code == 302

    def sections() -> dict:
        return {"Deck": [{"card": k, "qty": rng.randint(1, 3)} for k in rng.sample(keys, 12)]}

    own = []
    for n in range(OWN_DECKS):
        made = client.post("/api/decks", json={"game": GAME, "format": "standard", "name": f"Saved {n}",
                                               "sections": sections(), "is_public": n % 2 == 0})
        assert made.status_code == 201, made.get_data(as_text=True)[:300]
        own.append([made.get_json()["id"], made.get_json()["version"]])

    def pages(deck_id: int) -> None:
        for url in ("/most-wanted", f"/most-wanted?game={GAME}", "/decks/public", "/decks/public?sort=copied",
                    "/decks/public?page=50", f"/decks/{deck_id}", f"/decks/{rng.choice(theirs)}"):
            assert client.get(url).status_code in (200, 404), url

    pages(own[0][0])
    warm = rss_kib()
    started = time.perf_counter()
    for n in range(saves):
        deck = own[n % OWN_DECKS]
        saved = client.patch(f"/api/decks/{deck[0]}", json={"sections": sections(), "version": deck[1]})
        assert saved.status_code == 200, saved.get_data(as_text=True)[:300]
        deck[1] = saved.get_json()["version"]
        if n % PAGES_EVERY == 0:
            pages(deck[0])
    after = rss_kib()
    return {"warm_kib": warm["VmRSS"], "after_kib": after["VmRSS"], "peak_kib": after["VmHWM"],
            "seconds": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,100")
    parser.add_argument("--factor", type=float, default=1.0, help="scale every size (0.1: ten times smaller)")
    parser.add_argument("--saves", type=int, default=20_000)
    parser.add_argument("--database-url", default=None, help="a PostgreSQL server's URL (default: SQLite)")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)  # the measured process's database
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.saves, seed=7)))
        return
    import scale

    from deckhub.store.db import database
    sizes = [int(s) for s in args.sizes.split(",")]
    results: dict[int, dict] = {}
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            name = f"deckhub_memory_{size}"
            url = scale.new_database(args.database_url, name, folder)
            try:
                app = scale.make_site(url)
                with app.app_context(), database.connection_context():
                    site = scale.fill(size * args.factor, random.Random(size))
                    database.execute_sql("ANALYZE")
                if not database.is_closed():
                    database.close()
                if hasattr(database.obj, "close_all"):
                    database.obj.close_all()
                print(f"{size}x: {site['n']} filled; a worker saves {args.saves} times...", flush=True)
                out = subprocess.run([sys.executable, __file__, "--worker", url, "--saves", str(args.saves)],
                                     capture_output=True, text=True, env={**os.environ, "DATABASE_URL": url})
                if out.returncode:
                    raise SystemExit(out.stderr[-3000:])
                results[size] = json.loads(out.stdout.strip().splitlines()[-1])
                print(f"{size}x: {results[size]}", flush=True)
            finally:
                scale.drop_database(args.database_url, name)
    backend = "PostgreSQL" if args.database_url else "SQLite"
    first = sizes[0]
    print(f"\n{backend}, one worker's RSS in MiB, {args.saves} saves (factor {args.factor})")
    print(f"{'size':>6}{'warm':>10}{'after':>10}{'peak':>10}{'growth':>10}{'saves/s':>10}{'after / ' + str(first) + 'x':>14}")
    for size, r in results.items():
        print(f"{str(size) + 'x':>6}{r['warm_kib'] / 1024:10.1f}{r['after_kib'] / 1024:10.1f}{r['peak_kib'] / 1024:10.1f}"
              f"{(r['after_kib'] - r['warm_kib']) / 1024:10.1f}{args.saves / r['seconds']:10.1f}"
              f"{r['after_kib'] / results[first]['after_kib']:14.2f}")


if __name__ == "__main__":
    main()

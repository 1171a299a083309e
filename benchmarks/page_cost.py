"""What one request of each page `load.py` drives costs the server, in-process: CPU time and Python
function calls, each next to the bare health endpoint's in the same run.

    python benchmarks/page_cost.py [--requests N] [--rounds R]

`load.py` measures the site under concurrent load, so its ratios move with whatever else the
machine runs. This one sends the same requests through the app's test client (no sockets, no
gunicorn) on a throw-away SQLite site: CPU time is the best of R rounds of N/R requests, and the
Python call count (from cProfile, over 20 requests) does not depend on the machine at all, so two
versions of the code can be compared on a busy machine. The pages: a public deck, a card search,
the check API with a 40-card deck, a finished goldfish game's board (signed in), and `/healthz`.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DECK = ROOT / "data" / "kaijudo" / "decks" / "[2ED]Bull_Rush.o8d"
PROFILED = 20


def site(folder: str):
    """A site on a new SQLite database, upgraded with the catalogues loaded, its app made."""
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    from click.testing import CliRunner

    from deckhub.app import create_app
    from deckhub.cli import main
    result = CliRunner().invoke(main, ["db", "upgrade"])
    if result.exit_code:
        raise SystemExit(result.output)
    return create_app({"SECRET_KEY": "benchmark"})


def pages(app) -> dict:
    """The requests to time, after making what they read: an account, its public deck, a
    goldfish game played out."""
    player = app.test_client()

    def token(path: str) -> str:
        return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', player.get(path).get_data(as_text=True)).group(1)

    decklist = DECK.read_text(encoding="utf-8-sig")
    player.post("/signup", data={"csrf_token": token("/signup"), "username": "bencher",
                                 "password": "correct horse battery", "confirm": "correct horse battery"})
    deck = player.post("/decks/import", data={"csrf_token": token("/decks/import"), "name": "Bull Rush",
                                              "game": "kaijudo", "format": "", "decklist": decklist}).headers["Location"]
    deck_id = int(deck.rsplit("/", 1)[1])
    player.post(f"/decks/{deck_id}/settings", data={"csrf_token": token(f"/decks/{deck_id}/settings"),
                                                    "name": "Bull Rush", "format": "standard", "is_public": "y"})
    board = player.post(f"/goldfish/decks/{deck_id}", data={"csrf_token": token(f"/goldfish/decks/{deck_id}"),
                                                            "seed": "7", "opt_first": "on"}).headers["Location"]
    player.post(f"{board}/play-out", data={"csrf_token": token(board), "step": "0"})
    visitor = app.test_client()
    return {
        "bare (/healthz)": lambda: visitor.get("/healthz"),
        "public deck page": lambda: visitor.get(deck),
        "card search": lambda: visitor.get("/cards?game=kaijudo&q=dragon"),
        "check API": lambda: visitor.post("/api/check", json={"game": "kaijudo", "decklist": decklist}),
        "goldfish board": lambda: player.get(board),
    }


def measure(request, requests: int, rounds: int) -> tuple[float, int]:
    """(best CPU µs a request over the rounds, Python calls a request)."""
    for _ in range(20):
        answer = request()
    if answer.status_code >= 400:
        raise SystemExit(f"{answer.status_code} from a benchmarked page")
    each = max(1, requests // rounds)
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(each):
            request()
        best = min(best, (time.process_time() - started) / each)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(PROFILED):
        request()
    profile.disable()
    return best * 1e6, pstats.Stats(profile).total_calls // PROFILED


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        figures = {name: measure(request, args.requests, args.rounds) for name, request in pages(site(folder)).items()}
    bare_us, bare_calls = figures["bare (/healthz)"]
    print(f"{'page':<18} {'CPU µs':>8} {'× bare':>7} {'calls':>7} {'× bare':>7}")
    for name, (us, calls) in figures.items():
        print(f"{name:<18} {us:8.0f} {us / bare_us:7.2f} {calls:7d} {calls / bare_calls:7.2f}")


if __name__ == "__main__":
    main()

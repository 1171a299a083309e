"""What one request of each page costs the server, in-process: CPU time and Python function calls,
each next to the bare health endpoint's in the same run.

    python benchmarks/page_cost.py [--requests N] [--rounds R] [--database-url URL] [--only "NAME;..."]
                                   [--profile NAME]

`load.py` measures the site under concurrent load, so its ratios move with whatever else the
machine runs. This one sends the same requests through the app's test client (no sockets, no
gunicorn) on a throw-away site (SQLite, or a new database on the PostgreSQL server of
`--database-url`, dropped afterwards): CPU time is the best of R rounds of N/R requests, and the
Python call count (from cProfile, over 20 requests) does not depend on the machine at all, so two
versions of the code can be compared on a busy machine.

The pages: a visitor's public deck, card search and check API, a finished goldfish game's board;
and a signed-in player's: their own deck page and another player's view of it, their collection
(every printing of the four catalogues, with wants and trades), the want & trade page (matched
against another player's public lists), a set checklist, the set editor of a 234-card set,
public decks with and without a card filter, most wanted, and card searches never sent before.
`--profile NAME` prints where one page's time goes (cProfile, by cumulative time).
"""
from __future__ import annotations

import argparse
import cProfile
import itertools
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
PASSWORD = "correct horse battery"
EDITED_SET = ("neopets-tcg", "first-edition")  # 234 cards, 16 fields each (bench_set_editor.py's set)


def site(folder: str, url: str | None = None):
    """A site on a new database (SQLite in `folder` unless `url`), upgraded with the catalogues loaded."""
    os.environ["DATABASE_URL"] = url or f"sqlite:///{folder}/bench.sqlite3"
    from click.testing import CliRunner

    from deckhub.app import create_app
    from deckhub.cli import main
    result = CliRunner().invoke(main, ["db", "upgrade"])
    if result.exit_code:
        raise SystemExit(result.output)
    return create_app({"SECRET_KEY": "benchmark", "DATABASE_URL": os.environ["DATABASE_URL"]})


def _signed_in(app, username: str):
    client = app.test_client()

    def token(path: str) -> str:
        return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', client.get(path).get_data(as_text=True)).group(1)

    answer = client.post("/signup", data={"csrf_token": token("/signup"), "username": username,
                                          "password": PASSWORD, "confirm": PASSWORD})
    assert answer.status_code == 302, answer.status_code
    return client, token


def deck_card(decklist: str) -> str:
    """The first card name of an OCTGN deck file, as a URL's query value (the card filter's)."""
    return re.search(r">([^<>]+)</card>", decklist).group(1).strip().replace(" ", "+")


def fill_collection(app, username: str, trader: str) -> None:
    """`username` owns every printing of every game (wants on one in three, trades on one in four);
    `trader` shows public lists that offer about 60 of the cards wanted and want about 70 of those traded."""
    from deckhub.services import collection, trading
    from deckhub.store import models
    from deckhub.store.db import database, write_transaction
    with app.app_context(), database.connection_context():
        me = models.User.get(models.User.username == username)
        other = models.User.get(models.User.username == trader)
        ids = [p for (p,) in models.Printing.select(models.Printing.id).order_by(models.Printing.id).tuples()]
        mine = {p: {"quantity": 1 + i % 3, "foil_quantity": i % 5 == 0, "want_quantity": 2 if i % 3 == 0 else 0,
                    "trade_quantity": 1 if i % 4 == 0 else 0} for i, p in enumerate(ids)}
        theirs = {p: {"quantity": 2, "foil_quantity": 0, "want_quantity": 1 if i % 40 == 0 else 0,
                      "trade_quantity": 1 if i % 48 == 0 else 0} for i, p in enumerate(ids) if i % 2 == 0}
        with write_transaction():
            collection.write_targets(me, mine)
            collection.write_targets(other, theirs)
        trading.set_lists_public(other, True)


def pages(app) -> dict:
    """The requests to time, after making what they read: an account with its public deck, a
    goldfish game played out and a full collection; a second signed-in player; a visitor."""
    player, token = _signed_in(app, "bencher")
    decklist = DECK.read_text(encoding="utf-8-sig")
    deck = player.post("/decks/import", data={"csrf_token": token("/decks/import"), "name": "Bull Rush",
                                              "game": "kaijudo", "format": "", "decklist": decklist}).headers["Location"]
    deck_id = int(deck.rsplit("/", 1)[1])
    player.post(f"/decks/{deck_id}/settings", data={"csrf_token": token(f"/decks/{deck_id}/settings"),
                                                    "name": "Bull Rush", "format": "standard", "is_public": "y"})
    player.post("/decks/import", data={"csrf_token": token("/decks/import"), "name": "Another", "game": "kaijudo",
                                       "format": "", "decklist": decklist})
    board = player.post(f"/goldfish/decks/{deck_id}", data={"csrf_token": token(f"/goldfish/decks/{deck_id}"),
                                                            "seed": "7", "opt_first": "on"}).headers["Location"]
    player.post(f"{board}/play-out", data={"csrf_token": token(board), "step": "0"})
    viewer, _ = _signed_in(app, "viewer")
    fill_collection(app, "bencher", "viewer")
    visitor = app.test_client()
    card = deck_card(decklist)
    words = (f"zq{i}x" for i in itertools.count())  # queries never sent before
    game, code = EDITED_SET
    kaijudo_set = player.get("/collection/").get_data(as_text=True)
    checklist = re.search(r'href="(/collection/kaijudo/sets/[^"?]+)"', kaijudo_set).group(1)
    return {
        "bare (/healthz)": lambda: visitor.get("/healthz"),
        "public deck page": lambda: visitor.get(deck),
        "card search": lambda: visitor.get("/cards?game=kaijudo&q=dragon"),
        "check API": lambda: visitor.post("/api/check", json={"game": "kaijudo", "decklist": decklist}),
        "goldfish board": lambda: player.get(board),
        "deck page (owner)": lambda: player.get(deck),
        "deck page (other player)": lambda: viewer.get(deck),
        "collection": lambda: player.get("/collection/"),
        "want & trade": lambda: player.get("/collection/wants"),
        "set checklist": lambda: player.get(checklist),
        "set editor": lambda: player.get(f"/games/{game}/sets/{code}/edit"),
        "public decks": lambda: player.get("/decks/public"),
        "public decks, card filter": lambda: player.get(f"/decks/public?card={card}"),
        "most wanted": lambda: player.get("/most-wanted"),
        "card search, new query": lambda: player.get(f"/cards?game=kaijudo&q=dragon+{next(words)}"),
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


def profile(request, lines: int = 45) -> None:
    for _ in range(5):
        request()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(PROFILED):
        request()
    prof.disable()
    pstats.Stats(prof).sort_stats("cumulative").print_stats(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--database-url", default=None, help="a PostgreSQL server's URL (default: SQLite)")
    parser.add_argument("--only", default="", help="page names separated by semicolons (the bare endpoint is always timed)")
    parser.add_argument("--profile", default="", help="print where this page's time goes instead of timing")
    args = parser.parse_args()
    from scale import drop_database, new_database
    with tempfile.TemporaryDirectory() as folder:
        name = "deckhub_page_cost"
        url = new_database(args.database_url, name, folder) if args.database_url else None
        try:
            requests = pages(site(folder, url))
            if args.profile:
                profile(requests[args.profile])
                return
            only = {n.strip() for n in args.only.split(";") if n.strip()}
            figures = {name: measure(request, args.requests, args.rounds) for name, request in requests.items()
                       if not only or name in only or name.startswith("bare")}
        finally:
            if url:
                from deckhub.store.db import database
                if hasattr(database.obj, "close_all"):
                    database.obj.close_all()
                drop_database(args.database_url, name)
    bare_us, bare_calls = figures["bare (/healthz)"]
    print(f"{'page':<26} {'CPU µs':>8} {'× bare':>7} {'calls':>7} {'× bare':>7}")
    for name, (us, calls) in figures.items():
        print(f"{name:<26} {us:8.0f} {us / bare_us:7.2f} {calls:7d} {calls / bare_calls:7.2f}")


if __name__ == "__main__":
    main()

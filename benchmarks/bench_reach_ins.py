"""What DeckHub's two reaches into its libraries' internals save, each against the public way.

    python benchmarks/bench_reach_ins.py [--iterations N] [--rounds R]

- `store.db.PreparedSelect` (peewee): the signed-in user (every signed-in request) and a deck with
  its owner and newest version (the deck page) read with the SQL written once, against building
  the same peewee query and calling its public `.first()` every time.
- `web.form_tokens` (Flask-WTF): a finished goldfish board, a kept page, asked for by a signed-in
  browser with its form token signed once and reused (DeckHub's setting, no time limit) against
  Flask-WTF signing it on every request (what it does when tokens have a time limit).

Both sides run in the same process on a throw-away SQLite database, call by call in turn for
`--rounds` rounds; each figure is the median of the rounds' medians, and the ratio is the public
way's time over the reach-in's (above 1: the reach-in is faster).
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deckhub.app import create_app  # noqa: E402
from deckhub.store.db import database  # noqa: E402
from deckhub.store.schema import upgrade  # noqa: E402

DECK = Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks" / "[2ED]Bull_Rush.o8d"


def token(client, path: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', client.get(path).get_data(as_text=True)).group(1)


def prepare(client) -> str:
    """An account, a public deck and a finished goldfish game of it; returns the board's path."""
    password = "correct horse battery"
    client.post("/signup", data={"csrf_token": token(client, "/signup"), "username": "bench",
                                 "password": password, "confirm": password})
    answer = client.post("/decks/import", data={"csrf_token": token(client, "/decks/import"), "name": "Bull Rush",
                                                "game": "kaijudo", "format": "",
                                                "decklist": DECK.read_text(encoding="utf-8-sig")})
    deck = answer.headers["Location"]
    answer = client.post(f"/goldfish{deck}", data={"csrf_token": token(client, deck), "seed": "7", "opt_first": "on"})
    board = answer.headers["Location"]
    client.post(f"{board}/play-out", data={"csrf_token": token(client, board), "step": "0"})
    return board


def rounds(pairs: dict[str, tuple], iterations: int, count: int) -> dict[str, tuple[float, float]]:
    """name -> (reach-in µs, public µs): the median of `count` rounds' medians, each round timing
    the two ways call by call in turn, so a machine's changing load falls on both alike."""
    seen: dict[str, tuple[list, list]] = {name: ([], []) for name in pairs}
    for _ in range(count):
        for name, (reach_in, public) in pairs.items():
            times: tuple[list, list] = ([], [])
            for i in range(iterations + 20):
                for side, call in enumerate((reach_in, public)):
                    start = time.perf_counter()
                    call()
                    if i >= 20:  # (a warm-up first)
                        times[side].append(time.perf_counter() - start)
            seen[name][0].append(statistics.median(times[0]) * 1e6)
            seen[name][1].append(statistics.median(times[1]) * 1e6)
    return {name: (statistics.median(a), statistics.median(b)) for name, (a, b) in seen.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    from deckhub.services.catalogue_loading import load_games
    from deckhub.services import decks, sessions
    from deckhub.store import models

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{tmp}/deckhub.sqlite3"})
        upgrade(database.obj)
        with database.connection_context():
            assert load_games(["kaijudo"], echo=lambda *_: None) == 0
        client = app.test_client()
        board = prepare(client)
        with app.app_context(), database.connection_context():
            deck = models.Deck.get()
            login = models.LoginSession.get()
            user = models.User.get_by_id(login.user_id)
            signed_in = (user.id, user.session_version, login.key)
            assert sessions._SIGNED_IN.first(*signed_in) is not None and decks._fetch(deck.id) is not None
            queries = rounds({
                "signed-in user (query)": (lambda: sessions._SIGNED_IN.first(*signed_in),
                                           lambda: sessions._SIGNED_IN.build(*signed_in).first()),
                "deck with newest version (query)": (lambda: decks._WITH_NEWEST_VERSION.first(deck.id),
                                                     lambda: decks._WITH_NEWEST_VERSION.build(deck.id).first()),
            }, args.iterations, args.rounds)

        def page(limit):
            def get():
                app.config["WTF_CSRF_TIME_LIMIT"] = limit
                assert client.get(board).status_code == 200
            return get

        pages = rounds({"finished goldfish board, signed in (page)": (page(None), page(3600))},
                       args.iterations, args.rounds)
    print(f"{'':<44}{'reach-in µs':>12}{'public µs':>11}{'public / reach-in':>19}")
    for name, (reach_in, public) in {**queries, **pages}.items():
        print(f"{name:<44}{reach_in:>12.1f}{public:>11.1f}{public / reach_in:>18.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

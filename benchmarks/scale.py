"""Pages on a site of 1x, 10x and 100x a community: does a page cost what its own data costs?

    python benchmarks/scale.py [--sizes 1,10,100] [--factor 1.0] [--database-url URL] [--requests 7]
                               [--profile NAME] [--only "NAME;NAME"] [--keep] [--cpu]

1x is 100 users, 1,000 decks, 3,000 deck versions, 10,000 collection rows and 100 goldfish games
(100x: 10,000 users, 100,000 decks, 300,000 versions, 1,000,000 collection rows, 10,000 games);
`--factor 0.1` makes every size ten times smaller, to run quickly. Each size gets a new database
(SQLite in a temporary folder, or with `--database-url postgresql://user@host:port/db` a new
database on that server, dropped afterwards), upgraded with the catalogues loaded, then filled
through the models' bulk inserts. Every page and API list of issue 34 is then requested through
the app's test client by a signed-in player (their own deck, someone else's, public decks with and
without a card filter, copies sort, most wanted, want & trade, collection, checklist, card search
with queries never sent before, the set editor; and want & trade right after a player changed an offer
of a card I want, so its matches are worked out again), and the median time of `--requests` requests is printed per size,
next to the bare `/healthz` of the same run, with each page's time at the largest size divided by
its time at the smallest (the target is at most 2). At the largest size every statement the pages
ran is explained, and the plan of any statement that reads a whole site-sized table is printed;
`--profile NAME` also prints where that page's time goes at each size (cProfile, by cumulative time).
`--only "NAME;NAME"` times only those pages (and the bare endpoint). `--keep` keeps each size's
filled database (PostgreSQL: `deckhub_scale_N`; SQLite: in the system's temporary folder) and
uses it again on the next `--keep` run of the same size and factor, so a change can be timed
against the same rows without filling them again (drop them with `DROP DATABASE` or delete the files).
`--cpu` times each request's CPU instead of its wall time: this process's and, on PostgreSQL, that
of the server processes serving the site (read from /proc, so the server runs on this machine);
on a machine busy with other work the CPU a page costs moves far less than its wall time.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import itertools
import logging
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PER_1X = {"users": 100, "decks": 1000, "versions_per_deck": 3, "owned": 10_000, "goldfish": 100}
GAME = "kaijudo"
PASSWORD = "correct horse battery"
BATCH = 1000
SHOWN = ("public decks, card filter", "want & trade")  # pages whose every plan is printed (index evidence)
SITE_TABLES = ("deck", "deck_version", "deck_card", "owned_card", "owned_set", "goldfish_session", "user", "deck_copy")


class Statements(logging.Handler):
    """The SQL statements run while it listens (peewee logs each as (sql, params) at DEBUG)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.seen: list[tuple[str, tuple]] = []

    def emit(self, record):
        if isinstance(record.msg, tuple):
            self.seen.append((record.msg[0], tuple(record.msg[1] or ())))

    def __enter__(self):
        logger = logging.getLogger("peewee")
        self._level, self._propagate = logger.level, logger.propagate
        logger.addHandler(self)
        logger.setLevel(logging.DEBUG)
        logger.propagate = False  # counted here, not printed by the site's log handlers
        return self

    def __exit__(self, *exc):
        logger = logging.getLogger("peewee")
        logger.removeHandler(self)
        logger.setLevel(self._level)
        logger.propagate = self._propagate


def new_database(base_url: str | None, name: str, folder: str) -> str:
    if not base_url:
        path = Path(folder) / f"{name}.sqlite3"
        path.unlink(missing_ok=True)  # one a failed --keep run left
        return f"sqlite:///{path}"
    import psycopg
    parts = urlsplit(base_url)
    admin = psycopg.connect(base_url, autocommit=True)
    with admin.cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cur.execute(f'CREATE DATABASE "{name}"')
    admin.close()
    return urlunsplit(parts._replace(path=f"/{name}"))


def kept_database(base_url: str | None, name: str, folder: str) -> str | None:
    """The URL of a database an earlier `--keep` run filled, or None."""
    if not base_url:
        path = Path(folder) / f"{name}.sqlite3"
        return f"sqlite:///{path}" if path.exists() else None
    import psycopg
    with psycopg.connect(base_url, autocommit=True) as admin:
        found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
    return urlunsplit(urlsplit(base_url)._replace(path=f"/{name}")) if found else None


def drop_database(base_url: str | None, name: str) -> None:
    if base_url:
        import psycopg
        admin = psycopg.connect(base_url, autocommit=True)
        with admin.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def make_site(url: str):
    os.environ["DATABASE_URL"] = url
    from click.testing import CliRunner

    from deckhub.app import create_app
    from deckhub.cli import main
    result = CliRunner().invoke(main, ["db", "upgrade"])
    if result.exit_code:
        raise SystemExit(result.output)
    return create_app({"SECRET_KEY": "benchmark", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False})


def _chunks(rows, size=BATCH):
    it = iter(rows)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def fill(scale: float, rng: random.Random) -> dict:
    """The site's rows, bulk-inserted; returns what the pages need (my decks, another's deck...)."""
    from deckhub.services.accounts import create_user
    from deckhub.services import tallies
    from deckhub.services.decks import card_counts
    from deckhub.store import models as M
    from deckhub.store.db import database

    n = {k: max(2, int(v * scale)) for k, v in PER_1X.items() if k != "versions_per_deck"}
    me = create_user("bencher", PASSWORD)
    hashed = me.password_hash
    keys = [k for (k,) in M.Card.select(M.Card.key).where(M.Card.game == GAME).tuples()]
    printings = [p for (p,) in M.Printing.select(M.Printing.id).join(M.Card).where(M.Card.game == GAME).tuples()]
    now = M.utcnow()
    with database.atomic():
        for chunk in _chunks({"username": f"player{i}", "name_key": f"player{i}", "password_hash": hashed,
                              "created_at": now} for i in range(n["users"])):
            M.User.insert_many(chunk).execute()
    users = [u for (u,) in M.User.select(M.User.id).where(M.User.id != me.id).tuples()]
    with database.atomic():
        for chunk in _chunks({"user": u} for u in users[::2]):
            M.PublicLists.insert_many(chunk).execute()

    def deck_data():
        chosen = rng.sample(keys, 12)
        return {"game": GAME, "sections": {"Deck": [{"card": k, "qty": rng.randint(1, 4)} for k in chosen]}}

    first_deck = (M.Deck.select(M.Deck.id).order_by(M.Deck.id.desc()).scalar() or 0) + 1
    with database.atomic():
        for start in range(0, n["decks"], BATCH):
            ids = range(first_deck + start, first_deck + min(n["decks"], start + BATCH))
            decks, versions, cards = [], [], []
            for deck_id in ids:
                created = now - dt.timedelta(minutes=n["decks"] - (deck_id - first_deck))
                decks.append({"id": deck_id, "owner": rng.choice(users), "game": GAME, "format": "standard",
                              "name": f"Deck {deck_id}", "description": "", "is_public": deck_id % 3 == 0,
                              "share_token": f"bench{deck_id}", "created_at": created, "updated_at": created,
                              "copies": rng.randint(0, 5) if deck_id % 3 == 0 else 0})
                for number in range(1, PER_1X["versions_per_deck"] + 1):
                    data = deck_data()
                    versions.append({"deck": deck_id, "number": number, "data": data, "created_at": created})
                cards += [{"deck": deck_id, "game": GAME, "card_key": k, "qty": q, "is_public": deck_id % 3 == 0,
                           "created_at": created} for k, q in card_counts(data).items()]
            M.Deck.insert_many(decks).execute()
            for chunk in _chunks(versions):
                M.DeckVersion.insert_many(chunk).execute()
            for chunk in _chunks(cards):
                M.DeckCard.insert_many(chunk).execute()
        if database.param == "%s":  # explicit ids: move PostgreSQL's sequence past them
            database.execute_sql("SELECT setval(pg_get_serial_sequence('\"deck\"', 'id'), (SELECT MAX(id) FROM deck))")
    per_user = max(1, n["owned"] // len(users))
    with database.atomic():
        rows = ({"owner": u, "printing": p, "quantity": rng.randint(0, 4), "foil_quantity": 0,
                 "want_quantity": rng.choice((0, 0, 0, 1, 2)), "trade_quantity": rng.choice((0, 0, 0, 1))}
                for u in users for p in rng.sample(printings, min(per_user, len(printings))))
        for chunk in _chunks(rows):
            M.OwnedCard.insert_many(chunk).execute()
        for chunk in _chunks({"owner": rng.choice(users), "game": GAME, "deck_data": deck_data(), "seed": i,
                              "options": {}, "actions": [], "share_token": f"gf{i}", "created_at": now,
                              "updated_at": now} for i in range(n["goldfish"])):
            M.GoldfishSession.insert_many(chunk).execute()
    tallies.recount()  # the kept counts (most wanted, public decks) of the rows inserted around the services
    # my own: two decks through the deck service, and a collection with wants and trades
    from deckhub.core.decklist import Deck
    from deckhub.services import collection
    from deckhub.services.decks import create_deck
    mine = Deck.from_json(deck_data())
    own = create_deck(me.id, GAME, "standard", "Mine", deck=mine, is_public=True).row.id
    create_deck(me.id, GAME, "standard", "Also mine", deck=Deck.from_json(deck_data()))
    for p in rng.sample(printings, min(300, len(printings))):
        collection.set_quantities(me, p, quantity=rng.randint(0, 3), want_quantity=rng.choice((0, 1, 2)),
                                  trade_quantity=rng.choice((0, 1)))
    # a public player who offers a card I want, whose offer changes before each request of one page
    wanted = next(p for p, o in collection.owned_for(me, printings).items() if o.want_quantity)
    trader = users[0]  # every other player shows their lists, the first among them
    collection.set_quantities(trader, wanted, quantity=4, trade_quantity=1)
    other = M.Deck.select(M.Deck.id).where((M.Deck.is_public == True) & (M.Deck.owner != me.id)).first().id  # noqa: E712
    card = M.Card.get((M.Card.game == GAME) & (M.Card.key == next(iter(mine.sections["Deck"]))))
    code = M.CardSet.select(M.CardSet.code).where(M.CardSet.game == GAME).order_by(M.CardSet.position).first().code
    return {"own": own, "other": other, "card": card.name, "set": code, "n": n, "wanted": wanted, "trader": trader}


def settle(database) -> None:
    """The filled tables as a running site has them: the planner's statistics, and on PostgreSQL the
    dead rows of the fill gone. The fill writes every card row twice (inserted, then given its
    deck's visibility by `tallies.recount`), leaving a dead copy of each; a running site's autovacuum
    clears those, and would otherwise do so in the middle of the timings, while index-only scans
    visit the table for every row whose page it has not marked all-visible yet."""
    if database.param == "%s":
        database.execute_sql("VACUUM ANALYZE")  # outside a transaction: peewee runs it in autocommit
    else:
        database.execute_sql("ANALYZE")


def kept_site(scale: float) -> dict:
    """What `fill` returned, read back from a database an earlier `--keep` run filled."""
    from deckhub.store import models as M
    n = {k: max(2, int(v * scale)) for k, v in PER_1X.items() if k != "versions_per_deck"}
    me = M.User.get(M.User.username == "bencher")
    own = M.Deck.get((M.Deck.owner == me.id) & (M.Deck.name == "Mine"))
    latest = own.versions.order_by(M.DeckVersion.number.desc()).first()
    other = M.Deck.select(M.Deck.id).where((M.Deck.is_public == True) & (M.Deck.owner != me.id)).first().id  # noqa: E712
    card = M.Card.get((M.Card.game == GAME) & (M.Card.key == latest.data["sections"]["Deck"][0]["card"]))
    code = M.CardSet.select(M.CardSet.code).where(M.CardSet.game == GAME).order_by(M.CardSet.position).first().code
    # the public player offering a card I want (as `fill` makes them; a site kept before it did, too)
    from deckhub.services import collection
    trader = M.User.select(M.User.id).where(M.User.id != me.id).order_by(M.User.id).first().id
    O = M.OwnedCard
    wanted = (O.select(O.printing).where((O.owner == me.id) & (O.want_quantity > 0)).order_by(O.printing)
              .first().printing_id)
    collection.set_quantities(trader, wanted, quantity=4, trade_quantity=1)
    return {"own": own.id, "other": other, "card": card.name, "set": code, "n": n, "wanted": wanted, "trader": trader}


def pages(site: dict, app) -> dict:
    from deckhub.services import collection
    from deckhub.store.db import database
    words = (f"zq{i}x" for i in itertools.count())  # card searches never sent before
    card = site["card"].replace(" ", "+")
    offers = itertools.cycle((2, 1))

    def after_an_offer_changed() -> str:
        """A player changes their offer of a card I want (untimed): my kept matches no longer hold."""
        with app.app_context(), database.connection_context():
            collection.set_quantities(site["trader"], site["wanted"], trade_quantity=next(offers))
        return "/collection/wants"

    return {
        "bare (/healthz)": "/healthz",
        "deck page (owner)": f"/decks/{site['own']}",
        "deck page (other viewer)": f"/decks/{site['other']}",
        "my decks": "/decks/",
        "public decks": "/decks/public",
        "public decks, page 50": "/decks/public?page=50",
        "public decks, most copied": "/decks/public?sort=copied",
        "public decks, card filter": f"/decks/public?card={card}",
        "API public decks, card filter": f"/api/v1/decks/public?card={card}",
        "most wanted": "/most-wanted",
        "want & trade": "/collection/wants",
        "want & trade, an offer just changed": after_an_offer_changed,
        "collection": "/collection/",
        "set checklist": f"/collection/{GAME}/sets/{site['set']}",
        "set editor": f"/games/{GAME}/sets/{site['set']}/edit",
        "card search, new query": lambda: f"/cards?game={GAME}&q=dragon+{next(words)}",
    }


def cpu_clock(url: str):
    """A clock of CPU seconds: this process's, plus on PostgreSQL the server processes serving
    this database's connections (read from /proc: the server must run on this machine)."""
    if not url.startswith("postgres"):
        return time.process_time
    import psycopg
    with psycopg.connect(url, autocommit=True) as admin:
        pids = [pid for (pid,) in admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND backend_type = 'client backend' AND pid <> pg_backend_pid()").fetchall()]

    def clock() -> float:
        server = 0
        for pid in pids:
            try:
                with open(f"/proc/{pid}/schedstat") as f:
                    server += int(f.read().split()[0])  # nanoseconds on a CPU
            except OSError:
                raise SystemExit("--cpu reads the PostgreSQL server's CPU from /proc: run it on the "
                                 "server's machine, as a user who may read its processes") from None
        return time.process_time() + server / 1e9
    return clock


def time_pages(client, urls: dict, requests: int, cpu_of: str | None = None) -> dict[str, float]:
    """Each page's median milliseconds: of wall time, or with `cpu_of` (the site's database URL) of
    CPU (see `cpu_clock`)."""
    out = {}
    for name, url in urls.items():
        path = url() if callable(url) else url
        assert client.get(path).status_code in (200, 404), path  # warm (page 50 may not exist at 1x)
        clock = cpu_clock(cpu_of) if cpu_of else time.perf_counter
        times = []
        for _ in range(requests):
            path = url() if callable(url) else url
            start = clock()
            client.get(path)
            times.append(clock() - start)
        out[name] = statistics.median(times) * 1000
    return out


def profile(client, url, title: str) -> None:
    """Where one page's time goes, over a few requests (cProfile, by cumulative time)."""
    import cProfile
    import pstats
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(5):
        client.get(url() if callable(url) else url)
    profiler.disable()
    print(f"\n-- profile of {title} (5 requests)")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(25)


def site_scans(client, urls: dict) -> list[tuple[str, str, str]]:
    """(page, statement, plan) of every statement the pages run that reads a whole site table."""
    from deckhub.store.db import database
    found = []
    for name, url in urls.items():
        with Statements() as seen:
            client.get(url() if callable(url) else url)
        for sql, params in seen.seen:
            if not sql.lstrip().upper().startswith("SELECT"):
                continue
            if database.param == "%s":
                plan = "\n".join(r[0] for r in database.execute_sql("EXPLAIN " + sql, params).fetchall())
                hits = [t for t in SITE_TABLES if re.search(rf'Seq Scan on "?{t}"? ', plan)]
            else:
                rows = database.execute_sql("EXPLAIN QUERY PLAN " + sql, params).fetchall()
                plan = "\n".join(r[-1] for r in rows)
                aliases = dict((a, t) for t, a in re.findall(r'"(\w+)" AS "(\w+)"', sql))
                hits = [aliases.get(m, m) for m in re.findall(r"^SCAN (\w+)(?! USING)", plan, re.M)
                        if aliases.get(m, m) in SITE_TABLES]
            if hits or (name in SHOWN and any(f'"{t}"' in sql for t in ("deck_card", "owned_card"))):
                found.append((name, sql[:300], plan))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,10,100")
    parser.add_argument("--factor", type=float, default=1.0, help="scale every size (0.1: ten times smaller)")
    parser.add_argument("--database-url", default=None, help="a PostgreSQL server's URL (default: SQLite)")
    parser.add_argument("--requests", type=int, default=7)
    parser.add_argument("--profile", default=None, help="a page's name: print where its time goes at each size")
    parser.add_argument("--only", default=None, help='time only these pages ("NAME;NAME"; the bare endpoint always)')
    parser.add_argument("--cpu", action="store_true",
                        help="time CPU (this process's and the PostgreSQL server's for the site), not wall time")
    parser.add_argument("--keep", action="store_true",
                        help="keep each size's filled database, and use one kept by an earlier run")
    args = parser.parse_args()
    only = {n.strip() for n in args.only.split(";") if n.strip()} if args.only else None
    sizes = [int(s) for s in args.sizes.split(",")]
    from deckhub.store.db import database
    results: dict[int, dict[str, float]] = {}
    scans = []
    with contextlib.ExitStack() as stack:
        folder = (tempfile.gettempdir() if args.keep
                  else stack.enter_context(tempfile.TemporaryDirectory()))
        for size in sizes:
            name = f"deckhub_scale_{size}" + (f"_f{args.factor:g}".replace(".", "_") if args.factor != 1 else "")
            kept = kept_database(args.database_url, name, folder) if args.keep else None
            url = kept or new_database(args.database_url, name, folder)
            try:
                app = make_site(url)
                started = time.perf_counter()
                with app.app_context(), database.connection_context():
                    if kept:
                        site = kept_site(size * args.factor)
                    else:
                        site = fill(size * args.factor, random.Random(size))
                        settle(database)
                print(f"{size}x: {site['n']} {'kept from an earlier run' if kept else 'filled'} "
                      f"in {time.perf_counter() - started:.1f} s", flush=True)
                client = app.test_client()
                assert client.post("/login", data={"username": "bencher", "password": PASSWORD}).status_code == 302
                urls = {k: v for k, v in pages(site, app).items() if only is None or k in only or k.startswith("bare")}
                if only and len(urls) != len(only) + 1:
                    raise SystemExit(f"--only names pages of {', '.join(pages(site, app))}")
                results[size] = time_pages(client, urls, args.requests, url if args.cpu else None)
                if args.profile:
                    profile(client, urls[args.profile], f"{args.profile} at {size}x")
                if size == sizes[-1]:
                    with app.app_context():
                        scans = site_scans(client, urls)
            finally:
                if not database.is_closed():
                    database.close()
                if hasattr(database.obj, "close_all"):
                    database.obj.close_all()
                if not args.keep:
                    drop_database(args.database_url, name)
    backend = "PostgreSQL" if args.database_url else "SQLite"
    first, last = sizes[0], sizes[-1]
    measure = "median CPU ms" if args.cpu else "median ms"
    print(f"\n{backend}, {measure} of {args.requests} requests (factor {args.factor}); ratio = {last}x / {first}x")
    print(f"{'page':34}" + "".join(f"{str(s) + 'x':>10}" for s in sizes) + f"{'ratio':>8}{'x bare':>9}")
    for name in results[first]:
        ratio = results[last][name] / results[first][name]
        bare = results[last][name] / results[last]["bare (/healthz)"]
        print(f"{name:34}" + "".join(f"{results[s][name]:10.1f}" for s in sizes) + f"{ratio:8.2f}{bare:9.1f}")
    print(f"\nPlans at {last}x of the card filter's and trade matching's statements, and of any statement "
          "that reads a whole site-sized table:")
    for name, sql, plan in scans:
        print(f"\n-- {name}: {sql}\n{plan}")


if __name__ == "__main__":
    main()

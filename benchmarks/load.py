"""Load on the running site, from localhost: throughput, latency percentiles, errors, lost updates.

    python benchmarks/load.py [--duration 10] [--clients 16,64] [--workers 2] [--threads 1] [--database-url URL]
                              [--short] [--only "NAME;..."]

Starts DeckHub (`deckhub serve --workers N --threads T`, gunicorn) on a throw-away database with the
catalogues loaded, and a bare Flask endpoint served the same way (N processes of T threads), both on
127.0.0.1; drives each scenario with C concurrent keep-alive clients for a bounded time; then has
many clients press the same collection "+" at once and checks that the final quantity equals the
number of presses (no lost update). Figures are printed next to the bare endpoint's, measured in
the same run, because absolute times on a shared machine drift. `--short` is the form CI runs (a few seconds).
Only loopback addresses are used; every loop is bounded in time and count.

The pages are a visitor's (the kept public deck page, a card search, the check API) and a signed-in
player's (the goldfish board; their deck page, and another signed-in player's view of it; their
collection of every printing with wants and trades, the want & trade page matched against another
player's public lists, a set checklist, the set editor of a 234-card set, public decks with and
without a card filter, most wanted, card searches never sent before). Each row gives latency
percentiles and the server's CPU per request: the CPU time (user + system, from /proc) its gunicorn
processes spent during the row, divided by the requests answered; on a busy machine the CPU ratio
to the bare endpoint's is the steadier figure.
"""
from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"
DECK = ROOT / "data" / "kaijudo" / "decks" / "[2ED]Bull_Rush.o8d"
MAX_REQUESTS_PER_CLIENT = 200_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_for(port: int, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing answered on {HOST}:{port} within {timeout} s")


class Client:
    """A keep-alive HTTP client with a cookie jar of one site."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: dict | str | None = None, json_body: bool = False,
                headers: dict | None = None) -> tuple[int, str, dict]:
        hdrs = dict(headers or {})
        if self.cookies:
            hdrs["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = json.dumps(body) if json_body else (body if isinstance(body, str) else urlencode(body))
            hdrs["Content-Type"] = "application/json" if json_body else "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=hdrs)
                resp = self.conn.getresponse()
                text = resp.read().decode("utf-8", "replace")
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
                if attempt == 2:
                    raise
        for value in resp.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return resp.status, text, dict(resp.headers)

    def csrf(self, path: str) -> str:
        _, page, _ = self.request("GET", path)
        match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
        if not match:
            raise SystemExit(f"no CSRF token on {path}")
        return match.group(1)


def start_servers(workers: int, database_url: str, tmp: Path,
                  threads: int = 1) -> tuple[int, int, list[subprocess.Popen]]:
    env = {**os.environ, "DATABASE_URL": database_url, "DECKHUB_SECRET_KEY": "load-benchmark-only-" + "x" * 24,
           "DECKHUB_INSECURE_COOKIES": "1"}  # plain HTTP on loopback
    # the schema and the catalogues (production mode does not upgrade a database by itself)
    subprocess.run([sys.executable, "-m", "deckhub.cli", "db", "upgrade"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    site, bare = free_port(), free_port()
    log = open(tmp / "servers.log", "w")
    procs = [
        subprocess.Popen([sys.executable, "-m", "deckhub.cli", "serve", "--host", HOST, "--port", str(site),
                          "--workers", str(workers), "--threads", str(threads)],
                         env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True),
        subprocess.Popen([sys.executable, "-m", "gunicorn", "--bind", f"{HOST}:{bare}", "--workers", str(workers),
                          "--threads", str(threads), "--worker-class", "gthread", "bare_app:app"],
                         cwd=Path(__file__).parent, env=env, stdout=log, stderr=subprocess.STDOUT,
                         start_new_session=True),
    ]
    try:
        wait_for(site)
        wait_for(bare)
    except SystemExit:
        stop(procs)
        print((tmp / "servers.log").read_text()[-3000:], file=sys.stderr)
        raise
    return site, bare, procs


def cpu_seconds(procs: list[subprocess.Popen]) -> float:
    """User + system CPU seconds of every live process in the servers' process groups (master and
    workers), from /proc; 0 where /proc is not there."""
    groups = {p.pid for p in procs}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) in groups:  # field 5 of stat: the process group (each server is its own session)
            total += int(fields[11]) + int(fields[12])  # utime, stime (children are counted as they exit)
    return total / tick


def stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for p in procs:
        try:
            p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)


def prepare(port: int) -> dict:
    """An account, a public deck, a finished goldfish game and a printing to count."""
    c = Client(port)
    token = c.csrf("/signup")
    status, _, _ = c.request("POST", "/signup", {"csrf_token": token, "username": "loadtester",
                                                 "password": "correct horse battery", "confirm": "correct horse battery"})
    assert status == 302, status
    token = c.csrf("/decks/import")
    status, _, headers = c.request("POST", "/decks/import", {"csrf_token": token, "name": "Bull Rush", "game": "kaijudo",
                                                             "format": "", "decklist": DECK.read_text(encoding="utf-8-sig")})
    deck_path = headers["Location"]
    deck_id = int(deck_path.rsplit("/", 1)[1])
    token = c.csrf(f"/decks/{deck_id}/settings")
    c.request("POST", f"/decks/{deck_id}/settings", {"csrf_token": token, "name": "Bull Rush", "format": "standard",
                                                     "is_public": "y"})
    token = c.csrf(f"/goldfish/decks/{deck_id}")
    _, _, headers = c.request("POST", f"/goldfish/decks/{deck_id}", {"csrf_token": token, "seed": "7", "opt_first": "on"})
    board = headers["Location"]
    token = c.csrf(board)
    c.request("POST", f"{board}/play-out", {"csrf_token": token, "step": "0"})
    _, page, _ = c.request("GET", "/games/kaijudo/cards/blade-seer")
    printing = int(re.search(r'name="printing" value="(\d+)"', page).group(1))
    token = c.csrf("/decks/import")
    c.request("POST", "/decks/import", {"csrf_token": token, "name": "Another", "game": "kaijudo", "format": "",
                                        "decklist": DECK.read_text(encoding="utf-8-sig")})
    viewer = Client(port)
    token = viewer.csrf("/signup")
    status, _, _ = viewer.request("POST", "/signup", {"csrf_token": token, "username": "loadviewer",
                                                      "password": "correct horse battery",
                                                      "confirm": "correct horse battery"})
    assert status == 302, status
    _, page, _ = c.request("GET", "/collection/")
    checklist = re.search(r'href="(/collection/kaijudo/sets/[^"?]+)"', page).group(1)
    return {"cookies": dict(c.cookies), "viewer": dict(viewer.cookies), "deck": deck_path, "board": board,
            "printing": printing, "csrf": c.csrf("/collection/"), "decklist": DECK.read_text(encoding="utf-8-sig"),
            "checklist": checklist}


def fill_collections(database_url: str) -> None:
    """The load tester owns every printing (wants and trades among them); the viewer shows public
    lists matching some of them (page_cost.py's collections, written in-process to the same database)."""
    os.environ["DATABASE_URL"] = database_url
    from benchmarks.page_cost import fill_collection
    from deckhub.app import create_app
    fill_collection(create_app({"SECRET_KEY": "load-benchmark-fill", "DATABASE_URL": database_url}),
                    "loadtester", "loadviewer")


def scenarios(state: dict) -> dict:
    """name -> (method, path (or a function giving a new one per request), body, JSON body, who: None
    for a visitor, "owner" or "viewer" for a signed-in player)."""
    from benchmarks.page_cost import EDITED_SET, deck_card
    words = itertools.count()
    card = deck_card(state["decklist"])
    return {
        "deck page": ("GET", state["deck"], None, False, None),
        "card search": ("GET", "/cards?game=kaijudo&q=dragon", None, False, None),
        "check API": ("POST", "/api/check", {"game": "kaijudo", "decklist": state["decklist"]}, True, None),
        "goldfish board (replay)": ("GET", state["board"], None, False, "owner"),
        "deck page (owner)": ("GET", state["deck"], None, False, "owner"),
        "deck page (other player)": ("GET", state["deck"], None, False, "viewer"),
        "collection": ("GET", "/collection/", None, False, "owner"),
        "want & trade": ("GET", "/collection/wants", None, False, "owner"),
        "set checklist": ("GET", state["checklist"], None, False, "owner"),
        "set editor": ("GET", "/games/{}/sets/{}/edit".format(*EDITED_SET), None, False, "owner"),
        "public decks": ("GET", "/decks/public", None, False, "owner"),
        "public decks, card filter": ("GET", f"/decks/public?card={card}", None, False, "owner"),
        "most wanted": ("GET", "/most-wanted", None, False, "owner"),
        "card search, new query": ("GET", lambda: f"/cards?game=kaijudo&q=dragon+zq{next(words)}x", None, False,
                                   "owner"),
    }


def drive(port: int, clients: int, duration: float, request, cookies: dict | None = None, warmup: float = 0.5,
          cpu=None) -> dict:
    """`clients` keep-alive clients repeat one request for `duration` seconds (after a short
    unmeasured warm-up, so each worker's first-use work is not counted as latency); `cpu()` gives
    the server's CPU seconds so far, read before and after the measured part."""
    if warmup:
        drive(port, clients, warmup, request, cookies, warmup=0)
    method, path, body, is_json, auth = request
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    start_gate = threading.Barrier(clients + 1)
    deadline = [0.0]

    def run(i: int) -> None:
        c = Client(port)
        if auth and cookies:
            c.cookies.update(cookies)
        start_gate.wait()
        for _ in range(MAX_REQUESTS_PER_CLIENT):
            if time.perf_counter() >= deadline[0]:
                break
            t = time.perf_counter()
            try:
                status, _, _ = c.request(method, path() if callable(path) else path, body, is_json)
                if status >= 400:
                    errors[i] += 1
            except Exception:
                errors[i] += 1
            latencies[i].append(time.perf_counter() - t)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    deadline[0] = time.perf_counter() + duration
    cpu_before = cpu() if cpu else 0.0
    begin = time.perf_counter()
    start_gate.wait()
    for t in threads:
        t.join(duration + 60)
    elapsed = time.perf_counter() - begin
    cpu_used = (cpu() - cpu_before) if cpu else float("nan")
    all_lat = sorted(x for part in latencies for x in part)
    n = len(all_lat)

    def pct(p: float) -> float:
        return round(1000 * all_lat[min(n - 1, max(0, round(p / 100 * n) - 1))], 2) if n else float("nan")
    return {"requests": n, "throughput": round(n / elapsed, 1), "p50_ms": pct(50), "p95_ms": pct(95),
            "p99_ms": pct(99), "errors": sum(errors), "cpu_ms": round(1000 * cpu_used / n, 3) if n else float("nan")}


def _quantity(port: int, state: dict) -> int:
    """The load tester's copies of the pressed printing (a press of +0 answers the quantity)."""
    c = Client(port)
    c.cookies.update(state["cookies"])
    _, body, _ = c.request("POST", "/collection/adjust", {"csrf_token": state["csrf"], "printing": state["printing"],
                                                          "step": "quantity:0", "next": "/collection/"},
                           headers={"Accept": "application/json"})
    try:
        return json.loads(body)["quantity"]
    except (ValueError, KeyError):
        _, page, _ = c.request("GET", "/games/kaijudo/cards/blade-seer")
        return int(re.search(r'class="owned-value"[^>]*>(\d+)<', page).group(1))


def lost_updates(port: int, state: dict, clients: int, presses: int) -> dict:
    """Many clients press the same '+' at once; the final quantity must equal the presses."""
    done = [0] * clients
    gate = threading.Barrier(clients)
    start = _quantity(port, state)  # the collection filled for the pages may hold copies already

    def run(i: int) -> None:
        c = Client(port)
        c.cookies.update(state["cookies"])
        gate.wait()
        for _ in range(presses):
            status, _, _ = c.request("POST", "/collection/adjust", {"csrf_token": state["csrf"], "printing": state["printing"],
                                                                    "step": "quantity:1", "next": "/collection/"},
                                     headers={"Accept": "application/json"})
            if status == 200:
                done[i] += 1
    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    final = _quantity(port, state) - start
    accepted = sum(done)
    return {"clients": clients, "presses": clients * presses, "accepted": accepted, "final": final,  # copies added
            "lost": accepted - final}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per scenario and client count")
    parser.add_argument("--clients", default="16,64", help="comma-separated concurrent client counts")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1, help="threads a worker process (both servers)")
    parser.add_argument("--database-url", default=None, help="default: a throw-away SQLite file")
    parser.add_argument("--short", action="store_true", help="the quick form CI runs")
    parser.add_argument("--json", dest="json_out", default=None, help="also write the figures to this file")
    parser.add_argument("--only", default="", help="scenario names separated by semicolons (default: all)")
    args = parser.parse_args(argv)
    if args.short:
        args.duration, args.clients = 2.0, "16"
    counts = [int(c) for c in args.clients.split(",") if c.strip()]
    tmp = Path(tempfile.mkdtemp(prefix="deckhub-load-"))
    url = args.database_url or f"sqlite:///{tmp / 'load.sqlite3'}"
    site, bare, procs = start_servers(args.workers, url, tmp, args.threads)
    results: dict = {"workers": args.workers, "threads": args.threads, "duration_s": args.duration, "scenarios": {}}
    only = {n.strip() for n in args.only.split(";") if n.strip()}
    try:
        state = prepare(site)
        fill_collections(url)
        rows = []
        for clients in counts:
            baseline = drive(bare, clients, args.duration, ("GET", "/", None, False, None), cpu=lambda: cpu_seconds(procs[1:]))
            rows.append(("bare Flask endpoint", clients, baseline, None))
            for name, request in scenarios(state).items():
                if only and name not in only:
                    continue
                who = {"owner": state["cookies"], "viewer": state["viewer"]}.get(request[4])
                r = drive(site, clients, args.duration, request, who, cpu=lambda: cpu_seconds(procs[:1]))
                rows.append((name, clients, r, baseline))
                results["scenarios"][f"{name} @ {clients}"] = {**r, "p95_vs_bare": round(r["p95_ms"] / baseline["p95_ms"], 1),
                                                               "cpu_vs_bare": round(r["cpu_ms"] / baseline["cpu_ms"], 1)}
            results["scenarios"][f"bare Flask endpoint @ {clients}"] = baseline
        updates = lost_updates(site, state, clients=16 if args.short else 32, presses=5 if args.short else 20)
        results["lost_updates"] = updates
    finally:
        stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"DeckHub under load: {args.workers} gunicorn workers of {args.threads} thread(s), {args.duration:g} s per row, "
          "loopback only")
    print(f"{'scenario':<28}{'clients':>8}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>7}"
          f"{'p95/bare':>10}{'CPU ms':>8}{'CPU/bare':>10}")
    for name, clients, r, base in rows:
        ratio = f"{r['p95_ms'] / base['p95_ms']:.1f}x" if base else "1.0x"
        cpu_ratio = f"{r['cpu_ms'] / base['cpu_ms']:.1f}x" if base else "1.0x"
        print(f"{name:<28}{clients:>8}{r['throughput']:>9}{r['p50_ms']:>9}{r['p95_ms']:>9}{r['p99_ms']:>9}{r['errors']:>7}"
              f"{ratio:>10}{r['cpu_ms']:>8}{cpu_ratio:>10}")
    u = results["lost_updates"]
    print(f"same '+' pressed by {u['clients']} clients at once: {u['accepted']} accepted, quantity raised by {u['final']}, "
          f"lost updates {u['lost']}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1))
    errors = sum(r["errors"] for _, _, r, _ in rows)
    return 1 if errors or u["lost"] else 0


if __name__ == "__main__":
    sys.exit(main())

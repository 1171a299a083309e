"""Load on the running site, from localhost: throughput, latency percentiles, errors, lost updates.

    python benchmarks/load.py [--duration 10] [--clients 16,64] [--workers 2] [--database-url URL] [--short]

Starts DeckHub (`deckhub serve --workers N`, gunicorn) on a throw-away database with the
catalogues loaded, and a bare Flask endpoint served the same way, both on 127.0.0.1; drives each
scenario with C concurrent keep-alive clients for a bounded time; then has many clients press the
same collection "+" at once and checks that the final quantity equals the number of presses (no
lost update). Figures are printed next to the bare endpoint's, measured in the same run, because
absolute times on a shared machine drift. `--short` is the form CI runs (a few seconds).
Only loopback addresses are used; every loop is bounded in time and count.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
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


def start_servers(workers: int, database_url: str, tmp: Path) -> tuple[int, int, list[subprocess.Popen]]:
    env = {**os.environ, "DATABASE_URL": database_url, "DECKHUB_SECRET_KEY": "load-benchmark-only-" + "x" * 24,
           "DECKHUB_INSECURE_COOKIES": "1"}  # plain HTTP on loopback
    # the schema and the catalogues (production mode does not upgrade a database by itself)
    subprocess.run([sys.executable, "-m", "deckhub.cli", "db", "upgrade"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    site, bare = free_port(), free_port()
    log = open(tmp / "servers.log", "w")
    procs = [
        subprocess.Popen([sys.executable, "-m", "deckhub.cli", "serve", "--host", HOST, "--port", str(site),
                          "--workers", str(workers)], env=env, stdout=log, stderr=subprocess.STDOUT,
                         start_new_session=True),
        subprocess.Popen([sys.executable, "-m", "gunicorn", "--bind", f"{HOST}:{bare}", "--workers", str(workers),
                          "--threads", "4", "--worker-class", "gthread", "bare_app:app"],
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
    return {"cookies": dict(c.cookies), "deck": deck_path, "board": board, "printing": printing,
            "csrf": c.csrf("/collection/"), "decklist": DECK.read_text(encoding="utf-8-sig")}


def scenarios(state: dict) -> dict:
    return {
        "deck page": ("GET", state["deck"], None, False, False),
        "card search": ("GET", "/cards?game=kaijudo&q=dragon", None, False, False),
        "check API": ("POST", "/api/check", {"game": "kaijudo", "decklist": state["decklist"]}, True, False),
        "goldfish board (replay)": ("GET", state["board"], None, False, True),
    }


def drive(port: int, clients: int, duration: float, request, cookies: dict | None = None, warmup: float = 0.5) -> dict:
    """`clients` keep-alive clients repeat one request for `duration` seconds (after a short
    unmeasured warm-up, so each worker's first-use work is not counted as latency)."""
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
                status, _, _ = c.request(method, path, body, is_json)
                if status >= 400:
                    errors[i] += 1
            except Exception:
                errors[i] += 1
            latencies[i].append(time.perf_counter() - t)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    deadline[0] = time.perf_counter() + duration
    begin = time.perf_counter()
    start_gate.wait()
    for t in threads:
        t.join(duration + 60)
    elapsed = time.perf_counter() - begin
    all_lat = sorted(x for part in latencies for x in part)
    n = len(all_lat)

    def pct(p: float) -> float:
        return round(1000 * all_lat[min(n - 1, max(0, round(p / 100 * n) - 1))], 2) if n else float("nan")
    return {"requests": n, "throughput": round(n / elapsed, 1), "p50_ms": pct(50), "p95_ms": pct(95),
            "p99_ms": pct(99), "errors": sum(errors)}


def lost_updates(port: int, state: dict, clients: int, presses: int) -> dict:
    """Many clients press the same '+' at once; the final quantity must equal the presses."""
    done = [0] * clients
    gate = threading.Barrier(clients)

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
    c = Client(port)
    c.cookies.update(state["cookies"])
    _, body, _ = c.request("POST", "/collection/adjust", {"csrf_token": state["csrf"], "printing": state["printing"],
                                                          "step": "quantity:0", "next": "/collection/"},
                           headers={"Accept": "application/json"})
    try:
        final = json.loads(body)["quantity"]
    except (ValueError, KeyError):
        _, page, _ = c.request("GET", "/games/kaijudo/cards/blade-seer")
        final = int(re.search(r'class="owned-value"[^>]*>(\d+)<', page).group(1))
    accepted = sum(done)
    return {"clients": clients, "presses": clients * presses, "accepted": accepted, "final": final,
            "lost": accepted - final}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per scenario and client count")
    parser.add_argument("--clients", default="16,64", help="comma-separated concurrent client counts")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database-url", default=None, help="default: a throw-away SQLite file")
    parser.add_argument("--short", action="store_true", help="the quick form CI runs")
    parser.add_argument("--json", dest="json_out", default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.short:
        args.duration, args.clients = 2.0, "16"
    counts = [int(c) for c in args.clients.split(",") if c.strip()]
    tmp = Path(tempfile.mkdtemp(prefix="deckhub-load-"))
    url = args.database_url or f"sqlite:///{tmp / 'load.sqlite3'}"
    site, bare, procs = start_servers(args.workers, url, tmp)
    results: dict = {"workers": args.workers, "duration_s": args.duration, "scenarios": {}}
    try:
        state = prepare(site)
        rows = []
        for clients in counts:
            baseline = drive(bare, clients, args.duration, ("GET", "/", None, False, False))
            rows.append(("bare Flask endpoint", clients, baseline, None))
            for name, request in scenarios(state).items():
                r = drive(site, clients, args.duration, request, state["cookies"])
                rows.append((name, clients, r, baseline))
                results["scenarios"][f"{name} @ {clients}"] = {**r, "p95_vs_bare": round(r["p95_ms"] / baseline["p95_ms"], 1)}
            results["scenarios"][f"bare Flask endpoint @ {clients}"] = baseline
        updates = lost_updates(site, state, clients=16 if args.short else 32, presses=5 if args.short else 20)
        results["lost_updates"] = updates
    finally:
        stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"DeckHub under load: {args.workers} gunicorn workers, {args.duration:g} s per row, loopback only")
    print(f"{'scenario':<26}{'clients':>8}{'req/s':>10}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}{'p95 / bare':>12}")
    for name, clients, r, base in rows:
        ratio = f"{r['p95_ms'] / base['p95_ms']:.1f}x" if base else "1.0x"
        print(f"{name:<26}{clients:>8}{r['throughput']:>10}{r['p50_ms']:>9}{r['p95_ms']:>9}{r['p99_ms']:>9}{r['errors']:>8}{ratio:>12}")
    u = results["lost_updates"]
    print(f"same '+' pressed by {u['clients']} clients at once: {u['accepted']} accepted, final quantity {u['final']}, "
          f"lost updates {u['lost']}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1))
    errors = sum(r["errors"] for _, _, r, _ in rows)
    return 1 if errors or u["lost"] else 0


if __name__ == "__main__":
    sys.exit(main())

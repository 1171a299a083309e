"""Issue 30, finding 3: a `next` never leads off the site, never splits a header, never answers 500.

Every route that reads `next` does it through `deckhub.web.redirects.safe_next`: the routes are
found in the source (each view that calls it) and must be exactly those of NEXT_ROUTES, so a new
one needs its row here; no other code reads `next` from a request. Each route gets each hostile
value of HOSTILE (and a few local paths that must be followed).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from deckhub.store import models
from deckhub.store.db import database
from deckhub.web.redirects import is_safe_path
from test_authorization_matrix import PASSWORD, _login, _world, matrix_app  # noqa: F401  (the fixture)

WEB = Path(__file__).resolve().parents[1] / "deckhub" / "web"

HOSTILE = [
    "//evil.example", "/\t/evil.example", "/\\evil.example", "\\\\evil.example", "/\\/evil.example",
    "https://evil.example/", "http:/evil.example", "HTTPS://evil.example", "javascript:alert(1)",
    " //evil.example", "\t//evil.example", "\r\nX-Evil: 1", "/\r\nX-Evil: 1", "/\nX-Evil: 1", "/\rX-Evil: 1",
    "/\x0b/evil.example", "/\x7f/evil.example", "/\u2028/evil.example", "\uff0f\uff0fevil.example",
    "%2F%2Fevil.example", "/%09/evil.example", "/%0d%0aX-Evil:%201", "/%5Cevil.example", "/%2F%2Fevil.example", "/%2f/evil.example",
    "/%E2%80%A8/evil.example", "evil.example",
    "", "   ",
]
# what a browser makes of these is a path of this site: followed as they are
LOCAL = ["/cards?game=kaijudo", " /decks/ ", "/x\n", "/cards?game=kaijudo&q=a%20b"]


def _send_login(app, w, target):
    client = app.test_client()
    response = client.post("/login", query_string={"next": target}, data={"username": "alice", "password": PASSWORD})
    with database.connection_context():  # a run of log-ins must not fill the per-address limit
        models.RateLimitHit.delete().execute()
    return response, "/"


def _send_adjust(app, w, target):
    return (w.owner.post("/collection/adjust", data={"printing": str(w.printing), "step": "quantity:1", "next": target}),
            "/collection/")


def _send_add_missing(app, w, target):
    return w.owner.post(f"/collection/decks/{w.private}/add-missing", data={"next": target}), f"/decks/{w.private}"


def _send_values_page(app, w, target):
    return w.owner.get(f"/card-values/decks/{w.neopets}", query_string={"next": target}), f"/decks/{w.neopets}"


def _send_values_form(app, w, target):
    return (w.owner.post(f"/card-values/decks/{w.neopets}", data={"cv__chocolate-korbats__type": "Item", "next": target}),
            f"/decks/{w.neopets}")


def _send_approve(app, w, target):
    return w.curator.post(f"/review/{w.new_proposal()}/approve", data={"reason": "ok", "next": target}), \
        "/games/neopets-tcg/cards/the-thieves-code"


def _send_reject(app, w, target):
    pid = w.new_proposal()
    return w.curator.post(f"/review/{pid}/reject", data={"reason": "no", "next": target}), f"/proposals/{pid}"


def _send_flag_manual(app, w, target):
    return (w.curator.post(f"/review/flags/{w.new_flag()}/manual", data={"reason": "wrong", "next": target}),
            "/games/kaijudo/cards/spy-mission")


# (endpoint, method) -> a request carrying `next` and the route's own default page
NEXT_ROUTES = {
    ("auth.login", "POST"): _send_login,
    ("collection.adjust", "POST"): _send_adjust,
    ("collection.add_missing", "POST"): _send_add_missing,
    ("card_values.deck_form", "GET"): _send_values_page,
    ("card_values.deck_form", "POST"): _send_values_form,
    ("community.approve", "POST"): _send_approve,
    ("community.reject", "POST"): _send_reject,
    ("community.flag_manual", "POST"): _send_flag_manual,
}


def _views_calling_safe_next() -> set[tuple[str, str]]:
    """(module, function) of every view function in deckhub/web that calls safe_next."""
    found = set()
    for path in WEB.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(c, ast.Call) and getattr(c.func, "id", None) == "safe_next" for c in ast.walk(node)):
                module = "deckhub." + ".".join(path.relative_to(WEB.parents[1]).with_suffix("").parts[1:])
                found.add((module, node.name))
    found.discard(("deckhub.web.redirects", "safe_next"))
    return found


def test_every_route_that_reads_next_is_in_the_table(matrix_app):
    views = _views_calling_safe_next()
    endpoints = {endpoint for endpoint, view in matrix_app.view_functions.items()
                 if (view.__module__, view.__name__) in views}
    assert endpoints == {endpoint for endpoint, _ in NEXT_ROUTES}, "a route reads `next`: add it to NEXT_ROUTES"
    # and nothing reads `next` from a request but the helper
    reads = re.compile(r"""(args|form|values)(\.get\(|\[)\s*["']next["']|\.next\.data""")
    for path in WEB.rglob("*.py"):
        if path.name != "redirects.py":
            assert not reads.search(path.read_text(encoding="utf-8")), f"{path.name} reads `next` itself"


@pytest.mark.parametrize("target", HOSTILE + LOCAL)
def test_is_safe_path(target):
    assert is_safe_path(target.strip()) == (target in LOCAL)


def _where(response) -> str | None:
    """Where the answer sends the browser: the redirect, or the hidden `next` of the card-values form."""
    if response.location is not None:
        return response.location
    found = re.search(r'name="next" value="([^"]*)"', response.get_data(as_text=True))
    return found and found.group(1).replace("&amp;", "&")


def test_next_never_leaves_the_site_on_any_route(matrix_app):
    app = matrix_app
    w = _world(app)
    w.owner, w.curator = app.test_client(), app.test_client()
    _login(w.owner, "alice")
    _login(w.curator, "curator")
    failures = []
    for (endpoint, method), send in NEXT_ROUTES.items():
        for target in HOSTILE + LOCAL:
            response, default = send(app, w, target)
            label = f"{method} {endpoint} next={target!r}"
            if response.status_code not in (200, 302, 303):
                failures.append(f"{label}: {response.status_code}")
                continue
            if any(name.lower().startswith("x-evil") for name, _ in response.headers):
                failures.append(f"{label}: a header was injected")
            where = _where(response)
            resolved = urlsplit(urljoin("http://localhost/here", where))
            if (resolved.scheme, resolved.netloc) != ("http", "localhost") or "\\" in where \
                    or any(ord(c) < 0x20 or ord(c) == 0x7f for c in where):
                failures.append(f"{label}: sends the browser to {where!r}")
            expected = target.strip() if target in LOCAL else default
            if where.split("#", 1)[0] != expected:
                failures.append(f"{label}: sends the browser to {where!r}, not {expected!r}")
    assert not failures, "\n".join(failures)

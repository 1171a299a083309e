"""Issue 19, finding 5: malformed input to every route answers a 4xx with a message, never a 500.

Generated from the route map, as the authorization matrix is (its rows give every route and method
a real request): each request is first sent as it is, recording which query parameters and form
fields the view reads; then every one of them, every value of a JSON body (at any depth) and every
text part of the path gets, in turn, a huge integer, a NUL byte, a list where one value belongs and
an over-long string. Runs on SQLite and, with DECKHUB_TEST_DATABASE_URL, on PostgreSQL (where NUL
bytes and out-of-range integers reach the database as errors unless they are refused first).
"""
from __future__ import annotations

import copy
import json
from urllib.parse import quote, urlencode, urlsplit

from werkzeug.datastructures import ImmutableMultiDict

from deckhub.store import models
from deckhub.store.db import database
from test_authorization_matrix import MATRIX, _login, _world, matrix_app  # noqa: F401  (the fixture)

HUGE = "9" * 40
LONG = "x" * 100_001
FORM_VALUES = [HUGE, "-" + HUGE, "a\x00b", LONG, ["1", "2"]]
JSON_VALUES = [10**40, -(10**40), "a\x00b", LONG, ["x"], {"x": 1}]
PATH_VALUES = ["a\x00b", "x" * 3000]
DESTRUCTIVE = ("logout", "sign_out_everywhere")  # they sign the client out: sent last, then signed in again

_read: list[tuple[str, str]] = []
_recording_on = [False]  # only the request "as it is" is recorded: its variants read the same keys


def _shape(key: str) -> str:
    """A form key with its card part folded (`c:<card>:<field>` -> `c:*:<field>`, `s:<card>` -> `s:*`):
    a grid of hundreds of cards reads thousands of keys of a few shapes, and one key of each shape is enough."""
    parts = key.split(":")
    return key if len(parts) < 2 else ":".join([parts[0], "*"] + parts[2:][-1:])


class RecordingDict(ImmutableMultiDict):
    """request.args / request.form that note each key a view asks for."""

    kind = "args"

    def _note(self, key):
        if _recording_on[0] and isinstance(key, str):
            _read.append((self.kind, key))

    def get(self, key, default=None, type=None):
        self._note(key)
        return super().get(key, default, type)

    def getlist(self, key, type=None):
        self._note(key)
        return super().getlist(key, type)

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self._note(key)
        return super().__contains__(key)


def _recording(app):
    base = app.request_class

    class RecordingRequest(base):
        parameter_storage_class = RecordingDict

        @property
        def form(self):
            form = super().form
            form.kind = "form"
            return form

    app.request_class = RecordingRequest


def _json_paths(value, path=()):
    """Every place in a JSON document (the document itself excluded) as a path of keys/indexes."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path + (k,)
            yield from _json_paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield path + (i,)
            yield from _json_paths(v, path + (i,))


def _replaced(doc, path, new):
    doc = copy.deepcopy(doc)
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return doc


def _with_query(url: str, args: dict) -> str:
    parts = urlsplit(url)
    return parts.path + "?" + urlencode(args, doseq=True)


def _check(response, where: str, failures: list) -> None:
    body = response.get_data().decode("utf-8", "replace")  # binary answers (scans, the favicon) too
    if response.status_code >= 500:
        failures.append(f"{where}: {response.status_code} {body[:200]!r}")
    elif response.status_code >= 400:
        if response.is_json:
            if not (response.get_json() or {}).get("error"):
                failures.append(f"{where}: {response.status_code} JSON without an error message")
        elif len(body.strip()) < 20:
            failures.append(f"{where}: {response.status_code} without a message")


def test_malformed_input_to_every_route_is_a_4xx_with_a_message(matrix_app):
    app = matrix_app
    _recording(app)
    w = _world(app)
    clients = {}
    for role, name in (("owner", "alice"), ("curator", "curator")):
        clients[role] = app.test_client()
        _login(clients[role], name)
    failures: list[str] = []
    adapter = app.url_map.bind("localhost")
    # tuning starts play their whole budget inside the request on the test queue: their input checks are
    # tested in test_tunings_job, and hundreds of malformed variants of them would take minutes here
    rows = sorted((r for r in MATRIX if not r.endpoint.endswith("start_tuning")),
                  key=lambda r: any(d in r.endpoint for d in DESTRUCTIVE))
    for row in rows:
        role = "curator" if row.expect.get("curator") not in (None, 403) and row.expect.get("owner") == 403 else "owner"
        client = clients[role]

        def send(url, data=None, json_body=None, where=""):
            response = client.open(url, method=row.method, data=data, json=json_body)
            _check(response, f"{row.method} {row.endpoint} {where}", failures)
            if any(d in row.endpoint for d in DESTRUCTIVE):
                with database.connection_context():  # the log-in row's bad attempts filled the limit
                    models.RateLimitHit.delete().execute()
                _login(client, "alice" if role == "owner" else "curator")
            return response

        def base_data():
            data = row.data(w) if callable(row.data) else row.data
            return dict(data) if data else {}

        _read.clear()
        url = row.url(w)
        _recording_on[0] = True
        send(url, data=base_data() or None, json_body=row.json, where="as it is")
        _recording_on[0] = False
        shapes: dict[tuple[str, str], tuple[str, str]] = {}
        for kind, key in sorted(set(_read)):
            shapes.setdefault((kind, _shape(key)), (kind, key))
        read = sorted(shapes.values())
        query = dict(ImmutableMultiDict(urlsplit(url).query and
                                        [tuple(p.split("=", 1)) for p in urlsplit(url).query.split("&")]))
        for kind, key in read:
            if kind == "form" and row.method == "GET":
                continue
            for bad in FORM_VALUES:
                label = f"{kind} {key}={str(bad)[:12]!r}"
                if kind == "args":
                    send(_with_query(row.url(w), {**query, key: bad}), data=base_data() or None,
                         json_body=row.json, where=label)
                elif not any(hasattr(v, "read") or isinstance(v, tuple) for v in base_data().values()):
                    send(row.url(w), data={**base_data(), key: bad}, where=label)
        if row.json is not None:
            for path in _json_paths(row.json):
                for bad in JSON_VALUES:
                    send(row.url(w), json_body=_replaced(row.json, path, bad), where=f"json {path}={str(bad)[:12]!r}")
        endpoint, values = adapter.match(urlsplit(url).path, method=row.method)
        texts = [k for k, v in values.items() if isinstance(v, str)]
        ints = [k for k, v in values.items() if isinstance(v, int)]
        for key in texts:
            for bad in PATH_VALUES:
                path = adapter.build(endpoint, {**values, key: bad}, method=row.method)
                send(path, data=base_data() or None, json_body=row.json, where=f"path {key}={bad[:12]!r}")
        for key in ints:
            path = urlsplit(url).path.replace(f"/{values[key]}", f"/{HUGE}", 1)
            send(path, data=base_data() or None, json_body=row.json, where=f"path {key}=HUGE")
    assert not failures, f"{len(failures)} malformed requests answered badly:\n" + "\n".join(failures[:80])


def test_nul_bytes_anywhere_are_refused_before_they_reach_the_database(client, auth):
    auth.signup("alice")
    for response in (client.post("/login", data={"username": "al\x00ice", "password": "x"}),
                     client.post("/decks/new", data={"name": "Nul\x00deck", "game": "kaijudo"}),
                     client.post("/account/tokens", data={"name": "to\x00ken"}),
                     client.get("/cards?game=kaijudo&q=ar%00gus"),
                     client.get("/games/kai%00judo")):
        assert response.status_code == 400
        assert "NUL" in response.get_data(as_text=True)
    response = client.post("/api/decks", json={"name": "Nul\x00deck", "game": "kaijudo"},
                           headers={"X-CSRFToken": "unused"})
    assert response.status_code == 400 and "NUL" in response.get_json()["error"]
    assert quote("\x00") == "%00"



def _openapi_operations_with_a_body() -> set[tuple[str, str]]:
    from deckhub.web.api.openapi import document
    return {(path, method.upper()) for path, item in document()["paths"].items()
            for method, op in item.items() if "requestBody" in op}


def _spelled(path) -> str:
    """A place in a body as the API's answers name it: `values.tomatoes.text`, `changes[0].card`."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


def _body_variants(doc: dict):
    """(label, raw bytes, the field a 400 must name or None) of what a broken client or an attacker
    makes of a valid body `doc`: (None: any 4xx with a message will do)."""
    for path in _json_paths(doc):
        value = _at(doc, path)
        if isinstance(value, str):
            yield f"{_spelled(path)}=lone surrogate", json.dumps(_replaced(doc, path, "a\ud800b")).encode(), _spelled(path)
            yield (f"{_spelled(path)}=encoded surrogate",
                   json.dumps(_replaced(doc, path, "\udfff"), ensure_ascii=False).encode("utf-8", "surrogatepass"),
                   _spelled(path))
        if isinstance(value, dict):
            yield f"{_spelled(path)} key=lone surrogate", json.dumps(_replaced(doc, path, {**value, "\ud800": 1})).encode(), ""
        for other in (None, True, 7, 1.5, "text", [], {}):
            if type(other) is not type(value):
                yield f"{_spelled(path)}={other!r}", json.dumps(_replaced(doc, path, other)).encode(), None
    yield "key=lone surrogate", json.dumps({**doc, "\ud800": 1}).encode(), ""
    raw = json.dumps(doc).encode()
    for cut in sorted({1, len(raw) // 2, len(raw) - 1} | {i + 1 for i, b in enumerate(raw) if b in b'":,'}):
        yield f"cut at {cut}", raw[:cut], ""
    first = next(iter(doc))
    for depth in (40, 1000, 100_000):
        yield (f"nested {depth} deep", json.dumps(_replaced(doc, (first,), "DEEP")).encode().replace(
            b'"DEEP"', b"[" * depth + b"]" * depth), "")


def _at(doc, path):
    for step in path:
        doc = doc[step]
    return doc


def test_api_json_bodies_field_by_field(matrix_app):
    """Every API operation that takes a body (from the OpenAPI document), sent its valid body (its
    row of the authorization matrix) with each string a lone surrogate (escaped, or as UTF-8 bytes),
    each object given a key that is one, each field's type changed, the body cut short and nested
    too deep: a 4xx with a message, never a 500; the surrogates and the broken bodies are 400s, a
    surrogate's answer naming its field."""
    import re
    app = matrix_app
    w = _world(app)
    client = app.test_client()
    headers = {"Authorization": f"Bearer {w.token}"}
    operations = _openapi_operations_with_a_body()
    rows = {}
    for row in MATRIX:
        if row.json is None:
            continue
        for path, method in operations:
            if method == row.method and re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", path), urlsplit(row.url(w)).path):
                rows.setdefault((path, method), row)
    assert set(rows) == operations, "an API operation takes a body but has no row with a valid body in MATRIX"
    failures: list[str] = []
    for (path, method), row in sorted(rows.items()):
        for label, raw, field in _body_variants(row.json):
            response = client.open(row.url(w), method=method, data=raw, headers=headers,
                                   content_type="application/json")
            where = f"{method} {path} {label}"
            _check(response, where, failures)
            if field is not None and response.status_code != 400:
                failures.append(f"{where}: {response.status_code}, not 400")
            elif field and f'"{field}"' not in response.get_json()["error"]:
                failures.append(f"{where}: the answer does not name {field}: {response.get_json()['error']!r}")
    assert not failures, f"{len(failures)} malformed bodies answered badly:\n" + "\n".join(failures[:80])

"""Reading API requests: the JSON body and the query arguments, each checked against what the
OpenAPI document (`openapi`) states for the request's operation, and times as the API writes them.

The document is the one statement of a request's shape: a view receives a body that matches its
operation's `requestBody` schema, with the document's defaults filled in, and keeps to checks that
need the game, the catalogue or the database. Every problem is a 400 (413 for a body or a deck list
over its limit) naming the field, never a 500, whatever the bytes; nothing here writes.
"""
from __future__ import annotations

import copy
import datetime as dt
import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import jsonschema_rs
from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from deckhub.services.limits import MAX_JSON_DEPTH
from deckhub.web.api.errors import fail
from deckhub.web.api.openapi import document
from deckhub.web.api.openapi_parts import COMPONENTS, JSON


def parse_json(raw: bytes | str) -> Any:
    """A JSON document that holds only text DeckHub can keep; a ValueError saying what is wrong
    otherwise (the API answers it with a 400, `request.get_json` with a 400 too).

    Bytes must be UTF-8, the document at most MAX_JSON_DEPTH deep, and no string or key may hold a lone
    surrogate: JSON's `\\ud800` escape decodes to one (so do the bytes of an encoded surrogate,
    read here to name their field), and it fails only later, when it is encoded to be stored or
    sent (a 500, after every check passed)."""
    try:
        doc = json.loads(raw.decode("utf-8", "surrogatepass") if isinstance(raw, (bytes, bytearray)) else raw)
    except (ValueError, RecursionError):
        raise ValueError("The request body is not valid JSON (UTF-8).") from None
    stack = [(doc, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise ValueError(f"The request body is nested too deeply (at most {MAX_JSON_DEPTH} levels).")
        if isinstance(value, str) and not _is_text(value):
            raise ValueError(f'"{_shown(where) or "the body"}" is not valid text (it holds a lone UTF-16 surrogate).')
        if isinstance(value, dict):
            for key, item in value.items():
                place = f"{where}.{key}" if where else key
                if not _is_text(key):
                    raise ValueError(f'The key "{_shown(place)}" is not valid text (it holds a lone UTF-16 surrogate).')
                stack.append((item, place, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value))
    return doc


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shown(place: str) -> str:
    return place.encode("utf-8", "backslashreplace").decode("ascii", "replace")[:120]


def json_body(*, optional: bool = False) -> dict:
    """The request body: a JSON object matching its operation's `requestBody` schema, with the
    document's defaults written into it; anything else is a 400 naming the field. An `optional`
    body may be left out (read as `{}`)."""
    try:
        raw = request.get_data(cache=True)  # over the limit: refused before it is read
    except RequestEntityTooLarge:
        fail(413, f"A request body may be at most {request.max_content_length // 1024} KiB.")
    if not raw.strip():
        if optional:
            return {}
        fail(400, "Send a JSON object as the request body.")
    try:
        body = parse_json(raw)
    except ValueError as exc:
        fail(400, str(exc))
    _check(_operation().body, body, [])
    return body


def query(*names: str) -> dict[str, Any]:
    """The named query arguments, checked against the operation's documented parameters: a whole
    number is read as one; an absent argument (or an empty one, where the document allows it) is
    its documented default, or None; a required one missing is a 400."""
    parameters = _operation().query
    out: dict[str, Any] = {}
    for name in names:
        parameter, schema = parameters[name]
        raw = request.args.get(name)
        if raw is None or raw == "" and parameter.get("allowEmptyValue"):
            if parameter.get("required"):
                choices = schema.schema.get("enum")
                fail(400, f'Send "{name}" in the query (?{name}=...)'
                          + (f": one of {', '.join(map(str, choices))}." if choices else "."))
            out[name] = copy.deepcopy(schema.schema.get("default"))
            continue
        integer = schema.schema.get("type") == "integer" and raw.isascii() and raw.isdecimal() and len(raw) <= 20
        out[name] = int(raw) if integer else raw
        _check(schema, out[name], [name])
    return out


def page_args(most: int) -> tuple[int, int]:
    """`?page=` and `?per_page=` as the document states them (range, defaults); a larger `per_page`
    than `most` counts as `most`."""
    args = query("page", "per_page")
    return args["page"], min(args["per_page"], most)


# --------------------------------------------------------------------------- the document's schemas

@dataclass(frozen=True)
class Schema:
    """A schema of the document with its `$ref`s written out, and its compiled validator."""
    schema: dict
    validator: Any


@dataclass(frozen=True)
class Operation:
    body: Schema | None  # its requestBody's
    query: dict[str, tuple[dict, Schema]]  # each query parameter, with its schema


def operations() -> dict[tuple[str, str], Operation]:
    """Every operation of the document by (path, method). Each schema is checked against JSON
    Schema 2020-12 here, once per set of registered games, the first time when the app is made
    (`register`): a document that breaks the dialect stops the app, not a request."""
    from deckhub.games import game_slugs
    return _operations(tuple(game_slugs()))


@cache
def _operations(_games: tuple[str, ...]) -> dict[tuple[str, str], Operation]:
    doc = document()
    schemas = doc["components"]["schemas"]
    for schema in schemas.values():
        jsonschema_rs.meta.validate(schema)

    def compiled(schema: dict) -> Schema:
        jsonschema_rs.meta.validate(schema)
        schema = _written_out(schema, schemas)
        return Schema(schema, jsonschema_rs.Draft202012Validator(schema))

    out = {}
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            body = op.get("requestBody")
            parameters = [p for p in item.get("parameters", []) + op.get("parameters", []) if p["in"] == "query"]
            out[(path, method)] = Operation(compiled(body["content"][JSON]["schema"]) if body else None,
                                            {p["name"]: (p, compiled(p["schema"])) for p in parameters})
    return out


def _written_out(value: Any, schemas: dict) -> Any:
    """`value` with every `#/components/schemas/NAME` reference replaced by that schema, its fields
    in the document's order (the order messages list them in); no schema refers to itself."""
    if isinstance(value, dict):
        if "$ref" in value:
            return _written_out(schemas[value["$ref"].removeprefix(COMPONENTS)], schemas)
        return {key: _written_out(item, schemas) for key, item in value.items()}
    if isinstance(value, list):
        return [_written_out(item, schemas) for item in value]
    return value


def _operation() -> Operation:
    """The documented operation of this request: its Flask rule written as the document's path."""
    path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", request.url_rule.rule)
    return operations()[(path, request.method.lower())]


# --------------------------------------------------------------------------- problems, in words

# Keywords in the order their problems are named: unknown and missing fields first, then wrong
# types, then the other limits; a failed combination (`oneOf`, `not`) last, as it says least.
_COMBINED = ("oneOf", "anyOf", "not")
_RANK = {"additionalProperties": 0, "required": 1, "type": 2, **dict.fromkeys(_COMBINED, 4)}
_TYPES = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
          "object": "an object", "array": "a list", "null": "null"}
_PATTERNS = {r"\S": "must not be blank"}
TOO_LARGE = ("decklist",)  # over its length, a size limit: 413, as the document's 413 answer says


def _check(schema: Schema, value: Any, where: list) -> None:
    """Fail naming the first problem of `value` (at `where`) against `schema`; when there is none,
    refuse a float where a whole number belongs and write in the absent properties' defaults."""
    errors = list(schema.validator.iter_errors(value))
    if errors:
        error = min(errors, key=lambda e: (_RANK.get(e.kind.name, 3), len(e.instance_path)))
        owner = schema.schema
        for step in error.schema_path[:-1]:
            owner = owner[step]
        status, message = _words(where + list(error.instance_path), error, owner)
        fail(status, message)
    _settle(schema.schema, value, where)


def _settle(schema: dict, value: Any, where: list) -> None:
    """JSON Schema counts 2.0 as an integer, but the code behind the API would use it as a float:
    it is refused, as a whole number must be written as one. An absent property gets its `default`
    (read through `properties`, `additionalProperties` and `items`: the document puts none elsewhere)."""
    types = _types(schema)
    if type(value) is float and "integer" in types and "number" not in types:
        fail(400, f"{_subject(where)} must be {' or '.join(_TYPES[t] for t in types)}.")
    if isinstance(value, dict):
        properties, others = schema.get("properties", {}), schema.get("additionalProperties")
        for name, subschema in properties.items():
            if name in value:
                _settle(subschema, value[name], where + [name])
            elif "default" in subschema:
                value[name] = copy.deepcopy(subschema["default"])
        if isinstance(others, dict):
            for name, item in value.items():
                if name not in properties:
                    _settle(others, item, where + [name])
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            _settle(schema["items"], item, where + [i])


def _words(where: list, error, owner: dict) -> tuple[int, str]:
    """The status and the message for `error`; `owner` is the schema holding the failed keyword."""
    kind, subject = error.kind, _subject(where)
    name = kind.name
    if name == "type":
        return 400, f"{subject} must be {' or '.join(_TYPES[t] for t in _types(owner))}."
    if name in ("minimum", "maximum"):
        low, high = owner.get("minimum"), owner.get("maximum")
        if low is not None and high is not None:
            return 400, f"{subject} must be from {low} to {high}."
        return 400, f"{subject} must be at least {low}." if name == "minimum" else f"{subject} may be at most {high}."
    if name == "enum":
        return 400, f"{subject} must be one of {', '.join('null' if o is None else str(o) for o in owner['enum'])}."
    if name in ("minLength", "minItems") and kind.limit == 1:
        return 400, f"{subject} must not be empty."
    if name == "minLength":
        return 400, f"{subject} must be at least {kind.limit} characters long."
    if name == "maxLength":
        return 413 if where and where[-1] in TOO_LARGE else 400, f"{subject} may be at most {kind.limit} characters."
    if name == "minItems":
        return 400, f"{subject} must hold at least {kind.limit} items."
    if name == "maxItems":
        return 400, f"{subject} may hold at most {kind.limit} items."
    if name == "pattern" and owner["pattern"] in _PATTERNS:
        return 400, f"{subject} {_PATTERNS[owner['pattern']]}."
    if name == "required":
        return 400, f"{_subject(where + [kind.property])} is required."
    if name == "additionalProperties":
        shown = ", ".join(repr(k[:40]) for k in kind.unexpected[:10])
        return 400, (f"{_spelled(where)} has unknown" if where else "Unknown") + \
            f" field(s): {shown}; the fields are {', '.join(owner['properties'])}."
    described = (owner["not"] if name == "not" else owner).get("description") if name in _COMBINED else None
    if described:  # a combination of rules says in its description what it asks for
        return 400, f"{_spelled(where)}: {described}" if where else described
    return 400, f"{subject}: {error.message[:200]}"


def _types(schema: dict) -> list[str]:
    types = schema.get("type", [])
    return [types] if isinstance(types, str) else types


def _subject(where: list) -> str:
    return f'"{_spelled(where)}"' if where else "The request body"


def _spelled(where: list) -> str:
    """A place in a body as messages name it: `changes[0].delta`, `sections.Deck[2].qty`."""
    out = ""
    for step in where:
        out += f"[{step}]" if isinstance(step, int) else (f".{_shown(step)}" if out else _shown(step))
    return out


def time(value: dt.datetime | None) -> str | None:
    return None if value is None else value.replace(microsecond=0).isoformat() + "Z"

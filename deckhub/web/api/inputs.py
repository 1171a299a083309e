"""Reading API requests: the body as a JSON object, typed fields, games, pages and times.

Every problem is a 400 (413 for a body over the limit) naming the field, never a 500, whatever
the bytes; nothing here writes.
"""
from __future__ import annotations

import datetime as dt
import json
from typing import Any

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from deckhub.games import UnknownGame, all_games, get_game
from deckhub.limits import MAX_JSON_DEPTH, MAX_PAGE
from deckhub.web.api.errors import fail


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


def json_body() -> dict:
    """The request body as a JSON object; anything else is a 400."""
    try:
        raw = request.get_data(cache=True)  # over the limit: refused before it is read
    except RequestEntityTooLarge:
        fail(413, f"A request body may be at most {request.max_content_length // 1024} KiB.")
    if not raw.strip():
        fail(400, "Send a JSON object as the request body.")
    try:
        body = parse_json(raw)
    except ValueError as exc:
        fail(400, str(exc))
    if not isinstance(body, dict):
        fail(400, "The request body must be a JSON object.")
    return body


def unknown_fields(body: dict, allowed) -> None:
    extra = [k for k in body if k not in allowed]
    if extra:
        fail(400, f"Unknown field(s): {', '.join(repr(k[:40]) for k in extra[:10])}; "
                  f"the fields are {', '.join(allowed)}.")


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def text(body: dict, key: str, max_len: int, required: bool = False, nullable: bool = False) -> str | None:
    value = body.get(key)
    if value is None:
        if key in body and not nullable:
            fail(400, f'"{key}" must be text, not null.')
        if required:
            fail(400, f'"{key}" is required.')
        return None
    if not isinstance(value, str):
        fail(400, f'"{key}" must be text.')
    if len(value) > max_len:
        fail(400, f'"{key}" may be at most {max_len} characters.')
    return value


def whole(value, key: str, low: int, high: int) -> int:
    if not is_int(value):
        fail(400, f'"{key}" must be a whole number.')
    if not low <= value <= high:
        fail(400, f'"{key}" must be from {low} to {high}.')
    return value


def flag(body: dict, key: str, default: bool) -> bool:
    value = body.get(key, default)
    if not isinstance(value, bool):
        fail(400, f'"{key}" must be true or false.')
    return value


def game(value) -> Any:
    """The game a body or query names; an unknown or missing one is a 400."""
    if not isinstance(value, str):
        fail(400, '"game" must be text: one of ' + ", ".join(g.slug for g in all_games()) + ".")
    try:
        return get_game(value)
    except UnknownGame:
        fail(400, f"No game {value[:80]!r}; the games are {', '.join(g.slug for g in all_games())}.")


def page_args(default: int, most: int) -> tuple[int, int]:
    """`?page=` (from 1) and `?per_page=` (larger than `most` counts as `most`); empty: the defaults."""
    def number(name: str, fallback: int, high: int) -> int:
        value = request.args.get(name)
        if value is None or value == "":
            return fallback
        if not (value.isascii() and value.isdecimal()) or len(value) > len(str(MAX_PAGE)) or not 1 <= int(value) <= MAX_PAGE:
            fail(400, f"{name} must be a whole number from 1.")
        return min(int(value), high)
    return number("page", 1, MAX_PAGE), number("per_page", default, most)


def time(value: dt.datetime | None) -> str | None:
    return None if value is None else value.replace(microsecond=0).isoformat() + "Z"

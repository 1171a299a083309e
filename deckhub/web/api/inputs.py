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
from deckhub.limits import MAX_PAGE
from deckhub.web.api.errors import fail


def json_body() -> dict:
    """The request body as a JSON object; anything else is a 400."""
    try:
        raw = request.get_data(cache=True)  # over the limit: refused before it is read
    except RequestEntityTooLarge:
        fail(413, f"A request body may be at most {request.max_content_length // 1024} KiB.")
    if not raw.strip():
        fail(400, "Send a JSON object as the request body.")
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        fail(400, "The request body is not valid JSON (UTF-8).")
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


def game_or_404(slug: str | None) -> Any:
    """The game a catalogue URL names: none is a 400 (say which), an unknown one a 404 (no such thing)."""
    known = ", ".join(g.slug for g in all_games())
    if not slug:
        fail(400, f"Say which game: ?game=SLUG, one of {known}.")
    try:
        return get_game(slug)
    except UnknownGame:
        fail(404, f"No game {slug[:80]!r}; the games are {known}.")


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

"""Where a form sends the browser afterwards: the `next` a page passes along, checked in one place.

A `next` is only ever a path on this site. Browsers forgive a lot in a Location header: they drop
tabs and newlines inside it (`/\\t/evil.example` becomes `//evil.example`, another site), read a
backslash as a slash, and a CR or LF would split the header itself. So after the surrounding
whitespace is stripped, anything with a control character, a backslash, a scheme, a host or a
leading `//` (as sent or percent-decoded) is refused, and the route's own default page is used instead.
"""
from __future__ import annotations

from urllib.parse import unquote, urlsplit

from flask import request


def is_safe_path(target: str | None) -> bool:
    """Whether `target` (already stripped) is a path of this site and nothing else, as it is and
    once percent-decoded (for whatever down the line decodes it before a browser sees it)."""
    return bool(target) and all(_plain_path(t) for t in (target, unquote(target)))


def _plain_path(target: str) -> bool:
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return False
    if not target.isprintable():  # control characters (tab, CR, LF, DEL...), lone surrogates, odd spaces
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc


def safe_next(default: str) -> str:
    """The request's `next` (query string or form) when it is a safe path, else `default`."""
    target = (request.values.get("next") or "").strip()
    return target if is_safe_path(target) else default

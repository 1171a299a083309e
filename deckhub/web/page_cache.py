"""Whole pages kept while nothing they show can change, for the pages people open again and again.

A public deck looks the same to every visitor who is not signed in, and a finished goldfish game
never changes (undo, restart and a new seed continue in a new session): its board and replay steps
are what players open from their history. Writing such a page again on every request was most of
its cost. A page is kept on the catalogue it was written from (each database has its own copy), so a
corrected card drops it, keyed by everything else it shows (the caller's `key`), the most recently
asked for of each kind; a request with flashed messages is never served from or stored in it.

A kept page holds no browser's form token (CSRF): the token written into it is replaced by a slot,
and every answer fills the slot with the token of the browser asking.
"""
from __future__ import annotations

from collections.abc import Hashable

from flask import request, session

from deckhub.core.caches import LRU
from deckhub.web.form_tokens import form_token, written_token

TOKEN_SLOT = "\x00form-token\x00"  # no page DeckHub writes holds a NUL character
PAGES_KEPT = 256  # per catalogue and kind of page


def page_key(*parts: Hashable) -> tuple | None:
    """The key of the page the current request would see, or None when it must be written afresh."""
    if session.get("_flashes"):
        return None
    return (request.script_root, *parts)


def pages(catalogue, kind: str, budget: int | None = None) -> LRU[str]:
    """The pages of one kind kept on `catalogue`: PAGES_KEPT of them, or with `budget` (for a kind
    of large pages, given by every caller of the kind) as many as fit in that many characters."""
    return catalogue.memo(("web.pages", kind), lambda: LRU(budget, len) if budget else LRU(PAGES_KEPT))


def kept(catalogue, kind: str, key: tuple | None, budget: int | None = None) -> str | None:
    """The kept page for `key`, with this browser's form token, or None."""
    return None if key is None else kept_in(pages(catalogue, kind, budget), key)


def keep(catalogue, kind: str, key: tuple | None, page: str, budget: int | None = None) -> str:
    """Keep `page` (as written for this request) under `key`; returns `page` unchanged."""
    return page if key is None else keep_in(pages(catalogue, kind, budget), key, page)


def kept_in(kept_pages: LRU[str], key: Hashable) -> str | None:
    """The page `kept_pages` keeps under `key`, with this browser's form token, or None (for a
    part of every page, kept on the app rather than on a catalogue)."""
    page = kept_pages.get(key)
    if page is None:
        return None
    return page.replace(TOKEN_SLOT, form_token()) if TOKEN_SLOT in page else page


def keep_in(kept_pages: LRU[str], key: Hashable, page: str) -> str:
    """Keep `page` (as written for this request) in `kept_pages` under `key`; returns `page` unchanged."""
    token = written_token()
    kept_pages.put(key, page.replace(token, TOKEN_SLOT) if token else page)
    return page

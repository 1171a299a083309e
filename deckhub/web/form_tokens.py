"""The form token (CSRF) of the browser asking, signed once per browser secret.

Flask-WTF signs the browser's secret (kept in its session) with a timestamp on every request that
writes a form, and every signed-in page writes one (log out). DeckHub sets no time limit on tokens
(`WTF_CSRF_TIME_LIMIT` is None), so the timestamp is never checked and the first token signed for a
secret stays as valid as any later one; signing again was a tenth of a kept page's time for a
signed-in browser (benchmarks/bench_reach_ins.py). The token first written for a secret is kept and
handed to Flask-WTF at the start of each request of that browser, so its forms and `csrf_token()`
write it. With a time limit, every request signs afresh.

Flask-WTF has no public way to be handed a token: this module is the one place that knows it keeps
the request's token in `g` under the form field's name (tests/test_form_tokens.py pins that, and
pyproject.toml bounds Flask-WTF's version).
"""
from __future__ import annotations

from flask import Flask, current_app, g, session
from flask_wtf.csrf import generate_csrf

from deckhub.core.caches import LRU

TOKENS_KEPT = 10_000  # browsers' tokens kept per app, the most recently used
_WRITTEN = "deckhub_form_token"  # where `form_token` leaves the request's token once asked for


def _field() -> str:
    return current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")


def _kept() -> LRU[str] | None:
    if current_app.config.get("WTF_CSRF_TIME_LIMIT") is not None:
        return None
    return current_app.extensions["deckhub.form_tokens"]


def _reuse_kept_token() -> None:
    tokens = _kept()
    secret = session.get(_field()) if tokens is not None else None
    token = tokens.get(secret) if isinstance(secret, str) else None
    if token is not None:
        setattr(g, _field(), token)


def form_token() -> str:
    """This browser's form token, as Flask-WTF's `csrf_token()` writes it. Flask-WTF signs one a
    request (and keeps it in `g`), so a request asks for it and keeps it once, however many forms
    its page writes (a deck page writes five)."""
    token = g.get(_WRITTEN)
    if token is None:
        token = generate_csrf()  # the kept one when `_reuse_kept_token` found it
        tokens = _kept()
        if tokens is not None:
            secret = session[_field()]
            if tokens.get(secret) is None:
                tokens.put(secret, token)
        setattr(g, _WRITTEN, token)
    return token


def written_token() -> str | None:
    """The form token this request has written into its page, if any (None: it wrote no form)."""
    return g.get(_field())


def register(app: Flask) -> None:
    app.extensions["deckhub.form_tokens"] = LRU(TOKENS_KEPT)
    app.before_request(_reuse_kept_token)
    # Flask-WTF puts its own csrf_token() into every template's context as well as into the
    # globals; both must be this one, or pages rendered in a request sign a new token every time
    app.add_template_global(form_token, "csrf_token")
    app.context_processor(lambda: {"csrf_token": form_token})

"""The session cookie, its signature checked once per cookie a worker sees.

Flask's cookie sessions build a signing serializer and check the cookie's signature (base64,
HMAC, timestamp, then JSON) on every request; a signed-in browser sends the same cookie on every
request until its session changes, and that check was a tenth of a bare request's time on every
signed-in page (benchmarks/page_cost.py). Here the serializer is built once per secret key, and a
cookie whose signature was found good is kept (the exact cookie text, under the keys that
checked it) with its time of signing and its contents as JSON, the most recently used.
A kept cookie is still refused once it is older than the session lifetime, exactly as the
signature check would; its contents are read from the kept JSON afresh each request, so nothing a
request changes in its session is seen by another. A cookie never seen, changed by one byte or
signed with another key goes through the whole check. Who is signed in is still checked in the
database on every request (services/sessions.py): log-out and "sign out everywhere" are not cached.
"""
from __future__ import annotations

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature

from deckhub.core.caches import LRU

COOKIES_KEPT = 10_000  # checked session cookies kept per app, the most recently used


class CheckedCookieSessions(SecureCookieSessionInterface):
    def __init__(self) -> None:
        self._checked: LRU[tuple[int, str]] = LRU(COOKIES_KEPT)
        self._serializer: tuple[tuple, object] | None = None

    def get_signing_serializer(self, app: Flask):
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        kept = self._serializer
        if kept is not None and kept[0] == keys:
            return kept[1]
        serializer = super().get_signing_serializer(app)
        self._serializer = (keys, serializer)
        return serializer

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (self._serializer[0], cookie)
        checked = self._checked.get(key)
        if checked is None:
            try:
                data, signed_at = serializer.loads(cookie, max_age=max_age, return_timestamp=True)
            except BadSignature:
                return self.session_class()
            checked = self._checked.put(key, (int(signed_at.timestamp()), self.serializer.dumps(data)))
            return self.session_class(data)
        signed_at, text = checked
        age = serializer.make_signer().get_timestamp() - signed_at  # the signer's own clock, as its check reads
        if age > max_age or age < 0:  # as itsdangerous's TimestampSigner refuses it
            return self.session_class()
        return self.session_class(self.serializer.loads(text))


def register(app: Flask) -> None:
    app.session_interface = CheckedCookieSessions()

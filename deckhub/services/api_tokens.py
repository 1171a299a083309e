"""Personal API tokens: created on the account page, shown once, stored only as a hash.

A token is `dh_` followed by 43 URL-safe characters (256 random bits), so a plain SHA-256 of it
is enough to store (nothing to brute-force, no salt needed) and lets a request be authenticated
with one indexed lookup. The first characters are kept as `prefix` so the owner can tell tokens
apart on the account page. A revoked token stays listed (with when it was revoked) and never
authenticates again. No Flask here: the web layer passes the `Authorization` header value.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from peewee import DatabaseError

from deckhub.store import models
from deckhub.store.db import database, lock, write_transaction

TOKEN_PREFIX = "dh_"
PREFIX_CHARS = 10  # "dh_" and 7 random characters, shown on the account page
MAX_NAME = 80
MAX_ACTIVE = 25  # live tokens per user
MAX_TOKEN_LENGTH = 200  # longer "tokens" are refused before hashing
LAST_USED_EVERY = dt.timedelta(minutes=1)  # `last_used_at` is written at most this often


class TokenError(ValueError):
    """A token cannot be created as asked; the message says why."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _uid(user) -> int:
    return user if isinstance(user, int) else user.id


def create(user, name: str) -> tuple[models.ApiToken, str]:
    """A new token for `user`: returns the row and the token itself (the only time it is known)."""
    name = " ".join((name or "").split())[:MAX_NAME]
    if not name:
        raise TokenError("Give the token a name (what it is for), so you can recognise it later.")
    uid = _uid(user)
    with write_transaction():
        lock(f"api-tokens:{uid}")  # counted and created under one lock: never more than MAX_ACTIVE
        live = (models.ApiToken.select()
                .where((models.ApiToken.user == uid) & models.ApiToken.revoked_at.is_null()).count())
        if live >= MAX_ACTIVE:
            raise TokenError(f"You have {live} live tokens; revoke one you no longer use first.")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = models.ApiToken.create(user=uid, name=name, token_hash=hash_token(token), prefix=token[:PREFIX_CHARS])
    return row, token


def user_tokens(user) -> list[models.ApiToken]:
    """The user's tokens, live ones first, newest first."""
    return list(models.ApiToken.select().where(models.ApiToken.user == _uid(user))
                .order_by(models.ApiToken.revoked_at.is_null(False), models.ApiToken.created_at.desc(),
                          models.ApiToken.id.desc()))


def revoke(user, token_id: int) -> models.ApiToken | None:
    """Revoke one of the user's live tokens; None when the user has no live token with that id."""
    uid = _uid(user)
    changed = (models.ApiToken.update(revoked_at=models.utcnow())
               .where((models.ApiToken.id == token_id) & (models.ApiToken.user == uid)
                      & models.ApiToken.revoked_at.is_null())
               .execute())
    return models.ApiToken.get_by_id(token_id) if changed else None


def bearer_token(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header value; None for another scheme or none."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return value.strip()


def authenticate(token: str | None) -> models.User | None:
    """The user a live token belongs to, or None. Notes when the token was last used."""
    if not token or len(token) > MAX_TOKEN_LENGTH or not token.startswith(TOKEN_PREFIX):
        return None
    row = (models.ApiToken.select(models.ApiToken, models.User).join(models.User)
           .where((models.ApiToken.token_hash == hash_token(token)) & models.ApiToken.revoked_at.is_null())
           .first())
    if row is None:
        return None
    now = models.utcnow()
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_EVERY:
        try:
            with database.atomic():
                models.ApiToken.update(last_used_at=now).where(models.ApiToken.id == row.id).execute()
        except DatabaseError:
            pass  # bookkeeping only: storage that refuses writes must not stop a token from reading
    return row.user

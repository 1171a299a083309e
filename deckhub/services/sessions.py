"""Signed-in browsers, checked on the server on every request.

Flask-Login keeps `User.get_id()` in the session cookie and in the remember-me cookie; here that
id is `"<user id>:<session version>:<browser key>"`. A request is signed in only while the user's
`session_version` still matches and the browser's `LoginSession` row still exists, so:
log-out deletes that browser's row (a copied cookie, or the remember-me cookie, stops working);
"sign out everywhere" and a password change bump the version and delete every row.
No Flask here: the web layer passes the id it read from the cookie.
"""
from __future__ import annotations

import datetime as dt
import secrets

from deckhub.services.catalogue_store import every_stamp_column, seed_request_stamps
from deckhub.store import models
from deckhub.store.db import PreparedSelect, write_transaction

MAX_AGE = dt.timedelta(days=366)  # older rows outlived any remember-me cookie (365 days) and are swept


def start(user: models.User) -> models.User:
    """A new signed-in browser for `user`; returns the user with the `login_id` to keep in its cookies."""
    key = secrets.token_urlsafe(24)
    with write_transaction():
        models.LoginSession.delete().where(models.LoginSession.created_at < models.utcnow() - MAX_AGE).execute()
        models.LoginSession.create(user=user.id, key=key)
    user.login_id = f"{user.id}:{user.session_version}:{key}"
    return user


def _parse(login_id: str) -> tuple[int, int, str] | None:
    parts = str(login_id or "").split(":")
    if len(parts) != 3 or not all(p.isascii() and p.isdecimal() and len(p) < 10 for p in parts[:2]) or not parts[2]:
        return None
    return int(parts[0]), int(parts[1]), parts[2][:64]


def _collection_changes():
    """The user's collection change count (`CollectionChanges`) as a column: pages kept from the
    user's rows are keyed on it (`user.collection_changes`, None before their first change)."""
    C = models.CollectionChanges
    return C.select(C.changes).where(C.user == models.User.id).alias("collection_changes")


# every request of a signed-in browser runs it, and most then read the catalogues' stamps: it
# brings them along (a statement less a request, a round trip on PostgreSQL), and the count that
# says whether a page kept from the user's collection still holds
_SIGNED_IN = PreparedSelect(models.User, lambda uid, version, key: (
    models.User.select(*models.User._meta.sorted_fields, every_stamp_column().alias("catalogue_stamps"),
                       _collection_changes())
    .join(models.LoginSession)
    .where((models.User.id == uid) & (models.User.session_version == version) & (models.LoginSession.key == key))
    .limit(1)))


def load(login_id: str) -> models.User | None:
    """The user a session or remember-me cookie signs in, or None once it was ended."""
    parsed = _parse(login_id)
    if parsed is None:
        return None
    uid, version, key = parsed
    user = _SIGNED_IN.first(uid, version, key)
    if user is not None:
        user.login_id = f"{uid}:{version}:{key}"
        seed_request_stamps(user.__dict__.pop("catalogue_stamps", None))
    return user


def end(login_id: str | None) -> None:
    """Log-out: this browser's session (and any copy of its cookies) stops working."""
    parsed = _parse(login_id or "")
    if parsed is not None:
        models.LoginSession.delete().where((models.LoginSession.user == parsed[0])
                                           & (models.LoginSession.key == parsed[2])).execute()


def end_all(user: models.User) -> None:
    """Every browser of `user` is signed out (the caller may `start` a new session for this one)."""
    with write_transaction():
        models.User.update(session_version=models.User.session_version + 1).where(models.User.id == user.id).execute()
        models.LoginSession.delete().where(models.LoginSession.user == user.id).execute()
    user.session_version = models.User.get_by_id(user.id).session_version
    user.login_id = None

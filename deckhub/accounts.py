"""Accounts: creation and password checks, shared by the sign-up page and `deckhub user add`."""
from __future__ import annotations

import re

from peewee import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from deckhub import models
from deckhub.db import database

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,40}$")
MIN_PASSWORD = 8


class AccountError(ValueError):
    pass


def validate_username(username: str) -> str:
    username = username.strip()
    if not USERNAME.match(username):
        raise AccountError("A user name is 3 to 40 letters, digits, dots, dashes or underscores.")
    return username


def create_user(username: str, password: str, curator: bool = False) -> models.User:
    """Create an account; the first account of a new site is a curator (it reviews card facts)."""
    username = validate_username(username)
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"A password has at least {MIN_PASSWORD} characters.")
    with database.atomic():
        if models.User.select().where(models.User.username ** username).exists():
            raise AccountError(f"The name {username!r} is taken.")
        first = not models.User.select().exists()
        try:
            return models.User.create(username=username, password_hash=generate_password_hash(password),
                                      is_curator=curator or first)
        except IntegrityError:
            raise AccountError(f"The name {username!r} is taken.") from None


def authenticate(username: str, password: str) -> models.User | None:
    user = models.User.get_or_none(models.User.username ** username.strip())
    if user and check_password_hash(user.password_hash, password):
        return user
    return None

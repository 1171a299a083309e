"""Accounts: creation, password rules and checks, shared by the sign-up page and `deckhub user add`;
signing up, logging in and changing a password as the web does them, limits included.

Names are compared by their normalised key (`models.name_key`) with a unique index, never by a
pattern, so `%` or `_` in a typed name match nothing but themselves, and two sign-ups racing for
one name end in one account and a "taken" for the other.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import re
from functools import lru_cache
from pathlib import Path

from peewee import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from deckhub.store import models
from deckhub.services import ratelimit, sessions
from deckhub.store.db import lock, write_transaction

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,40}$")
MIN_PASSWORD = 10
MAX_PASSWORD = 200
MIN_DISTINCT = 5  # "aaaaaaaaaa" or "ababababab" is long but guessed at once
COMMON_PASSWORDS = Path(__file__).with_name("common_passwords.txt")

SIGNUP_LIMIT = 5  # accounts made from one client address within the window
SIGNUP_WINDOW = dt.timedelta(hours=1)
LOGIN_LIMIT = 10  # failed log-ins per account name, and per client address, within the window
LOGIN_WINDOW = dt.timedelta(minutes=15)


class AccountError(ValueError):
    """An account cannot be made or changed as asked; `field` is the form field the message is about."""

    def __init__(self, message: str, field: str = "username"):
        super().__init__(message)
        self.field = field


class TooManySignups(AccountError):
    """The address made SIGNUP_LIMIT accounts within SIGNUP_WINDOW."""


class TooManyLogins(AccountError):
    """The account name or the address failed to log in LOGIN_LIMIT times within LOGIN_WINDOW."""


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    lines = COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(line.casefold() for line in lines if line and not line.startswith("#"))


def validate_username(username: str) -> str:
    username = (username or "").strip()
    if not USERNAME.match(username):
        raise AccountError("A user name is 3 to 40 letters, digits, dots, dashes or underscores.")
    return username


def password_problem(password: str, username: str) -> str | None:
    """Why `password` may not be used by `username`, or None when it may."""
    if len(password) < MIN_PASSWORD:
        return f"A password has at least {MIN_PASSWORD} characters."
    if len(password) > MAX_PASSWORD:
        return f"A password has at most {MAX_PASSWORD} characters."
    if len(set(password)) < MIN_DISTINCT:
        return f"A password uses at least {MIN_DISTINCT} different characters."
    if password.casefold() in common_passwords():
        return "That password is one of the 10,000 most common passwords; choose another."
    if username and models.name_key(username) in password.casefold():
        return "A password may not contain the user name."
    return None


def find_user(username: str) -> models.User | None:
    """The account of exactly this name, whatever its case."""
    return models.User.get_or_none(models.User.name_key == models.name_key(username))


class NoSuchUser(AccountError):
    """A command named a user this site does not have."""


def named_user(username: str) -> models.User:
    """The account a command names (`--user NAME`), or NoSuchUser saying how to make one."""
    user = find_user(username.strip())
    if user is None:
        raise NoSuchUser(f"there is no user named {username!r} (create one with `deckhub user add`)")
    return user


def network_key(address: str | None) -> str | None:
    """A key of the network an address belongs to (an IPv4 /24, an IPv6 /48), kept instead of the
    address: accounts signed up from one network do not count as independent players when they
    agree on a card fact."""
    if not address:
        return None
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return None
    network = ipaddress.ip_network(f"{ip}/{24 if ip.version == 4 else 48}", strict=False)
    return hashlib.sha256(f"deckhub-signup:{network}".encode()).hexdigest()


def create_user(username: str, password: str, curator: bool = False,
                signup_address: str | None = None, signup_limit: int = SIGNUP_LIMIT) -> models.User:
    """Create an account; the first account of a new site is a curator (it reviews card facts).

    `signup_address` (the web sign-up's client address) counts against `signup_limit` accounts
    per SIGNUP_WINDOW, atomically; the command line passes none."""
    username = validate_username(username)
    problem = password_problem(password, username)
    if problem:
        raise AccountError(problem, "password")
    password_hash = generate_password_hash(password)
    taken = AccountError(f"The name {username!r} is taken.")
    if find_user(username) is not None:
        raise taken
    try:
        with write_transaction():
            if signup_address is not None and not ratelimit.take(
                    [f"signup-ip:{signup_address}"], signup_limit, SIGNUP_WINDOW):
                raise TooManySignups("Too many accounts were made from your address in the last hour; "
                                     "try again later.")
            lock("accounts")  # one sign-up at a time: one "first account", one winner per name
            if find_user(username) is not None:
                raise taken
            first = not models.User.select().exists()
            return models.User.create(username=username, password_hash=password_hash,
                                      is_curator=curator or first, signup_network=network_key(signup_address))
    except IntegrityError:
        raise taken from None


def sign_up(username: str, password: str, address: str, signup_limit: int = SIGNUP_LIMIT) -> models.User:
    """A new account made from `address` (counted against `signup_limit` an hour), signed in:
    returns the user with the `login_id` of this browser's new session."""
    return sessions.start(create_user(username, password, signup_address=address, signup_limit=signup_limit))


def log_in(username: str, password: str, address: str) -> models.User:
    """Check a log-in and start a session for the browser asking (the user with its `login_id`).

    Failed attempts are limited per account name and per client address (LOGIN_LIMIT within
    LOGIN_WINDOW). The attempt is counted before the password is checked (and given back if it
    was right), so simultaneous wrong guesses cannot all slip past the limit."""
    buckets = [f"login:{models.name_key(username)}", f"login-ip:{address}"]
    if not ratelimit.take(buckets, LOGIN_LIMIT, LOGIN_WINDOW):
        raise TooManyLogins("Too many failed attempts. Wait 15 minutes and try again.", "password")
    user = authenticate(username, password)
    if user is None:
        raise AccountError("That user name and password do not match.", "password")
    ratelimit.clear(buckets[:1])
    ratelimit.give_back(buckets[1:])
    return sessions.start(user)


def authenticate(username: str, password: str) -> models.User | None:
    user = find_user(username)
    if user and check_password_hash(user.password_hash, password):
        return user
    return None


def change_password(user: models.User, current: str, new: str) -> models.User:
    """Set a new password (the current one must be given); every signed-in browser is signed out
    and the one asking gets a new session: returns the user with its `login_id`."""
    if not check_password_hash(user.password_hash, current or ""):
        raise AccountError("The current password is not right.", "current")
    set_password(user, new)
    return sessions.start(user)


def set_password(user: models.User, new: str) -> None:
    """Set a password without the current one (an operator's `deckhub user password`, or an account
    imported without its password); every signed-in browser is signed out."""
    problem = password_problem(new, user.username)
    if problem:
        raise AccountError(problem, "password")
    with write_transaction():
        models.User.update(password_hash=generate_password_hash(new)).where(models.User.id == user.id).execute()
        sessions.end_all(user)


def set_password_of(username: str, new: str) -> models.User:
    """`set_password` for the account of that name (an operator's `deckhub user password`)."""
    user = find_user(username)
    if user is None:
        raise AccountError(f"no user named {username!r}")
    set_password(user, new)
    return user

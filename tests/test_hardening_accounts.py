"""Issue 19, accounts: exact sign-in names, sign-up races, server-side sessions, password rules,
and limits that hold when many requests arrive at once (threads, each with its own connection,
against the same database: SQLite or PostgreSQL)."""
from __future__ import annotations

import threading

import pytest
from peewee import IntegrityError

from conftest import csrf_token, legacy_database
from deckhub.services import accounts, api_tokens
from deckhub.services.community.errors import RateLimited
from deckhub.services.community.proposing import propose_facts
from deckhub.store import models
from deckhub.store.db import database, init_database
from deckhub.store import schema

PASSWORD = "correct horse"


def at_once(n: int, work) -> list:
    """Run `work(i)` in n threads released together; their results in order."""
    results: list = [None] * n
    barrier = threading.Barrier(n)

    def run(i):
        barrier.wait()
        try:
            results[i] = work(i)
        finally:
            if not database.is_closed():
                database.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def signed_in_as(client) -> str | None:
    response = client.get("/api/me")
    return response.get_json()["username"] if response.status_code == 200 else None


# --------------------------------------------------------------------------- names

def test_sign_in_names_are_not_patterns(client, auth):
    auth.signup("alice")
    auth.logout()
    for pattern in ("%", "alic_", "ali%", "alice%", "_lice", "ALICE%"):
        response = auth.login(pattern)
        assert response.status_code == 400, pattern
        assert signed_in_as(client) is None
    assert auth.login("ALICE").status_code == 302  # exact, whatever the case


def test_a_locked_account_stays_locked_under_a_wildcard_name(client, auth):
    auth.signup("alice")
    auth.logout()
    for _ in range(10):
        auth.login("alice", "wrong password")
    assert auth.login("alice").status_code == 429
    assert auth.login("alice%").status_code in (400, 429)
    assert signed_in_as(client) is None


def test_sign_up_compares_names_exactly(client, auth):
    auth.signup("abxc")
    auth.logout()
    assert auth.signup("ab_c").status_code == 302
    with database.connection_context():
        assert models.User.select().count() == 2


def test_the_normalised_name_is_unique_in_the_database(app):
    with database.connection_context():
        models.User.create(username="Carol", password_hash="-")
        with pytest.raises(IntegrityError), database.atomic():
            models.User.insert(username="cAROL", name_key="carol", password_hash="-").execute()


def test_a_sign_up_race_makes_one_account_and_says_taken(app):
    names = ["Racer", "racer", "RACER", "rAcer", "racer", "Racer", "RACEr", "racER"]

    def sign_up(i):
        client = app.test_client()
        response = client.post("/signup", data={"username": names[i], "password": PASSWORD, "confirm": PASSWORD})
        return response.status_code, response.get_data(as_text=True)

    results = at_once(len(names), sign_up)
    assert sorted(code for code, _ in results) == [302] + [400] * (len(names) - 1)
    assert all("is taken" in body for code, body in results if code == 400)
    with database.connection_context():
        assert models.User.select().where(models.User.name_key == "racer").count() == 1
        assert models.User.select().count() == 1


def test_upgrading_keeps_the_oldest_of_two_names_differing_in_case(fresh_database_url, tmp_path):
    db = legacy_database(fresh_database_url, ["001_initial", "002_simulation_runs", "003_community_and_api"], 3)
    with db.connection_context():
        for name in ("bob", "Bob"):
            db.execute_sql('INSERT INTO "user" (username, password_hash, is_curator, created_at) '
                           f"VALUES ('{name}', '-', false, '2025-01-01 00:00:00')")
        first, second = (models.User.select(models.User.id).where(models.User.username == n).scalar()
                         for n in ("bob", "Bob"))
    schema.upgrade(db, backup_dir=tmp_path)
    with db.connection_context():
        assert models.User.get_by_id(first).session_version == 1
        assert accounts.find_user("BOB").id == first
        assert models.User.get_by_id(second).name_key == f"bob#{second}"
    if hasattr(db, "close_all"):
        db.close_all()


# --------------------------------------------------------------------------- sessions

def _cookie(client, name):
    cookie = client.get_cookie(name)
    return cookie.value if cookie else None


def test_a_session_cookie_copied_before_log_out_does_not_work_after(app, client, auth):
    auth.signup("alice")
    stolen = _cookie(client, "session")
    auth.logout()
    thief = app.test_client()
    thief.set_cookie("session", stolen)
    assert signed_in_as(thief) is None
    assert thief.get("/decks/").status_code == 302  # to the log-in page


def test_the_remember_me_cookie_ends_with_log_out(app, client, auth):
    auth.signup("alice")
    auth.logout()
    client.post("/login", data={"username": "alice", "password": PASSWORD, "remember": "y"})
    remember = _cookie(client, "remember_token")
    assert remember
    fresh = app.test_client()  # no session cookie: signed in by the remember-me cookie alone
    fresh.set_cookie("remember_token", remember)
    assert signed_in_as(fresh) == "alice"
    auth.logout()
    later = app.test_client()
    later.set_cookie("remember_token", remember)
    assert signed_in_as(later) is None


def test_log_out_ends_only_that_browser(app, auth):
    auth.signup("alice")
    other = app.test_client()
    other.post("/login", data={"username": "alice", "password": PASSWORD})
    assert signed_in_as(other) == "alice"
    auth.logout()
    assert signed_in_as(other) == "alice"


def test_sign_out_everywhere_ends_every_browser_and_remember_cookie(csrf_app):
    alice = csrf_app.test_client()
    token = csrf_token(alice.get("/signup").get_data(as_text=True))
    alice.post("/signup", data={"csrf_token": token, "username": "alice", "password": PASSWORD, "confirm": PASSWORD})
    laptop = csrf_app.test_client()
    token = csrf_token(laptop.get("/login").get_data(as_text=True))
    laptop.post("/login", data={"csrf_token": token, "username": "alice", "password": PASSWORD, "remember": "y"})
    remember = _cookie(laptop, "remember_token")
    page = alice.get("/account/").get_data(as_text=True)
    assert "Sign out everywhere" in page
    assert alice.post("/account/sign-out-everywhere", data={}).status_code == 400  # CSRF token required
    assert signed_in_as(laptop) == "alice"
    response = alice.post("/account/sign-out-everywhere", data={"csrf_token": csrf_token(page)})
    assert response.status_code == 303 and "/login" in response.headers["Location"]
    assert signed_in_as(alice) is None and signed_in_as(laptop) is None
    fresh = csrf_app.test_client()
    fresh.set_cookie("remember_token", remember)
    assert signed_in_as(fresh) is None


def test_changing_the_password_signs_out_the_other_browsers(app, client, auth):
    auth.signup("alice")
    other = app.test_client()
    other.post("/login", data={"username": "alice", "password": PASSWORD})
    wrong = client.post("/account/password", data={"current": "not it at all", "password": "a brand new secret",
                                                    "confirm": "a brand new secret"})
    assert wrong.status_code == 400 and "current password is not right" in wrong.get_data(as_text=True)
    assert signed_in_as(other) == "alice"
    response = client.post("/account/password", data={"current": PASSWORD, "password": "a brand new secret",
                                                       "confirm": "a brand new secret"})
    assert response.status_code == 303
    assert signed_in_as(client) == "alice"  # this browser stays signed in
    assert signed_in_as(other) is None
    auth.logout()
    assert auth.login("alice", PASSWORD).status_code == 400
    assert auth.login("alice", "a brand new secret").status_code == 302


# --------------------------------------------------------------------------- passwords

@pytest.mark.parametrize("password, message", [
    ("password", "between 10 and 200"),
    ("12345678", "between 10 and 200"),
    ("aaaaaaaa", "between 10 and 200"),
    ("aaaaaaaaaaaa", "at least 5 different characters"),
    ("1234567890", "10,000 most common"),
    ("qwertyuiop", "10,000 most common"),
    ("Password123", "10,000 most common"),
    ("alice-rocks-42", "may not contain the user name"),
    ("xxALICExx99", "may not contain the user name"),
])
def test_weak_passwords_are_refused(client, password, message):
    response = client.post("/signup", data={"username": "alice", "password": password, "confirm": password})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    with database.connection_context():
        assert models.User.select().count() == 0


def test_the_command_line_keeps_the_same_password_rules(app):
    with database.connection_context():
        with pytest.raises(accounts.AccountError, match="10,000 most common"):
            accounts.create_user("dora", "1234567890")
        with pytest.raises(accounts.AccountError, match="user name"):
            accounts.create_user("dora", "dora the explorer")
        assert accounts.create_user("dora", "map and backpack").username == "dora"


def test_the_common_password_list_is_the_10000_it_claims():
    common = accounts.common_passwords()
    assert len(common) == 10_000
    assert {"password", "123456", "qwerty", "dragon"} <= common


# --------------------------------------------------------------------------- limits

def test_sign_ups_are_rate_limited_per_address(app):
    client = app.test_client()
    codes = []
    for i in range(accounts.SIGNUP_LIMIT + 2):
        client.post("/logout")
        codes.append(client.post("/signup", data={"username": f"user{i}", "password": PASSWORD,
                                                  "confirm": PASSWORD}).status_code)
    assert codes == [302] * accounts.SIGNUP_LIMIT + [429, 429]
    other = app.test_client()
    assert other.post("/signup", data={"username": "elsewhere", "password": PASSWORD, "confirm": PASSWORD},
                      environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 302
    with database.connection_context():
        assert models.User.select().count() == accounts.SIGNUP_LIMIT + 1


def test_simultaneous_sign_ups_from_one_address_stop_at_the_limit(app):
    def sign_up(i):
        return app.test_client().post("/signup", data={"username": f"rush{i}", "password": PASSWORD,
                                                       "confirm": PASSWORD}).status_code

    codes = at_once(12, sign_up)
    assert codes.count(302) == accounts.SIGNUP_LIMIT and codes.count(429) == 12 - accounts.SIGNUP_LIMIT


def test_simultaneous_wrong_passwords_are_checked_at_most_the_limit(app):
    with database.connection_context():
        accounts.create_user("alice", PASSWORD)

    def guess(i):
        return app.test_client().post("/login", data={"username": "alice", "password": f"guess {i}"},
                                      environ_base={"REMOTE_ADDR": f"10.0.0.{i}"}).status_code

    codes = at_once(24, guess)
    assert codes.count(400) == accounts.LOGIN_LIMIT and codes.count(429) == 24 - accounts.LOGIN_LIMIT


def test_simultaneous_token_requests_stop_at_the_limit(app):
    with database.connection_context():
        user = accounts.create_user("alice", PASSWORD)
        for i in range(api_tokens.MAX_ACTIVE - 3):
            api_tokens.create(user, f"t{i}")

    def create(i):
        try:
            api_tokens.create(user.id, f"rush {i}")
            return "made"
        except api_tokens.TokenError:
            return "refused"

    results = at_once(10, create)
    assert results.count("made") == 3
    with database.connection_context():
        assert models.ApiToken.select().where(models.ApiToken.user == user.id).count() == api_tokens.MAX_ACTIVE


def test_simultaneous_proposals_stop_at_the_limit(app):
    from deckhub.services.catalogue_store import get_catalogue
    with database.connection_context():
        accounts.create_user("curie", PASSWORD)
        player = accounts.create_user("pat", PASSWORD)
        card = next(iter(get_catalogue("kaijudo")))

    def propose(i):
        try:
            propose_facts(player, "kaijudo", card.key, {"text": f"Proposed text number {i}."},
                          "https://example.org/scan", rate_limit=5)
            return "stored"
        except RateLimited:
            return "limited"

    results = at_once(12, propose)
    assert results.count("stored") == 5
    with database.connection_context():
        assert models.Proposal.select().count() == 5

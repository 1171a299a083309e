"""Accounts: sign up, log in, log out, wrong password, duplicate names, CSRF, safe redirects."""
from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest

from conftest import csrf_token
from deckhub.store import models
from deckhub.store.db import database


def user(name: str) -> models.User | None:
    with database.connection_context():
        return models.User.get_or_none(models.User.username == name)


def test_signup_creates_an_account_and_signs_in(client, auth):
    assert client.get("/signup").status_code == 200
    response = auth.signup()
    assert response.status_code == 302 and response.headers["Location"].endswith("/")
    page = client.get("/").get_data(as_text=True)
    assert "alice" in page and "Welcome to DeckHub, alice!" in page and "Log out" in page
    account = user("alice")
    assert account is not None and account.password_hash != "correct horse"  # hashed, never stored as typed


def test_first_account_is_curator_later_ones_are_not(client, auth):
    auth.signup("alice")
    auth.logout()
    auth.signup("bob")
    assert user("alice").is_curator and not user("bob").is_curator
    assert "(curator)" not in client.get("/").get_data(as_text=True)


def test_log_out_and_log_in_again(client, auth):
    auth.signup()
    response = auth.logout()
    assert response.status_code == 302
    page = client.get("/").get_data(as_text=True)
    assert "Signed out." in page and "Log in" in page
    response = auth.login()
    assert response.status_code == 302
    assert "Signed in as alice." in client.get("/").get_data(as_text=True)


def test_log_in_is_case_insensitive_on_the_name(client, auth):
    auth.signup("Alice")
    auth.logout()
    assert auth.login("alice").status_code == 302


def test_wrong_password_or_unknown_user_is_refused_without_saying_which(client, auth):
    auth.signup()
    auth.logout()
    wrong = auth.login(password="wrong password")
    nobody = auth.login(username="nobody")
    for response in (wrong, nobody):
        assert response.status_code == 400
        assert "That user name and password do not match." in response.get_data(as_text=True)
    assert "Log in" in client.get("/").get_data(as_text=True)


def test_duplicate_name_is_refused_whatever_its_case(client, auth):
    auth.signup("alice")
    auth.logout()
    response = auth.signup("ALICE")
    assert response.status_code == 400
    assert "is taken" in response.get_data(as_text=True)
    with database.connection_context():
        assert models.User.select().count() == 1


@pytest.mark.parametrize("data, message", [
    ({"username": "al", "password": "correct horse", "confirm": "correct horse"}, "between 3 and 40"),
    ({"username": "alice", "password": "short", "confirm": "short"}, "between 10 and 200"),
    ({"username": "alice", "password": "correct horse", "confirm": "correct horsE"}, "The passwords differ."),
    ({"username": "al ice!", "password": "correct horse", "confirm": "correct horse"}, "letters, digits"),
])
def test_bad_signups_are_explained(client, data, message):
    response = client.post("/signup", data=data)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    with database.connection_context():
        assert not models.User.select().exists()


def test_logout_needs_a_post_and_a_session(client, auth):
    assert client.get("/logout").status_code == 405
    response = auth.logout()  # not signed in: sent to the login page, nothing breaks
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_csrf_is_enforced_on_every_form(csrf_app):
    client = csrf_app.test_client()
    data = {"username": "alice", "password": "correct horse", "confirm": "correct horse"}
    for url in ("/signup", "/login", "/logout"):
        response = client.post(url, data=data)
        assert response.status_code == 400, url
        assert "This form has expired" in response.get_data(as_text=True)
    assert user("alice") is None
    token = csrf_token(client.get("/signup").get_data(as_text=True))
    response = client.post("/signup", data={**data, "csrf_token": token})
    assert response.status_code == 302 and user("alice") is not None
    # logging out needs the token too
    assert client.post("/logout").status_code == 400
    token = csrf_token(client.get("/").get_data(as_text=True))
    assert client.post("/logout", data={"csrf_token": token}).status_code == 302


def test_a_wrong_csrf_token_is_a_400_not_a_500(csrf_app):
    client = csrf_app.test_client()
    client.get("/login")
    response = client.post("/login", data={"username": "a", "password": "b", "csrf_token": "forged"})
    assert response.status_code == 400


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "http:/evil.example",
                                    "/\\evil.example", "javascript:alert(1)", " //evil.example"])
def test_login_refuses_open_redirects(client, auth, target):
    auth.signup()
    auth.logout()
    response = client.post("/login", query_string={"next": target},
                           data={"username": "alice", "password": "correct horse"})
    assert response.status_code == 302
    location = response.headers["Location"]
    # where a browser would go: always this site ("/\\evil" is sent percent-encoded, a local path)
    resolved = urlsplit(urljoin("http://localhost/login", location))
    assert resolved.scheme == "http" and resolved.netloc == "localhost", location
    assert "\\" not in location and not location.lstrip().startswith(("//", "javascript:"))


def test_login_follows_a_local_next(client, auth):
    auth.signup()
    auth.logout()
    response = client.post("/login", query_string={"next": "/cards?game=kaijudo"},
                           data={"username": "alice", "password": "correct horse"})
    assert response.status_code == 302 and response.headers["Location"].endswith("/cards?game=kaijudo")


def test_failed_log_ins_are_rate_limited_per_account(client, auth):
    auth.signup("target")
    auth.logout()
    for _ in range(10):
        assert client.post("/login", data={"username": "target", "password": "wrong guess"}).status_code == 400
    blocked = client.post("/login", data={"username": "target", "password": "correct horse"})
    assert blocked.status_code == 429 and "Too many failed attempts" in blocked.get_data(as_text=True)


def test_a_backslash_next_is_not_followed(client, auth):
    auth.signup("someone")
    auth.logout()
    response = client.post("/login?next=/\\\\evil.example", data={"username": "someone", "password": "correct horse"})
    assert response.status_code == 302 and response.location == "/"

"""Production settings: an explicit secret key, secure cookies, security headers, request size limits."""
from __future__ import annotations

import pytest

from deckhub.app import ConfigurationError, create_app


def test_production_refuses_to_start_without_a_configured_secret_key(fresh_database_url, monkeypatch):
    for name in ("DECKHUB_SECRET_KEY", "SECRET_KEY", "DECKHUB_SECRET_KEY_FILE"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ConfigurationError, match="DECKHUB_SECRET_KEY"):
        create_app({"DATABASE_URL": fresh_database_url, "PRODUCTION": True})
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "short")
    with pytest.raises(ConfigurationError, match="32 characters"):
        create_app({"DATABASE_URL": fresh_database_url, "PRODUCTION": True})


def test_production_reads_the_key_from_a_file_and_sends_secure_cookies(fresh_database_url, monkeypatch, tmp_path):
    key = tmp_path / "key"
    key.write_text("k" * 40 + "\n")
    monkeypatch.delenv("DECKHUB_SECRET_KEY", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("DECKHUB_SECRET_KEY_FILE", str(key))
    app = create_app({"DATABASE_URL": fresh_database_url, "PRODUCTION": True})
    assert app.config["SECRET_KEY"] == "k" * 40
    assert app.config["SESSION_COOKIE_SECURE"] and app.config["SESSION_COOKIE_HTTPONLY"]
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"


def test_every_page_sends_the_security_headers(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "'unsafe-inline'" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_requests_over_the_size_limit_get_413_and_change_nothing(client, auth, app):
    auth.signup("big")
    huge = "1 Blade Seer\n" * (app.config["MAX_CONTENT_LENGTH"] // 13 + 10)
    response = client.post("/decks/import", data={"name": "Huge", "game": "kaijudo", "decklist": huge})
    assert response.status_code == 413
    assert "You have no decks yet" in client.get("/decks/").get_data(as_text=True)
    api = client.post("/api/check", json={"game": "kaijudo", "decklist": huge})
    assert api.status_code == 413 and "error" in api.get_json()


def test_a_hostile_o8d_file_is_refused_with_a_line_error_not_expanded(client, auth):
    auth.signup("hostile")
    bomb = ('<?xml version="1.0"?><!DOCTYPE deck [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
            '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]><deck game="x"><section name="Main"><card qty="1" id="x">&c;</card>'
            '</section></deck>')
    external = ('<?xml version="1.0"?><!DOCTYPE deck [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                '<deck><section name="Main"><card qty="1" id="x">&x;</card></section></deck>')
    for text in (bomb, external):
        response = client.post("/decks/import", data={"name": "Bomb", "game": "kaijudo", "decklist": text})
        page = response.get_data(as_text=True)
        assert response.status_code == 400 and "Line 1:" in page and "root:" not in page


def test_production_sends_hsts_and_every_cookie_has_samesite(schema_database_url, monkeypatch):
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "k" * 40)
    monkeypatch.delenv("DECKHUB_INSECURE_COOKIES", raising=False)
    app = create_app({"DATABASE_URL": schema_database_url, "PRODUCTION": True, "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    response = client.get("/", base_url="https://deckhub.example")
    assert response.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    client.post("/signup", base_url="https://deckhub.example",
                data={"username": "alice", "password": "correct horse", "confirm": "correct horse"})
    client.post("/logout", base_url="https://deckhub.example")
    response = client.post("/login", base_url="https://deckhub.example",
                           data={"username": "alice", "password": "correct horse", "remember": "y"})
    cookies = response.headers.getlist("Set-Cookie")
    assert {c.split("=", 1)[0] for c in cookies} >= {"session", "remember_token"}
    for cookie in cookies:
        assert "SameSite=Lax" in cookie and "Secure" in cookie and "HttpOnly" in cookie, cookie
    from deckhub.store.db import database
    database.close() if not database.is_closed() else None


def test_development_sends_no_hsts(client):
    assert "Strict-Transport-Security" not in client.get("/").headers

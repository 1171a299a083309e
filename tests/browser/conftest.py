"""Browser fixtures: the site served from a background thread, and a Chromium page to drive it.

    def test_something(live_server, page):
        page.goto(live_server.url + "/")
        live_server.signup(page)          # a fresh account, signed in (names are unique per call)

`live_server` is one server for the whole session (CSRF on, as in production) over its own copy
of the catalogue database; each test that asks for it points the shared database proxy back at
that copy, so tests using the `app` fixture before it do not disturb it. `page` is a fresh browser
context per test (no cookies carried over). Chromium is Debian's /usr/bin/chromium.
"""
from __future__ import annotations

import itertools
import socket
import threading
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Page, expect, sync_playwright
from werkzeug.serving import make_server

from deckhub.app import create_app
from deckhub.services.catalogue_store import clear_cache

CHROMIUM = "/usr/bin/chromium"
expect.set_options(timeout=20_000)  # as the pages' own timeout below: waiting longer on a busy machine, never failing sooner
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LiveServer:
    url: str
    app: object
    db: object
    _names: itertools.count = field(default_factory=lambda: itertools.count(1))

    def new_name(self, prefix: str = "player") -> str:
        return f"{prefix}{next(self._names)}"

    def signup(self, page: Page, username: str | None = None, password: str = "correct horse battery") -> str:
        """Sign up through the form (which signs the new account in); returns the user name."""
        username = username or self.new_name()
        page.goto(self.url + "/signup")
        page.get_by_label("User name").fill(username)
        page.get_by_label("Password", exact=True).fill(password)
        page.get_by_label("Repeat the password").fill(password)
        page.get_by_role("button", name="Sign up").click()
        expect(page.get_by_text(f"Welcome to DeckHub, {username}!")).to_be_visible()
        return username

    def login(self, page: Page, username: str, password: str = "correct horse battery") -> None:
        page.goto(self.url + "/login")
        page.get_by_label("User name").fill(username)
        page.get_by_label("Password", exact=True).fill(password)
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_text(f"Signed in as {username}.")).to_be_visible()


@pytest.fixture(scope="session")
def _live_server(databases, tmp_path_factory):
    from deckhub.store.db import database
    from queue_workers import Worker, queue_config

    clear_cache()
    url = databases.with_catalogues()
    queue = queue_config("sqlite", tmp_path_factory.mktemp("queue"))
    app = create_app({"TESTING": True, "SECRET_KEY": "browser-tests", "SIGNUP_LIMIT": 10_000, "DATABASE_URL": url, **queue})
    db = database.obj
    worker = Worker(url, queue, workers=1)  # a real consumer plays the site's simulations
    port = _free_port()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="deckhub-live-server", daemon=True)
    thread.start()
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", app, db)
    finally:
        server.shutdown()
        thread.join(timeout=10)
        worker.stop()


@pytest.fixture
def live_server(_live_server):
    from deckhub.services import jobs
    from deckhub.services.catalogue_store import warm_catalogues
    from deckhub.store.db import database
    database.initialize(_live_server.db)  # another fixture may have pointed the proxy elsewhere
    jobs.configure(_live_server.app.config["QUEUE_URL"], _live_server.app.config["QUEUE_NAME"])  # and the queue
    with database.connection_context():  # as `deckhub serve` does before it listens (another test may have
        warm_catalogues()                # emptied the catalogue cache): no page waits for the first load
    return _live_server


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(20_000)  # a 2-core CI machine runs two test workers: speed is measured in benchmarks/, not here
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()

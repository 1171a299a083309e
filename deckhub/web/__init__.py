"""The web layer: database per request, accounts, CSRF, one blueprint per area, error pages."""
from __future__ import annotations

import time

from flask import Flask, abort, g, render_template, request, session
from flask.json.provider import DefaultJSONProvider
from flask_login import LoginManager, current_user
from flask_wtf.csrf import CSRFError, CSRFProtect
from peewee import DatabaseError, InterfaceError
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from deckhub.services import catalogue_store
from deckhub import logs
from deckhub.store import models
from deckhub.store.db import database, init_database
from deckhub.services.limits import MAX_BODY
from deckhub.web import cookie_sessions, form_tokens, operations
from deckhub.web.api.errors import error_response, under_api
from deckhub.web.api.inputs import parse_json

csrf = CSRFProtect()
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message_category = "info"


@login_manager.user_loader
def _load_user(login_id):
    """From the session or the remember-me cookie: only while that browser's session is live."""
    from deckhub.services import sessions
    return sessions.load(login_id)


class JSONProvider(DefaultJSONProvider):
    """A request's JSON (`request.get_json`) is read as the API reads its bodies: invalid UTF-8,
    deep nesting and lone surrogates are invalid JSON (a 400), never a RecursionError or an
    encoding error later on (a 500)."""

    def loads(self, s, **kwargs):
        return parse_json(s)


class IdConverter(IntegerConverter):
    """`<int:...>` in every route: ids fit the databases' integer columns, so a larger number is a
    404 (no such route) instead of an overflow error from SQLite or PostgreSQL (a 500)."""

    def __init__(self, map, fixed_digits=0, min=None, max=2**31 - 1, signed=False):
        super().__init__(map, fixed_digits, min, max, signed)


def _wants_json() -> bool:
    return under_api() or request.accept_mimetypes.best == "application/json"


def init_app(app: Flask) -> None:
    from deckhub.web import filters
    app.jinja_environment = filters.TemplateEnvironment  # before anything makes app.jinja_env
    app.json = JSONProvider(app)
    cookie_sessions.register(app)
    app.url_map.converters["int"] = IdConverter  # before any blueprint adds its routes
    init_database(app.config["DATABASE_URL"])  # the schema is changed only by `deckhub db upgrade` (and serve)
    _observe_requests(app)

    @app.before_request
    def _refuse_nul_bytes():
        """No text DeckHub keeps may hold a NUL character (PostgreSQL refuses it with an error, SQLite
        cuts text at it): refused at the door for the path, query, form fields and JSON bodies."""
        if _has_nul():
            abort(400, "Text may not contain NUL characters (\\0); nothing was changed.")

    @app.before_request
    def _connect():
        if request.endpoint in operations.NO_DATABASE:
            return  # health checks and metrics open (and report) their own connections
        database.connect(reuse_if_open=True)
        catalogue_store.begin_request()
        if "_user_id" in session:  # signed in: the user's statement brings the catalogues' stamps (sessions.load)
            current_user._get_current_object()  # before a view reads them apart

    @app.teardown_request
    def _close(exc):
        catalogue_store.end_request()
        if not database.is_closed():
            database.close()

    csrf.init_app(app)
    form_tokens.register(app)  # after Flask-WTF, whose csrf_token() it replaces in templates
    login_manager.init_app(app)

    @app.after_request
    def _security_headers(response):
        """Only our own assets run or load; no framing; no MIME sniffing. A header a view set itself
        is kept (read in one pass: each missed lookup of werkzeug's headers raises and catches)."""
        present = {name.lower() for name, _ in response.headers}
        for name, value in security_headers:
            if name.lower() not in present:
                response.headers.add(name, value)
        return response

    security_headers = [("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
                        ("X-Frame-Options", "DENY"), ("Referrer-Policy", "same-origin")]
    if app.config.get("PRODUCTION") and app.config.get("SESSION_COOKIE_SECURE"):
        # production is served over HTTPS: browsers must never fall back to plain HTTP
        security_headers.append(("Strict-Transport-Security", "max-age=31536000; includeSubDomains"))

    @app.errorhandler(CSRFError)
    def _csrf_error(exc):
        return _error_page(400, "This form has expired or was not sent by DeckHub. Reload the page and try again.")

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        return _error_page(exc.code or 500, exc.description)

    @app.errorhandler(InterfaceError)
    @app.errorhandler(DatabaseError)
    def _storage_error(exc):
        """A database that cannot be reached (refused, gone mid-request): 503 saying so. A write the
        storage refused (disk full, read-only database, I/O error): the transaction was rolled back,
        so the answer says nothing changed; reads go on working."""
        if database_unreachable(exc):
            app.logger.warning("database unreachable: %s", exc)
            g._login_user = login_manager.anonymous_user()  # the page must not ask the database who is signed in
            body, code = _error_page(503, DATABASE_UNREACHABLE)
            return body, code, {"Retry-After": "30"}
        if not storage_refused(exc):
            return _unexpected(exc)
        app.logger.warning("storage refused a write: %s", exc)
        body, code = _error_page(503, STORAGE_REFUSED)
        return body, code, {"Retry-After": "60"}

    @app.errorhandler(Exception)
    def _unexpected(exc):
        if storage_refused(exc):  # a refused write wrapped in (or followed by) another error
            return _storage_error(exc)
        app.logger.exception("unhandled error in %s %s (request %s)", request.method, request.path,
                             g.get("request_id", "-"))
        return _error_page(500, "Something went wrong on our side. Nothing was changed.")

    filters.register(app)
    from deckhub.web import blueprints
    blueprints.register(app)
    from deckhub.web import board_html
    board_html.register(app)


def _observe_requests(app: Flask) -> None:
    """A request id on every request (the caller's X-Request-ID when it is sane, else a new one), on
    every log line it writes and sent back; its endpoint, method, status and time counted for /metrics."""
    from deckhub.services import metrics

    @app.before_request
    def _start():
        g.request_id = logs.request_id_from(request.headers.get("X-Request-ID"))
        logs.REQUEST_ID.set(g.request_id)
        g.request_started = time.perf_counter()

    @app.after_request
    def _finish(response):
        if "request_id" in g:
            response.headers["X-Request-ID"] = g.request_id
            metrics.observe(request.endpoint, request.method, response.status_code,
                            time.perf_counter() - g.request_started)
        return response

    @app.teardown_request
    def _forget(exc):
        logs.REQUEST_ID.set(None)


DATABASE_UNREACHABLE = ("DeckHub cannot reach its database just now, so nothing was read or changed. "
                        "Please try again in a minute.")
STORAGE_REFUSED = "DeckHub could not save this just now; nothing was changed. Please try again later."
_REFUSALS = ("readonly database", "read-only", "read only", "disk is full", "no space left", "disk i/o error",
             "could not extend file", "could not write", "database is locked", "disk full", "quota")
_REFUSAL_STATES = ("25006", "53100", "53200", "58030")  # PostgreSQL: read-only transaction, disk full, out of memory, I/O


_LOST_STATES = ("57P01", "57P02", "57P03")  # PostgreSQL: server shut down, crashed, not accepting connections yet


def database_unreachable(exc: BaseException) -> bool:
    """Whether a database error means the database could not be reached: a connection refused or
    lost (psycopg reports those without an SQLSTATE, or in class 08), a server shutting down, or an
    SQLite file that cannot be opened; not a query's own error (a lock timeout, a bad statement)."""
    driver = exc.__cause__ or exc.__context__ or next((a for a in exc.args if isinstance(a, BaseException)), exc)
    module = type(driver).__module__ or ""
    if module.startswith("psycopg"):
        import psycopg
        if not isinstance(driver, (psycopg.OperationalError, psycopg.InterfaceError)):
            return False
        state = getattr(driver, "sqlstate", None)
        return state is None or state.startswith("08") or state in _LOST_STATES
    if isinstance(exc, InterfaceError):
        return "closed" in str(exc).lower()
    return "unable to open database file" in str(exc).lower()


def storage_refused(exc: BaseException) -> bool:
    """Whether an error means the storage would not take a write (not a bug in a query): the error
    itself or any it was raised from or while handling. A refused write is often not the error that
    reaches the top: SQLite cancels the transaction on a full disk and the ROLLBACK after it fails,
    a savepoint is gone, a service wraps the error in its own."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, (DatabaseError, InterfaceError)) or type(exc).__module__.startswith(("sqlite3", "psycopg")):
            if getattr(exc, "sqlstate", None) in _REFUSAL_STATES:
                return True
            if any(phrase in str(exc).lower() for phrase in _REFUSALS):
                return True
        exc = exc.__cause__ or exc.__context__
    return False


def _has_nul() -> bool:
    if "\x00" in request.path or any("\x00" in k or "\x00" in v for k, v in request.args.items(multi=True)):
        return True
    if request.mimetype == "application/json" or under_api():
        if (request.content_length or 0) > MAX_BODY:
            return False  # refused as too large by the API (413) without being read
        raw = request.get_data(cache=True)
        return b"\x00" in raw or b"\\u0000" in raw.lower()
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        return any("\x00" in k or "\x00" in v for k, v in request.form.items(multi=True))
    return False


def _error_page(code: int, message: str):
    if _wants_json():
        return error_response(code, message), code
    try:
        return render_template("error.html", code=code, message=message), code
    except (DatabaseError, InterfaceError):
        # the page asked the database who is signed in, and the database failed again: shown signed out
        g._login_user = login_manager.anonymous_user()
        return render_template("error.html", code=code, message=message), code

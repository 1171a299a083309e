"""The Flask application factory (as in Flask's flaskr) and the configuration it reads."""
from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask

from deckhub import shipped_dir
from deckhub.services import limits

# The package's name, not this module's: Flask derives the instance folder (`<prefix>/var/deckhub-instance`
# when installed), the root path and the logger from it, and those must not move with the module.
APP_NAME = "deckhub"

def default_instance_path() -> Path:
    """Flask's instance folder for DeckHub: `instance/` in a checkout, `<prefix>/var/deckhub-instance`
    when installed (where create_app keeps the default database, queue and secret key)."""
    return Path(Flask(APP_NAME, static_folder=None).instance_path)


TEMPLATES = shipped_dir("templates")


class ConfigurationError(RuntimeError):
    """The site cannot start as configured; the message says what to set."""


def _configured_secret_key() -> str | None:
    for name in ("DECKHUB_SECRET_KEY", "SECRET_KEY"):
        if os.environ.get(name):
            return os.environ[name]
    key_file = os.environ.get("DECKHUB_SECRET_KEY_FILE")
    if key_file:
        try:
            key = Path(key_file).read_text().strip()
        except OSError as exc:
            raise ConfigurationError(f"cannot read DECKHUB_SECRET_KEY_FILE {key_file}: {exc.strerror}") from None
        if key:
            return key
    return None


def _secret_key(instance_path: str, production: bool) -> str:
    """The key from the environment or a key file; in development, else a random key kept in the instance folder.

    Production never falls back: a key made on one machine would differ between hosts and is easy to lose."""
    key = _configured_secret_key()
    if key:
        if production and len(key) < 32:
            raise ConfigurationError("the secret key must be at least 32 characters in production")
        return key
    if production:
        raise ConfigurationError("production mode needs DECKHUB_SECRET_KEY or DECKHUB_SECRET_KEY_FILE "
                                 "(e.g. python -c 'import secrets; print(secrets.token_hex(32))')")
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        _create_once(path, secrets.token_hex(32))
    return path.read_text().strip()


def _create_once(path: Path, text: str) -> None:
    """Write `text` to a new file at `path` unless another process made it first: the file is
    written whole under a private name and linked into place (atomic, and refused if it exists),
    so processes started together never read a half-written file or end up with different keys."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, draft = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        os.unlink(draft)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The app factory (as in Flask's flaskr): `config` overrides everything, for tests."""
    app = Flask(APP_NAME, instance_relative_config=True, template_folder=str(TEMPLATES))
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL") or f"sqlite:///{Path(app.instance_path) / 'deckhub.sqlite3'}",
        MAX_CONTENT_LENGTH=8 * 1024 * 1024,  # the largest upload (a 50,000-row collection CSV fits)
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SAMESITE="Lax",
        PAGE_SIZE=limits.CARDS_PER_PAGE,
    )
    if config:
        app.config.update(config)
    from deckhub import logs
    logs.configure()
    production = bool(app.config.get("PRODUCTION", os.environ.get("DECKHUB_ENV") == "production"))
    app.config["PRODUCTION"] = production
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path, production)
    if production:
        # Cookies only over HTTPS unless the operator says the site is served on plain HTTP (a LAN box).
        secure = os.environ.get("DECKHUB_INSECURE_COOKIES") != "1"
        app.config.update(SESSION_COOKIE_SECURE=secure, REMEMBER_COOKIE_SECURE=secure)
    if os.environ.get("DECKHUB_PROXY_FIX") == "1":
        from werkzeug.middleware.proxy_fix import ProxyFix
        # behind one reverse proxy: trust its X-Forwarded-For/-Proto/-Host (client address for rate limits)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)

    from deckhub.services import jobs
    app.config.setdefault("QUEUE_URL", os.environ.get("DECKHUB_QUEUE_URL") or jobs.default_url(app.instance_path, app.config["DATABASE_URL"]))
    app.config.setdefault("QUEUE_NAME", os.environ.get("DECKHUB_QUEUE_NAME") or "deckhub")
    try:
        jobs.configure(app.config["QUEUE_URL"], app.config["QUEUE_NAME"])
    except jobs.QueueConfigError as exc:
        raise ConfigurationError(str(exc)) from None
    import deckhub.services.tasks  # noqa: F401 — the queue knows every task by name

    from deckhub import web
    web.init_app(app)
    return app

"""DeckHub: collections, deck building, rules checks and goldfish playtesting for four card games."""
from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

__version__ = "0.1.0"

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def _secret_key(instance_path: str) -> str:
    """DECKHUB_SECRET_KEY or SECRET_KEY from the environment, else a random key kept in the instance folder."""
    for name in ("DECKHUB_SECRET_KEY", "SECRET_KEY"):
        if os.environ.get(name):
            return os.environ[name]
    key_file = os.environ.get("DECKHUB_SECRET_KEY_FILE")
    if key_file:
        return Path(key_file).read_text().strip()
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The app factory (as in Flask's flaskr): `config` overrides everything, for tests."""
    app = Flask(__name__, instance_relative_config=True, template_folder=str(TEMPLATES))
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL") or f"sqlite:///{Path(app.instance_path) / 'deckhub.sqlite3'}",
        MAX_CONTENT_LENGTH=8 * 1024 * 1024,  # the largest upload (a 50,000-row collection CSV fits)
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_HTTPONLY=True,
        PAGE_SIZE=50,
    )
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    from deckhub import web
    web.init_app(app)
    return app

"""Every area's blueprint, registered in one place."""
from __future__ import annotations

from flask import Flask


def register(app: Flask) -> None:
    from deckhub.web import auth, catalog, api
    app.register_blueprint(auth.bp)
    app.register_blueprint(catalog.bp)
    app.register_blueprint(api.bp)

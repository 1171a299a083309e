"""The API's one error shape: `{"error": message, "status": code}`, with named extras.

Views stop with `fail(status, message, **extra)`. Errors nobody in the API raised (an unknown path,
a wrong method, a body over the size limit, a refused storage write, a bug) reach the app's handlers
in `deckhub.web`, which answer with `error_response` on every `/api/` path, so a client of the API
never sees an HTML page.
"""
from __future__ import annotations

from typing import Any, NoReturn

from flask import Flask, Response, jsonify, request


class ApiError(Exception):
    def __init__(self, status: int, message: str, headers: dict | None = None, **extra: Any):
        super().__init__(message)
        self.status, self.message, self.headers, self.extra = status, message, headers or {}, extra


def fail(status: int, message: str, **extra: Any) -> NoReturn:
    raise ApiError(status, message, **extra)


def under_api() -> bool:
    """Whether the request is for the JSON API (so its errors are JSON whatever it accepts)."""
    return request.path == "/api" or request.path.startswith("/api/")


def error_response(status: int, message: str, headers: dict | None = None, **extra: Any) -> Response:
    response = jsonify({"error": message, "status": status, **extra})
    response.status_code = status
    response.headers.update(headers or {})
    return response


def _handle(exc: ApiError) -> Response:
    return error_response(exc.status, exc.message, exc.headers, **exc.extra)


def register(app: Flask) -> None:
    app.register_error_handler(ApiError, _handle)

"""What an operator's tools ask: `/healthz` (the process is up), `/readyz` (it can serve: database,
queue, schema) and `/metrics` (Prometheus). No session, no CSRF, never kept as pages; the web
layer opens no database connection for them (each check opens its own and reports failure)."""
from __future__ import annotations

import hmac
import ipaddress
import os

from flask import Blueprint, Response, jsonify, request

from deckhub.services import health

bp = Blueprint("operations", __name__)
NO_DATABASE = frozenset({"operations.healthz", "operations.readyz", "operations.metrics"})
NO_STORE = {"Cache-Control": "no-store"}


@bp.route("/healthz")
def healthz():
    return jsonify(status="ok"), 200, NO_STORE


@bp.route("/readyz")
def readyz():
    ready, body = health.readiness()
    return jsonify(body), 200 if ready else 503, NO_STORE


def _may_read_metrics() -> bool:
    """Anyone on this machine (loopback), or a caller with DECKHUB_METRICS_TOKEN as its bearer token."""
    try:
        if ipaddress.ip_address(request.remote_addr or "").is_loopback:
            return True
    except ValueError:
        pass
    token = os.environ.get("DECKHUB_METRICS_TOKEN", "")
    sent = request.headers.get("Authorization", "")
    return bool(token) and sent.startswith("Bearer ") and hmac.compare_digest(sent[7:].strip().encode(), token.encode())


@bp.route("/metrics")
def metrics():
    if not _may_read_metrics():
        return Response("Metrics are read from this machine, or with the site's metrics token "
                        "(DECKHUB_METRICS_TOKEN as a bearer token).\n", 403, NO_STORE, mimetype="text/plain")
    from deckhub.services import metrics as prometheus
    body, content_type = prometheus.exposition()
    return Response(body, content_type=content_type, headers=NO_STORE)

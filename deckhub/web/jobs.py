"""The curators' Jobs page: what the job queue is doing, and which workers are alive."""
from __future__ import annotations

import datetime as dt

from flask import Blueprint, render_template

from deckhub.services import job_board
from deckhub.web.community import curator_required

bp = Blueprint("jobs", __name__, url_prefix="/curate")


def age(delta: dt.timedelta) -> str:
    """"42 s", "7 min", "3 h", "2 d": how long ago, in one unit."""
    seconds = max(0, int(delta.total_seconds()))
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"


@bp.route("/jobs")
@curator_required
def index():
    """Queued, running and failed jobs (owner, deck, progress, age, worker, reason) and the workers seen."""
    return render_template("jobs/index.html", age=age, **job_board.board())

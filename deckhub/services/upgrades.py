"""Schema upgrades: see the steps applied and pending, apply them, and what a site does about a
pending schema when it starts.

`deckhub db upgrade` and `deckhub serve` (on the embedded database, in development) upgrade here;
every other command and production or PostgreSQL sites refuse to run on a pending schema. After the
steps, the shipped catalogues are reloaded under the upgrade's lock, so a second process starting on
the same old database waits until they are in instead of writing them at the same time.
"""
from __future__ import annotations

from peewee import OperationalError

from deckhub.services.catalogue_loading import Echo, ensure_catalogues, load_games
from deckhub.games import game_slugs
from deckhub.store import schema


class UpgradeError(RuntimeError):
    """The schema cannot be used or upgraded as asked; the message says what to run."""


def _steps(n: int) -> str:
    return f"{n} schema step{'s' if n != 1 else ''}"


def require_current(db) -> None:
    """UpgradeError naming `deckhub db upgrade` while steps are pending (and, on SQLite, that
    `deckhub serve` applies them too)."""
    try:
        schema.require_current(db)
    except schema.SchemaNotCurrent as exc:
        also = (" On this SQLite database `deckhub serve` does it too, after a backup."
                if schema.backend(db) == "sqlite" else "")
        raise UpgradeError(f"{exc}{also}") from None


def status(db) -> dict:
    """{"backend", "current", "applied", "pending", "legacy_version"}; UpgradeError when the database
    cannot be read."""
    try:
        applied, pending = schema.applied(db), schema.pending(db)
        legacy = schema.legacy_version(db)
    except OperationalError as exc:
        raise UpgradeError(f"cannot read the database: {exc}") from None
    return {"backend": schema.backend(db), "current": not pending, "applied": applied, "pending": pending,
            "legacy_version": legacy}


def apply_upgrade(db, echo: Echo, *, dry_run: bool = False, one_line: bool = False,
                  errors: Echo | None = None) -> int:
    """Apply the pending schema steps (or list them), say what was done, and reload the shipped
    catalogues as `load-cards` does once anything was applied; returns the catalogues' exit status."""
    exit_status = 0

    def refresh_catalogues(report) -> None:
        nonlocal exit_status
        if report.backup:
            echo(f"Backed up the database to {report.backup}")
        if report.applied:
            echo(f"Applied {_steps(len(report.applied))}: " + ", ".join(report.applied))
            exit_status = load_games(game_slugs(), echo, one_line=one_line, errors=errors)
        else:
            if not one_line:  # a site's start says nothing about a schema that is already current
                echo("The database schema is current; nothing to apply.")
            exit_status = ensure_catalogues(echo, errors)

    try:
        report = schema.upgrade(db, dry_run=dry_run, after_steps=refresh_catalogues)
    except (schema.UpgradeFailed, OperationalError) as exc:
        raise UpgradeError(f"the schema upgrade stopped: {exc}") from None
    if dry_run:
        if report.pending:
            echo(f"Would apply {_steps(len(report.pending))}: " + ", ".join(report.pending))
        else:
            echo("The database schema is current; nothing to apply.")
    return exit_status


def upgrade_before_serving(db, production: bool, echo: Echo, errors: Echo | None = None) -> None:
    """The laptop case (the embedded database, development mode) upgrades a pending schema here,
    after a backup, and loads missing catalogues, both under the upgrade lock, so two sites started
    at once on one old database take turns; production and PostgreSQL sites are upgraded by their
    operator, so they stop on a pending schema, and load missing catalogues under the same lock."""
    if production or schema.backend(db) != "sqlite":
        with db.connection_context(), schema.upgrade_lock(db):
            steps = schema.pending(db)
            if steps:
                why = "in production mode" if production else "on PostgreSQL"
                raise UpgradeError(f"{schema.SchemaNotCurrent(steps)} `deckhub serve` does not upgrade {why}.")
            loaded = ensure_catalogues(echo, errors)
    else:
        loaded = apply_upgrade(db, echo, one_line=True, errors=errors)
    if loaded:
        raise UpgradeError("a shipped catalogue could not be loaded (see above)")

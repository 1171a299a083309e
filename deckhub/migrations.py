"""Numbered schema steps, applied in order and recorded in `schema_version`.

Step 1 creates the first schema. A later change appends a step that uses
`playhouse.migrate.SchemaMigrator.from_database(db)` (add_column, add_index, ...) or creates new
tables, so an existing database upgrades without loss. Never edit a released step.
"""
from __future__ import annotations

from typing import Callable

from deckhub import models


def _initial(db) -> None:
    db.create_tables([models.User, models.CardSet, models.Card, models.Printing, models.CatalogueStamp,
                      models.Deck, models.DeckVersion, models.OwnedCard, models.GoldfishSession])


def _simulation_runs(db) -> None:
    """Step 2: background goldfish simulations stored with the deck version they belong to."""
    db.create_tables([models.SimulationRun])


def _community_and_api(db) -> None:
    """Step 3: community card proposals with their audit trail, API tokens, shared rate limits."""
    db.create_tables([models.Proposal, models.FactChange, models.ApiToken, models.RateLimitHit])


def _user_card_values(db) -> None:
    """Step 4: each player's own card values, and which values a simulation played without."""
    from playhouse.migrate import SchemaMigrator, migrate as run

    db.create_tables([models.UserCardValue])
    table = models.SimulationRun._meta.table_name
    if "unknown" not in {c.name for c in db.get_columns(table)}:  # step 2 makes the table as models.py says now
        run(SchemaMigrator.from_database(db).add_column(table, "unknown", models.SimulationRun.unknown))


def _batches_and_scans(db) -> None:
    """Step 5: proposal batches (the set editor saves many cells at once) and card scans."""
    from playhouse.migrate import SchemaMigrator, migrate as run

    db.create_tables([models.ProposalBatch, models.Scan])
    columns = {c.name for c in db.get_columns(models.Proposal._meta.table_name)}
    if "batch_id" not in columns:
        migrator = SchemaMigrator.from_database(db)
        table = models.Proposal._meta.table_name
        run(migrator.add_column(table, "batch_id", models.Proposal.batch_id))  # with its index


def _accounts_and_sessions(db) -> None:
    """Step 6: users' unique normalised names, their session versions, and signed-in browsers.

    Names that differ only in case (a sign-up race could make them on PostgreSQL) keep the oldest
    account under the plain key; a later twin gets its id appended, so it stays reachable by an
    operator but can no longer shadow the first."""
    from playhouse.migrate import SchemaMigrator, migrate as run
    columns = {c.name for c in db.get_columns("user")}
    migrator = SchemaMigrator.from_database(db)
    ops = []
    if "name_key" not in columns:
        ops.append(migrator.add_column("user", "name_key", models.User.name_key))
    if "session_version" not in columns:
        ops.append(migrator.add_column("user", "session_version", models.User.session_version))
    if ops:
        run(*ops)
    seen: set[str] = set()
    for uid, username, key in (models.User.select(models.User.id, models.User.username, models.User.name_key)
                               .order_by(models.User.id).tuples()):
        wanted = models.name_key(username)
        if wanted in seen:
            wanted = f"{wanted}#{uid}"
        seen.add(wanted)
        if key != wanted:
            models.User.update(name_key=wanted).where(models.User.id == uid).execute()
    db.create_tables([models.LoginSession])


def _job_queue(db) -> None:
    """Step 7: simulation chunks and collection uploads, the database side of the job queue."""
    db.create_tables([models.SimulationChunk, models.CollectionUpload, models.CollectionUploadRow])


def _tuning_runs(db) -> None:
    """Step 12: deck tuning runs and their chunks on the job queue."""
    db.create_tables([models.TuningRun, models.TuningChunk])


def _community_lists(db) -> None:
    """Step 13: copies made of decks (the public deck browser's "most copied") and the users who
    show their want and trade lists publicly."""
    db.create_tables([models.DeckCopy, models.PublicLists])


def _edit_sessions_and_upload_fixes(db) -> None:
    """Step 14: the editor session a deck version belongs to (its ± clicks go into that version), and
    the suggestions a player picked for the problem rows of a pending collection import."""
    from playhouse.migrate import SchemaMigrator, migrate as run
    migrator = SchemaMigrator.from_database(db)
    for model, column in ((models.DeckVersion, "edit_session"), (models.CollectionUpload, "fixes")):
        table = model._meta.table_name
        if column not in {c.name for c in db.get_columns(table)}:
            run(migrator.add_column(table, column, model._meta.fields[column]))


def _site_identity(db) -> None:
    """Step 16: the database's own random id, carried by every queued job."""
    db.create_tables([models.SiteIdentity])
    if not models.SiteIdentity.select().exists():
        models.SiteIdentity.create(site=models.SiteIdentity.new_id())


STEPS: list[tuple[int, Callable]] = [
    (1, _initial),
    (2, _simulation_runs),
    (3, _community_and_api),
    (4, _user_card_values),
    (5, _batches_and_scans),
    (6, _accounts_and_sessions),
    (7, _job_queue),
    (12, _tuning_runs),
    (13, _community_lists),
    (14, _edit_sessions_and_upload_fixes),
    (16, _site_identity),
]
LATEST = STEPS[-1][0]


def current_version(db) -> int:
    if not db.table_exists(models.SchemaVersion._meta.table_name):
        return 0
    row = models.SchemaVersion.select().order_by(models.SchemaVersion.version.desc()).first()
    return row.version if row else 0


def migrate(db, upto: int | None = None) -> int:
    """Bring the schema up to date, or up to step `upto` (idempotent); returns the version reached."""
    with db.atomic():
        db.create_tables([models.SchemaVersion])
        version = current_version(db)
        for number, step in STEPS:
            if upto is not None and number > upto:
                break
            if number > version:
                step(db)
                models.SchemaVersion.delete().execute()
                models.SchemaVersion.create(version=number)
                version = number
    return version

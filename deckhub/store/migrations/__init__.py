"""Numbered schema steps, one peewee-migrate file each, recorded by name in `migratehistory`.

Every file declares the tables as they were at its step (never `deckhub.store.models`) and defines
`migrate(migrator, database, fake=False, **kwargs)`. A new step is a new file numbered after the
last; a released file is never edited.

Steps 001-014 come from DeckHub's first runner, which recorded only the highest step applied (in
`schema_version`), ran only steps numbered above it, and built a new database from the models of
its day. A database it made may therefore lack any of those steps, or already have some of their
tables and columns: each of them creates a table only when it is missing (`create_model` issues
CREATE TABLE/INDEX IF NOT EXISTS), adds a column only when it is missing, and drops nothing.
"""
from __future__ import annotations


def add_missing_fields(migrator, database, model, **fields) -> None:
    """Queue `migrator.add_fields` for the columns of `fields` that `model`'s table lacks (with
    their indexes); a column an older database already has is left as it is, with its data."""
    present = {column.name for column in database.get_columns(model._meta.table_name)}
    missing = {name: field for name, field in fields.items() if name not in present}
    if missing:
        migrator.add_fields(model, **missing)

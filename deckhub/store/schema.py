"""Which schema steps a database has, and applying the rest safely.

Steps are the files of `deckhub.store.migrations`, run by peewee-migrate and recorded by name in
its `migratehistory` table, so a step merged late still runs. A database made by DeckHub's first
runner has a `schema_version` table instead: every step counts as pending there (its legacy steps
check what already exists), and the upgrade records them all by name.

`upgrade` is the one way the schema changes: it takes a lock (an advisory lock on PostgreSQL, a
file beside the database on SQLite) so two processes never upgrade at once; on SQLite it first
writes a backup copy beside the database, and runs each step with foreign-key enforcement off (a
table rebuild drops the old table, which with enforcement on deletes every row referring to it)
and `PRAGMA foreign_key_check` clean before the step commits.
"""
from __future__ import annotations

import datetime as dt
import sqlite3
import zlib
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import peewee as pw
from peewee_migrate import Migrator, Router
from peewee_migrate.models import MIGRATE_TABLE, MigrateHistory

from deckhub.store import migrations as _steps

MIGRATIONS_DIR = Path(_steps.__file__).resolve().parent  # beside this module, in a checkout or an installed wheel
LEGACY_TABLE = "schema_version"
UPGRADE_COMMAND = "deckhub db upgrade"
_LOCK_KEY = zlib.crc32(b"deckhub schema upgrade")  # the PostgreSQL advisory lock every upgrader takes


class SchemaNotCurrent(RuntimeError):
    """The database's schema has steps pending; the message says which command applies them."""

    def __init__(self, steps: list[str]):
        self.steps = steps
        what = "has no schema yet" if len(steps) == len(step_names()) else (
            f"needs {len(steps)} schema step{'s' if len(steps) != 1 else ''} ({', '.join(steps)})")
        super().__init__(f"The database {what}: run `{UPGRADE_COMMAND}` first.")


class UpgradeFailed(RuntimeError):
    """A step could not be applied; it was rolled back and the steps before it stay applied."""


@dataclass
class UpgradeReport:
    backend: str  # "sqlite" or "postgresql"
    pending: list[str]  # the steps pending when the upgrade started (what a dry run would apply)
    applied: list[str] = field(default_factory=list)
    backup: Path | None = None  # the SQLite copy written before the first step
    legacy_version: int | None = None  # schema_version of a database made by the first runner
    dry_run: bool = False


class StepRouter(Router):
    """peewee-migrate's file router over this package's steps, reading without writing.

    Its history table is made only by `upgrade` (peewee-migrate makes it on first read), and each
    step gets a fresh migrator: a step declares its own frozen tables, so replaying earlier files
    to rebuild the ORM snapshot is not needed."""

    def __init__(self, database):
        super().__init__(database, migrate_dir=MIGRATIONS_DIR)

    @property
    def model(self):
        meta = MigrateHistory._meta
        meta.database, meta.table_name, meta.schema = self.database, self.migrate_table, self.schema
        return MigrateHistory

    @property
    def done(self) -> list[str]:
        if not self.database.table_exists(self.migrate_table):
            return []
        return super().done

    @property
    def migrator(self) -> Migrator:
        return Migrator(self.database)

    def run_one(self, name, migrator, *, fake=True, downgrade=False, force=False):
        """Apply one step in its own transaction; on SQLite it commits only with every foreign key intact."""
        if fake or downgrade:
            return super().run_one(name, migrator, fake=fake, downgrade=downgrade, force=force)
        migrate, _ = self.read(name)
        self.logger.info('Migrate "%s"', name)
        with self.database.atomic():
            migrate(migrator, self.database, fake=False)
            migrator()
            if _is_sqlite(self.database):
                broken = self.database.execute_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise UpgradeFailed(f"step {name} would leave rows whose foreign keys point nowhere "
                                        f"(table, rowid, parent, key): {broken[:20]}; it was rolled back")
            self.model.create(name=name)
        return name


def _is_sqlite(db) -> bool:
    return isinstance(db, pw.SqliteDatabase)


def backend(db) -> str:
    return "sqlite" if _is_sqlite(db) else "postgresql"


@contextmanager
def _connected(db):
    """Use this thread's open connection, or open one for the duration."""
    opened = db.is_closed()
    if opened:
        db.connect()
    try:
        yield
    finally:
        if opened:
            db.close()


def step_names() -> list[str]:
    """Every step this DeckHub ships, in order."""
    return sorted(f.stem for f in MIGRATIONS_DIR.iterdir() if StepRouter.filemask.match(f.name))


def applied(db) -> list[str]:
    """The steps recorded in `migratehistory` (none on a new or a legacy database)."""
    with _connected(db):
        return StepRouter(db).done


def pending(db) -> list[str]:
    """The steps not applied yet, in order."""
    with _connected(db):
        return StepRouter(db).diff


def legacy_version(db) -> int | None:
    """The step number a database made by the first runner recorded, until it is upgraded."""
    with _connected(db):
        if db.table_exists(MIGRATE_TABLE) or not db.table_exists(LEGACY_TABLE):
            return None
        row = db.execute_sql(f'SELECT MAX(version) FROM "{LEGACY_TABLE}"').fetchone()
        return row[0] if row else None


def require_current(db) -> None:
    """Raise SchemaNotCurrent when steps are pending."""
    steps = pending(db)
    if steps:
        raise SchemaNotCurrent(steps)


def upgrade(db, *, dry_run: bool = False, backup_dir: Path | str | None = None,
            after_steps: Callable[[UpgradeReport], None] | None = None) -> UpgradeReport:
    """Apply every pending step; `dry_run` only lists them (no lock, no backup, no table written).

    `after_steps(report)` runs still under the lock, whether or not anything was pending: what must
    follow a schema change (the site reloads its catalogues) is done before another process that
    waited on the lock goes on."""
    with _connected(db):
        if dry_run:
            return UpgradeReport(backend(db), pending(db), legacy_version=legacy_version(db), dry_run=True)
        with upgrade_lock(db):
            router = StepRouter(db)
            report = UpgradeReport(backend(db), router.diff, legacy_version=legacy_version(db))
            if report.pending:
                if _is_sqlite(db) and db.get_tables():
                    report.backup = _backup_sqlite(db, backup_dir)
                with _foreign_keys_off(db):
                    router.model.create_table(safe=True)
                    for name in report.pending:
                        report.applied.append(router.run_one(name, router.migrator, fake=False))
            if after_steps is not None:
                after_steps(report)
            return report


@contextmanager
def upgrade_lock(db):
    """One upgrader at a time, on every process and host of the site; a second one waits here, then
    finds nothing pending. Whatever a site writes when it first starts (catalogues) is written under
    it too, so processes started together take turns instead of failing on each other's writes.
    Needs an open connection on PostgreSQL (the advisory lock belongs to the session)."""
    if not _is_sqlite(db):
        db.execute_sql("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            yield
        finally:
            db.execute_sql("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
        return
    path = _sqlite_path(db)
    if path is None:
        yield  # an in-memory database belongs to this process alone
        return
    from filelock import FileLock
    with FileLock(f"{path}.upgrade-lock"):
        yield


@contextmanager
def _foreign_keys_off(db):
    """SQLite ignores this pragma inside a transaction, so it is set around the steps; the
    connection goes back to the pool with enforcement on again."""
    if not _is_sqlite(db):
        yield
        return
    db.execute_sql("PRAGMA foreign_keys=OFF")
    try:
        yield
    finally:
        db.execute_sql("PRAGMA foreign_keys=ON")


def _sqlite_path(db) -> Path | None:
    name = db.database
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name)


def _backup_sqlite(db, backup_dir) -> Path | None:
    """A consistent copy of the database (SQLite's online backup), named for the time it was taken."""
    path = _sqlite_path(db)
    if path is None:
        return None
    folder = Path(backup_dir) if backup_dir else path.parent
    folder.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%dT%H%M%S")
    target = folder / f"{path.name}.before-upgrade-{stamp}.sqlite3"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{path.name}.before-upgrade-{stamp}-{n}.sqlite3"
    dest = sqlite3.connect(target)
    try:
        db.connection().backup(dest)
    finally:
        dest.close()
    return target

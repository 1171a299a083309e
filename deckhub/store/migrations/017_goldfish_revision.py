"""Step 17: a goldfish game's revision, bumped by every change of its actions.

A move is stored only while the game is at the revision the move was computed from (one conditional
UPDATE), so two simultaneous moves never both answer "applied" while one overwrites the other. The
number of actions cannot serve: after an undo and a new move a game is at the same step again."""
import peewee as pw

from deckhub.store.migrations import add_missing_fields


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class GoldfishSession(Base):
    pass


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, GoldfishSession, revision=pw.IntegerField(default=0))


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_fields("goldfish_session", "revision")

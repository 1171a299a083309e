"""Step 021: a goldfish game can be archived, so a player's list of games stops growing without end
(archived games are hidden from it by default, kept with their replays). One column with a default:
every existing game stays listed. The table as it was at this step (never today's models)."""
import peewee as pw

from deckhub.store.migrations import add_missing_fields


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class GoldfishSession(Base):
    pass


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, GoldfishSession, archived=pw.BooleanField(default=False))


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_fields("goldfish_session", "archived")

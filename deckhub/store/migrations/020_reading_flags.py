"""Step 020: players' flags on the engine's readings of card abilities, and the curators' overrides
that leave an ability to manual moves for every engine. New tables only: nothing of a user's is
touched. The tables as they were at this step (never today's models)."""
import datetime as dt

import peewee as pw


def utcnow():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class ReadingFlag(Base):
    game = pw.CharField(max_length=40, index=True)
    card_key = pw.CharField(max_length=200)
    ability = pw.TextField()
    reading = pw.TextField()
    sentence = pw.CharField(max_length=1000)
    reference = pw.CharField(max_length=500)
    flagger = pw.ForeignKeyField(User, backref="reading_flags", on_delete="CASCADE")
    status = pw.CharField(max_length=10, default="pending", index=True)
    reviewer = pw.ForeignKeyField(User, null=True, backref="reading_reviews", on_delete="SET NULL")
    created_at = pw.DateTimeField(default=utcnow)
    reviewed_at = pw.DateTimeField(null=True)


class ManualOverride(Base):
    game = pw.CharField(max_length=40, index=True)
    card_key = pw.CharField(max_length=200)
    ability = pw.TextField()
    reason = pw.CharField(max_length=500, default="")
    flag = pw.ForeignKeyField(ReadingFlag, null=True, backref="overrides", on_delete="SET NULL")
    set_by = pw.ForeignKeyField(User, null=True, backref="manual_overrides", on_delete="SET NULL")
    created_at = pw.DateTimeField(default=utcnow)
    cleared_by = pw.ForeignKeyField(User, null=True, backref="cleared_overrides", on_delete="SET NULL")
    cleared_at = pw.DateTimeField(null=True, index=True)


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(ReadingFlag)
    migrator.create_model(ManualOverride)


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("manual_override")
    migrator.remove_model("reading_flag")

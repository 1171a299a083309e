"""Step 12: deck tuning runs and their chunks on the job queue."""
import datetime as dt

import peewee as pw


def utcnow():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class Deck(Base):
    pass


class TuningRun(Base):
    deck = pw.ForeignKeyField(Deck, backref="tunings", on_delete="CASCADE")
    version = pw.IntegerField()
    owner = pw.ForeignKeyField(User, backref="tunings", on_delete="CASCADE")
    game = pw.CharField(max_length=40)
    budget = pw.IntegerField()
    seed = pw.IntegerField()
    options = pw.TextField(default="{}")
    candidates = pw.TextField(default="[]")
    candidate_source = pw.CharField(max_length=20)
    format = pw.CharField(max_length=80)
    unknown_cards = pw.IntegerField(default=0)
    status = pw.CharField(max_length=10, default="queued")
    round = pw.IntegerField(default=0)
    done = pw.IntegerField(default=0)
    total = pw.IntegerField(default=0)
    result = pw.TextField(null=True)
    error = pw.TextField(null=True)
    created_at = pw.DateTimeField(default=utcnow)
    updated_at = pw.DateTimeField(default=utcnow)


class TuningChunk(Base):
    run = pw.ForeignKeyField(TuningRun, backref="chunks", on_delete="CASCADE")
    round = pw.IntegerField()
    number = pw.IntegerField()
    ranges = pw.TextField()
    state = pw.CharField(max_length=10, default="queued")
    worker = pw.CharField(max_length=120, null=True)
    result = pw.TextField(null=True)
    updated_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("run", "round", "number"), True), (("state", "updated_at"), False))


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(TuningRun)
    migrator.create_model(TuningChunk)

"""Step 2: background goldfish simulations stored with the deck version they belong to."""
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


class SimulationRun(Base):
    deck = pw.ForeignKeyField(Deck, backref="simulations", on_delete="CASCADE")
    version = pw.IntegerField()
    owner = pw.ForeignKeyField(User, backref="simulations", on_delete="CASCADE")
    game = pw.CharField(max_length=40)
    games = pw.IntegerField()
    seed = pw.IntegerField()
    options = pw.TextField(default="{}")
    status = pw.CharField(max_length=10, default="queued")
    done = pw.IntegerField(default=0)
    result = pw.TextField(null=True)
    stuck = pw.TextField(null=True)
    error = pw.TextField(null=True)
    created_at = pw.DateTimeField(default=utcnow)
    updated_at = pw.DateTimeField(default=utcnow)


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(SimulationRun)

"""Step 4: each player's own card values, and which values a simulation played without.

Merged after step 12 was released: a database made in between reached "version 12" without it."""
import datetime as dt

import peewee as pw

from deckhub.store.migrations import add_missing_fields


def utcnow():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class SimulationRun(Base):
    pass


class UserCardValue(Base):
    owner = pw.ForeignKeyField(User, backref="card_values", on_delete="CASCADE")
    game = pw.CharField(max_length=40)
    card_key = pw.CharField(max_length=200)
    field = pw.CharField(max_length=60)
    value = pw.TextField()
    updated_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("owner", "game", "card_key", "field"), True),)


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(UserCardValue)
    add_missing_fields(migrator, database, SimulationRun, unknown=pw.TextField(null=True))

"""Step 023: the real games a deck played, logged by its owner, and the deck setting that shows them
on a public deck. A new table and a new column (off: no record is shown until its owner says so);
nothing of a user's is changed. The tables as they were at this step (never today's models)."""
import datetime as dt

import peewee as pw

from deckhub.store.migrations import add_missing_fields


def utcnow():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class Deck(Base):
    pass


class PlayedGame(Base):
    deck = pw.ForeignKeyField(Deck, backref="played_games", on_delete="CASCADE")
    version = pw.IntegerField()
    played_on = pw.DateField()
    result = pw.CharField(max_length=4)
    play_order = pw.CharField(max_length=6, null=True)
    opponent = pw.CharField(max_length=200, default="")
    note = pw.TextField(default="")
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("deck", "played_on"), False),)


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, Deck, show_record=pw.BooleanField(default=False))
    migrator.create_model(PlayedGame)


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("played_game")
    migrator.remove_fields("deck", "show_record")

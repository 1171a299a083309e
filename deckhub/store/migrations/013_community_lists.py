"""Step 13: copies made of decks (the public deck browser's "most copied") and the users who show
their want and trade lists publicly.

Merged after step 14 was released: a database made in between reached "version 14" without it."""
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


class DeckCopy(Base):
    source = pw.ForeignKeyField(Deck, backref="copies_made", on_delete="CASCADE")
    copy = pw.ForeignKeyField(Deck, null=True, backref="copied_from", on_delete="SET NULL")
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("source",), False),)


class PublicLists(Base):
    user = pw.ForeignKeyField(User, primary_key=True, backref="public_lists", on_delete="CASCADE")
    since = pw.DateTimeField(default=utcnow)


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(DeckCopy)
    migrator.create_model(PublicLists)

"""Step 027: trade matches are worked out when what they depend on changed, not on every view.

- `card_list_changes`: per card, how many times any player's want or trade list of it changed, and
  `user_list_changes`: per player, how many times their own lists changed; the collection services
  count a change in its own transaction.
- `kept_match`: a player's matches as last worked out ("who has what I want", "who wants what I
  have for trade", "who has the cards this deck is missing"), with the digest of those counts for
  the player and their cards; the page uses them while the digest is the same.

Both start empty: every match is worked out again on its first view, from the rows as they are.
Nothing a player made is changed. The tables as they were at this step (never today's models)."""
import datetime as dt

import peewee as pw


def utcnow():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class Card(Base):
    pass


class CardListChanges(Base):
    card = pw.ForeignKeyField(Card, primary_key=True, on_delete="CASCADE")
    changes = pw.IntegerField(default=0)


class UserListChanges(Base):
    user = pw.ForeignKeyField(User, primary_key=True, on_delete="CASCADE")
    changes = pw.IntegerField(default=0)


class KeptMatch(Base):
    user = pw.ForeignKeyField(User, on_delete="CASCADE")
    purpose = pw.CharField(max_length=40)
    digest = pw.CharField(max_length=64)
    rows = pw.TextField()
    worked_out_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("user", "purpose"), True),)


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(CardListChanges)
    migrator.create_model(UserListChanges)
    migrator.create_model(KeptMatch)


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("kept_match")
    migrator.remove_model("user_list_changes")
    migrator.remove_model("card_list_changes")

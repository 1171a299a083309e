"""Step 031: a count of each player's collection changes, so what a page reads of their rows can be kept.

The want & trade list, a set's checklist and the deck page's "Against my collection" read the
player's rows on every view, though most views follow no change. `collection_changes` counts, per
player, every write to their collection rows, in the write's own transaction; what a page read at
one count is shown again while the count is the same.

It starts empty: a player with no count yet is kept at "no count" until their first change.
Nothing a player made is changed. The table as it was at this step (never today's models)."""
import peewee as pw


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class CollectionChanges(Base):
    user = pw.ForeignKeyField(User, primary_key=True, on_delete="CASCADE")
    changes = pw.IntegerField(default=0)


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(CollectionChanges)


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("collection_changes")

"""Step 028: each player's collection summed per set, kept by the collection's writes.

- `owned_set`: per player and set, the printings owned, copies, foils, wants, trades and printings
  on a want or trade list, summed from the player's `owned_card` rows. The collection services
  count a set again in the transaction of every write to its rows.

Filled here from the rows as they are, so the collection overview shows what it showed before.
Nothing a player made is changed. The table as it was at this step (never today's models)."""
import peewee as pw


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class CardSet(Base):
    pass


class OwnedSet(Base):
    owner = pw.ForeignKeyField(User, on_delete="CASCADE", index=False)
    card_set = pw.ForeignKeyField(CardSet, on_delete="CASCADE", index=False)
    printings = pw.IntegerField(default=0)
    quantity = pw.IntegerField(default=0)
    foil_quantity = pw.IntegerField(default=0)
    want_quantity = pw.IntegerField(default=0)
    trade_quantity = pw.IntegerField(default=0)
    listed = pw.IntegerField(default=0)

    class Meta:
        indexes = ((("owner", "card_set"), True),)


FILL = ('INSERT INTO "owned_set" ("owner_id", "card_set_id", "printings", "quantity", "foil_quantity", '
        '"want_quantity", "trade_quantity", "listed") '
        'SELECT o."owner_id", p."card_set_id", COUNT(CASE WHEN o."quantity" + o."foil_quantity" > 0 THEN 1 END), '
        'SUM(o."quantity"), SUM(o."foil_quantity"), SUM(o."want_quantity"), SUM(o."trade_quantity"), '
        'COUNT(CASE WHEN o."want_quantity" > 0 OR o."trade_quantity" > 0 THEN 1 END) '
        'FROM "owned_card" AS o JOIN "printing" AS p ON o."printing_id" = p."id" '
        'GROUP BY o."owner_id", p."card_set_id"')


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(OwnedSet)
    migrator.sql(FILL)


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("owned_set")

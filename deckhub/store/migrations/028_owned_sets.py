"""Step 028: each player's collection summed per set, kept by the collection's writes; matching
reads offers and wants from their indexes alone.

- `owned_set`: per player and set, the printings owned, copies, foils, wants, trades and printings
  on a want or trade list, summed from the player's `owned_card` rows. The collection services
  count a set again in the transaction of every write to its rows. Filled here from the rows as
  they are, so the collection overview shows what it showed before.
- The partial indexes of the rows offered (and wanted) per printing hold the quantities matching
  sums too, so working a match out reads no other player's row, only the index; a new partial
  index holds each player's want & trade rows with their quantities.
- A card's list changes are counted on each of its printings (`printing_list_changes`, filled from
  `card_list_changes`, which goes), so a player's sum of them reads the count beside each of their
  rows. Kept matches of players' lists stay valid: their sums are the same.

Nothing a player made is changed. The table as it was at this step (never today's models)."""
import peewee as pw


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class CardSet(Base):
    pass


class Card(Base):
    pass


class Printing(Base):
    pass


class PrintingListChanges(Base):
    printing = pw.ForeignKeyField(Printing, primary_key=True, on_delete="CASCADE")
    changes = pw.IntegerField(default=0)


class CardListChanges(Base):  # as step 027 made it, for a rollback
    card = pw.ForeignKeyField(Card, primary_key=True, on_delete="CASCADE")
    changes = pw.IntegerField(default=0)


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


OFFERS = ('CREATE INDEX IF NOT EXISTS "owned_card_offers_by_printing" ON "owned_card" '
          '("printing_id", "owner_id", "trade_quantity", "quantity", "foil_quantity") WHERE "trade_quantity" > 0')
WANTS = ('CREATE INDEX IF NOT EXISTS "owned_card_wants_by_printing" ON "owned_card" '
         '("printing_id", "owner_id", "want_quantity") WHERE "want_quantity" > 0')
LISTED = ('CREATE INDEX IF NOT EXISTS "owned_card_listed" ON "owned_card" ("owner_id", "printing_id", '
          '"want_quantity", "trade_quantity", "quantity", "foil_quantity") '
          'WHERE ("want_quantity" > 0) OR ("trade_quantity" > 0)')
PER_PRINTING = ('INSERT INTO "printing_list_changes" ("printing_id", "changes") SELECT p."id", c."changes" '
                'FROM "printing" AS p JOIN "card_list_changes" AS c ON c."card_id" = p."card_id"')


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(OwnedSet)
    migrator.sql(FILL)
    migrator.sql(OFFERS)
    migrator.sql(WANTS)
    migrator.sql('DROP INDEX IF EXISTS "owned_card_trade_by_printing"')
    migrator.sql('DROP INDEX IF EXISTS "owned_card_want_by_printing"')
    migrator.sql(LISTED)
    migrator.create_model(PrintingListChanges)
    migrator.sql(PER_PRINTING)
    migrator.sql('DROP TABLE IF EXISTS "card_list_changes"')


def rollback(migrator, database, fake=False, **kwargs):
    migrator.create_model(CardListChanges)
    migrator.sql('DELETE FROM "kept_match"')  # their counts are gone: worked out again
    migrator.sql('DROP TABLE IF EXISTS "printing_list_changes"')
    migrator.sql('DROP INDEX IF EXISTS "owned_card_listed"')
    migrator.sql('CREATE INDEX IF NOT EXISTS "owned_card_trade_by_printing" ON "owned_card" ("printing_id", "owner_id") '
                 'WHERE "trade_quantity" > 0')
    migrator.sql('CREATE INDEX IF NOT EXISTS "owned_card_want_by_printing" ON "owned_card" ("printing_id", "owner_id") '
                 'WHERE "want_quantity" > 0')
    migrator.sql('DROP INDEX IF EXISTS "owned_card_offers_by_printing"')
    migrator.sql('DROP INDEX IF EXISTS "owned_card_wants_by_printing"')
    migrator.remove_model("owned_set")

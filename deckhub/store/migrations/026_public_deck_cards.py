"""Step 026: the public decks holding a card are found newest first through one index.

`deck_card` rows carry their deck's `is_public` and `created_at`, and the index on (game, card key)
becomes one on (game, card key, is_public, created_at, deck): the public deck list filtered by a
card reads its page of decks from that index, instead of joining every public deck on the site to
the card's rows and sorting them. Filled here from each row's deck; from now on the deck service
writes them with the rows and changes them with the deck's visibility.

Nothing a player made is changed. The tables as they were at this step (never today's models)."""
import peewee as pw

from deckhub.store.migrations import add_missing_fields


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class DeckCard(Base):
    pass


OLD_INDEX = "deck_card_game_card_key"
NEW_INDEX = "deck_card_game_card_key_is_public_created_at_deck_id"


def _copy_from_decks(database) -> None:
    database.execute_sql('UPDATE "deck_card" SET '
                         '"is_public" = (SELECT d."is_public" FROM "deck" d WHERE d."id" = "deck_card"."deck_id"), '
                         '"created_at" = (SELECT d."created_at" FROM "deck" d WHERE d."id" = "deck_card"."deck_id")')


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, DeckCard, is_public=pw.BooleanField(default=False),
                       created_at=pw.DateTimeField(null=True))
    migrator.run(_copy_from_decks, database)
    migrator.sql(f'DROP INDEX IF EXISTS "{OLD_INDEX}"')
    migrator.sql(f'CREATE INDEX IF NOT EXISTS "{NEW_INDEX}" ON "deck_card" '
                 '("game", "card_key", "is_public", "created_at", "deck_id")')


def rollback(migrator, database, fake=False, **kwargs):
    migrator.sql(f'DROP INDEX IF EXISTS "{NEW_INDEX}"')
    migrator.sql(f'CREATE INDEX IF NOT EXISTS "{OLD_INDEX}" ON "deck_card" ("game", "card_key")')
    migrator.remove_fields("deck_card", "is_public", "created_at")

"""Step 030: a player's decks are paged newest change first through one index.

"My decks" showed every deck of a player at once, each with its versions counted by grouping all of
them: a player with thousands of decks waited on all of them. The page now shows a page of decks at
a time, read from an index on (owner, last change, id); only that page's versions are counted.

Nothing a player made is changed. The table as it was at this step (never today's models)."""
INDEX = "deck_owner_id_updated_at_id"


def migrate(migrator, database, fake=False, **kwargs):
    migrator.sql(f'CREATE INDEX IF NOT EXISTS "{INDEX}" ON "deck" ("owner_id", "updated_at", "id")')


def rollback(migrator, database, fake=False, **kwargs):
    migrator.sql(f'DROP INDEX IF EXISTS "{INDEX}"')

"""Step 22: what pages ask of many decks and collections becomes an indexed lookup.

- `deck_card`: each deck's current cards as rows (deck, game, card key, copies over all sections of
  its latest version), filled here from every deck's latest version; from now on the deck service
  replaces a deck's rows in the transaction that writes a version. Finding the decks that hold a
  card, or what a player's other decks use, no longer reads the JSON of every version on the site.
- `deck.copies`: the copies made of a deck (its `deck_copy` rows, counted here), so the public deck
  browser sorts by it through an index instead of counting every copy on every request.
- Indexes for the public deck browser (public decks newest or most copied first, per game) and for
  trade matching (the rows of a printing offered for trade, or wanted).

Nothing a player made is changed. The tables as they were at this step (never today's models)."""
import json

import peewee as pw

from deckhub.store.migrations import add_missing_fields


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class Deck(Base):
    pass


class DeckCard(Base):
    deck = pw.ForeignKeyField(Deck, backref="current_cards", on_delete="CASCADE", index=False)
    game = pw.CharField(max_length=40)
    card_key = pw.CharField(max_length=200)
    qty = pw.IntegerField()

    class Meta:
        indexes = ((("deck", "card_key"), True), (("game", "card_key"), False))


INDEXES = (
    'CREATE INDEX IF NOT EXISTS "deck_is_public_created_at_id" ON "deck" ("is_public", "created_at", "id")',
    'CREATE INDEX IF NOT EXISTS "deck_game_is_public_created_at_id" ON "deck" ("game", "is_public", "created_at", "id")',
    'CREATE INDEX IF NOT EXISTS "deck_is_public_copies_created_at_id" ON "deck" ("is_public", "copies", "created_at", "id")',
    'CREATE INDEX IF NOT EXISTS "owned_card_trade_by_printing" ON "owned_card" ("printing_id", "owner_id")'
    ' WHERE ("trade_quantity" > 0)',
    'CREATE INDEX IF NOT EXISTS "owned_card_want_by_printing" ON "owned_card" ("printing_id", "owner_id")'
    ' WHERE ("want_quantity" > 0)',
)
BATCH = 500  # decks read and written at a time


def card_counts(data) -> dict[str, int]:
    """Copies of each card over a stored version's sections (`{"sections": {name: [{"card", "qty"}]}}`),
    as versions were stored at this step; an entry without a card or with no copies counts nothing."""
    if isinstance(data, str):
        data = json.loads(data or "{}")
    counts: dict[str, int] = {}
    for entries in ((data or {}).get("sections") or {}).values():
        for entry in entries or ():
            key, qty = entry.get("card"), int(entry.get("qty") or 0)
            if key and qty > 0:
                counts[key] = counts.get(key, 0) + qty
    return counts


def _fill_deck_cards(database) -> None:
    """Every deck's latest version, as rows of `deck_card`."""
    p = database.param
    last = 0
    while True:
        decks = database.execute_sql(
            f'SELECT "id", "game" FROM "deck" WHERE "id" > {p} ORDER BY "id" LIMIT {BATCH}', (last,)).fetchall()
        if not decks:
            return
        games = dict(decks)
        ids = list(games)
        marks = ", ".join([p] * len(ids))
        latest = database.execute_sql(
            f'SELECT v."deck_id", v."data" FROM "deck_version" v WHERE v."deck_id" IN ({marks}) AND v."number" = '
            f'(SELECT MAX(w."number") FROM "deck_version" w WHERE w."deck_id" = v."deck_id")', ids).fetchall()
        rows = [{"deck": deck_id, "game": games[deck_id], "card_key": key, "qty": qty}
                for deck_id, data in latest for key, qty in card_counts(data).items()]
        for start in range(0, len(rows), BATCH):
            DeckCard.insert_many(rows[start:start + BATCH]).execute(database)
        last = ids[-1]


def _count_copies(database) -> None:
    database.execute_sql('UPDATE "deck" SET "copies" = (SELECT COUNT(*) FROM "deck_copy" c '
                         'WHERE c."source_id" = "deck"."id")')


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, Deck, copies=pw.IntegerField(default=0))
    migrator.create_model(DeckCard)
    for sql in INDEXES:
        migrator.sql(sql)
    migrator.run(_fill_deck_cards, database)
    migrator.run(_count_copies, database)


def rollback(migrator, database, fake=False, **kwargs):
    for name in ("owned_card_want_by_printing", "owned_card_trade_by_printing", "deck_is_public_copies_created_at_id",
                 "deck_game_is_public_created_at_id", "deck_is_public_created_at_id"):
        migrator.sql(f'DROP INDEX IF EXISTS "{name}"')
    migrator.remove_model("deck_card")
    migrator.remove_fields("deck", "copies")

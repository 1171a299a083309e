"""Step 025: the counts pages show of the whole site are kept as rows, not counted on each request.

- `card_demand`: per game and card, how many decks hold it among their current cards and how many
  goldfish games were started with it. "Most wanted" ranks the unknown facts of a game's cards by
  these two numbers; it used to read every goldfish game's deck on each ranking. Filled here from
  `deck_card` (step 022) and from the deck of every goldfish game; from now on the deck and goldfish
  services change a card's row in the transaction that changes its inputs.
- `public_deck_count`: the public decks of each game, the total the public deck list shows
  unfiltered (or filtered by game); filled here, then kept by the deck service whenever a deck is
  made, made public or private, or deleted.
- An index for the public deck list of one game, most copied first.

Nothing a player made is changed. The tables as they were at this step (never today's models)."""
import json

import peewee as pw


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class CardDemand(Base):
    game = pw.CharField(max_length=40)
    card_key = pw.CharField(max_length=200)
    decks = pw.IntegerField(default=0)
    games = pw.IntegerField(default=0)

    class Meta:
        indexes = ((("game", "card_key"), True),)


class PublicDeckCount(Base):
    game = pw.CharField(max_length=40, unique=True)
    decks = pw.IntegerField(default=0)


INDEX = ('CREATE INDEX IF NOT EXISTS "deck_game_is_public_copies_created_at_id" '
         'ON "deck" ("game", "is_public", "copies", "created_at", "id")')
BATCH = 500  # goldfish games read, or rows written, at a time


def card_keys(data) -> set[str]:
    """The cards of a goldfish game's deck as stored at this step (`{"sections": {name: [{"card",
    "qty"}]}}`), each with at least one copy; an unreadable deck holds none."""
    try:
        if isinstance(data, str):
            data = json.loads(data or "{}")
        counts: dict[str, int] = {}
        for entries in ((data or {}).get("sections") or {}).values():
            for entry in entries or ():
                key = entry.get("card")
                if key:
                    counts[key] = counts.get(key, 0) + int(entry.get("qty") or 0)
        return {key for key, qty in counts.items() if qty > 0}
    except (AttributeError, TypeError, ValueError):
        return set()


def _fill_demand(database) -> None:
    p = database.param
    counts: dict[tuple[str, str], list[int]] = {}
    for game, key, decks in database.execute_sql(
            'SELECT "game", "card_key", COUNT(*) FROM "deck_card" GROUP BY "game", "card_key"').fetchall():
        counts[(game, key)] = [decks, 0]
    last = 0
    while True:
        rows = database.execute_sql(f'SELECT "id", "game", "deck_data" FROM "goldfish_session" WHERE "id" > {p} '
                                    f'ORDER BY "id" LIMIT {BATCH}', (last,)).fetchall()
        for _, game, data in rows:
            for key in card_keys(data):
                counts.setdefault((game, key), [0, 0])[1] += 1
        if len(rows) < BATCH:
            break
        last = rows[-1][0]
    rows = [{"game": game, "card_key": key, "decks": decks, "games": games}
            for (game, key), (decks, games) in sorted(counts.items())]
    for start in range(0, len(rows), BATCH):
        CardDemand.insert_many(rows[start:start + BATCH]).execute(database)


def _count_public_decks(database) -> None:
    database.execute_sql('INSERT INTO "public_deck_count" ("game", "decks") '
                         'SELECT "game", COUNT(*) FROM "deck" WHERE "is_public" GROUP BY "game"')


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(CardDemand)
    migrator.create_model(PublicDeckCount)
    migrator.sql(INDEX)
    migrator.run(_fill_demand, database)
    migrator.run(_count_public_decks, database)


def rollback(migrator, database, fake=False, **kwargs):
    migrator.sql('DROP INDEX IF EXISTS "deck_game_is_public_copies_created_at_id"')
    migrator.remove_model("public_deck_count")
    migrator.remove_model("card_demand")

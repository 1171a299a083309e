"""Schema steps: a database made by an older DeckHub upgrades without losing anything."""
from __future__ import annotations

from deckhub import migrations, models
from deckhub.db import database, init_database


def test_a_version_1_database_upgrades_to_the_latest_keeping_its_rows(fresh_database_url):
    db = init_database(fresh_database_url)
    with db.connection_context():
        assert migrations.migrate(db, upto=1) == 1
        assert not db.table_exists("simulation_run")
        user = models.User.create(username="old", password_hash="x")
        deck = models.Deck.create(owner=user, game="kaijudo", format="standard", name="Kept")
        models.DeckVersion.create(deck=deck, number=1, data={"game": "kaijudo", "sections": {}})
        assert migrations.migrate(db) == migrations.LATEST
        assert db.table_exists("simulation_run")
        assert models.Deck.get(models.Deck.name == "Kept").owner.username == "old"
        assert migrations.migrate(db) == migrations.LATEST  # running it again changes nothing
        assert models.SchemaVersion.select().count() == 1
    database.close() if not database.is_closed() else None


def test_step_5_adds_proposal_batches_and_scans_to_a_step_3_database(fresh_database_url):
    from playhouse.migrate import SchemaMigrator, migrate as run

    db = init_database(fresh_database_url)
    with db.connection_context():
        assert migrations.migrate(db, upto=3) == 3
        migrator = SchemaMigrator.from_database(db)
        run(migrator.drop_index("proposal", "proposal_batch_id"), migrator.drop_column("proposal", "batch_id"))  # as step 3 made it
        user = models.User.create(username="old", password_hash="x")
        db.execute_sql('INSERT INTO "proposal" (game, card_key, "values", source, proposer_id, status, reason, created_at)'
                       " VALUES ('kaijudo', 'k', '{}', 's', %d, 'pending', '', '2025-01-01 00:00:00')" % user.id)
        assert migrations.migrate(db) == migrations.LATEST
        assert db.table_exists("proposal_batch") and db.table_exists("scan")
        assert models.Proposal.get().batch_id is None
    database.close() if not database.is_closed() else None


def test_step_13_adds_deck_copies_and_public_lists_to_a_step_12_database(fresh_database_url):
    db = init_database(fresh_database_url)
    with db.connection_context():
        assert migrations.migrate(db, upto=12) == 12
        assert not db.table_exists("deck_copy") and not db.table_exists("public_lists")
        user = models.User.create(username="old", password_hash="x")
        deck = models.Deck.create(owner=user, game="kaijudo", format="standard", name="Kept", is_public=True)
        assert migrations.migrate(db) == migrations.LATEST
        assert db.table_exists("deck_copy") and db.table_exists("public_lists")
        copy = models.Deck.create(owner=user, game="kaijudo", format="standard", name="Copy of Kept")
        models.DeckCopy.create(source=deck, copy=copy)
        models.PublicLists.create(user=user)
        assert models.DeckCopy.get().source.name == "Kept" and models.PublicLists.get().user.username == "old"
    database.close() if not database.is_closed() else None

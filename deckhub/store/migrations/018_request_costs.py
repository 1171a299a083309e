"""Step 18: what a request may cost the server.

- `rate_limit_hit.weight`: a hit may count more than one (the bytes of a scan against a player's
  daily budget); every earlier hit counts one.
- A waiting collection upload's preview is kept compactly, in compressed pages of rows
  (`collection_upload_page`) instead of one row per CSV line (`collection_upload_row`, dropped).
  Uploads waiting at their dry run when the step runs are checked again from their file, or
  removed when they no longer keep it (uploads wait two hours at most anyway)."""
import peewee as pw

from deckhub.store.migrations import add_missing_fields


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class RateLimitHit(Base):
    pass


class CollectionUpload(Base):
    pass


class CollectionUploadPage(Base):
    upload = pw.ForeignKeyField(CollectionUpload, on_delete="CASCADE")
    stream = pw.CharField(max_length=10)
    number = pw.IntegerField()
    rows = pw.IntegerField()
    data = pw.BlobField()

    class Meta:
        indexes = ((("upload", "stream", "number"), True),)


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, RateLimitHit, weight=pw.IntegerField(default=1))
    migrator.create_model(CollectionUploadPage)
    migrator.sql("""DELETE FROM "collection_upload" WHERE "state" = 'ready' AND "data" IS NULL""")
    migrator.sql("""UPDATE "collection_upload" SET "state" = 'queued', "summary" = NULL, "targets" = NULL
                    WHERE "state" = 'ready'""")
    migrator.sql('DROP TABLE IF EXISTS "collection_upload_row"')


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("collection_upload_page")
    migrator.remove_fields("rate_limit_hit", "weight")

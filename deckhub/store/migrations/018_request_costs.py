"""Step 18: what a request may cost the server.

- `rate_limit_hit.weight`: a hit may count more than one (the bytes of a scan against a player's
  daily budget); every earlier hit counts one.
- A waiting collection upload's preview is kept compactly, in compressed pages of rows
  (`collection_upload_page`) instead of one row per CSV line (`collection_upload_row`): the rows
  of uploads waiting for their owner's confirmation are moved into pages, exactly as the preview
  showed them, then the old table is dropped. Nothing a player uploaded is lost or changed."""
import json
import zlib

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


PAGE_ROWS = 200  # rows a page holds, as at this step
ROW_DEFAULTS = {"game": None, "quantities": {}, "card": "", "problems": [], "fixed": False, "first_line": None,
                "change": None}  # keys a stored row leaves out while they hold these values, as at this step


def _pack(rows: list[dict]) -> bytes:
    compact = [{k: v for k, v in row.items() if k not in ROW_DEFAULTS or v != ROW_DEFAULTS[k]} for row in rows]
    return zlib.compress(json.dumps(compact, separators=(",", ":"), ensure_ascii=False).encode("utf-8"), 6)


def _move_rows_into_pages(database) -> None:
    """Each waiting upload's preview rows, in their order, become its pages: every row, the
    problem rows and the changed rows, PAGE_ROWS to a page."""
    if "collection_upload_row" not in database.get_tables():
        return
    uploads = [u for (u,) in database.execute_sql(
        'SELECT DISTINCT "upload_id" FROM "collection_upload_row" ORDER BY 1').fetchall()]
    for upload in uploads:
        rows = [{"line": line, "kind": kind, **json.loads(data)} for line, kind, data in database.execute_sql(
            'SELECT "line", "kind", "data" FROM "collection_upload_row" WHERE "upload_id" = %s ORDER BY "position"'
            .replace("%s", database.param), (upload,)).fetchall()]
        for stream, kind in (("all", None), ("problem", "problem"), ("changed", "changed")):
            chosen = rows if kind is None else [r for r in rows if r["kind"] == kind]
            for n in range(0, len(chosen), PAGE_ROWS):
                page = chosen[n:n + PAGE_ROWS]
                CollectionUploadPage.insert(upload=upload, stream=stream, number=n // PAGE_ROWS, rows=len(page),
                                            data=_pack(page)).execute(database)


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, RateLimitHit, weight=pw.IntegerField(default=1))
    migrator.create_model(CollectionUploadPage)
    migrator.run(_move_rows_into_pages, database)
    migrator.sql('DROP TABLE IF EXISTS "collection_upload_row"')


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("collection_upload_page")
    migrator.remove_fields("rate_limit_hit", "weight")

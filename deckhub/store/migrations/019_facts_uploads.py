"""Step 019: facts CSV uploads waiting for their dry run, or for their owner's proposal.

The web request stores the file and queues its check; a worker writes the preview (compressed) and
the proposals the file would make. The table as it was at this step (never today's models)."""
import peewee as pw


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class FactsUpload(Base):
    token = pw.CharField(max_length=64, unique=True)
    owner = pw.ForeignKeyField(User, backref="facts_uploads", on_delete="CASCADE")
    filename = pw.CharField(max_length=200)
    size = pw.IntegerField(default=0)
    data = pw.BlobField(null=True)
    state = pw.CharField(max_length=10, default="queued")
    done = pw.IntegerField(default=0)
    total = pw.IntegerField(default=0)
    error = pw.TextField(null=True)
    summary = pw.TextField(null=True)
    preview = pw.BlobField(null=True)
    items = pw.TextField(null=True)
    worker = pw.CharField(max_length=120, null=True)
    created_at = pw.DateTimeField(index=True)
    updated_at = pw.DateTimeField()


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(FactsUpload)


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("facts_upload")

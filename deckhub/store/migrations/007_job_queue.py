"""Step 7: simulation chunks and collection uploads, the database side of the job queue."""
import datetime as dt

import peewee as pw


def utcnow():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class SimulationRun(Base):
    pass


class SimulationChunk(Base):
    run = pw.ForeignKeyField(SimulationRun, backref="chunks", on_delete="CASCADE")
    number = pw.IntegerField()
    start = pw.IntegerField()
    stop = pw.IntegerField()
    state = pw.CharField(max_length=10, default="queued")
    worker = pw.CharField(max_length=120, null=True)
    result = pw.TextField(null=True)
    updated_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("run", "number"), True), (("state", "updated_at"), False))


class CollectionUpload(Base):
    token = pw.CharField(max_length=64, unique=True)
    owner = pw.ForeignKeyField(User, backref="collection_uploads", on_delete="CASCADE")
    filename = pw.CharField(max_length=200)
    default_game = pw.CharField(max_length=40, null=True)
    size = pw.IntegerField(default=0)
    data = pw.BlobField(null=True)
    state = pw.CharField(max_length=10, default="queued")
    phase = pw.CharField(max_length=20, default="")
    done = pw.IntegerField(default=0)
    total = pw.IntegerField(default=0)
    error = pw.TextField(null=True)
    summary = pw.TextField(null=True)
    targets = pw.TextField(null=True)
    result = pw.TextField(null=True)
    worker = pw.CharField(max_length=120, null=True)
    created_at = pw.DateTimeField(default=utcnow, index=True)
    updated_at = pw.DateTimeField(default=utcnow)


class CollectionUploadRow(Base):
    upload = pw.ForeignKeyField(CollectionUpload, backref="rows", on_delete="CASCADE")
    position = pw.IntegerField()
    line = pw.IntegerField()
    kind = pw.CharField(max_length=10)
    data = pw.TextField()

    class Meta:
        indexes = ((("upload", "kind", "position"), False), (("upload", "position"), True))


def migrate(migrator, database, fake=False, **kwargs):
    for model in (SimulationChunk, CollectionUpload, CollectionUploadRow):
        migrator.create_model(model)

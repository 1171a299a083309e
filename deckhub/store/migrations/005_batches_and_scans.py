"""Step 5: proposal batches (the set editor saves many cells at once) and card scans."""
import datetime as dt

import peewee as pw

from deckhub.store.migrations import add_missing_fields


def utcnow():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class Printing(Base):
    pass


class Proposal(Base):
    pass


class ProposalBatch(Base):
    game = pw.CharField(max_length=40, index=True)
    set_code = pw.CharField(max_length=80, null=True)
    source = pw.CharField(max_length=500)
    proposer = pw.ForeignKeyField(User, backref="proposal_batches", on_delete="CASCADE")
    created_at = pw.DateTimeField(default=utcnow)


class Scan(Base):
    proposal = pw.ForeignKeyField(Proposal, backref="scans", on_delete="CASCADE")
    game = pw.CharField(max_length=40)
    set_code = pw.CharField(max_length=80, null=True)
    printing = pw.ForeignKeyField(Printing, null=True, backref="scans", on_delete="SET NULL")
    uploader = pw.ForeignKeyField(User, backref="scans", on_delete="CASCADE")
    data = pw.BlobField()
    mime = pw.CharField(max_length=40)
    width = pw.IntegerField()
    height = pw.IntegerField()
    approved = pw.BooleanField(default=False)
    created_at = pw.DateTimeField(default=utcnow)


def migrate(migrator, database, fake=False, **kwargs):
    migrator.create_model(ProposalBatch)
    migrator.create_model(Scan)
    add_missing_fields(migrator, database, Proposal, batch_id=pw.IntegerField(null=True, index=True))

"""016_site_identity: the database's own random id, one row, carried by every queued job so a worker
of another database that shares the queue never runs it (see deckhub.services.jobs.site_id)."""
from __future__ import annotations

import datetime as dt
import secrets

import peewee as pw


def migrate(migrator, database, fake=False, **kwargs):
    @migrator.create_model
    class SiteIdentity(pw.Model):
        site = pw.CharField(max_length=64)
        created_at = pw.DateTimeField()

        class Meta:
            table_name = "site_identity"

    def one_identity():
        if not SiteIdentity.select().exists():
            SiteIdentity.insert(site=secrets.token_hex(16),
                                created_at=dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)).execute()

    migrator.run(one_identity)


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("site_identity")

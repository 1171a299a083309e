"""Step 029: a kept trade match that only other players' changes made stale is shown, saying so,
while a queued job works it out again, instead of being worked out inside the page.

`kept_match` gains:
- `own_digest`: the digest of the owner's side of what the match was worked out from (their list
  change count, or the deck's missing cards). While it is the same, only other players' lists
  changed since, and the kept match may be shown, marked as behind.
- `refresh_digest` and `refresh_sent_at`: the digest a queued refresh was sent for, and when, so
  views of one stale match send one job (again only if it has not run within a few minutes).

Existing rows get no `own_digest`: each is worked out again on its next view, as before.
Nothing a player made is changed. The table as it was at this step (never today's models)."""
import peewee as pw

from deckhub.store.migrations import add_missing_fields


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class KeptMatch(Base):
    pass


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, KeptMatch, own_digest=pw.CharField(max_length=64, null=True),
                       refresh_digest=pw.CharField(max_length=64, null=True),
                       refresh_sent_at=pw.DateTimeField(null=True))


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_fields("kept_match", "own_digest", "refresh_digest", "refresh_sent_at")

"""Step 14: the editor session a deck version belongs to (its ± clicks go into that version), and
the suggestions a player picked for the problem rows of a pending collection import.

Its first release added only `edit_session`: a database made then has "version 14" without `fixes`."""
import peewee as pw

from deckhub.store.migrations import add_missing_fields


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class DeckVersion(Base):
    pass


class CollectionUpload(Base):
    pass


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, DeckVersion, edit_session=pw.CharField(max_length=40, null=True))
    add_missing_fields(migrator, database, CollectionUpload, fixes=pw.TextField(null=True))

"""Step 024: players settle card facts together.

- `fact_vote`: a player's value for a card field that was unknown, one per player per field (the
  unique index), so two independent players agreeing settle it and different values dispute it.
- `user.signup_network`: a one-way key of the network a web sign-up came from (accounts made from
  one network are not independent); every older account has none.
- `proposal.based_on` (what the card held when a proposal was sent; a proposal whose field changed
  since is held) and `proposal.flags` (why rules sent a trusted player's proposal to the queue).
- `fact_change.rule` (agreement, majority, trusted or curator: what applied a value) and
  `fact_change.checked_by` (who accepted a trusted player's unreviewed value).
- `notice` (messages to a proposal's author) and `work_claim` (a player's range of collector
  numbers). New tables and nullable columns only: no row is touched. The tables as they were at
  this step (never today's models)."""
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


class Proposal(Base):
    pass


class FactChange(Base):
    pass


class FactVote(Base):
    game = pw.CharField(max_length=40)
    card_key = pw.CharField(max_length=200)
    field = pw.CharField(max_length=60)
    value = pw.TextField()
    value_key = pw.CharField(max_length=64)
    voter = pw.ForeignKeyField(User, backref="fact_votes", on_delete="CASCADE")
    proposal = pw.ForeignKeyField(Proposal, backref="votes", on_delete="CASCADE")
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("game", "card_key", "field", "voter"), True),)


class Notice(Base):
    user = pw.ForeignKeyField(User, backref="notices", on_delete="CASCADE")
    kind = pw.CharField(max_length=20)
    proposal = pw.ForeignKeyField(Proposal, null=True, backref="notices", on_delete="CASCADE")
    text = pw.CharField(max_length=500)
    created_at = pw.DateTimeField(default=utcnow, index=True)
    read_at = pw.DateTimeField(null=True)


class WorkClaim(Base):
    game = pw.CharField(max_length=40)
    set_code = pw.CharField(max_length=80)
    first = pw.IntegerField()
    last = pw.IntegerField()
    user = pw.ForeignKeyField(User, backref="work_claims", on_delete="CASCADE")
    created_at = pw.DateTimeField(default=utcnow)
    until = pw.DateTimeField(index=True)

    class Meta:
        indexes = ((("game", "set_code"), False),)


def migrate(migrator, database, fake=False, **kwargs):
    add_missing_fields(migrator, database, User, signup_network=pw.CharField(max_length=64, null=True))
    add_missing_fields(migrator, database, Proposal, based_on=pw.TextField(null=True), flags=pw.TextField(null=True))
    add_missing_fields(migrator, database, FactChange, rule=pw.CharField(max_length=20, null=True),
                       checked_by=pw.ForeignKeyField(User, null=True, on_delete="SET NULL", field=User.id))
    migrator.create_model(FactVote)
    migrator.create_model(Notice)
    migrator.create_model(WorkClaim)


def rollback(migrator, database, fake=False, **kwargs):
    migrator.remove_model("work_claim")
    migrator.remove_model("notice")
    migrator.remove_model("fact_vote")
    migrator.remove_fields("fact_change", "rule", "checked_by")
    migrator.remove_fields("proposal", "based_on", "flags")
    migrator.remove_fields("user", "signup_network")

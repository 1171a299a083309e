"""Step 3: community card proposals with their audit trail, API tokens, shared rate limits."""
import datetime as dt

import peewee as pw


def utcnow():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    pass


class Proposal(Base):
    game = pw.CharField(max_length=40, index=True)
    card_key = pw.CharField(max_length=200, default="")
    new_card = pw.TextField(null=True)
    values = pw.TextField(default="{}")
    source = pw.CharField(max_length=500)
    proposer = pw.ForeignKeyField(User, backref="proposals", on_delete="CASCADE")
    status = pw.CharField(max_length=10, default="pending", index=True)
    reviewer = pw.ForeignKeyField(User, null=True, backref="reviews", on_delete="SET NULL")
    reason = pw.CharField(max_length=500, default="")
    created_at = pw.DateTimeField(default=utcnow)
    reviewed_at = pw.DateTimeField(null=True)


class FactChange(Base):
    game = pw.CharField(max_length=40)
    card_key = pw.CharField(max_length=200)
    field = pw.CharField(max_length=60)
    old_value = pw.TextField(null=True)
    new_value = pw.TextField(null=True)
    old_provenance = pw.CharField(max_length=20, null=True)
    source = pw.CharField(max_length=500, default="")
    proposal = pw.ForeignKeyField(Proposal, null=True, backref="changes", on_delete="SET NULL")
    actor = pw.ForeignKeyField(User, null=True, backref="fact_changes", on_delete="SET NULL")
    reverts = pw.ForeignKeyField("self", null=True, backref="reverted_by", on_delete="SET NULL")
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("game", "card_key"), False),)


class ApiToken(Base):
    user = pw.ForeignKeyField(User, backref="api_tokens", on_delete="CASCADE")
    name = pw.CharField(max_length=80)
    token_hash = pw.CharField(max_length=128, unique=True)
    prefix = pw.CharField(max_length=12)
    created_at = pw.DateTimeField(default=utcnow)
    last_used_at = pw.DateTimeField(null=True)
    revoked_at = pw.DateTimeField(null=True)


class RateLimitHit(Base):
    bucket = pw.CharField(max_length=200, index=True)
    created_at = pw.DateTimeField(default=utcnow, index=True)


def migrate(migrator, database, fake=False, **kwargs):
    for model in (Proposal, FactChange, ApiToken, RateLimitHit):
        migrator.create_model(model)

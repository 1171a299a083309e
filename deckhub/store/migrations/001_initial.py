"""Step 1: accounts, the card catalogue, decks with their versions, collections, goldfish games.

Also creates the collection and goldfish tables on a database made before they were part of this
step (the first runner's step 1 created whatever models existed on the day it ran)."""
import datetime as dt
import secrets

import peewee as pw


def utcnow():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


def new_share_token():
    return secrets.token_urlsafe(12)


class Base(pw.Model):
    class Meta:
        legacy_table_names = False


class User(Base):
    username = pw.CharField(max_length=40, unique=True)
    password_hash = pw.CharField(max_length=255)
    is_curator = pw.BooleanField(default=False)
    created_at = pw.DateTimeField(default=utcnow)


class CardSet(Base):
    game = pw.CharField(max_length=40)
    code = pw.CharField(max_length=80)
    name = pw.CharField(max_length=200)
    size = pw.IntegerField(null=True)
    position = pw.IntegerField(default=0)
    booster = pw.TextField(null=True)

    class Meta:
        indexes = ((("game", "code"), True),)


class Card(Base):
    game = pw.CharField(max_length=40, index=True)
    key = pw.CharField(max_length=200)
    name = pw.CharField(max_length=200)
    norm_name = pw.CharField(max_length=200, index=True)
    version = pw.CharField(max_length=200, null=True)
    type = pw.CharField(max_length=80, null=True)
    text = pw.TextField(null=True)
    data = pw.TextField(default="{}")

    class Meta:
        indexes = ((("game", "key"), True),)


class Printing(Base):
    card = pw.ForeignKeyField(Card, backref="printings", on_delete="CASCADE")
    card_set = pw.ForeignKeyField(CardSet, backref="printings", on_delete="CASCADE")
    number = pw.CharField(max_length=20, null=True)
    number_sort = pw.IntegerField(default=0)
    rarity = pw.CharField(max_length=40, null=True)
    promo_code = pw.CharField(max_length=40, null=True)
    source_id = pw.CharField(max_length=80, null=True, index=True)
    position = pw.IntegerField(default=0)


class CatalogueStamp(Base):
    game = pw.CharField(max_length=40, primary_key=True)
    version = pw.IntegerField(default=0)


class Deck(Base):
    owner = pw.ForeignKeyField(User, backref="decks", on_delete="CASCADE")
    game = pw.CharField(max_length=40)
    format = pw.CharField(max_length=80)
    packs = pw.IntegerField(null=True)
    name = pw.CharField(max_length=120)
    description = pw.TextField(default="")
    is_public = pw.BooleanField(default=False)
    share_token = pw.CharField(max_length=40, unique=True, default=new_share_token)
    created_at = pw.DateTimeField(default=utcnow)
    updated_at = pw.DateTimeField(default=utcnow)


class DeckVersion(Base):
    deck = pw.ForeignKeyField(Deck, backref="versions", on_delete="CASCADE")
    number = pw.IntegerField()
    created_at = pw.DateTimeField(default=utcnow)
    data = pw.TextField()
    note = pw.CharField(max_length=200, default="")

    class Meta:
        indexes = ((("deck", "number"), True),)


class OwnedCard(Base):
    owner = pw.ForeignKeyField(User, backref="owned", on_delete="CASCADE")
    printing = pw.ForeignKeyField(Printing, backref="owners", on_delete="CASCADE")
    quantity = pw.IntegerField(default=0)
    foil_quantity = pw.IntegerField(default=0)
    want_quantity = pw.IntegerField(default=0)
    trade_quantity = pw.IntegerField(default=0)

    class Meta:
        indexes = ((("owner", "printing"), True),)


class GoldfishSession(Base):
    owner = pw.ForeignKeyField(User, backref="goldfish_sessions", on_delete="CASCADE")
    deck = pw.ForeignKeyField(Deck, null=True, backref="goldfish_sessions", on_delete="SET NULL")
    game = pw.CharField(max_length=40)
    deck_data = pw.TextField()
    seed = pw.IntegerField()
    options = pw.TextField(default="{}")
    actions = pw.TextField(default="[]")
    result = pw.CharField(max_length=10, null=True)
    share_token = pw.CharField(max_length=40, unique=True, default=new_share_token)
    created_at = pw.DateTimeField(default=utcnow)
    updated_at = pw.DateTimeField(default=utcnow)


def migrate(migrator, database, fake=False, **kwargs):
    for model in (User, CardSet, Card, Printing, CatalogueStamp, Deck, DeckVersion, OwnedCard, GoldfishSession):
        migrator.create_model(model)

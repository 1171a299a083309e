"""The peewee models: accounts, the card catalogue, decks with their versions.

The catalogue tables mirror the pure `Card`/`Printing`/`CardSet` values; game-specific fields
live in `Card.data` (JSON) because each game has its own, and search runs on the in-memory
catalogue built from these rows (see `deckhub.services.catalogue_store`).
"""
from __future__ import annotations

import datetime as dt
import secrets
import unicodedata

from flask_login import UserMixin
from peewee import (BlobField, BooleanField, CharField, DateField, DateTimeField, ForeignKeyField, IntegerField,
                    Model, TextField)

from deckhub.store.db import JSONText, database


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class BaseModel(Model):
    class Meta:
        database = database
        legacy_table_names = False


def name_key(username: str) -> str:
    """A user name as it is compared: NFKC-normalised, case-folded, trimmed ("Alice" == "ALICE")."""
    return unicodedata.normalize("NFKC", username or "").strip().casefold()


class User(BaseModel, UserMixin):
    username = CharField(max_length=40, unique=True)
    # The unique normalised name (step 6): sign-in and sign-up compare it exactly, never by pattern.
    name_key = CharField(max_length=60, unique=True, null=True)
    password_hash = CharField(max_length=255)
    is_curator = BooleanField(default=False)
    # Bumped by "sign out everywhere" and a password change: every older session stops working.
    session_version = IntegerField(default=1)
    created_at = DateTimeField(default=utcnow)
    # A one-way key of the network a web sign-up came from (step 24): two accounts made from one
    # network are not independent when they agree on a card fact. None: made on the command line.
    signup_network = CharField(max_length=64, null=True)

    login_id: str | None = None  # "user:version:key" of the browser session this row was loaded for

    def get_id(self) -> str:
        """What Flask-Login keeps in the session and the remember-me cookie (see deckhub.services.sessions)."""
        return self.login_id or f"{self.id}:{self.session_version}:"

    def save(self, *args, **kwargs):
        self.name_key = name_key(self.username)
        return super().save(*args, **kwargs)


class CardSet(BaseModel):
    game = CharField(max_length=40)
    code = CharField(max_length=80)
    name = CharField(max_length=200)
    size = IntegerField(null=True)
    position = IntegerField(default=0)
    booster = JSONText(null=True)

    class Meta:
        indexes = ((("game", "code"), True),)


class Card(BaseModel):
    game = CharField(max_length=40, index=True)
    key = CharField(max_length=200)
    name = CharField(max_length=200)
    norm_name = CharField(max_length=200, index=True)
    version = CharField(max_length=200, null=True)
    type = CharField(max_length=80, null=True)
    text = TextField(null=True)
    data = JSONText(default=dict)  # attrs, provenance, sources, aliases

    class Meta:
        indexes = ((("game", "key"), True),)


class Printing(BaseModel):
    card = ForeignKeyField(Card, backref="printings", on_delete="CASCADE")
    card_set = ForeignKeyField(CardSet, backref="printings", on_delete="CASCADE")
    number = CharField(max_length=20, null=True)
    number_sort = IntegerField(default=0)
    rarity = CharField(max_length=40, null=True)
    promo_code = CharField(max_length=40, null=True)
    source_id = CharField(max_length=80, null=True, index=True)
    position = IntegerField(default=0)  # order within the source file (two printings may share a number)


class CatalogueStamp(BaseModel):
    """Bumped whenever a game's catalogue changes, so every worker reloads its in-memory copy."""

    game = CharField(max_length=40, primary_key=True)
    version = IntegerField(default=0)


def new_share_token() -> str:
    return secrets.token_urlsafe(12)


class Deck(BaseModel):
    owner = ForeignKeyField(User, backref="decks", on_delete="CASCADE")
    game = CharField(max_length=40)
    format = CharField(max_length=80)
    packs = IntegerField(null=True)
    name = CharField(max_length=120)
    description = TextField(default="")
    is_public = BooleanField(default=False)
    share_token = CharField(max_length=40, unique=True, default=new_share_token)
    created_at = DateTimeField(default=utcnow)
    updated_at = DateTimeField(default=utcnow)
    show_record = BooleanField(default=False)  # a public deck shows its games played (step 23)
    copies = IntegerField(default=0)  # copies made of it (its DeckCopy rows), kept for sorting by it

    class Meta:
        # the public deck browser pages through public decks newest (or most copied) first; a
        # player's own decks are paged newest change first (step 030)
        indexes = ((("is_public", "created_at", "id"), False), (("game", "is_public", "created_at", "id"), False),
                   (("is_public", "copies", "created_at", "id"), False),
                   (("game", "is_public", "copies", "created_at", "id"), False), (("owner", "updated_at", "id"), False))


class DeckVersion(BaseModel):
    """Every save keeps a version: `data` is `core.decklist.Deck.to_json()`."""

    deck = ForeignKeyField(Deck, backref="versions", on_delete="CASCADE")
    number = IntegerField()
    created_at = DateTimeField(default=utcnow)
    data = JSONText()
    note = CharField(max_length=200, default="")
    edit_session = CharField(max_length=40, null=True)  # the editor session that may still change it

    class Meta:
        indexes = ((("deck", "number"), True),)


class DeckCard(BaseModel):
    """A deck's current cards as rows: copies of each card over all sections of its latest version,
    replaced by the deck service in the transaction that writes a version. What pages ask of many
    decks (which decks hold a card, what a player's other decks use) is an indexed lookup here,
    never a read of every version's JSON. Each row carries its deck's visibility and creation time
    (step 026), so the public decks holding a card are read newest first from one index."""

    deck = ForeignKeyField(Deck, backref="current_cards", on_delete="CASCADE", index=False)
    game = CharField(max_length=40)
    card_key = CharField(max_length=200)
    qty = IntegerField()
    is_public = BooleanField(default=False)  # the deck's, changed with it by the deck service
    created_at = DateTimeField(null=True)  # the deck's

    class Meta:
        indexes = ((("deck", "card_key"), True), (("game", "card_key", "is_public", "created_at", "deck"), False))


class CardDemand(BaseModel):
    """What "most wanted" ranks a card's unknown facts by: the decks holding the card among their
    current cards and the goldfish games started with it. Kept by the deck and goldfish services in
    the transaction that changes them (step 025), so no page counts them over the site."""

    game = CharField(max_length=40)
    card_key = CharField(max_length=200)
    decks = IntegerField(default=0)
    games = IntegerField(default=0)

    class Meta:
        indexes = ((("game", "card_key"), True),)


class PublicDeckCount(BaseModel):
    """A game's public decks (the public deck list's total), kept by the deck service (step 025)."""

    game = CharField(max_length=40, unique=True)
    decks = IntegerField(default=0)


class OwnedCard(BaseModel):
    """What a user has of one printing. Quantities change only as `qty = qty + n` in SQL."""

    owner = ForeignKeyField(User, backref="owned", on_delete="CASCADE")
    printing = ForeignKeyField(Printing, backref="owners", on_delete="CASCADE")
    quantity = IntegerField(default=0)
    foil_quantity = IntegerField(default=0)
    want_quantity = IntegerField(default=0)
    trade_quantity = IntegerField(default=0)

    class Meta:
        indexes = ((("owner", "printing"), True),)


class OwnedSet(BaseModel):
    """What a user has of one set, summed from their `OwnedCard` rows (step 028): printings owned,
    copies, foils, wants, trades, and printings on their want or trade list. The collection services
    count a set again in the transaction of every write to its rows, so the collection overview and
    the length of the want & trade list read a player's few sets, not every row of their collection.
    Sets are never deleted (a card's printings go only while no one owns them), so no index by set."""

    owner = ForeignKeyField(User, on_delete="CASCADE", index=False)
    card_set = ForeignKeyField(CardSet, on_delete="CASCADE", index=False)
    printings = IntegerField(default=0)
    quantity = IntegerField(default=0)
    foil_quantity = IntegerField(default=0)
    want_quantity = IntegerField(default=0)
    trade_quantity = IntegerField(default=0)
    listed = IntegerField(default=0)

    class Meta:
        indexes = ((("owner", "card_set"), True),)


# Matching reads only the rows of a printing that are offered or wanted, never all its owners, and
# from the index alone: it holds the quantities matching sums (step 028).
OwnedCard.add_index(OwnedCard.index(OwnedCard.printing, OwnedCard.owner, OwnedCard.trade_quantity, OwnedCard.quantity,
                                    OwnedCard.foil_quantity, name="owned_card_offers_by_printing",
                                    where=(OwnedCard.trade_quantity > 0)))
OwnedCard.add_index(OwnedCard.index(OwnedCard.printing, OwnedCard.owner, OwnedCard.want_quantity,
                                    name="owned_card_wants_by_printing", where=(OwnedCard.want_quantity > 0)))
# A player's want & trade rows, with their quantities, read from the index alone (step 028).
OwnedCard.add_index(OwnedCard.index(OwnedCard.owner, OwnedCard.printing, OwnedCard.want_quantity, OwnedCard.trade_quantity,
                                    OwnedCard.quantity, OwnedCard.foil_quantity, name="owned_card_listed",
                                    where=((OwnedCard.want_quantity > 0) | (OwnedCard.trade_quantity > 0))))


class GoldfishSession(BaseModel):
    """A playtest stored as (deck, seed, options, actions): `replay` rebuilds any position."""

    owner = ForeignKeyField(User, backref="goldfish_sessions", on_delete="CASCADE")
    deck = ForeignKeyField(Deck, null=True, backref="goldfish_sessions", on_delete="SET NULL")
    game = CharField(max_length=40)
    deck_data = JSONText()  # the deck as it was when the game started
    seed = IntegerField()
    options = JSONText(default=dict)
    actions = JSONText(default=list)
    result = CharField(max_length=10, null=True)
    share_token = CharField(max_length=40, unique=True, default=new_share_token)
    created_at = DateTimeField(default=utcnow)
    updated_at = DateTimeField(default=utcnow)
    revision = IntegerField(default=0)  # bumped by every change of `actions`: moves are compare-and-set on it
    archived = BooleanField(default=False)  # hidden from the list of games unless asked for (step 021)


class SimulationRun(BaseModel):
    """N automated games of one deck version, run in the background; `result` is Summary.to_json()."""

    deck = ForeignKeyField(Deck, backref="simulations", on_delete="CASCADE")
    version = IntegerField()
    owner = ForeignKeyField(User, backref="simulations", on_delete="CASCADE")
    game = CharField(max_length=40)
    games = IntegerField()
    seed = IntegerField()
    options = JSONText(default=dict)
    status = CharField(max_length=10, default="queued")  # queued, running, done, failed, cancelled
    done = IntegerField(default=0)
    result = JSONText(null=True)
    stuck = JSONText(null=True)  # [[card name, games, share], ...]
    error = TextField(null=True)
    unknown = JSONText(null=True)  # played with --allow-unknown: {card key: [fields]} the engine lacked
    created_at = DateTimeField(default=utcnow)
    updated_at = DateTimeField(default=utcnow)


class Proposal(BaseModel):
    """A player's proposed card facts (or a missing card), waiting for a curator.

    `values` is {field: value}; for a missing card `card_key` is empty and `new_card` holds its
    name, type and printing. Status: pending, approved, rejected."""

    game = CharField(max_length=40, index=True)
    card_key = CharField(max_length=200, default="")
    new_card = JSONText(null=True)
    values = JSONText(default=dict)
    source = CharField(max_length=500)
    proposer = ForeignKeyField(User, backref="proposals", on_delete="CASCADE")
    status = CharField(max_length=10, default="pending", index=True)
    reviewer = ForeignKeyField(User, null=True, backref="reviews", on_delete="SET NULL")
    reason = CharField(max_length=500, default="")
    created_at = DateTimeField(default=utcnow)
    reviewed_at = DateTimeField(null=True)
    batch_id = IntegerField(null=True, index=True)  # its ProposalBatch, if sent in one (step 5)
    # Step 24: what the card held for each proposed field when it was sent (a proposal made against
    # a value that changed since is held, not applied), and why rules sent it to the queue.
    based_on = JSONText(null=True)
    flags = JSONText(null=True)

    @property
    def self_approved(self) -> bool:
        """Approved by the curator who proposed it (allowed only while no other curator could)."""
        return self.status == "approved" and self.reviewer_id is not None and self.reviewer_id == self.proposer_id


class ProposalBatch(BaseModel):
    """Proposals sent together (a set editor save, a facts file): one source, one rate-limit hit."""

    game = CharField(max_length=40, index=True)
    set_code = CharField(max_length=80, null=True)
    source = CharField(max_length=500)
    proposer = ForeignKeyField(User, backref="proposal_batches", on_delete="CASCADE")
    created_at = DateTimeField(default=utcnow)


class Scan(BaseModel):
    """A photo or scan of a card sent with a proposal, re-encoded (see deckhub.services.scans).

    It is evidence while the proposal waits; once approved it is the image of `printing`."""

    proposal = ForeignKeyField(Proposal, backref="scans", on_delete="CASCADE")
    game = CharField(max_length=40)
    set_code = CharField(max_length=80, null=True)
    printing = ForeignKeyField(Printing, null=True, backref="scans", on_delete="SET NULL")
    uploader = ForeignKeyField(User, backref="scans", on_delete="CASCADE")
    data = BlobField()
    mime = CharField(max_length=40)
    width = IntegerField()
    height = IntegerField()
    approved = BooleanField(default=False)
    created_at = DateTimeField(default=utcnow)


class FactChange(BaseModel):
    """The audit trail of a card field: every approved (or reverted) value, with who, when and why."""

    game = CharField(max_length=40)
    card_key = CharField(max_length=200)
    field = CharField(max_length=60)
    old_value = JSONText(null=True)
    new_value = JSONText(null=True)
    old_provenance = CharField(max_length=20, null=True)
    source = CharField(max_length=500, default="")
    proposal = ForeignKeyField(Proposal, null=True, backref="changes", on_delete="SET NULL")
    actor = ForeignKeyField(User, null=True, backref="fact_changes", on_delete="SET NULL")
    reverts = ForeignKeyField("self", null=True, backref="reverted_by", on_delete="SET NULL")
    created_at = DateTimeField(default=utcnow)
    # Step 24: the rule that applied a value without a curator (agreement, majority, trusted), and
    # who accepted a trusted player's unreviewed value afterwards.
    rule = CharField(max_length=20, null=True)
    checked_by = ForeignKeyField(User, null=True, backref="checked_changes", on_delete="SET NULL")

    class Meta:
        indexes = ((("game", "card_key"), False),)


class FactVote(BaseModel):
    """A player's value for a card field that was unknown when they entered it (step 24).

    One row per player per field (the unique index): nobody votes twice or for two values.
    `value_key` is the SHA-256 of the value as canonical JSON, so equal values compare equal in SQL."""

    game = CharField(max_length=40)
    card_key = CharField(max_length=200)
    field = CharField(max_length=60)
    value = JSONText()
    value_key = CharField(max_length=64)
    voter = ForeignKeyField(User, backref="fact_votes", on_delete="CASCADE")
    proposal = ForeignKeyField(Proposal, backref="votes", on_delete="CASCADE")
    created_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("game", "card_key", "field", "voter"), True),)


class Notice(BaseModel):
    """A message to a proposal's author on the site: approved, agreed, disputed, rejected, held (step 24)."""

    user = ForeignKeyField(User, backref="notices", on_delete="CASCADE")
    kind = CharField(max_length=20)
    proposal = ForeignKeyField(Proposal, null=True, backref="notices", on_delete="CASCADE")
    text = CharField(max_length=500)
    created_at = DateTimeField(default=utcnow, index=True)
    read_at = DateTimeField(null=True)


class WorkClaim(BaseModel):
    """A player's claim on a range of a set's collector numbers for a few days (step 24)."""

    game = CharField(max_length=40)
    set_code = CharField(max_length=80)
    first = IntegerField()
    last = IntegerField()
    user = ForeignKeyField(User, backref="work_claims", on_delete="CASCADE")
    created_at = DateTimeField(default=utcnow)
    until = DateTimeField(index=True)

    class Meta:
        indexes = ((("game", "set_code"), False),)



class ReadingFlag(BaseModel):
    """A player's word that the engine reads one ability of a card wrongly, with a rule or card
    reference, waiting for a curator. `reading` is the reading the player saw. Status: pending,
    manual (a curator set the ability to manual), dismissed."""

    game = CharField(max_length=40, index=True)
    card_key = CharField(max_length=200)
    ability = TextField()
    reading = TextField()
    sentence = CharField(max_length=1000)
    reference = CharField(max_length=500)
    flagger = ForeignKeyField(User, backref="reading_flags", on_delete="CASCADE")
    status = CharField(max_length=10, default="pending", index=True)
    reviewer = ForeignKeyField(User, null=True, backref="reading_reviews", on_delete="SET NULL")
    created_at = DateTimeField(default=utcnow)
    reviewed_at = DateTimeField(null=True)


class ManualOverride(BaseModel):
    """A curator's order that every engine leave one ability of a card to manual moves, until it
    is cleared (`cleared_at`). Each change is also a `FactChange` of the card (its audit trail)."""

    game = CharField(max_length=40, index=True)
    card_key = CharField(max_length=200)
    ability = TextField()
    reason = CharField(max_length=500, default="")
    flag = ForeignKeyField(ReadingFlag, null=True, backref="overrides", on_delete="SET NULL")
    set_by = ForeignKeyField(User, null=True, backref="manual_overrides", on_delete="SET NULL")
    created_at = DateTimeField(default=utcnow)
    cleared_by = ForeignKeyField(User, null=True, backref="cleared_overrides", on_delete="SET NULL")
    cleared_at = DateTimeField(null=True, index=True)

class ApiToken(BaseModel):
    """A personal API token: only its hash is stored; the token itself is shown once."""

    user = ForeignKeyField(User, backref="api_tokens", on_delete="CASCADE")
    name = CharField(max_length=80)
    token_hash = CharField(max_length=128, unique=True)
    prefix = CharField(max_length=12)
    created_at = DateTimeField(default=utcnow)
    last_used_at = DateTimeField(null=True)
    revoked_at = DateTimeField(null=True)


class RateLimitHit(BaseModel):
    """One counted attempt (a failed log-in, a proposal) for rate limits shared by every worker;
    `weight` is what it counts for (a scan's bytes against a daily budget; one for the others)."""

    bucket = CharField(max_length=200, index=True)
    weight = IntegerField(default=1)
    created_at = DateTimeField(default=utcnow, index=True)


class LoginSession(BaseModel):
    """One signed-in browser: its key is in the session and the remember-me cookie; logging out
    deletes the row, so a copied cookie stops working (step 6)."""

    user = ForeignKeyField(User, backref="login_sessions", on_delete="CASCADE")
    key = CharField(max_length=64, unique=True)
    created_at = DateTimeField(default=utcnow, index=True)


class SimulationChunk(BaseModel):
    """Games start..stop-1 of a run, played by any worker; `result` is Summary.counts() once done.

    State: waiting (its owner's turn on the queue, see chunks.feed), queued (sent), running (by
    `worker`, host:pid), done, cancelled. A chunk is claimed and
    finished with conditional updates, so a chunk run twice (its worker died) counts once."""

    run = ForeignKeyField(SimulationRun, backref="chunks", on_delete="CASCADE")
    number = IntegerField()
    start = IntegerField()
    stop = IntegerField()
    state = CharField(max_length=10, default="queued")
    worker = CharField(max_length=120, null=True)
    result = JSONText(null=True)
    updated_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("run", "number"), True), (("state", "updated_at"), False))


class CollectionUpload(BaseModel):
    """A CSV collection import waiting for its owner: parsed and planned once by a task.

    State: queued, planning, ready (the plan is stored), committing, done, failed, cancelled.
    `data` (the file) is dropped once planned without problems; while rows have problems it is kept,
    so the dry run can run again with `fixes`, the player's picks ({line: fix}); `targets` is the plan's {printing id: quantities}."""

    token = CharField(max_length=64, unique=True)
    owner = ForeignKeyField(User, backref="collection_uploads", on_delete="CASCADE")
    filename = CharField(max_length=200)
    default_game = CharField(max_length=40, null=True)
    size = IntegerField(default=0)
    data = BlobField(null=True)
    state = CharField(max_length=10, default="queued")
    phase = CharField(max_length=20, default="")
    done = IntegerField(default=0)
    total = IntegerField(default=0)
    error = TextField(null=True)
    summary = JSONText(null=True)  # rows, problems, printings, changed, new, warnings
    targets = JSONText(null=True)
    result = JSONText(null=True)  # rows, printings, changed, seconds
    fixes = JSONText(null=True)  # {line: {"name"/"version"/"set"/"printing": ...}} picked in the dry run
    worker = CharField(max_length=120, null=True)
    created_at = DateTimeField(default=utcnow, index=True)
    updated_at = DateTimeField(default=utcnow)


class CollectionUploadPage(BaseModel):
    """A page of an upload's planned rows, as the preview shows them: `rows` of them, zlib-compressed
    JSON. Each `stream` ("all", "problem", "changed") is paged on its own, so a page of problems is
    one read whatever the file's size."""

    upload = ForeignKeyField(CollectionUpload, backref="pages", on_delete="CASCADE")
    stream = CharField(max_length=10)
    number = IntegerField()
    rows = IntegerField()
    data = BlobField()

    class Meta:
        indexes = ((("upload", "stream", "number"), True),)


class FactsUpload(BaseModel):
    """A facts CSV sent through the web, waiting for its dry run (a task) or for its owner's proposal.

    State: queued, checking, ready (the dry run is stored), proposed, failed. `data` (the file) is
    kept only until it is checked; `preview` is the zlib-compressed JSON of the rows the page shows
    (problems and changes), `items` the proposals the file makes ([game, card key, values, source])."""

    token = CharField(max_length=64, unique=True)
    owner = ForeignKeyField(User, backref="facts_uploads", on_delete="CASCADE")
    filename = CharField(max_length=200)
    size = IntegerField(default=0)
    data = BlobField(null=True)
    state = CharField(max_length=10, default="queued")
    done = IntegerField(default=0)
    total = IntegerField(default=0)
    error = TextField(null=True)
    summary = JSONText(null=True)  # rows, problems, changed, changes, same, errors, unsuggested
    preview = BlobField(null=True)
    items = JSONText(null=True)
    worker = CharField(max_length=120, null=True)
    created_at = DateTimeField(default=utcnow, index=True)
    updated_at = DateTimeField(default=utcnow)


class TuningRun(BaseModel):
    """Deck tuning: one-for-one swaps played round by round (successive halving) on the job queue.

    `candidates` are the card keys tried; `round` is the round being played; `result` is
    core.tuning.TuningResult.to_json() once done. Status as for SimulationRun."""

    deck = ForeignKeyField(Deck, backref="tunings", on_delete="CASCADE")
    version = IntegerField()
    owner = ForeignKeyField(User, backref="tunings", on_delete="CASCADE")
    game = CharField(max_length=40)
    budget = IntegerField()
    seed = IntegerField()
    options = JSONText(default=dict)
    candidates = JSONText(default=list)
    candidate_source = CharField(max_length=20)
    format = CharField(max_length=80)
    unknown_cards = IntegerField(default=0)
    status = CharField(max_length=10, default="queued")
    round = IntegerField(default=0)
    done = IntegerField(default=0)
    total = IntegerField(default=0)
    result = JSONText(null=True)
    error = TextField(null=True)
    created_at = DateTimeField(default=utcnow)
    updated_at = DateTimeField(default=utcnow)


class TuningChunk(BaseModel):
    """Some game ranges of one tuning round, [[arm, start, stop], ...]; `result` holds their
    [[score, won], ...] lists in the same order. States as a simulation chunk's; claimed and
    finished with conditional updates."""

    run = ForeignKeyField(TuningRun, backref="chunks", on_delete="CASCADE")
    round = IntegerField()
    number = IntegerField()
    ranges = JSONText()
    state = CharField(max_length=10, default="queued")
    worker = CharField(max_length=120, null=True)
    result = JSONText(null=True)
    updated_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("run", "round", "number"), True), (("state", "updated_at"), False))


class WorkerHeartbeat(BaseModel):
    """A queue worker process, written every few seconds by its heartbeat thread (step 15).

    `worker` is host:pid, as in the chunks' `worker`; `holding_kind`/`holding_id` name the chunk
    (or upload) it is playing. A worker silent past the lost-after time is lost: what it held is
    queued again, and the row stays (with what it held) so run pages and the Jobs page can say so."""

    worker = CharField(max_length=120, unique=True)
    started_at = DateTimeField(default=utcnow)
    last_seen = DateTimeField(default=utcnow, index=True)
    holding_kind = CharField(max_length=20, null=True)  # simulation, tuning, collection_upload
    holding_id = IntegerField(null=True)


class UserCardValue(BaseModel):
    """A value a player supplied for a card field the catalogue does not know: theirs, not reviewed,
    used in all their games, simulations and checks of that game (see deckhub.services.card_values)."""

    owner = ForeignKeyField(User, backref="card_values", on_delete="CASCADE")
    game = CharField(max_length=40)
    card_key = CharField(max_length=200)
    field = CharField(max_length=60)
    value = JSONText()
    updated_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("owner", "game", "card_key", "field"), True),)


# --------------------------------------------------------------------------- community (step 13)

class DeckCopy(BaseModel):
    """One copy made of a deck: the public deck browser counts them ("most copied").

    The record outlives the copy (its `copy` becomes null when that deck is deleted): a count of
    copies made, not of copies kept."""

    source = ForeignKeyField(Deck, backref="copies_made", on_delete="CASCADE")
    copy = ForeignKeyField(Deck, null=True, backref="copied_from", on_delete="SET NULL")
    created_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("source",), False),)


class PublicLists(BaseModel):
    """A row per user who chose to show their want and trade lists publicly (off by default)."""

    user = ForeignKeyField(User, primary_key=True, backref="public_lists", on_delete="CASCADE")
    since = DateTimeField(default=utcnow)


class PrintingListChanges(BaseModel):
    """How many times any player's want or trade list of a card changed, counted in the transaction
    of the change on each of the card's printings (step 028; per card at step 027). A kept match
    remembers these counts for the cards it was worked out from, so a change anywhere on one of them
    shows that it is out of date; kept per printing, a player's sum reads each count beside their own
    row, without looking its card up."""

    printing = ForeignKeyField(Printing, primary_key=True, on_delete="CASCADE")
    changes = IntegerField(default=0)


class UserListChanges(BaseModel):
    """How many times a player's own want or trade list changed (step 027), counted with the cards'
    `PrintingListChanges`: with those, what a kept match of the player's lists was worked out from."""

    user = ForeignKeyField(User, primary_key=True, on_delete="CASCADE")
    changes = IntegerField(default=0)


class CollectionChanges(BaseModel):
    """How many times any of a player's collection rows changed (step 031), counted by
    `owned_sets` in the transaction of the write: a page of the player's rows read at one count
    still holds while the count is the same, so it is kept instead of read again."""

    user = ForeignKeyField(User, primary_key=True, on_delete="CASCADE")
    changes = IntegerField(default=0)


class KeptMatch(BaseModel):
    """A player's trade matches as last worked out (step 027): which players offer (or want) the cards
    of `purpose` ("wants", "trades", "deck:ID"), ranked, as JSON, with the digest of what they were
    worked out from (my `UserListChanges`, my cards' `PrintingListChanges`). Used while the digest is the same;
    while only `own_digest` (the owner's side: their list count, the deck's missing cards) is the same,
    shown as behind while the queued refresh sent for `refresh_digest` works it out (step 029)."""

    user = ForeignKeyField(User, backref="kept_matches", on_delete="CASCADE")
    purpose = CharField(max_length=40)
    digest = CharField(max_length=64)
    rows = TextField()
    worked_out_at = DateTimeField(default=utcnow)
    own_digest = CharField(max_length=64, null=True)
    refresh_digest = CharField(max_length=64, null=True)
    refresh_sent_at = DateTimeField(null=True)

    class Meta:
        indexes = ((("user", "purpose"), True),)


class SiteIdentity(BaseModel):
    """One row: this database's random id (step 16). Every queued job carries it, so a worker of
    another database that shares the queue never runs the job (see deckhub.services.jobs.site_id)."""

    site = CharField(max_length=64)
    created_at = DateTimeField(default=utcnow)

    @staticmethod
    def new_id() -> str:
        return secrets.token_hex(16)


class PlayedGame(BaseModel):
    """A real game a deck played at a table (step 23), logged by its owner: what goldfishing cannot
    tell, set beside the simulated figures of the same version."""

    deck = ForeignKeyField(Deck, backref="played_games", on_delete="CASCADE")
    version = IntegerField()
    played_on = DateField()
    result = CharField(max_length=4)  # win, loss, draw
    play_order = CharField(max_length=6, null=True)  # first, second; None: not noted
    opponent = CharField(max_length=200, default="")
    note = TextField(default="")
    created_at = DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("deck", "played_on"), False),)


ALL_MODELS = [User, LoginSession, CardSet, Card, Printing, CatalogueStamp, Deck, DeckVersion, DeckCard,
              CardDemand, PublicDeckCount, OwnedCard, OwnedSet, GoldfishSession, SimulationRun, Proposal, FactChange, ApiToken, RateLimitHit,
              ProposalBatch, Scan, SimulationChunk, CollectionUpload, CollectionUploadPage,
              TuningRun, TuningChunk, UserCardValue, DeckCopy, PublicLists, WorkerHeartbeat, SiteIdentity,
              FactsUpload, ReadingFlag, ManualOverride, PlayedGame, FactVote, Notice, WorkClaim,
              PrintingListChanges, UserListChanges, KeptMatch, CollectionChanges]

"""Players settle a card's unknown facts together, without waiting on a curator.

Every way a player enters a value for an existing card — the proposal form, the set editor, a
facts CSV, *Confirm* on someone's pending value, the API — stores a proposal
(`proposing._store`), which calls `take_entries` in the same transaction. For each proposed
field the card does not know yet, the player's value becomes a `FactVote` (one per player per
field: the database refuses a second, and a new value replaces the player's earlier one), and the field is settled again:

- one value, entered by two independent players: applied as *agreed* (rule "agreement");
- one value from a trusted player (`trust`) whose submission no rule flagged: applied at once,
  unreviewed (rule "trusted");
- different values: the field is *disputed* and stays unknown (engines and checks skip it) until
  a curator picks one (`settle_dispute`, rule "curator") or one value reaches a clear majority:
  MAJORITY_VOTES independent players with no vote for another value in the last MAJORITY_QUIET
  (rule "majority"). A majority that comes of time passing, with no new vote, is settled by
  `settle_due`, which the job queue runs every hour (`deckhub settle-facts` runs it by hand).

Players count only when their accounts are past `DECKHUB_AGREEMENT_MIN_ACCOUNT_DAYS` (default 3)
and `DECKHUB_AGREEMENT_MIN_ACTIVITY` (default 1 accepted fact or deck); two accounts are not
independent when one network signed both up. A field the card knows already is never voted on:
changing it needs a curator. Each card row is locked while its fields are settled, so concurrent
confirmations queue up and none is lost.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
from collections import defaultdict
from dataclasses import dataclass, field as dc_field
from typing import Any, Iterable

from peewee import fn

from deckhub.services.catalogue_store import bump_stamp
from deckhub.services.community import notices, trust
from deckhub.services.community.card_rows import locked_card, read_field, source_label
from deckhub.services.community.errors import CommunityError, NotFound
from deckhub.services.community.fields import field_label, is_empty
from deckhub.services.community.reviewing import _apply_facts, require_curator
from deckhub.store import models
from deckhub.store.db import write_transaction

log = logging.getLogger(__name__)

AGREEMENT, MAJORITY, TRUSTED, CURATOR = "agreement", "majority", trust.TRUSTED, "curator"
MAJORITY_VOTES = 3
MAJORITY_QUIET = dt.timedelta(days=7)
# what a proposal becomes once every value of it is in the card, by the rule that put the last there
_SETTLED_STATUS = {AGREEMENT: "agreed", MAJORITY: "agreed", TRUSTED: "applied", CURATOR: "approved"}


def value_key(value: Any) -> str:
    """Equal values, equal keys: the SHA-256 of the value as canonical JSON."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Voters:
    """Which players count, decided once per settlement (accounts' age and activity)."""

    def __init__(self, now: dt.datetime):
        self.now = now
        self.days = trust.setting("DECKHUB_AGREEMENT_MIN_ACCOUNT_DAYS", 3)
        self.activity = trust.setting("DECKHUB_AGREEMENT_MIN_ACTIVITY", 1)
        self._known: dict[int, bool] = {}
        self._trusted: dict[int, bool] = {}

    def counts(self, user: models.User) -> bool:
        if user.id not in self._known:
            old_enough = user.created_at <= self.now - dt.timedelta(days=self.days)
            self._known[user.id] = old_enough and (self.activity == 0 or self._activity(user.id) >= self.activity)
        return self._known[user.id]

    def _activity(self, user_id: int) -> int:
        facts = (models.Proposal.select().where((models.Proposal.proposer == user_id)
                                                & models.Proposal.status.in_(trust.ACCEPTED)).count())
        return facts if facts >= self.activity else facts + models.Deck.select().where(models.Deck.owner == user_id).count()

    def trusted(self, user: models.User) -> bool:
        if user.id not in self._trusted:
            self._trusted[user.id] = trust.standing(user.id).trusted
        return self._trusted[user.id]


def independent_players(votes: Iterable[models.FactVote]) -> int:
    """How many independent players cast these votes: accounts signed up from one network count once."""
    seen: set[str] = set()
    for vote in votes:
        seen.add(f"net:{vote.voter.signup_network}" if vote.voter.signup_network else f"user:{vote.voter_id}")
    return len(seen)


@dataclass
class _Settlement:
    """What one call changed: the proposals to look at again and the rule that applied each field."""

    touched: set[int] = dc_field(default_factory=set)
    rules: dict[tuple[str, str], str] = dc_field(default_factory=dict)   # (card key, field) -> rule
    disputed: set[tuple[str, str]] = dc_field(default_factory=set)
    applied: bool = False


def take_entries(proposals: list[models.Proposal], *, flags: list[str] | None = None) -> None:
    """Record the votes of freshly stored proposals and settle the fields they touch.

    Runs inside the transaction that stored them. `flags`: why the submission may not apply at
    once on trust (None: the proposer's trust was not asked for)."""
    now = models.utcnow()
    voters = _Voters(now)
    done = _Settlement()
    for proposal in sorted((p for p in proposals if p.card_key and p.new_card is None), key=lambda p: p.card_key):
        row = locked_card(proposal.game, proposal.card_key)
        if row is None:
            continue
        based_on = {k: read_field(row, k) for k in proposal.values}
        models.Proposal.update(based_on=based_on, flags=flags or None).where(models.Proposal.id == proposal.id).execute()
        for key, value in proposal.values.items():
            if based_on[key] == value:  # settled with this very value since the player looked: one more backer
                _vote(proposal, key, value, now)
                done.touched.add(proposal.id)
            if not is_empty(based_on[key]):
                continue
            replaced = _vote(proposal, key, value, now)
            if replaced is not None:
                done.touched.add(replaced)
            if _settle(row, key, voters, done, now, may_trust=not flags):
                row = locked_card(proposal.game, proposal.card_key)
    _finish(done, now)


def _vote(proposal: models.Proposal, key: str, value: Any, now: dt.datetime) -> int | None:
    """Store the proposer's vote for a field: a player has one, so a new value replaces their
    earlier one (the proposal that vote came from is returned, to be settled again)."""
    where = ((models.FactVote.game == proposal.game) & (models.FactVote.card_key == proposal.card_key)
             & (models.FactVote.field == key) & (models.FactVote.voter == proposal.proposer_id))
    mine = models.FactVote.get_or_none(where)
    if mine is None:
        models.FactVote.create(game=proposal.game, card_key=proposal.card_key, field=key, value=value,
                               value_key=value_key(value), voter=proposal.proposer_id, proposal=proposal.id,
                               created_at=now)
    elif mine.value_key != value_key(value):
        models.FactVote.update(value=value, value_key=value_key(value), proposal=proposal.id,
                               created_at=now).where(where).execute()
        return mine.proposal_id
    return None


def _field_votes(game: str, card_key: str, key: str) -> list[models.FactVote]:
    return list(models.FactVote.select(models.FactVote, models.User).join(models.User)
                .where((models.FactVote.game == game) & (models.FactVote.card_key == card_key) & (models.FactVote.field == key))
                .order_by(models.FactVote.created_at, models.FactVote.id))


def _groups(votes: list[models.FactVote]) -> dict[str, list[models.FactVote]]:
    groups: dict[str, list[models.FactVote]] = {}
    for vote in votes:
        groups.setdefault(vote.value_key, []).append(vote)
    return groups


def _settle(row: models.Card, key: str, voters: _Voters, done: _Settlement, now: dt.datetime,
            may_trust: bool) -> bool:
    """Apply, dispute or leave waiting one unknown field of a locked card row, by the votes of the
    players who count; whether a value was applied."""
    if not is_empty(read_field(row, key)):
        return False
    card_key = row.key
    votes = _field_votes(row.game, card_key, key)
    done.touched.update(v.proposal_id for v in votes)
    groups = _groups([v for v in votes if voters.counts(v.voter)])
    if len(groups) == 1:
        (backers,) = groups.values()
        if independent_players(backers) >= 2:
            return _apply(backers, key, AGREEMENT, backers[-1].voter, done, now)
        sure = [v for v in backers if may_trust and voters.trusted(v.voter)]
        if sure:
            return _apply(backers, key, TRUSTED, sure[-1].voter, done, now)
    elif len(groups) > 1:
        best = max(groups.values(), key=independent_players)
        against = [v for v in votes if v.value_key != best[0].value_key]
        if (independent_players(best) >= MAJORITY_VOTES
                and all(v.created_at <= now - MAJORITY_QUIET for v in against)):
            return _apply(best, key, MAJORITY, best[-1].voter, done, now)
        done.disputed.add((card_key, key))
    return False


def _apply(backers: list[models.FactVote], key: str, rule: str, actor: models.User, done: _Settlement,
           now: dt.datetime) -> bool:
    """Write the backed value into the card, credited to the first player who entered it and naming the others."""
    first = models.Proposal.get_by_id(backers[0].proposal_id)
    supporters = [v.voter.username for v in backers[1:]]
    _apply_facts(first, {key: backers[0].value}, actor, now, rule=rule, supporters=supporters)
    done.rules[(first.card_key, key)] = rule
    done.applied = True
    return True


def _finish(done: _Settlement, now: dt.datetime) -> None:
    """Give every proposal the settlement touched its new status, tell its author, bump the catalogue."""
    if done.applied:
        bump_stamp(next(iter(models.Proposal.select(models.Proposal.game)
                             .where(models.Proposal.id.in_(list(done.touched))).tuples()))[0])
    if not done.touched:
        return
    proposals = list(models.Proposal.select().where(models.Proposal.id.in_(sorted(done.touched))
                                                    & models.Proposal.status.in_(("pending", "disputed"))))
    rows: dict[str, models.Card] = {}
    for proposal in proposals:
        if proposal.card_key not in rows:
            rows[proposal.card_key] = locked_card(proposal.game, proposal.card_key)
        if rows[proposal.card_key] is None:
            continue
        status, why = _status(proposal, rows[proposal.card_key], done)
        if status == proposal.status:
            continue
        models.Proposal.update(status=status, reviewed_at=now if status not in ("pending", "disputed") else None,
                               reason=why[:500]).where(models.Proposal.id == proposal.id).execute()
        if status != "pending":
            notices.notify(proposal, status, why)


def _status(proposal: models.Proposal, row: models.Card, done: _Settlement) -> tuple[str, str]:
    """A proposal's status once its fields were settled, and what its author is told."""
    mine, lost, disputed, waiting = [], [], [], []
    for key, value in proposal.values.items():
        now_value = read_field(row, key)
        if now_value == value:
            mine.append(key)
        elif (proposal.card_key, key) in done.disputed or (proposal.status == "disputed" and is_empty(now_value)):
            disputed.append(key)
        elif not is_empty(now_value) and is_empty((proposal.based_on or {}).get(key)):
            lost.append(key)  # entered while unknown, settled as another value since
        else:
            waiting.append(key)
    label = lambda keys: ", ".join(field_label(proposal.game, k) for k in keys)  # noqa: E731
    if disputed:
        return "disputed", f"Other players entered different values for {label(disputed)}: disputed until settled."
    if waiting:  # values a curator must decide (changes of known values): back in the queue
        return "pending", ""
    if lost and not mine:
        return "rejected", f"{label(lost)} was settled as another value."
    rule = next((done.rules[(proposal.card_key, k)] for k in mine if (proposal.card_key, k) in done.rules), AGREEMENT)
    text = {"agreed": f"Another player entered the same {label(mine)}: applied as agreed.",
            "applied": f"{label(mine)} applied at once (trusted); it awaits a check.",
            "approved": f"A curator settled {label(mine)} with your value."}
    status = _SETTLED_STATUS[rule]
    return status, text[status] + (f" {label(lost)} was settled as another value." if lost else "")


@dataclass(frozen=True)
class Settled:
    """A field `settle_due` applied: the card, the field, the value and the rule that applied it."""

    game: str
    card_key: str
    field: str
    value: Any
    rule: str


def settle_due(now: dt.datetime | None = None) -> list[Settled]:
    """Settle every disputed field whose leading value has held a clear majority for MAJORITY_QUIET
    (MAJORITY_VOTES independent players, no vote for another value since): applied by rule
    "majority", logged, its backers' proposals agreed and the others' rejected, each author told.
    A vote alone never changes with time, so only disputed fields that could have such a majority
    (enough votes, the oldest older than MAJORITY_QUIET) are looked at; one transaction each.
    `now`: the clock (tests pass their own)."""
    now = now or models.utcnow()
    V = models.FactVote
    candidates = list(V.select(V.game, V.card_key, V.field).join(models.Proposal)
                      .where(models.Proposal.status == "disputed")
                      .group_by(V.game, V.card_key, V.field)
                      .having(fn.MIN(V.created_at) <= now - MAJORITY_QUIET).tuples())
    out = []
    for game, card_key, key in candidates:
        if V.select().where((V.game == game) & (V.card_key == card_key) & (V.field == key)).count() <= MAJORITY_VOTES:
            continue  # a majority of MAJORITY_VOTES and a value against it take more votes than these
        with write_transaction():
            row = locked_card(game, card_key)
            if row is None:
                continue
            done = _Settlement()
            if not _settle(row, key, _Voters(now), done, now, may_trust=False):
                continue
            _finish(done, now)
        value, rule = read_field(locked_card(game, card_key), key), done.rules[(card_key, key)]
        log.info("settled %s %s %s as %r by rule %s (a dispute whose leading value has held %d days)",
                 game, card_key, key, value, rule, MAJORITY_QUIET.days)
        out.append(Settled(game, card_key, key, value, rule))
    return out


def forget_votes(game: str, card_key: str, key: str, value: Any) -> None:
    """A reverted value's votes go: the players who backed it enter it again if they still mean it."""
    models.FactVote.delete().where((models.FactVote.game == game) & (models.FactVote.card_key == card_key)
                                   & (models.FactVote.field == key) & (models.FactVote.value_key == value_key(value))).execute()


# ------------------------------------------------------------------------------------- showing


@dataclass(frozen=True)
class Competitor:
    """A value players entered for a field the card does not know, with who backs it and from what source."""

    value: Any
    key: str                      # value_key: what a curator's choice names
    supporters: tuple[str, ...]
    sources: tuple[str, ...]
    proposal: int                 # the first backer's proposal: what *Confirm* confirms


def _entered_values(game: str, card_key: str | None, status: str) -> dict[str, dict[str, list[Competitor]]]:
    """{card key: {field: its values, most backed first}} from the votes of proposals in `status`
    (of one card, or of the whole game), for fields the card still does not know."""
    where = (models.FactVote.game == game) & (models.Proposal.status == status)
    if card_key is not None:
        where &= models.FactVote.card_key == card_key
    votes = list(models.FactVote.select(models.FactVote, models.Proposal, models.User)
                 .join(models.Proposal).switch(models.FactVote).join(models.User).where(where)
                 .order_by(models.FactVote.created_at, models.FactVote.id))
    if not votes:
        return {}
    rows = {r.key: r for r in models.Card.select().where((models.Card.game == game)
                                                         & models.Card.key.in_({v.card_key for v in votes}))}
    by_field: dict[tuple[str, str], list[models.FactVote]] = defaultdict(list)
    for vote in votes:
        row = rows.get(vote.card_key)
        if row is not None and is_empty(read_field(row, vote.field)):
            by_field[(vote.card_key, vote.field)].append(vote)
    out: dict[str, dict[str, list[Competitor]]] = defaultdict(dict)
    for (key, name), field_votes in by_field.items():
        out[key][name] = sorted((Competitor(g[0].value, k, tuple(v.voter.username for v in g),
                                            tuple(dict.fromkeys(source_label(v.proposal) for v in g)), g[0].proposal_id)
                                 for k, g in _groups(field_votes).items()), key=lambda c: -len(c.supporters))
    return out


def _disputed(found: dict[str, list[Competitor]]) -> dict[str, list[Competitor]]:
    return {k: v for k, v in found.items() if len(v) > 1}


def game_disputes(game: str) -> dict[str, dict[str, list[Competitor]]]:
    """Every disputed field of a game's cards: {card key: {field: competing values}}."""
    found = {card: _disputed(fields) for card, fields in _entered_values(game, None, "disputed").items()}
    return {card: fields for card, fields in found.items() if fields}


def disputes_of(game: str, card_key: str) -> dict[str, list[Competitor]]:
    """The card's disputed fields: unknown fields whose players entered different values."""
    return _disputed(_entered_values(game, card_key, "disputed").get(card_key, {}))


def waiting_values(game: str, card_key: str) -> dict[str, list[Competitor]]:
    """Values entered for the card's unknown fields that wait for a second player (or a curator)."""
    return _entered_values(game, card_key, "pending").get(card_key, {})


def settle_dispute(curator: models.User, game: str, card_key: str, key: str, chosen: str) -> None:
    """A curator picks one of a disputed field's values (by its `Competitor.key`): applied (rule
    "curator"), its backers' proposals approved, the others' rejected."""
    require_curator(curator)
    with write_transaction():
        row = locked_card(game, card_key)
        if row is None:
            raise NotFound(f"No card {card_key[:120]!r}.")
        if not is_empty(read_field(row, key)):
            raise CommunityError("This field is known already; nothing was changed.")
        votes = _field_votes(game, card_key, key)
        backers = [v for v in votes if v.value_key == chosen]
        if not backers:
            raise CommunityError("No player entered that value; nothing was changed.")
        now = models.utcnow()
        done = _Settlement(touched={v.proposal_id for v in votes})
        _apply(backers, key, CURATOR, curator, done, now)
        _finish(done, now)

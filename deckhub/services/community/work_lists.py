"""Shared work on a set: what is still unknown or disputed (most blocking first), who has claimed
which collector numbers, and how far the set has come.

A claim holds a range of a set's collector numbers for a player for CLAIM_DAYS, so two volunteers
do not type the same cards; it is advice, not a lock (anyone may still enter any card). A player
holds at most MAX_CLAIMS live claims of at most MAX_CLAIM_SPAN numbers, and live claims of one set
do not overlap.
"""
from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass

from deckhub.core.cards import Card
from deckhub.core.engine import find_engine
from deckhub.core.session_values import unknown_values
from deckhub.services.catalogue_store import get_catalogue, number_sort
from deckhub.services.community.errors import CommunityError, NotFound
from deckhub.services.community.fields import current_value, fields_by_key, find_game, is_empty
from deckhub.store import models
from deckhub.store.db import lock, write_transaction

CLAIM_DAYS = 3
MAX_CLAIMS = 3
MAX_CLAIM_SPAN = 60
PROGRESS_DAYS = 30


@dataclass(frozen=True)
class WorkItem:
    card: Card
    number: str | None
    field: str
    label: str
    blocking: int          # decks and goldfish games holding the card
    disputed: bool
    claimed_by: str | None


def _set_cards(slug: str, set_code: str) -> list[tuple[Card, str | None]]:
    catalogue = get_catalogue(slug)
    if set_code not in catalogue.sets:
        raise NotFound(f"No set {set_code[:80]!r} in this game.")
    out = []
    for card in catalogue:
        for p in card.printings:
            if p.set_code == set_code:
                out.append((card, p.number))
                break
    return sorted(out, key=lambda cn: (number_sort(cn[1]), cn[1] or "", cn[0].name))


def _disputed(slug: str) -> set[tuple[str, str]]:
    return set(models.FactVote.select(models.FactVote.card_key, models.FactVote.field).join(models.Proposal)
               .where((models.FactVote.game == slug) & (models.Proposal.status == "disputed")).distinct().tuples())


def work_list(slug: str, set_code: str) -> list[WorkItem]:
    """The set's unknown facts that its game's engine needs, disputed ones marked, most blocking first."""
    from deckhub.services.facts import most_wanted
    game = find_game(slug)
    engine = find_engine(game.slug)
    cards = _set_cards(game.slug, set_code)
    if engine is None:
        return []
    blocking = Counter({(w.card.key, w.field): w.blocking for w in most_wanted(game.slug, limit=100_000)})
    disputed = _disputed(game.slug)
    claims = live_claims(game.slug, set_code)
    labels = fields_by_key(game.slug)
    items = []
    for card, number in cards:
        owner = next((c.user.username for c in claims if number and c.first <= number_sort(number) <= c.last), None)
        for name in unknown_values(engine, card):
            items.append(WorkItem(card, number, name, labels[name].label if name in labels else name.replace("_", " "),
                                  blocking[(card.key, name)], (card.key, name) in disputed, owner))
    return sorted(items, key=lambda w: (-w.blocking, not w.disputed, number_sort(w.number), w.card.name, w.field))


def live_claims(slug: str, set_code: str) -> list[models.WorkClaim]:
    return list(models.WorkClaim.select(models.WorkClaim, models.User).join(models.User)
                .where((models.WorkClaim.game == slug) & (models.WorkClaim.set_code == set_code)
                       & (models.WorkClaim.until > models.utcnow())).order_by(models.WorkClaim.first))


def claim(user: models.User, slug: str, set_code: str, first: int, last: int) -> models.WorkClaim:
    """Claim collector numbers first..last of a set for CLAIM_DAYS; CommunityError when the range is
    too long, overlaps another player's live claim, or the player holds MAX_CLAIMS already."""
    game = find_game(slug)
    _set_cards(game.slug, set_code)
    if first < 1 or last < first:
        raise CommunityError("Give a range of collector numbers, the first not above the last.")
    if last - first + 1 > MAX_CLAIM_SPAN:
        raise CommunityError(f"Claim at most {MAX_CLAIM_SPAN} numbers at once.")
    now = models.utcnow()
    with write_transaction():
        lock(f"claims:{game.slug}:{set_code}")
        live = models.WorkClaim.until > now
        mine = models.WorkClaim.select().where((models.WorkClaim.user == user.id) & live).count()
        if mine >= MAX_CLAIMS:
            raise CommunityError(f"You hold {mine} claims already; finish or release one first.")
        taken = (models.WorkClaim.select(models.WorkClaim, models.User).join(models.User)
                 .where((models.WorkClaim.game == game.slug) & (models.WorkClaim.set_code == set_code) & live
                        & (models.WorkClaim.first <= last) & (models.WorkClaim.last >= first)).first())
        if taken is not None:
            raise CommunityError(f"{taken.user.username} is working on numbers {taken.first}–{taken.last} "
                                 f"until {taken.until:%Y-%m-%d}; pick other numbers.")
        return models.WorkClaim.create(game=game.slug, set_code=set_code, first=first, last=last, user=user.id,
                                       created_at=now, until=now + dt.timedelta(days=CLAIM_DAYS))


def release(user: models.User, claim_id: int) -> None:
    """End one of the player's claims now."""
    ended = (models.WorkClaim.update(until=models.utcnow())
             .where((models.WorkClaim.id == claim_id) & (models.WorkClaim.user == user.id)).execute())
    if not ended:
        raise NotFound("You hold no such claim.")


def progress(slug: str, set_code: str, days: int = PROGRESS_DAYS) -> list[tuple[dt.date, int]]:
    """(day, the set's known facts at its end: types and the game's fields) for the last `days`
    days: today's count, taken back through the audit trail (a value added since is not counted
    before, one removed since is)."""
    game = find_game(slug)
    cards = _set_cards(game.slug, set_code)
    fields = ("type", *(f.key for f in game.fields))
    known_now = sum(1 for card, _ in cards for key in fields if not is_empty(current_value(card, key)))
    today = models.utcnow().date()
    start = dt.datetime.combine(today - dt.timedelta(days=days - 1), dt.time())
    keys = [card.key for card, _ in cards]
    changes = (models.FactChange.select(models.FactChange.old_value, models.FactChange.new_value, models.FactChange.created_at)
               .where((models.FactChange.game == game.slug) & (models.FactChange.created_at >= start)
                      & models.FactChange.card_key.in_(keys) & models.FactChange.field.in_(fields)).tuples())
    delta_by_day: Counter = Counter()
    for old, new, at in changes:
        delta_by_day[at.date()] += (not is_empty(new)) - (not is_empty(old))
    out, known = [], known_now
    for n in range(days):
        day = today - dt.timedelta(days=n)
        out.append((day, known))
        known -= delta_by_day[day]
    return list(reversed(out))

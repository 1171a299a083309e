"""Trust levels: a player whose values curators and other players keep accepting enters unknown
facts without waiting, and rules send their large or unusual edits back to the queue.

A player's standing counts the fact changes of their proposals still in the catalogue (approved,
agreed or applied) against those reverted: each revert costs REVERT_WEIGHT accepted facts. A
player is trusted once the balance reaches `DECKHUB_TRUST_AFTER` (default 10). A trusted player's
value for an unknown field applies at once, marked unreviewed (`FactChange.rule == "trusted"`,
`checked_by` empty), and waits in *Recently applied* for a curator or another trusted player.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable
from urllib.parse import urlsplit

from peewee import fn

from deckhub.services.community.errors import CommunityError, NotAllowed, NotFound
from deckhub.services.community.fields import PRINTED
from deckhub.store import models

TRUSTED = "trusted"
REVERT_WEIGHT = 5          # accepted facts one revert of a player's value costs
ACCEPTED = ("approved", "agreed", "applied")


def setting(name: str, default: int) -> int:
    """A whole-number site setting from the environment (a bad or negative value is the default)."""
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw.isdigit() else default


@dataclass(frozen=True)
class Standing:
    accepted: int      # fact changes of the player's proposals still in the catalogue
    reverted: int      # fact changes of the player's proposals that were reverted
    needed: int

    @property
    def score(self) -> int:
        return self.accepted - REVERT_WEIGHT * self.reverted

    @property
    def trusted(self) -> bool:
        return self.score >= self.needed


def standing(user_id: int) -> Standing:
    """How far a player's accepted and reverted facts take them towards trust."""
    reverts = models.FactChange.select(models.FactChange.reverts).where(models.FactChange.reverts.is_null(False))
    theirs = models.FactChange.select(fn.COUNT(models.FactChange.id)).join(
        models.Proposal, on=(models.FactChange.proposal == models.Proposal.id)).where(models.Proposal.proposer == user_id)
    accepted = theirs.where(models.FactChange.reverts.is_null() & models.FactChange.id.not_in(reverts)
                            & (models.FactChange.field != "card")).scalar() or 0
    reverted = (models.FactChange.select(fn.COUNT(models.FactChange.id))
                .join(models.Proposal, on=(models.FactChange.proposal == models.Proposal.id))
                .where((models.Proposal.proposer == user_id) & models.FactChange.reverts.is_null(False)).scalar()) or 0
    return Standing(accepted, reverted, setting("DECKHUB_TRUST_AFTER", 10))


def _host(source: str) -> str:
    return PRINTED if source == PRINTED else (urlsplit(source).hostname or source).lower()


def flags(game_slug: str, source: str, cards: int, known_changes: int) -> list[str]:
    """Why a trusted player's submission goes to the queue instead of applying at once (none: it applies)."""
    found = []
    most_cards = setting("DECKHUB_TRUST_MAX_CARDS", 50)
    if cards > most_cards:
        found.append(f"touches {cards} cards at once (more than {most_cards})")
    most_known = setting("DECKHUB_TRUST_MAX_KNOWN_CHANGES", 5)
    if known_changes > most_known:
        found.append(f"changes {known_changes} known values (more than {most_known})")
    host = _host(source)
    if host != PRINTED:
        seen = (models.Proposal.select(models.Proposal.source)
                .where((models.Proposal.game == game_slug) & models.Proposal.status.in_(ACCEPTED)).distinct())
        if not any(_host(s) == host for (s,) in seen.tuples()):
            found.append(f"cites a source never seen before ({host[:80]})")
    return found


def recently_applied(game_slug: str | None = None, limit: int = 100) -> list[models.FactChange]:
    """Trusted players' values applied at once that nobody has accepted or reverted yet, newest first."""
    reverts = models.FactChange.select(models.FactChange.reverts).where(models.FactChange.reverts.is_null(False))
    query = (models.FactChange.select(models.FactChange, models.Proposal, models.User)
             .join(models.Proposal, on=(models.FactChange.proposal == models.Proposal.id))
             .join(models.User, on=(models.Proposal.proposer == models.User.id))
             .where((models.FactChange.rule == TRUSTED) & models.FactChange.checked_by.is_null()
                    & models.FactChange.reverts.is_null() & models.FactChange.id.not_in(reverts)))
    if game_slug:
        query = query.where(models.FactChange.game == game_slug)
    return list(query.order_by(models.FactChange.created_at.desc(), models.FactChange.id.desc()).limit(limit))


def may_check(user, proposer_id: int) -> bool:
    """A curator, or a trusted player other than the value's author, may accept or revert it."""
    if not getattr(user, "is_authenticated", True) or getattr(user, "id", None) is None:
        return False
    if getattr(user, "is_curator", False):
        return True
    return user.id != proposer_id and standing(user.id).trusted


def require_check(user, proposer_id: int) -> None:
    if not may_check(user, proposer_id):
        raise NotAllowed("Only a curator or another trusted player may check a trusted player's value.")


def accept(user, change_ids: Iterable[int]) -> int:
    """Mark unreviewed values accepted; how many were. Nobody accepts their own."""
    changes = list(models.FactChange.select(models.FactChange, models.Proposal)
                   .join(models.Proposal, on=(models.FactChange.proposal == models.Proposal.id))
                   .where(models.FactChange.id.in_(list(change_ids)) & (models.FactChange.rule == TRUSTED)))
    if not changes:
        raise NotFound("None of these values waits for a check.")
    for change in changes:
        require_check(user, change.proposal.proposer_id)
        if change.checked_by_id is not None:
            raise CommunityError("This value was checked already.")
    return (models.FactChange.update(checked_by=user.id)
            .where(models.FactChange.id.in_([c.id for c in changes]) & models.FactChange.checked_by.is_null()).execute())

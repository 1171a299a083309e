"""Credit: what a contributor entered and what became of it, for their public page."""
from __future__ import annotations

from dataclasses import dataclass

from peewee import fn

from deckhub.services.community import trust
from deckhub.services.community.errors import NotFound
from deckhub.store import models


@dataclass(frozen=True)
class Contribution:
    name: str
    proposals: dict[str, int]        # status -> how many of their proposals
    entered: int                     # values entered for unknown fields (votes)
    standing: trust.Standing
    recent: list[models.Proposal]


def contributor(username: str, recent: int = 20) -> Contribution:
    """A contributor's counts: proposals by status, values entered, facts accepted and reverted."""
    user = models.User.get_or_none(models.User.name_key == models.name_key(username))
    if user is None:
        raise NotFound(f"No contributor named {username[:40]!r}.")
    counts = dict(models.Proposal.select(models.Proposal.status, fn.COUNT(models.Proposal.id))
                  .where(models.Proposal.proposer == user.id).group_by(models.Proposal.status).tuples())
    entered = models.FactVote.select().where(models.FactVote.voter == user.id).count()
    latest = list(models.Proposal.select().where((models.Proposal.proposer == user.id)
                                                 & models.Proposal.status.in_(trust.ACCEPTED))
                  .order_by(models.Proposal.created_at.desc(), models.Proposal.id.desc()).limit(recent))
    return Contribution(user.username, counts, entered, trust.standing(user.id), latest)

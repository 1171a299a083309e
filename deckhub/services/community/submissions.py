"""Proposals sent by a community's own scripts (the JSON API): one card or a batch, the same checks,
limits and agreement rules as the web forms, answered with each proposal's outcome."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from deckhub.services.community.confirming import confirm
from deckhub.services.community.errors import ProposalInvalid
from deckhub.services.community.fields import find_game
from deckhub.services.community.proposing import propose_batch, propose_facts
from deckhub.store import models

# how the API names a proposal's status (a proposal waiting for a curator is "queued")
API_STATUS = {"pending": "queued", "approved": "approved", "agreed": "agreed", "applied": "applied",
              "disputed": "disputed", "held": "held", "rejected": "rejected"}
STORED_STATUS = {v: k for k, v in API_STATUS.items()}
MAX_LISTED = 200


def outcome(proposal: models.Proposal) -> dict[str, Any]:
    return {"id": proposal.id, "card": proposal.card_key, "status": API_STATUS.get(proposal.status, proposal.status)}


def _fresh(ids: list[int]) -> list[models.Proposal]:
    return list(models.Proposal.select().where(models.Proposal.id.in_(ids)).order_by(models.Proposal.id))


def submit(user: models.User, game_slug: str, source: str, cards: Sequence[Mapping[str, Any]],
           **limits) -> list[models.Proposal]:
    """Store the cards' values (one card: a proposal, several: a batch, one rate-limit hit either
    way); the stored proposals with the status the agreement rules gave them."""
    game = find_game(game_slug)
    keys = [str(c["card"]) for c in cards]
    if len(set(keys)) != len(keys):
        raise ProposalInvalid({"cards": "Each card may appear once; put all its values in one entry."})
    if len(cards) == 1:
        made = propose_facts(user, game.slug, keys[0], cards[0]["values"], source, **limits)
        return _fresh([made.id])
    batch = propose_batch(user, game.slug, [(c["card"], k, v) for c in cards for k, v in c["values"].items()],
                          source, **limits)
    return list(models.Proposal.select().where(models.Proposal.batch_id == batch.id).order_by(models.Proposal.id))


def confirm_one(user: models.User, proposal_id: int, source: str | None, scan: bytes | None = None,
                **limits) -> models.Proposal:
    """Confirm a pending value (see `confirming.confirm`) from the confirming player's own source
    (None: the confirmed proposal's) and optional scan, checked as any proposal's; the confirming
    proposal as it stands after."""
    made = confirm(user, proposal_id, source=source, scan=scan, **limits)
    return _fresh([made.id])[0]


def mine(user: models.User, status: str | None = None, game: str | None = None) -> list[models.Proposal]:
    """The user's proposals, newest first, optionally of one API status and one game."""
    query = models.Proposal.select().where(models.Proposal.proposer == user.id)
    if status:
        query = query.where(models.Proposal.status == STORED_STATUS[status])
    if game:
        query = query.where(models.Proposal.game == game)
    return list(query.order_by(models.Proposal.created_at.desc(), models.Proposal.id.desc()).limit(MAX_LISTED))

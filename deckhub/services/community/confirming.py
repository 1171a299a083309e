"""*Confirm*: a player enters someone's pending value for themselves, optionally with a scan.

A confirmation is that player's own proposal of the same values (the fields the card still does
not know), so it passes the same checks, rate limits and agreement rules as any other entry.
"""
from __future__ import annotations

from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community.errors import CommunityError, NotAllowed
from deckhub.services.community.fields import current_value, is_empty
from deckhub.services.community.proposing import propose_facts
from deckhub.services.community.review_queue import get_proposal
from deckhub.store import models

CONFIRMABLE = ("pending", "disputed")


def confirm(user: models.User, proposal_id: int, *, source: str | None = None, scan: bytes | None = None,
            **limits) -> models.Proposal:
    """The confirming player's proposal of the values of `proposal_id` still unknown (its source
    unless they name their own). NotAllowed for the proposal's own author; CommunityError when
    nothing of it is left to confirm."""
    proposal = get_proposal(proposal_id)
    if proposal.proposer_id == user.id:
        raise NotAllowed("You cannot confirm your own value: another player must enter it too.")
    if proposal.status not in CONFIRMABLE or not proposal.card_key or proposal.new_card is not None:
        raise CommunityError(f"Only a pending or disputed value of a card can be confirmed; this proposal is {proposal.status}.")
    card = get_catalogue(proposal.game).get(proposal.card_key)
    values = {k: v for k, v in proposal.values.items() if card is not None and is_empty(current_value(card, k))}
    if not values:
        raise CommunityError("The card knows every value of this proposal now; there is nothing to confirm.")
    return propose_facts(user, proposal.game, proposal.card_key, values, source or proposal.source, scan=scan, **limits)

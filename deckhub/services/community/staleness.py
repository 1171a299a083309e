"""Stale proposals: one made against a value that has changed since is held, not applied.

A proposal records what the card held for each of its fields when it was sent
(`Proposal.based_on`, from step 24). When a curator comes to approve it and one of those fields
holds something else now (neither the old value nor the proposed one), applying it would
overwrite a change its author never saw: the proposal is *held* and its author told the new value.
"""
from __future__ import annotations

from typing import Any

from deckhub.services.community import notices
from deckhub.services.community.card_rows import read_field
from deckhub.services.community.errors import CommunityError
from deckhub.services.community.fields import field_label
from deckhub.store import models


class Held(CommunityError):
    """The proposal was made against a value that changed since; it was held and its author told."""


def changed_since(proposal: models.Proposal) -> dict[str, Any]:
    """{field: its value now} for the proposal's fields changed since it was sent (none for a
    proposal older than the record of what it was based on, or for a missing card)."""
    based = proposal.based_on or {}
    if not based or not proposal.card_key or proposal.new_card is not None:
        return {}
    row = models.Card.get_or_none((models.Card.game == proposal.game) & (models.Card.key == proposal.card_key))
    if row is None:
        return {}
    out = {}
    for key, value in proposal.values.items():
        now = read_field(row, key)
        if key in based and now != based[key] and now != value:
            out[key] = now
    return out


def hold_if_stale(proposal: models.Proposal) -> None:
    """Held when the proposal's fields changed since it was sent: its status becomes "held", its
    author gets a notice naming the new values, and Held says so to the curator."""
    changed = changed_since(proposal)
    if not changed:
        return
    what = "; ".join(f"{field_label(proposal.game, k)} is now {v!r}" for k, v in changed.items())
    text = f"Not applied: the card changed since you proposed this ({what}). Propose again if you still mean your value."
    held = (models.Proposal.update(status="held", reason=text[:500], reviewed_at=models.utcnow())
            .where((models.Proposal.id == proposal.id) & (models.Proposal.status == "pending")).execute())
    if held:
        notices.notify(proposal, "held", text)
    raise Held(f"Held, not applied: the card changed since this was proposed ({what}); its author was told.")

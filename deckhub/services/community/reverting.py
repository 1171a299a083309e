"""Undoing an approval: `FactChange` rows that restore the old values and provenance.

An agreed or applied value is reverted the same way (a trusted player's by a curator or another
trusted player); the votes for a reverted value go with it, so it is not agreed again at once.

A card that an approval added is removed again, unless a collection holds it; a field changed
again since must be reverted first.
"""
from __future__ import annotations

from typing import Any

from deckhub.services.catalogue_store import bump_stamp
from deckhub.services.community import trust
from deckhub.services.community.agreement import forget_votes
from deckhub.services.community.card_rows import (card_data, contribution, drop_unused_sources, locked_card, read_field,
                                                  write_field)
from deckhub.services.community.errors import CommunityError
from deckhub.services.community.fields import field_label
from deckhub.services.community.reviewing import clean_reason, require_curator, show_scans
from deckhub.services.community.review_queue import get_proposal
from deckhub.store import models
from deckhub.store.db import database


def _live_changes(proposal: models.Proposal) -> list[models.FactChange]:
    """The proposal's approved changes that no revert has undone yet."""
    reverted = models.FactChange.select(models.FactChange.reverts).where(models.FactChange.reverts.is_null(False))
    return list(models.FactChange.select().where((models.FactChange.proposal == proposal.id)
                                                 & models.FactChange.reverts.is_null()
                                                 & models.FactChange.id.not_in(reverted))
                .order_by(models.FactChange.id))


def is_reverted(proposal: models.Proposal) -> bool:
    return (proposal.status in trust.ACCEPTED
            and models.FactChange.select().where(models.FactChange.proposal == proposal.id).exists()
            and not _live_changes(proposal))


def revert(proposal_id: int, curator: models.User, reason: str) -> list[models.FactChange]:
    """Undo an approval: FactChange rows restoring each field's old value and provenance.

    Refused (CommunityError) when a field was changed again since (revert the later change first),
    or when the proposal added a card that a collection now holds."""
    proposal = get_proposal(proposal_id)
    if proposal.status == "applied":  # a trusted player's value: another trusted player may revert it too
        trust.require_check(curator, proposal.proposer_id)
    else:
        require_curator(curator)
    reason = clean_reason(reason, required=True)
    if proposal.status not in trust.ACCEPTED:
        raise CommunityError("Only an approved, agreed or applied proposal can be reverted.")
    now = models.utcnow()
    with database.atomic():
        row = locked_card(proposal.game, proposal.card_key)
        live = _live_changes(proposal)
        shown = models.Scan.select().where((models.Scan.proposal == proposal.id) & models.Scan.approved).exists()
        if not live and not shown:
            raise CommunityError("This approval changed nothing that is still in the catalogue (reverted already?).")
        if row is None:
            raise CommunityError(f"The card {proposal.card_key!r} is no longer in the catalogue.")
        if any(c.field == "card" for c in live):
            made = _remove_card(proposal, row, live, curator, reason, now)
        else:
            made = _restore_facts(proposal, row, live, curator, reason, now) if live else []
        show_scans(proposal, None, False)
        bump_stamp(proposal.game)
    return made


def _restore_facts(proposal, row, live, curator, reason, now) -> list[models.FactChange]:
    data = card_data(row)
    contributions = data.setdefault("contributions", {})
    for c in live:
        by = contributions.get(c.field, {}).get("proposal")
        if read_field(row, c.field) != c.new_value or data["provenance"].get(c.field) != "contributed" or by != proposal.id:
            raise CommunityError(f"{field_label(proposal.game, c.field)} changed again after this approval"
                                 + (f" (proposal {by})" if by and by != proposal.id else "")
                                 + "; revert that change first. Nothing was changed.")
    made = []
    for c in live:
        forget_votes(proposal.game, row.key, c.field, c.new_value)
        write_field(row, data, c.field, c.old_value, c.old_provenance)
        contributions.pop(c.field, None)
        if c.old_provenance == "contributed":
            earlier = _earlier_contribution(c)
            if earlier is not None:
                contributions[c.field] = earlier
        made.append(models.FactChange.create(
            game=proposal.game, card_key=row.key, field=c.field, old_value=c.new_value, new_value=c.old_value,
            old_provenance="contributed", source=f"revert: {reason}"[:500], proposal=proposal.id, actor=curator.id,
            reverts=c.id, created_at=now))
    drop_unused_sources(data)
    models.Card.update(type=row.type, text=row.text, data=data).where(models.Card.id == row.id).execute()
    return made


def _earlier_contribution(change: models.FactChange) -> dict[str, Any] | None:
    """Who contributed the value a revert restores (the latest earlier approval still standing)."""
    reverted = models.FactChange.select(models.FactChange.reverts).where(models.FactChange.reverts.is_null(False))
    earlier = (models.FactChange.select().where(
        (models.FactChange.game == change.game) & (models.FactChange.card_key == change.card_key)
        & (models.FactChange.field == change.field) & (models.FactChange.id < change.id)
        & models.FactChange.reverts.is_null() & models.FactChange.proposal.is_null(False)
        & models.FactChange.id.not_in(reverted)).order_by(models.FactChange.id.desc()).first())
    if earlier is None or earlier.new_value != change.old_value:
        return None
    proposal = models.Proposal.get_or_none(models.Proposal.id == earlier.proposal_id)
    if proposal is None:
        return None
    reviewer = earlier.actor.username if earlier.actor_id and earlier.actor else None
    return contribution(proposal, reviewer, earlier.created_at)


def _remove_card(proposal, row, live, curator, reason, now) -> list[models.FactChange]:
    owned = (models.OwnedCard.select().join(models.Printing)
             .where(models.Printing.card == row.id).exists())
    if owned:
        raise CommunityError(f"{row.name} is in someone's collection now; it cannot be removed. "
                             "Propose corrections to it instead.")
    for c in live:
        if c.field != "card" and read_field(row, c.field) != c.new_value:
            raise CommunityError(f"{field_label(proposal.game, c.field)} of {row.name} changed after it was added; "
                                 "revert that change first. Nothing was changed.")
    made = [models.FactChange.create(
        game=proposal.game, card_key=row.key, field=c.field, old_value=c.new_value, new_value=None,
        old_provenance="contributed", source=f"revert: {reason}"[:500], proposal=proposal.id, actor=curator.id,
        reverts=c.id, created_at=now) for c in live]
    models.Card.delete().where(models.Card.id == row.id).execute()  # its printings go with it
    return made

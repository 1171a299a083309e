"""Notices to a proposal's author on the site: approved, agreed, applied, disputed, rejected or held.

Written in the transaction that changes the proposal, so a notice is never lost or sent for a
change that did not happen."""
from __future__ import annotations

from deckhub.store import models

KINDS = ("approved", "agreed", "applied", "disputed", "rejected", "held")
MAX_TEXT = 500   # Notice.text's column size


def notify(proposal: models.Proposal, kind: str, text: str) -> None:
    """Tell the proposal's author what became of it."""
    _write(proposal.proposer_id, kind, proposal.id, text)


def tell(proposal_id: int, kind: str, text: str) -> None:
    """`notify` by the proposal's number."""
    proposer = models.Proposal.select(models.Proposal.proposer).where(models.Proposal.id == proposal_id).scalar()
    if proposer is not None:
        _write(proposer, kind, proposal_id, text)


def _write(user_id: int, kind: str, proposal_id: int, text: str) -> None:
    models.Notice.create(user=user_id, kind=kind, proposal=proposal_id, text=text[:MAX_TEXT])


def unread(user: models.User, limit: int = 50) -> list[models.Notice]:
    """The user's notices not yet marked read, newest first."""
    return list(models.Notice.select().where((models.Notice.user == user.id) & models.Notice.read_at.is_null())
                .order_by(models.Notice.created_at.desc(), models.Notice.id.desc()).limit(limit))


def recent(user: models.User, limit: int = 100) -> list[models.Notice]:
    """The user's notices, newest first, read or not."""
    return list(models.Notice.select().where(models.Notice.user == user.id)
                .order_by(models.Notice.created_at.desc(), models.Notice.id.desc()).limit(limit))


def mark_read(user: models.User) -> int:
    """Mark every notice of the user read; how many were unread."""
    return (models.Notice.update(read_at=models.utcnow())
            .where((models.Notice.user == user.id) & models.Notice.read_at.is_null()).execute())

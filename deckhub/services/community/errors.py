"""What the community catalogue refuses, each with a message for the person who asked."""
from __future__ import annotations

from typing import Mapping


class CommunityError(ValueError):
    """A request the community catalogue refuses; the message says why, for the person who made it."""


class ProposalInvalid(CommunityError):
    """Values that fail their checks: `errors` maps each field (or "source", "name"...) to why."""

    def __init__(self, errors: Mapping[str, str], message: str | None = None):
        self.errors = dict(errors)
        super().__init__(message or "; ".join(f"{k}: {v}" for k, v in self.errors.items()))


class NotAllowed(CommunityError):
    """Only a curator may review."""


class RateLimited(CommunityError):
    pass


class NotFound(CommunityError):
    pass

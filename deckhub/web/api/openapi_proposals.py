"""The proposals' schemas of the OpenAPI document: a community's own scripts send card facts
(`POST /api/proposals`) as the site's forms do."""
from __future__ import annotations

from typing import Any

from deckhub.services.community.fields import MAX_SOURCE, PRINTED
from deckhub.services.community.proposing import MAX_BATCH_CARDS
from deckhub.services.limits import MAX_CARD_KEY
from deckhub.web.api.openapi_parts import PROPOSAL_STATUSES, ref


def proposal_schemas(games: list[str]) -> dict[str, Any]:
    return {
        "ProposalsPost": {
            "type": "object", "required": ["game", "source", "cards"], "additionalProperties": False,
            "properties": {
                "game": {"type": "string", "enum": games},
                "source": {"type": "string", "minLength": 1, "maxLength": MAX_SOURCE,
                           "description": f'A web address, or "{PRINTED}" for values read off a card you own.'},
                "cards": {"type": "array", "minItems": 1, "maxItems": MAX_BATCH_CARDS, "items": {
                    "type": "object", "required": ["card", "values"], "additionalProperties": False,
                    "properties": {
                        "card": {"type": "string", "minLength": 1, "maxLength": MAX_CARD_KEY,
                                 "description": "The card's id (its key)."},
                        "values": {"type": "object", "minProperties": 1, "maxProperties": 40,
                                   "description": "Field -> value, each checked as the proposal form checks it.",
                                   "additionalProperties": {"type": ["integer", "string", "array"],
                                                            "items": {"type": "string"}}}}}},
            },
        },
        "ProposalOutcome": {
            "type": "object", "required": ["id", "card", "status"],
            "properties": {
                "id": {"type": "integer"}, "card": {"type": "string"},
                "status": {"type": "string", "enum": list(PROPOSAL_STATUSES),
                           "description": "queued: waits for a curator or a second player; agreed: two independent "
                                          "players entered it, applied; applied: a trusted player's value, applied "
                                          "unreviewed; disputed: players entered different values, the field stays "
                                          "unknown; held: the card changed since it was sent; approved/rejected: a "
                                          "curator decided."},
            },
        },
        "ProposalList": {"type": "object", "required": ["proposals"],
                         "properties": {"proposals": {"type": "array", "items": ref("ProposalOutcome")}}},
    }

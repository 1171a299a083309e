"""The proposals' schemas of the OpenAPI document: a community's own scripts send card facts
(`POST /api/proposals`) as the site's forms do."""
from __future__ import annotations

from typing import Any

from deckhub.services.community.fields import MAX_SOURCE, PRINTED
from deckhub.services.community.proposing import MAX_BATCH_CARDS
from deckhub.services.limits import MAX_BODY, MAX_CARD_KEY
from deckhub.services.scans import MAX_BYTES as MAX_SCAN_BYTES
from deckhub.web.api.openapi_parts import BODY_MIB, PROPOSAL_STATUSES, ref

SCAN_MIB = MAX_SCAN_BYTES // 1024 // 1024


def _source(description: str) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": MAX_SOURCE,
            "description": f'{description}A web address, or "{PRINTED}" for values read off a card you own.'}


def proposal_schemas(games: list[str]) -> dict[str, Any]:
    return {
        "ProposalsPost": {
            "type": "object", "required": ["game", "source", "cards"], "additionalProperties": False,
            "properties": {
                "game": {"type": "string", "enum": games},
                "source": _source(""),
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
        "ProposalConfirm": {
            "type": "object", "additionalProperties": False,
            "description": "Optional: without a body (or with an empty object) the confirmed proposal's source is used.",
            "properties": {
                "source": _source("Where I read the values myself, checked as a proposal's source. "),
                "scan": {"type": "string", "minLength": 1, "maxLength": MAX_BODY, "contentEncoding": "base64",
                         "description": f"A photo or scan of the card (JPEG, PNG or WebP) as Base64 text, checked as the "
                                        f"site checks an upload (at most {SCAN_MIB} MB, and the whole body at most "
                                        f"{BODY_MIB} MiB); the curator sees it beside my values."}},
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

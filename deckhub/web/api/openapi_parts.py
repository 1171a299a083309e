"""The building blocks of the API's OpenAPI document (`openapi.document`): references, bodies,
error responses, security and the parameters many paths share."""
from __future__ import annotations

from deckhub.services.community.submissions import API_STATUS
from deckhub.services.limits import MAX_ACTIVE_RUNS, MAX_BODY, MAX_DECKLIST, MAX_ID, MAX_PAGE

JSON = "application/json"
BODY_MIB = MAX_BODY // 1024 // 1024


COMPONENTS = "#/components/schemas/"


def ref(name: str) -> dict:
    return {"$ref": COMPONENTS + name}


def json_body(schema: dict, description: str) -> dict:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def error_response(description: str) -> dict:
    return json_body(ref("Error"), description)


ERRORS = {
    "400": "The request cannot be used (a bad value, an unknown card, game or format); nothing changed.",
    "401": "No credentials, or a bad or revoked token.",
    "403": "A public deck of someone else: readable, not writable.",
    "404": "No such thing visible to you (private decks, collections and simulations are their owner's alone).",
    "409": "The data changed while the request was written; nothing was changed, try again.",
    "413": f"The request body is too large (at most {BODY_MIB} MiB; a deck list at most {MAX_DECKLIST:,} characters).",
    "429": f"Too many simulations queued or running at once (at most {MAX_ACTIVE_RUNS} of yours, and a bound for "
           "the whole site).",
}


PROPOSAL_STATUSES = tuple(dict.fromkeys(API_STATUS.values()))
PROPOSALS_429 = error_response("Too many proposals (confirmations included) in the last hour, or too many waiting for review.")


def responses_of(ok_code: str, ok: dict, *errors: str) -> dict:
    out = {ok_code: ok}
    for code in errors:
        out[code] = error_response(ERRORS[code])
    return out


PUBLIC: list = []  # no credentials needed (sent ones are still checked)
OPTIONAL_AUTH = [{}, {"bearerAuth": []}, {"sessionCookie": []}]
AUTH = [{"bearerAuth": []}, {"sessionCookie": []}]


def id_param(name: str, description: str) -> dict:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID}}


DECK_ID = id_param("deck_id", "The deck's number.")


def page_params(default: int, maximum: int) -> list[dict]:
    return [
        {"name": "page", "in": "query", "description": "Page number, from 1 (empty: the first).",
         "allowEmptyValue": True, "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 1}},
        {"name": "per_page", "in": "query", "allowEmptyValue": True,
         "description": f"Items a page (larger values count as {maximum}; empty: {default}).",
         "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": default}},
    ]

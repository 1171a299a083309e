"""The OpenAPI 3.1 document of DeckHub's JSON API, written as data and served at `/api/openapi.json`.
It is also what the API checks requests against (`inputs`): a body's shape, a query argument's
range and a field's default are stated here once.

Every `/api/` route of the app is described here and every path here is a route:
`tests/test_api_v1.py` compares the two, so a new endpoint must be added to this document.
`tests/test_openapi_schemathesis.py` runs schemathesis against the served document.
Game slugs and format ids come from the game registry, so a fifth game appears here by itself.
"""
from __future__ import annotations

from functools import cache
from typing import Any

from deckhub import __version__
from deckhub.services.limits import (CARDS_PER_PAGE, DEFAULT_GAMES, DEFAULT_TUNING_BUDGET, ENTRIES_PER_PAGE,
                            MAX_CARD_KEY, MAX_CARDS_PER_PAGE, MAX_COLLECTION_CHANGES, MAX_COPIES_PER_ENTRY,
                            MAX_DECK_NAME, MAX_DECKLIST, MAX_DESCRIPTION, MAX_ENTRIES_PER_PAGE, MAX_GAMES, MAX_ID,
                            MAX_DECK_QUERY, MAX_PACKS, MAX_PUBLIC_DECKS_PER_PAGE, MAX_QUANTITY, MAX_SEED,
                            MAX_TUNING_BUDGET, PUBLIC_DECKS_PER_PAGE, MAX_GAME_NOTE, MAX_OPPONENT)

from deckhub.web.api.openapi_parts import (AUTH, BODY_MIB, DECK_ID, ERRORS, JSON, OPTIONAL_AUTH, PROPOSAL_STATUSES,
                                           PROPOSALS_429, PUBLIC, error_response, id_param, json_body, page_params, ref, responses_of)
from deckhub.web.api.openapi_proposals import proposal_schemas

def document() -> dict[str, Any]:
    """The document for the games registered now (a test may register a game for a while), built
    once per set of games (a site has one set; the tests two)."""
    from deckhub.games import game_slugs
    return _document(tuple(game_slugs()))


@cache
def _document(_games: tuple[str, ...]) -> dict[str, Any]:
    from deckhub.services.collection import FIELDS
    from deckhub.games import all_games
    from deckhub.services.tunings import CANDIDATE_SOURCES
    from deckhub.importers.deck_exports import EXPORTS

    games = [g.slug for g in all_games()]
    formats = sorted({f.id for g in all_games() for f in g.formats})
    fields = list(FIELDS)
    timestamp = {"type": "string", "format": "date-time", "description": "UTC, ISO 8601."}

    schemas: dict[str, Any] = {
        "Error": {
            "type": "object", "required": ["error", "status"],
            "properties": {
                "error": {"type": "string", "description": "What was wrong, in words."},
                "status": {"type": "integer", "description": "The HTTP status again."},
                "errors": {"type": "array", "items": ref("LineError"),
                           "description": "The lines of a deck list that could not be read."},
                "unknown_cards": {"type": "array", "items": {"type": "string"}},
                "version": {"type": "integer", "description": "On a 409 for a deck: its latest version's number."},
                "unknown_values": {"type": "array", "items": ref("UnknownValue"),
                                   "description": "A simulation refused: the card values its engine lacks."},
            },
        },
        "UnknownValue": {
            "type": "object", "required": ["card", "name", "fields"],
            "properties": {"card": {"type": "string", "description": "The card key."}, "name": {"type": "string"},
                           "fields": {"type": "array", "items": {"type": "string"},
                                      "description": "The fields the engine needs that nobody gave."}},
        },
        "GameSummary": {
            "type": "object", "required": ["slug", "name", "cards", "printings", "sets"],
            "properties": {
                "slug": {"type": "string"}, "name": {"type": "string"},
                "cards": {"type": "integer"}, "printings": {"type": "integer"},
                "sets": {"type": "array", "items": {
                    "type": "object", "required": ["code", "name", "size", "known"],
                    "properties": {"code": {"type": "string"}, "name": {"type": "string"},
                                   "size": {"type": ["integer", "null"]}, "known": {"type": "integer"}}}},
            },
        },
        "FieldCounts": {
            "type": "object", "description": "Each field (its key) with how many cards have a known value, by how it is known.",
            "additionalProperties": {
                "type": "object", "required": ["known", "imported", "derived", "contributed"],
                "properties": {"known": {"type": "integer", "minimum": 0},
                               "imported": {"type": "integer", "minimum": 0, "description": "From a cited source."},
                               "derived": {"type": "integer", "minimum": 0, "description": "By a stated rule."},
                               "contributed": {"type": "integer", "minimum": 0,
                                               "description": "Proposed by players, approved by a curator."}}}},
        "Completeness": {
            "type": "object", "required": ["game", "cards", "fields", "labels", "sets"],
            "properties": {
                "game": {"type": "string", "enum": games},
                "cards": {"type": "integer", "description": "Every card of the game, printed in a known set or not."},
                "fields": ref("FieldCounts"),
                "labels": {"type": "object", "additionalProperties": {"type": "string"},
                           "description": "Each field's name as the pages show it."},
                "sets": {"type": "array", "description": "In release order.", "items": {
                    "type": "object", "required": ["code", "name", "size", "cards", "fields"],
                    "properties": {"code": {"type": "string"}, "name": {"type": "string"},
                                   "size": {"type": ["integer", "null"], "description": "Cards the set has, when known."},
                                   "cards": {"type": "integer", "description": "Cards of the catalogue printed in it."},
                                   "fields": ref("FieldCounts")}}},
            },
        },
        "Printing": {
            "type": "object", "required": ["set", "number", "rarity", "promo_code"],
            "properties": {"set": {"type": "string"}, "number": {"type": ["string", "null"]},
                           "rarity": {"type": ["string", "null"]}, "promo_code": {"type": ["string", "null"]}},
        },
        "Card": {
            "type": "object", "required": ["id", "name", "version", "type", "text", "printings"],
            "description": "A card; each of its game's fields is flattened in at the top level (null when unknown).",
            "properties": {
                "id": {"type": "string", "description": "The card's key: what decks and changes name it by."},
                "name": {"type": "string"}, "version": {"type": ["string", "null"]},
                "type": {"type": ["string", "null"]}, "text": {"type": ["string", "null"]},
                "printings": {"type": "array", "items": ref("Printing")},
            },
            "additionalProperties": True,
        },
        "CardDetail": {
            "allOf": [ref("Card"), {
                "type": "object", "required": ["game", "display_name", "aliases", "sources", "provenance", "disputed"],
                "properties": {"game": {"type": "string"}, "display_name": {"type": "string"},
                               "aliases": {"type": "array", "items": {"type": "string"}},
                               "sources": {"type": "array", "items": {"type": "string"}},
                               "provenance": {"type": "object", "additionalProperties": {"type": "string"}},
                               "disputed": {
                                   "type": "object",
                                   "description": "Fields players entered different values for: each stays null "
                                                  "until a curator or a clear majority settles it.",
                                   "additionalProperties": {"type": "array", "items": ref("DisputedValue")}}}}],
        },
        "DisputedValue": {
            "type": "object", "required": ["value", "supporters", "sources"],
            "properties": {"value": {}, "supporters": {"type": "array", "items": {"type": "string"}},
                           "sources": {"type": "array", "items": {"type": "string"}}},
        },
        "CardPage": {
            "type": "object", "required": ["cards", "total"],
            "properties": {"cards": {"type": "array", "items": ref("Card")}, "total": {"type": "integer"}},
        },
        "CheckRequest": {
            "type": "object", "required": ["game", "decklist"],
            "properties": {
                "game": {"type": "string", "enum": games},
                "decklist": {"type": "string", "maxLength": MAX_DECKLIST,
                             "description": 'One card a line ("3 Card Name"), section headers allowed; or OCTGN .o8d or DeckHub JSON.'},
                "format": {"type": ["string", "null"], "description": "A format id or name; default the game's own."},
                "packs": {"type": ["integer", "null"], "minimum": 1},
            },
        },
        "LineError": {
            "type": "object", "required": ["line", "message", "suggestions"],
            "properties": {"line": {"type": "integer"}, "message": {"type": "string"},
                           "suggestions": {"type": "array", "items": {"type": "string"}}},
        },
        "Violation": {
            "type": "object", "required": ["rule", "severity", "section", "message", "cards", "expected", "actual"],
            "properties": {
                "rule": {"type": "string"}, "severity": {"type": "string"},
                "section": {"type": ["string", "null"]}, "message": {"type": "string"},
                "cards": {"type": "array", "items": {"type": "string"}},
                "expected": {}, "actual": {},
            },
        },
        "CheckReport": {
            "type": "object", "required": ["game", "format", "legal", "verified", "counts", "violations"],
            "properties": {
                "game": {"type": "string"}, "format": {"type": "string"}, "legal": {"type": "boolean"},
                "verified": {"type": "boolean",
                             "description": "False when any violation is unverified (a card value the check needs "
                                            "is unknown): then a legal deck is only legal so far."},
                "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
                "violations": {"type": "array", "items": ref("Violation")},
                "errors": {"type": "array", "items": ref("LineError"),
                           "description": "POST /api/check only: lines that could not be read."},
            },
        },
        "Me": {
            "type": "object", "required": ["username", "is_curator", "auth"],
            "properties": {"username": {"type": "string"}, "is_curator": {"type": "boolean"},
                           "auth": {"type": "string", "enum": ["token", "session"]}},
        },
        "DeckEntry": {
            "type": "object", "required": ["card"], "additionalProperties": False,
            "properties": {"card": {"type": "string", "minLength": 1, "maxLength": MAX_CARD_KEY,
                                    "description": "A card id (the `id` of GET /api/cards)."},
                           "qty": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES_PER_ENTRY, "default": 1,
                                   "description": "Copies (a deck always states it; a request may leave it out)."}},
        },
        "Sections": {
            "type": "object", "description": 'The game\'s sections by name, e.g. {"Deck": [...], "Neopet Stack": [...]}.',
            "additionalProperties": {"type": "array", "items": ref("DeckEntry")},
        },
        "DeckSummary": {
            "type": "object",
            "required": ["id", "name", "game", "format", "packs", "is_public", "description", "owner", "version",
                         "created_at", "updated_at"],
            "properties": {
                "id": {"type": "integer"}, "name": {"type": "string"}, "game": {"type": "string"},
                "format": {"type": "string"}, "packs": {"type": ["integer", "null"]},
                "is_public": {"type": "boolean"}, "description": {"type": "string"},
                "owner": {"type": "string", "description": "The owner's user name."},
                "version": {"type": "integer", "description": "The latest version's number."},
                "created_at": timestamp, "updated_at": timestamp,
            },
        },
        "Deck": {"allOf": [ref("DeckSummary"), {
            "type": "object", "required": ["sections"], "properties": {"sections": ref("Sections")}}]},
        "PublicDeckPage": {
            "type": "object", "required": ["decks", "total", "page", "per_page", "cards"],
            "properties": {
                "decks": {"type": "array", "items": {"allOf": [ref("DeckSummary"), {
                    "type": "object", "required": ["copies"],
                    "properties": {"copies": {"type": "integer", "minimum": 0,
                                              "description": "Copies made of the deck by DeckHub users."}}}]}},
                "total": {"type": "integer", "description": "Public decks matching every filter."},
                "page": {"type": "integer"}, "per_page": {"type": "integer"},
                "cards": {"type": "array", "description": "The cards the `card` filter was read as (empty without one, "
                                                          "or when no card is called anything like it).",
                          "items": {"type": "object", "required": ["game", "id", "name"],
                                    "properties": {"game": {"type": "string"}, "id": {"type": "string"},
                                                   "name": {"type": "string"}}}},
            },
        },
        "DeckList": {"type": "object", "required": ["decks"],
                     "properties": {"decks": {"type": "array", "items": ref("DeckSummary")}}},
        "DeckCreate": {
            "type": "object", "required": ["name", "game"], "additionalProperties": False,
            "description": 'The cards come as "sections" or as a "decklist" text (not both); none: an empty deck.',
            "not": {"required": ["sections", "decklist"],
                    "description": 'Send the cards either as "sections" or as a "decklist", not both.'},
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": MAX_DECK_NAME, "pattern": r"\S"},
                "game": {"type": "string", "enum": games},
                "format": {"type": ["string", "null"], "enum": [*formats, None],
                           "description": "A format id of the deck's game; null or absent: the game's default."},
                "packs": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_PACKS,
                          "description": "Packs used, for a Limited format only."},
                "is_public": {"type": "boolean", "default": False},
                "description": {"type": "string", "maxLength": MAX_DESCRIPTION, "default": ""},
                "sections": ref("Sections"),
                "decklist": {"type": "string", "maxLength": MAX_DECKLIST},
            },
        },
        "DeckUpdate": {
            "type": "object", "additionalProperties": False,
            "description": "Only the fields sent change. New cards keep a new version; the game cannot change.",
            "not": {"required": ["sections", "decklist"],
                    "description": 'Send the cards either as "sections" or as a "decklist", not both.'},
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": MAX_DECK_NAME, "pattern": r"\S"},
                "game": {"type": "string", "enum": games, "description": "Accepted only when it is the deck's game."},
                "format": {"type": ["string", "null"], "enum": [*formats, None]},
                "packs": {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_PACKS},
                "is_public": {"type": "boolean"},
                "description": {"type": "string", "maxLength": MAX_DESCRIPTION},
                "sections": ref("Sections"),
                "decklist": {"type": "string", "maxLength": MAX_DECKLIST},
                "version": {"type": "integer", "minimum": 1, "maximum": MAX_ID,
                            "description": "The version you edited (the deck's `version` when you read it). "
                                           "Required with `sections` or `decklist`: if the deck has a newer "
                                           "version, the answer is 409 and nothing changes."},
            },
        },
        "DeckVersions": {
            "type": "object", "required": ["versions"],
            "properties": {"versions": {"type": "array", "items": {
                "type": "object", "required": ["number", "created_at", "note", "cards"],
                "properties": {"number": {"type": "integer"}, "created_at": timestamp, "note": {"type": "string"},
                               "cards": {"type": "integer"}}}}},
        },
        "CollectionEntry": {
            "type": "object",
            "required": ["printing", "game", "card", "set", "number", *fields],
            "properties": {
                "printing": {"type": "integer", "description": "The printing's id (what changes may name)."},
                "game": {"type": "string"}, "card": {"type": "string"}, "set": {"type": "string"},
                "number": {"type": ["string", "null"]},
                **{f: {"type": "integer", "minimum": 0} for f in fields},
                "note": {"type": "string", "description": "Only when a change asked for more copies for trade "
                                                          "than are owned: the trade quantity was capped at them."},
            },
        },
        "CollectionPage": {
            "type": "object", "required": ["entries", "total", "page", "per_page"],
            "properties": {"entries": {"type": "array", "items": ref("CollectionEntry")},
                           "total": {"type": "integer"}, "page": {"type": "integer"}, "per_page": {"type": "integer"}},
        },
        "CollectionChange": {
            "type": "object", "required": ["delta"], "additionalProperties": False,
            "description": 'Name the printing either by "printing" (an id from GET /api/collection) or by "game" '
                           'and "card" (the card id), adding "set" and "number" when the card has several '
                           'printings; not both.',
            "properties": {
                "printing": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
                "game": {"type": "string", "enum": games}, "card": {"type": "string", "minLength": 1},
                "set": {"type": ["string", "null"]}, "number": {"type": ["string", "null"]},
                "field": {"type": "string", "enum": fields, "default": "quantity"},
                "delta": {"type": "integer", "minimum": -MAX_QUANTITY, "maximum": MAX_QUANTITY,
                          "description": f"Added to the quantity; the result stays within 0 and {MAX_QUANTITY:,}."},
            },
            "oneOf": [{"required": ["printing"],
                       "not": {"anyOf": [{"required": [k]} for k in ("game", "card", "set", "number")]}},
                      {"required": ["game", "card"], "not": {"required": ["printing"]}}],
        },
        "CollectionChanges": {
            "type": "object", "required": ["changes"], "additionalProperties": False,
            "properties": {"changes": {"type": "array", "minItems": 1, "maxItems": MAX_COLLECTION_CHANGES,
                                       "items": ref("CollectionChange")}},
        },
        "CollectionChangeResult": {
            "type": "object", "required": ["entries"],
            "properties": {"entries": {"type": "array", "items": ref("CollectionEntry"),
                                       "description": "Each printing changed, as it stands after the request."}},
        },
        "SimulationStart": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "games": {"type": "integer", "minimum": 1, "maximum": MAX_GAMES, "default": DEFAULT_GAMES},
                "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_SEED,
                         "description": "Same deck version, games, seed and options: same results. "
                                        "Absent or null: a random one (the run shows it)."},
                "options": {"type": "object", "default": {},
                            "description": "The game's goldfish options (as on the start page); "
                                                             "card_values given here are kept as my values."},
                "allow_unknown": {"type": "boolean", "default": False,
                                  "description": "Play even though the engine lacks some card values (without it "
                                                 "such a run is refused with 400 naming them); the run says how "
                                                 "many cards it played without their values."},
            },
        },
        "Simulation": {
            "type": "object",
            "required": ["id", "deck", "version", "game", "games", "seed", "options", "status", "done", "result",
                         "stuck", "error", "unknown", "created_at", "updated_at"],
            "properties": {
                "id": {"type": "integer"}, "deck": {"type": "integer"},
                "version": {"type": "integer", "description": "The deck version it plays."},
                "game": {"type": "string"}, "games": {"type": "integer"}, "seed": {"type": "integer"},
                "options": {"type": "object"},
                "status": {"type": "string", "enum": ["queued", "running", "done", "failed", "cancelled"]},
                "done": {"type": "integer", "description": "Games of the run's finished chunks so far."},
                "result": {"type": ["object", "null"],
                           "description": "When done: wins, win_rate, losses by reason, win_turn statistics and histogram."},
                "stuck": {"type": ["array", "null"], "description": "[card name, games, share] left in hand most often."},
                "error": {"type": ["string", "null"]},
                "unknown": {"type": ["object", "null"], "required": ["cards", "values"],
                            "description": "Played without some card values: how many cards, and which values; "
                                           "its results are not the deck's real odds. Null: every value known.",
                            "properties": {"cards": {"type": "integer"},
                                           "values": {"type": "array", "items": ref("UnknownValue")}}},
                "settings": {"type": "object", "required": ["deck_version", "games", "seed", "options", "card_values"],
                             "description": "What the run played with, as a player reads it: every option with its "
                                            "form label and value in words (`shown`), and the card values it used.",
                             "properties": {
                                 "deck_version": {"type": "integer"}, "games": {"type": "integer"},
                                 "seed": {"type": "integer"},
                                 "options": {"type": "array", "items": {
                                     "type": "object", "required": ["name", "label", "value", "shown"],
                                     "properties": {"name": {"type": "string"}, "label": {"type": "string"},
                                                    "value": {}, "shown": {"type": "string"}}}},
                                 "card_values": {"type": "array", "items": {
                                     "type": "object", "required": ["card", "card_name", "field", "label", "value", "shown"],
                                     "properties": {"card": {"type": "string"}, "card_name": {"type": "string"},
                                                    "field": {"type": "string"}, "label": {"type": "string"},
                                                    "value": {}, "shown": {"type": "string"}}}}}},
                "created_at": timestamp, "updated_at": timestamp,
            },
        },
        "TuningStart": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "budget": {"type": "integer", "minimum": 1, "maximum": MAX_TUNING_BUDGET, "default": DEFAULT_TUNING_BUDGET,
                           "description": "Games to spend in all, the deck's own included."},
                "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_SEED,
                         "description": "Every variant plays the deck's own seeds; same inputs, same suggestions. "
                                        "Absent or null: a random one (the run shows it)."},
                "candidates": {"type": "string", "enum": list(CANDIDATE_SOURCES), "default": CANDIDATE_SOURCES[0],
                               "description": "Cards that may come in: my collection of the game, or the catalogue's "
                                              "cards of the deck's colours."},
                "allow_unknown": {"type": "boolean", "default": False,
                                  "description": "Tune although cards lack values the engine needs (the result says so)."},
                "options": {"type": "object", "default": {},
                            "description": "The game's goldfish options (as on the start page)."},
            },
        },
        "ImpactStart": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "budget": {"type": "integer", "minimum": 1, "maximum": MAX_TUNING_BUDGET, "default": DEFAULT_TUNING_BUDGET,
                           "description": "Games to spend in all, the deck's own included."},
                "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_SEED,
                         "description": "Every card's arm plays the deck's own seeds; same inputs, same result. "
                                        "Absent or null: a random one (the run shows it)."},
                "allow_unknown": {"type": "boolean", "default": False,
                                  "description": "Measure although cards lack values the engine needs (the result says so)."},
                "options": {"type": "object", "default": {},
                            "description": "The game's goldfish options (as on the start page)."},
            },
        },
        "Impact": {
            "type": "object",
            "required": ["id", "deck", "version", "game", "budget", "seed", "options", "status", "done", "total",
                         "result", "error", "created_at", "updated_at"],
            "properties": {
                "id": {"type": "integer"}, "deck": {"type": "integer"}, "version": {"type": "integer"},
                "game": {"type": "string"}, "budget": {"type": "integer"}, "seed": {"type": "integer"},
                "options": {"type": "object"},
                "status": {"type": "string", "enum": ["queued", "running", "done", "failed", "cancelled"]},
                "done": {"type": "integer", "description": "Games played so far."},
                "total": {"type": "integer", "description": "Games the run will play in all."},
                "result": {"type": ["object", "null"],
                           "description": "When done, as `deckhub impact --json`: {game, deck, seed, games_played, budget, "
                                          "cards: [{card, key, delta, ci: [lo, hi], games}], verdict, settings}; delta "
                                          "positive: the deck wins later with one copy replaced by a blank card."},
                "error": {"type": ["string", "null"]},
                "created_at": timestamp, "updated_at": timestamp,
            },
        },
        "Tuning": {
            "type": "object",
            "required": ["id", "deck", "version", "game", "budget", "seed", "candidates", "options", "status", "done",
                         "total", "result", "error", "created_at", "updated_at"],
            "properties": {
                "id": {"type": "integer"}, "deck": {"type": "integer"}, "version": {"type": "integer"},
                "game": {"type": "string"}, "budget": {"type": "integer"}, "seed": {"type": "integer"},
                "candidates": {"type": "string"}, "options": {"type": "object"},
                "status": {"type": "string", "enum": ["queued", "running", "done", "failed", "cancelled"]},
                "done": {"type": "integer", "description": "Games played so far."},
                "total": {"type": "integer", "description": "Games the run will play in all."},
                "result": {"type": ["object", "null"],
                           "description": "When done: {game, deck, seed, baseline: {win_rate, mean_turn}, suggestions: "
                                          "[{out, in, mean_turn, delta, ci: [lo, hi], games, better}], games_played, "
                                          "verdict, settings}."},
                "error": {"type": ["string", "null"]},
                "created_at": timestamp, "updated_at": timestamp,
            },
        },
        "CardValues": {
            "type": "object", "required": ["game", "values"],
            "properties": {
                "game": {"type": "string"},
                "values": {"type": "object", "description": 'My values by card key: {"tomatoes": {"type": "Item", '
                                                            '"bank_value": 2}}.',
                           "additionalProperties": {"type": "object", "additionalProperties": {
                               "type": ["integer", "string"]}}},
            },
        },
        "CardValuesPut": {
            "type": "object", "required": ["game", "values"], "additionalProperties": False,
            "properties": {
                "game": {"type": "string", "enum": games},
                "values": {"type": "object",
                           "description": "Merged into my values; a null value deletes that field. Every card key, "
                                          "field and value is checked as the game's engine checks it; the first bad "
                                          "entry refuses the whole request (400, naming it).",
                           "additionalProperties": {"type": "object", "additionalProperties": {
                               "type": ["integer", "string", "null"]}}},
            },
        },
        "PlayedGameCreate": {
            "type": "object", "additionalProperties": False, "required": ["result", "played_at"],
            "properties": {
                "result": {"type": "string", "enum": ["win", "loss", "draw"]},
                "played_at": {"type": "string", "format": "date", "maxLength": len("YYYY-MM-DD"), "description": "The day, YYYY-MM-DD."},
                "version": {"type": "integer", "minimum": 1, "maximum": MAX_ID,
                            "description": "The deck version played (absent: the latest)."},
                "order": {"type": ["string", "null"], "enum": ["first", "second", None], "default": None},
                "opponent": {"type": "string", "maxLength": MAX_OPPONENT, "default": "",
                             "description": "The opponent's deck, or game notes."},
                "note": {"type": "string", "maxLength": MAX_GAME_NOTE, "default": "", "description": "The owner's alone."},
            },
        },
        "PlayedGame": {
            "type": "object", "required": ["id", "played_at", "version", "result", "order", "opponent", "note", "created_at"],
            "properties": {"id": {"type": "integer"}, "played_at": {"type": "string", "format": "date"},
                           "version": {"type": "integer"}, "result": {"type": "string", "enum": ["win", "loss", "draw"]},
                           "order": {"type": ["string", "null"]}, "opponent": {"type": "string"},
                           "note": {"type": ["string", "null"], "description": "null for anyone but the owner."},
                           "created_at": timestamp},
        },
        "GameTally": {
            "type": "object", "required": ["games", "wins", "losses", "draws", "win_rate"],
            "properties": {"games": {"type": "integer"}, "wins": {"type": "integer"}, "losses": {"type": "integer"},
                           "draws": {"type": "integer"},
                           "win_rate": {"type": ["number", "null"], "description": "Wins over games (a draw is no win)."}},
        },
        "PlayedGames": {
            "type": "object", "required": ["games", "total", "by_version", "by_opponent"],
            "properties": {
                "games": {"type": "array", "items": ref("PlayedGame"), "description": "Newest first."},
                "total": ref("GameTally"),
                "by_version": {"type": "array", "items": {"allOf": [ref("GameTally"), {
                    "type": "object", "required": ["version", "simulated"],
                    "properties": {"version": {"type": "integer"}, "simulated": {
                        "type": ["object", "null"], "description": "The newest finished simulation of that version.",
                        "properties": {"simulation": {"type": "integer"}, "games": {"type": "integer"},
                                       "win_rate": {"type": "number"},
                                       "median_win_turn": {"type": ["number", "null"]}}}}}]}},
                "by_opponent": {"type": "array", "items": {"allOf": [ref("GameTally"), {
                    "type": "object", "required": ["opponent"], "properties": {"opponent": {"type": "string"}}}]}},
            },
        },
        **proposal_schemas(games),
        "SimulationList": {"type": "object", "required": ["simulations"],
                           "properties": {"simulations": {"type": "array", "items": ref("Simulation")}}},
    }

    def op(summary: str, responses: dict, security=AUTH, tag: str = "", **extra) -> dict:
        out = {"summary": summary, "security": security, "responses": responses}
        if tag:
            out["tags"] = [tag]
        out.update(extra)
        return out

    def body(schema_name: str) -> dict:
        return {"required": True, "content": {JSON: {"schema": ref(schema_name)}}}

    paths: dict[str, Any] = {
        "/api/openapi.json": {"get": op(
            "This document.", {"200": {"description": "The OpenAPI document.",
                                       "content": {JSON: {"schema": {"type": "object"}}}}}, PUBLIC, "meta")},
        "/api/me": {"get": op("Who the credentials belong to.",
                              responses_of("200", json_body(ref("Me"), "The signed-in user."), "401"), tag="meta")},
        "/api/games": {"get": op(
            "The games, with their card and printing counts and sets.",
            responses_of("200", json_body({"type": "array", "items": ref("GameSummary")}, "Every game."), "401"),
            PUBLIC, "catalogue")},
        "/api/games/{slug}/completeness": {"get": op(
            "What a game's catalogue knows: per set, its cards and per field how many have a known value, "
            "by provenance.",
            responses_of("200", json_body(ref("Completeness"), "The counts."), "401", "404"), PUBLIC, "catalogue",
            parameters=[{"name": "slug", "in": "path", "required": True, "schema": {"type": "string", "enum": games},
                         "description": "The game (another value: 404)."}])},
        "/api/cards": {"get": op(
            "Search a game's cards (the search page's filters).",
            responses_of("200", json_body(ref("CardPage"), "One page of matching cards and the total."),
                       "400", "401", "404"),
            PUBLIC, "catalogue",
            description="Besides the parameters below, each of the game's card fields filters: `level=4`, "
                        "`level_min=2`, `level_max=5`, `civilizations=Light` ...",
            parameters=[
                {"name": "game", "in": "query", "required": True, "schema": {"type": "string", "enum": games}},
                {"name": "q", "in": "query", "description": "Words of the card's name.", "schema": {"type": "string"}},
                {"name": "set", "in": "query", "description": "A set code.", "schema": {"type": "string"}},
                {"name": "type", "in": "query", "schema": {"type": "string"}},
                {"name": "in_text", "in": "query", "description": "Words of the card's text.", "schema": {"type": "string"}},
                *page_params(CARDS_PER_PAGE, MAX_CARDS_PER_PAGE),
            ])},
        "/api/cards/{slug}/{key}": {"get": op(
            "One card, with its aliases, sources and where each fact came from.",
            responses_of("200", json_body(ref("CardDetail"), "The card."), "401", "404"), PUBLIC, "catalogue",
            parameters=[
                {"name": "slug", "in": "path", "required": True, "schema": {"type": "string", "enum": games},
                 "description": "The game (another value: 404)."},
                {"name": "key", "in": "path", "required": True, "schema": {"type": "string"},
                 "description": "The card id."},
            ])},
        "/api/check": {"post": op(
            "Check a deck list against a game's construction rules (changes nothing).",
            responses_of("200", json_body(ref("CheckReport"), "The report, as `deckhub check --json` prints it."),
                       "400", "401", "413"),
            PUBLIC, "decks", requestBody=body("CheckRequest"))},
        "/api/decks": {
            "get": op("My decks, newest change first.",
                      responses_of("200", json_body(ref("DeckList"), "My decks (without their cards)."), "401"), tag="decks"),
            "post": op("Create a deck (version 1).",
                       responses_of("201", json_body(ref("Deck"), "The new deck."), "400", "401", "413"), tag="decks",
                       requestBody=body("DeckCreate")),
        },
        "/api/v1/decks/public": {"get": op(
            "Everyone's public decks (as the Public decks page): by game, by a card they hold, by name; "
            "newest or most copied first. Private decks never appear.",
            responses_of("200", json_body(ref("PublicDeckPage"), "One page of public decks."), "400", "401"),
            PUBLIC, "decks",
            parameters=[
                {"name": "game", "in": "query", "allowEmptyValue": True, "description": "Only this game's decks.",
                 "schema": {"type": "string", "enum": games + [""]}},
                {"name": "card", "in": "query", "allowEmptyValue": True,
                 "description": "A card name (small typos forgiven): decks whose latest version holds it.",
                 "schema": {"type": "string", "maxLength": MAX_DECK_QUERY}},
                {"name": "q", "in": "query", "allowEmptyValue": True, "description": "Words of the deck's name.",
                 "schema": {"type": "string", "maxLength": MAX_DECK_QUERY}},
                {"name": "sort", "in": "query", "allowEmptyValue": True,
                 "schema": {"type": "string", "enum": ["newest", "copied"], "default": "newest"}},
                *page_params(PUBLIC_DECKS_PER_PAGE, MAX_PUBLIC_DECKS_PER_PAGE),
            ])},
        "/api/decks/{deck_id}": {
            "parameters": [DECK_ID],
            "get": op("A deck of mine, or anyone's public deck, with its latest version's cards.",
                      responses_of("200", json_body(ref("Deck"), "The deck."), "401", "404"), OPTIONAL_AUTH, "decks"),
            "patch": op("Change a deck of mine; new cards (sent with the version they were edited from) keep a new version.",
                        {**responses_of("200", json_body(ref("Deck"), "The deck after the change."),
                                      "400", "401", "403", "404", "413"),
                         "409": error_response("The deck has a newer version than the one you edited (its number is in "
                                       "`version`); nothing changed.")},
                        tag="decks", requestBody=body("DeckUpdate")),
            "delete": op("Delete a deck of mine with all its versions.",
                         {"204": {"description": "Deleted."},
                          **{c: error_response(ERRORS[c]) for c in ("401", "403", "404")}}, tag="decks"),
        },
        "/api/decks/{deck_id}/versions": {
            "parameters": [DECK_ID],
            "get": op("A visible deck's versions, newest first.",
                      responses_of("200", json_body(ref("DeckVersions"), "The versions."), "401", "404"),
                      OPTIONAL_AUTH, "decks"),
        },
        "/api/decks/{deck_id}/versions/{number}": {
            "parameters": [DECK_ID, id_param("number", "The version's number, from 1.")],
            "get": op("One version of a visible deck, with its cards.",
                      responses_of("200", json_body(ref("Deck"), "The deck as it was in that version."), "401", "404"),
                      OPTIONAL_AUTH, "decks"),
        },
        "/api/decks/{deck_id}/games": {
            "parameters": [DECK_ID],
            "get": op("The real games a deck played, with the win rate per deck version (beside its simulated "
                      "figures) and per opponent: a deck of mine, or a public deck whose owner shows its record.",
                      responses_of("200", json_body(ref("PlayedGames"), "The games."), "401", "403", "404"),
                      OPTIONAL_AUTH, "decks"),
            "post": op("Log a real game a deck of mine played.",
                       responses_of("201", json_body(ref("PlayedGame"), "The game logged."), "400", "401", "403", "404", "413"),
                       tag="decks", requestBody=body("PlayedGameCreate")),
        },
        "/api/decks/{deck_id}/games/{game_id}": {
            "parameters": [DECK_ID, id_param("game_id", "The logged game's number.")],
            "delete": op("Delete a game logged on a deck of mine.",
                         {"204": {"description": "Deleted."},
                          **{c: error_response(ERRORS[c]) for c in ("401", "403", "404")}}, tag="decks"),
        },
        "/api/decks/{deck_id}/export": {
            "parameters": [DECK_ID],
            "get": op("A visible deck's latest version as a file for another site or an online table: DeckHub's "
                      "text list, OCTGN .o8d, DeckHub JSON, Untap's plain list, or a Tabletop Simulator saved "
                      "object whose card sheets this site serves.",
                      responses_of("200", {"description": "The file.", "content": {
                          "text/plain": {"schema": {"type": "string"}}, "application/xml": {"schema": {"type": "string"}},
                          JSON: {"schema": {"type": "object"}}}}, "400", "401", "404"),
                      OPTIONAL_AUTH, "decks",
                      parameters=[{"name": "format", "in": "query", "required": True,
                                   "schema": {"type": "string", "enum": list(EXPORTS)}}]),
        },
        "/api/decks/{deck_id}/check": {
            "parameters": [DECK_ID],
            "get": op("The construction check of a visible deck's latest version.",
                      responses_of("200", json_body(ref("CheckReport"), "The report."), "401", "404"),
                      OPTIONAL_AUTH, "decks"),
        },
        "/api/decks/{deck_id}/simulations": {
            "parameters": [DECK_ID],
            "get": op("The simulations of a deck of mine, newest first.",
                      responses_of("200", json_body(ref("SimulationList"), "The runs."), "401", "403", "404"),
                      tag="simulations"),
            "post": op("Start automated goldfish games of a deck of mine (its latest version), in the background.",
                       responses_of("202", json_body(ref("Simulation"), "The run, queued; poll GET /api/simulations/{id}."),
                                  "400", "401", "403", "404", "413", "429"),
                       tag="simulations", requestBody=body("SimulationStart")),
        },
        "/api/simulations/{run_id}": {
            "parameters": [id_param("run_id", "The simulation's number.")],
            "get": op("A simulation of mine: status, progress and, when done, the results.",
                      responses_of("200", json_body(ref("Simulation"), "The run."), "401", "404"), tag="simulations"),
            "delete": op("Cancel a queued or running simulation of mine: chunks not yet played are dropped. "
                         "An ended run is returned as it is.",
                         responses_of("200", json_body(ref("Simulation"), "The run, cancelled (or as it ended)."),
                                    "400", "401", "404"), tag="simulations"),
        },
        "/api/decks/{deck_id}/tunings": {
            "parameters": [DECK_ID],
            "post": op("Start tuning a deck of mine (its latest version): which one-for-one swap makes it win faster, "
                       "by paired simulation, in the background.",
                       responses_of("202", json_body(ref("Tuning"), "The run, queued; poll GET /api/tunings/{id}."),
                                  "400", "401", "403", "404", "413", "429"),
                       tag="simulations", requestBody=body("TuningStart")),
        },
        "/api/tunings/{run_id}": {
            "parameters": [id_param("run_id", "The tuning run's number.")],
            "get": op("A tuning run of mine: status, progress and, when done, the ranked swaps.",
                      responses_of("200", json_body(ref("Tuning"), "The run."), "401", "404"), tag="simulations"),
            "delete": op("Cancel a queued or running tuning run of mine. An ended run is returned as it is.",
                         responses_of("200", json_body(ref("Tuning"), "The run, cancelled (or as it ended)."),
                                    "400", "401", "404"), tag="simulations"),
        },
        "/api/decks/{deck_id}/impacts": {
            "parameters": [DECK_ID],
            "post": op("Start measuring a deck of mine (its latest version): each card's causal impact, one copy "
                       "replaced by a blank card on the deck's own seeds, in the background.",
                       responses_of("202", json_body(ref("Impact"), "The run, queued; poll GET /api/impacts/{id}."),
                                  "400", "401", "403", "404", "413", "429"),
                       tag="simulations", requestBody=body("ImpactStart")),
        },
        "/api/impacts/{run_id}": {
            "parameters": [id_param("run_id", "The impact run's number.")],
            "get": op("A card impact run of mine: status, progress and, when done, every card's paired difference.",
                      responses_of("200", json_body(ref("Impact"), "The run."), "401", "404"), tag="simulations"),
            "delete": op("Cancel a queued or running impact run of mine. An ended run is returned as it is.",
                         responses_of("200", json_body(ref("Impact"), "The run, cancelled (or as it ended)."),
                                    "400", "401", "404"), tag="simulations"),
        },
        "/api/card-values": {
            "get": op("My own values for cards the catalogue does not know (private; yours, not reviewed).",
                      responses_of("200", json_body(ref("CardValues"), "My values of the game."), "400", "401"),
                      tag="card values",
                      parameters=[{"name": "game", "in": "query", "required": True,
                                   "schema": {"type": "string", "enum": games}}]),
            "put": op("Merge values into mine (null deletes one): all of them or none.",
                      responses_of("200", json_body(ref("CardValues"), "My values of the game after the change."),
                                 "400", "401", "413"),
                      tag="card values", requestBody=body("CardValuesPut")),
        },
        "/api/proposals": {
            "get": op("My proposals of card facts, newest first (at most 200).",
                      responses_of("200", json_body(ref("ProposalList"), "My proposals and their status."), "400", "401"),
                      tag="proposals",
                      parameters=[{"name": "status", "in": "query",
                                   "schema": {"type": "string", "enum": list(PROPOSAL_STATUSES)}},
                                  {"name": "game", "in": "query", "schema": {"type": "string", "enum": games}}]),
            "post": op("Propose values for one card or a batch (one source): the same checks, limits and rules as "
                       "the site. A value for an unknown field agreed by two independent players, or entered by a "
                       "trusted player, applies at once; different values dispute the field.",
                       {**responses_of("201", json_body(ref("ProposalList"), "Each card's proposal and what became of it."),
                                     "400", "401", "404", "413"), "429": PROPOSALS_429},
                       tag="proposals", requestBody=body("ProposalsPost")),
        },
        "/api/proposals/{proposal_id}/confirm": {
            "parameters": [id_param("proposal_id", "The proposal whose values to confirm.")],
            "post": op("Enter another player's pending or disputed values as mine (never my own proposal), from "
                       "my own source and scan when I send them, else from its source. Counts against my proposal "
                       "rate limit.",
                       {**responses_of("201", json_body(ref("ProposalList"), "My confirming proposal and its status."),
                                     "400", "401", "403", "404", "413"), "429": PROPOSALS_429},
                       tag="proposals", requestBody={**body("ProposalConfirm"), "required": False}),
        },
        "/api/collection": {
            "get": op("What I own, want and trade: every printing with a quantity, by printing id.",
                      responses_of("200", json_body(ref("CollectionPage"), "One page of entries and the total."),
                                 "400", "401"),
                      tag="collection",
                      parameters=[{"name": "game", "in": "query", "schema": {"type": "string", "enum": games}},
                                  *page_params(ENTRIES_PER_PAGE, MAX_ENTRIES_PER_PAGE)]),
        },
        "/api/collection/changes": {
            "post": op(f"Add to or take from quantities: all the changes or none, each kept within 0 and {MAX_QUANTITY:,}, "
                       "and the trade quantity at most the copies owned (plain and foil).",
                       responses_of("200", json_body(ref("CollectionChangeResult"), "The printings changed, after."),
                                  "400", "401", "409", "413"),
                       tag="collection", requestBody=body("CollectionChanges")),
        },
    }

    description = (
        "DeckHub's public API: the card catalogues, deck checks, your decks, your collection and your "
        "goldfish simulations.\n\n"
        "**Authentication.** Create a personal token on your account page (it is shown once; DeckHub keeps "
        "only its hash) and send it as `Authorization: Bearer <token>`. A request that sends this header "
        "must carry a live token, or it is refused with 401 on every `/api/` path. Token requests need no "
        "CSRF token. The site's session cookie works too, but then every write (POST, PUT, PATCH, DELETE, "
        "`POST /api/check` included) must send the page's CSRF token in an `X-CSRFToken` header (400 "
        "without it). A request with neither acts as nobody: public routes answer it, your own things 401.\n\n"
        "**Who sees what.** Catalogue and check are public; a user's card values are theirs alone. "
        "Decks are private unless public: anyone may read "
        "a public deck, only its owner may change it (403 for others); a private deck, a collection and a "
        "simulation are their owner's alone (404 for everyone else).\n\n"
        "**Errors** are `{\"error\": message, \"status\": code}`. Every body is checked whole before "
        "anything is written, and every write is one transaction: a refused request changes nothing. "
        f"Bodies are JSON objects of at most {BODY_MIB} MiB; unknown fields are refused."
    )
    return {
        "openapi": "3.1.0",
        "info": {"title": "DeckHub API", "version": __version__, "description": description},
        "tags": [{"name": t} for t in ("catalogue", "decks", "collection", "card values", "proposals", "simulations", "meta")],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "bearerAuth": {"type": "http", "scheme": "bearer",
                               "description": "A personal API token from the account page (dh_...)."},
                "sessionCookie": {"type": "apiKey", "in": "cookie", "name": "session",
                                  "description": "The site's session; writes also need the X-CSRFToken header."},
            },
        },
    }


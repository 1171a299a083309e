"""Issue 19, finding 10: the rules live in services that every front end calls, defined once."""
from __future__ import annotations

import json
import re
from pathlib import Path

from deckhub.services import checks, limits
from deckhub.web.api.openapi import document

WEB = Path(__file__).resolve().parents[1] / "deckhub" / "web"
LIST = "4 Argus, Vigilant Seer\n"


def test_the_web_layer_uses_no_command_module_and_finds_decks_through_one_helper():
    for path in WEB.glob("*.py"):
        text = path.read_text()
        assert "deckhub.commands" not in text, path.name
        if path.name != "lookups.py":
            assert not re.search(r"\b(visible_deck|own_deck)\(", text), f"{path.name}: use deck_or_404"


def test_cli_api_check_and_the_stored_deck_check_agree(app, client):
    from deckhub.services.catalogue_store import get_catalogue
    from deckhub.store.db import database
    from_api = client.post("/api/check", json={"game": "kaijudo", "decklist": LIST}).get_json()
    with database.connection_context():
        assert from_api == checks.check_text("kaijudo", LIST, catalogue=get_catalogue("kaijudo"))
    client.post("/signup", data={"username": "alice", "password": "correct horse", "confirm": "correct horse"})
    created = client.post("/decks/import", data={"name": "Four", "game": "kaijudo", "format": "", "decklist": LIST})
    deck_id = int(created.location.rsplit("/", 1)[1])
    stored = client.get(f"/api/decks/{deck_id}/check").get_json()
    assert stored["legal"] == from_api["legal"] is False
    assert stored["violations"] == from_api["violations"]
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    for violation in from_api["violations"]:
        assert violation["rule"] in page


def test_the_openapi_document_states_the_limits_the_code_enforces():
    doc = json.dumps(document())
    schemas = document()["components"]["schemas"]
    assert schemas["DeckCreate"]["properties"]["decklist"]["maxLength"] == limits.MAX_DECKLIST
    assert schemas["DeckCreate"]["properties"]["name"]["maxLength"] == limits.MAX_DECK_NAME
    assert schemas["DeckUpdate"]["properties"]["description"]["maxLength"] == limits.MAX_DESCRIPTION
    assert schemas["DeckUpdate"]["properties"]["packs"]["maximum"] == limits.MAX_PACKS
    assert f"{limits.MAX_DECKLIST:,}" in doc


def test_int_in_range_refuses_what_a_database_column_cannot_hold():
    assert limits.int_in_range("12", 1, limits.MAX_ID) == 12
    for bad in ("9" * 40, "-1", "1e3", "", None, "١٢", True, 2**40):
        assert limits.int_in_range(bad, 1, limits.MAX_ID) is None, bad

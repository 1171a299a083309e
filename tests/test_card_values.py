"""My card values: kept per user, used in their checks, goldfish games and simulations; honest results.

The values typed here are the Neopets TCG engine's TEST FIXTURE values (SAMPLE_CARD_VALUES: uniform
made-up numbers), entered as a player would; they are not facts about the cards.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckhub.services import card_values, simulations
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.store.db import database
from deckhub.games import all_games, get_game
from deckhub.games.neopets_tcg.engine import SAMPLE_CARD_VALUES
from deckhub.importers.decklists import read_decklist

from conftest import AuthActions
from tests.conftest import visible_text as text

NEO = "neopets-tcg"
DARIGAN_PATH = Path(__file__).resolve().parents[1] / "data" / NEO / "decks" / "darigan-theme-deck.txt"
DARIGAN = DARIGAN_PATH.read_text(encoding="utf-8")
URL = "https://example.org/neopets-tcg/checklist"


def darigan_values(catalogue=None) -> dict:
    """The fixture values of the Darigan deck's cards, keyed by card key."""
    catalogue = catalogue or get_catalogue(NEO)
    deck = read_decklist(DARIGAN.encode(), get_game(NEO), catalogue, games=all_games()).deck
    keys = {key for _, key, _ in deck.entries()}
    return {k: v for k, v in SAMPLE_CARD_VALUES.items() if k in keys}


@pytest.fixture
def people(app):
    """(curator, pat, bob): signed-in clients; the first account is the site's curator."""
    clients = []
    for name in ("curie", "pat", "bob"):
        client = app.test_client()
        assert AuthActions(client).signup(name).status_code == 302
        clients.append(client)
    return clients


def import_darigan(client) -> int:
    response = client.post("/decks/import", data={"name": "Darigan", "game": NEO, "format": "", "decklist": DARIGAN})
    assert response.status_code == 302
    return int(response.location.rsplit("/", 1)[1])


# --------------------------------------------------------------------------- the API

def test_put_merges_null_deletes_and_get_reads_back(people):
    _, pat, _ = people
    r = pat.put("/api/card-values", json={"game": NEO, "values": {"tomatoes": {"type": "item", "bank_value": "2"}}})
    assert r.status_code == 200, r.get_json()
    assert r.get_json() == {"game": NEO, "values": {"tomatoes": {"bank_value": 2, "type": "Item"}}}
    r = pat.put("/api/card-values", json={"game": NEO, "values": {"tomatoes": {"bank_value": None},
                                                                "meaty-pie": {"type": "Item"}}})
    assert r.get_json()["values"] == {"meaty-pie": {"type": "Item"}, "tomatoes": {"type": "Item"}}
    assert pat.get(f"/api/card-values?game={NEO}").get_json() == r.get_json()


def test_put_is_all_or_nothing_and_names_the_first_bad_entry(people):
    _, pat, _ = people
    pat.put("/api/card-values", json={"game": NEO, "values": {"tomatoes": {"type": "Item"}}})
    for values, words in [
        ({"meaty-pie": {"type": "Item"}, "stale-bread": {"bank_value": "lots"}}, "stale-bread: bank value must be a whole number"),
        ({"meaty-pie": {"bank_value": 100}}, "meaty-pie: bank value must be at most 99"),
        ({"meaty-pie": {"type": "Dragon"}}, "meaty-pie: card type must be one of"),
        ({"meaty-pie": {"colour": "red"}}, "meaty-pie: Neopets TCG cards have no value 'colour'"),
        ({"no-such-card": {"type": "Item"}}, "'no-such-card' is not a card"),
        ({"meaty-pie": {}}, "meaty-pie: give an object"),
        ({"meaty-pie": {"bank_value": True}}, "whole number"),
        ([1, 2], '"values" must be an object'),
    ]:
        r = pat.put("/api/card-values", json={"game": NEO, "values": values})
        assert r.status_code == 400 and words in r.get_json()["error"], (values, r.get_json())
    assert pat.get(f"/api/card-values?game={NEO}").get_json()["values"] == {"tomatoes": {"type": "Item"}}
    assert pat.put("/api/card-values", json={"game": "kaijudo", "values": {}}).status_code == 400
    assert pat.put("/api/card-values", json={"game": NEO}).status_code == 400
    assert pat.put("/api/card-values", json={"game": NEO, "values": {}, "extra": 1}).status_code == 400
    assert pat.get("/api/card-values").status_code == 400
    assert pat.get("/api/card-values?game=chess").status_code == 400
    assert pat.get("/api/card-values?game=kaijudo").get_json() == {"game": "kaijudo", "values": {}}


def test_values_are_private(people, app):
    _, pat, bob = people
    pat.put("/api/card-values", json={"game": NEO, "values": {"tomatoes": {"type": "Item"}}})
    assert bob.get(f"/api/card-values?game={NEO}").get_json()["values"] == {}
    assert "Tomatoes" not in text(bob.get(f"/card-values/{NEO}"))
    assert app.test_client().get(f"/api/card-values?game={NEO}").status_code == 401


# --------------------------------------------------------------------------- honest checks

def test_the_deck_page_says_legal_so_far_naming_the_unverified_cards_until_values_are_known(people):
    _, pat, _ = people
    deck_id = import_darigan(pat)
    page = pat.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert 'class="badge so-far">Legal so far<' in page and ">Legal <" not in page
    assert "legal-so-far" in page and "Chocolate Korbats" in text(pat.get(f"/decks/{deck_id}"))
    assert f"/card-values/decks/{deck_id}" in page
    check = pat.get(f"/api/decks/{deck_id}/check").get_json()
    assert check["legal"] is True and check["verified"] is False
    # the values the checks lack, entered once (types are what the construction checks read)
    types = {k: {f: v[f] for f in ("type", "species") if f in v} for k, v in darigan_values().items() if "type" in v}
    assert pat.put("/api/card-values", json={"game": NEO, "values": types}).status_code == 200
    page = pat.get(f"/decks/{deck_id}").get_data(as_text=True)
    check = pat.get(f"/api/decks/{deck_id}/check").get_json()
    assert check["verified"] is True and "Legal so far" not in page
    assert (f"Checked with {len(types)} of your own card values (yours, not reviewed)"
            in text(pat.get(f"/decks/{deck_id}")))


def test_post_check_gains_verified(client):
    r = client.post("/api/check", json={"game": NEO, "decklist": DARIGAN})
    assert r.get_json()["legal"] is True and r.get_json()["verified"] is False


# --------------------------------------------------------------------------- one form, every value

def test_the_values_form_asks_everything_at_once_prefilled_from_my_values(people):
    _, pat, _ = people
    deck_id = import_darigan(pat)
    page = pat.get(f"/card-values/decks/{deck_id}").get_data(as_text=True)
    # a card of unknown type: its type and, for each type it could be, that type's fields
    for field in ("type", "species", "bank_value", "tap_to_play"):
        assert f'name="cv__eyrie-breastplate__{field}"' in page
    assert "(if Item or Equipment)" in page and "(if Equipment)" in page
    assert 'name="cv__the-thieves-code__bank_value"' in page  # its type is known: only its bank value
    r = pat.post(f"/card-values/decks/{deck_id}", data={"cv__eyrie-breastplate__type": "Equipment",
                                                       "next": f"/decks/{deck_id}"})
    assert r.status_code == 302 and r.location.endswith(f"/decks/{deck_id}")
    page = pat.get(f"/card-values/decks/{deck_id}").get_data(as_text=True)
    assert re.search(r'<option value="Equipment" selected>', page)  # pre-filled from my values
    bad = pat.post(f"/card-values/decks/{deck_id}", data={"cv__eyrie-breastplate__bank_value": "-1"})
    assert bad.status_code == 400 and "bank value must be at least 0" in text(bad)
    assert pat.get(f"/api/card-values?game={NEO}").get_json()["values"] == {"eyrie-breastplate": {"type": "Equipment"}}
    assert pat.post(f"/card-values/decks/{deck_id}", data={"next": "//evil.example/"}).location.endswith(f"/decks/{deck_id}")


def form_of(values: dict) -> dict:
    return {f"cv__{k}__{f}": str(v) for k, fields in values.items() for f, v in fields.items()}


def test_darigan_values_entered_once_are_used_by_a_second_goldfish_game_and_a_simulation_that_wins(people):
    curator, pat, _ = people
    deck_id = import_darigan(pat)
    first = pat.post(f"/goldfish/decks/{deck_id}", data={"seed": "1", **form_of(darigan_values())})
    assert first.status_code == 302, text(first)[:2000]
    start = pat.get(f"/goldfish/decks/{deck_id}")
    assert "Values the catalogue does not know" not in text(start)  # nothing asked the second time
    assert "This game uses" in text(start) and "yours, not reviewed" in text(start)
    second = pat.post(f"/goldfish/decks/{deck_id}", data={"seed": "2"})
    with database.connection_context():
        session = models.GoldfishSession.get_by_id(int(second.location.rsplit("/", 1)[1]))
        assert set(session.options["card_values"]) == set(darigan_values())
    board = pat.get(second.location)
    assert board.status_code == 200 and "unknown — set it" not in text(board)
    assert re.search(r"yours, not reviewed: [a-z ,]*bank value", text(board))
    r = pat.post(f"/decks/{deck_id}/stats/simulations", data={"games": "40", "seed": "3"})
    assert r.status_code == 302 and "needs values" not in text(pat.get(f"/decks/{deck_id}/stats/"))
    with database.connection_context():
        run = models.SimulationRun.get(models.SimulationRun.deck == deck_id)
        assert run.status == "done" and run.unknown is None and run.result["wins"] > 0
    assert "cards without values" not in text(pat.get(f"/decks/{deck_id}/stats/"))
    # the run names the values it played with, in words
    used = pat.get(f"/decks/{deck_id}/stats/simulations/{run.id}.json").get_json()["settings"]["card_values"]
    assert {(v["card"], v["field"]) for v in used} == {(k, f) for k, fields in darigan_values().items() for f in fields}
    row = next(v for v in used if v["card"] == "chocolate-korbats" and v["field"] == "type")
    assert row["card_name"] == "Chocolate Korbats" and row["label"] == "card type" and row["shown"] == row["value"]
    assert f"Chocolate Korbats: card type {row['value']}" in text(pat.get(f"/decks/{deck_id}/stats/"))


# --------------------------------------------------------------------------- simulations refuse unknowns

def test_a_simulation_with_unknown_values_is_refused_listing_them_or_played_and_labelled(people):
    _, pat, _ = people
    deck_id = import_darigan(pat)
    r = pat.post(f"/decks/{deck_id}/stats/simulations", data={"games": "10", "seed": "3"}, follow_redirects=True)
    page = text(r)
    assert "needs values the catalogue does not know for 23 cards" in page and "Chocolate Korbats (card type)" in page
    assert 'name="cv__chocolate-korbats__type"' in r.get_data(as_text=True)  # the form offers them
    with database.connection_context():
        assert models.SimulationRun.select().count() == 0
    # values typed on the simulation form are kept even when the run is refused
    pat.post(f"/decks/{deck_id}/stats/simulations", data={"games": "10", "cv__tomatoes__type": "Item"})
    assert pat.get(f"/api/card-values?game={NEO}").get_json()["values"] == {"tomatoes": {"type": "Item"}}
    api = pat.post(f"/api/decks/{deck_id}/simulations", json={"games": 10, "seed": 3})
    body = api.get_json()
    assert api.status_code == 400 and len(body["unknown_values"]) == 23  # Tomatoes: now an Item, so its bank value
    assert {"card": "chocolate-korbats", "name": "Chocolate Korbats", "fields": ["type"]} in body["unknown_values"]
    assert {"card": "tomatoes", "name": "Tomatoes", "fields": ["bank_value"]} in body["unknown_values"]
    anyway = pat.post(f"/api/decks/{deck_id}/simulations", json={"games": 10, "seed": 3, "allow_unknown": True})
    assert anyway.status_code == 202 and anyway.get_json()["unknown"]["cards"] == 23
    pat.post(f"/decks/{deck_id}/stats/simulations", data={"games": "10", "seed": "4", "allow_unknown": "on"})
    run = pat.get(f"/api/simulations/{anyway.get_json()['id']}").get_json()
    assert run["status"] == "done" and run["unknown"]["cards"] == 23 and run["result"]["wins"] == 0
    page = text(pat.get(f"/decks/{deck_id}/stats/"))
    assert "23 cards without values" in page and "Played without their values: 23 cards" in page
    assert "every loss may be caused by the unknowns" in page
    assert pat.post(f"/api/decks/{deck_id}/simulations", json={"allow_unknown": "yes"}).status_code == 400


def test_a_loss_caused_by_unknowns_says_so(people):
    _, pat, _ = people
    deck_id = import_darigan(pat)
    board = pat.post(f"/goldfish/decks/{deck_id}", data={"seed": "1"}).location
    pat.post(f"{board}/play-out", data={"step": "0"})
    assert re.search(r"0 points banked: 23 cards in this deck have no known bank value", text(pat.get(board)))


# --------------------------------------------------------------------------- the catalogue wins

def test_a_reviewed_catalogue_value_wins_and_the_page_says_they_differ(people):
    curator, pat, _ = people
    pat.put("/api/card-values", json={"game": NEO, "values": {"the-thieves-code": {"bank_value": 4}}})
    r = curator.post("/games/neopets-tcg/propose/card/the-thieves-code",
                     data={"f_bank_value": "2", "source_kind": "url", "source_url": URL})
    assert r.status_code == 302
    with database.connection_context():
        pid = models.Proposal.select().order_by(models.Proposal.id.desc()).first().id
    assert curator.post(f"/review/{pid}/approve", data={"reason": "checked"}).status_code == 302
    page = text(pat.get(f"/card-values/{NEO}"))
    assert "differs from yours; the catalogue's value is used" in page
    card = text(pat.get(f"/games/{NEO}/cards/the-thieves-code"))
    assert "My values Bank value: 4 yours, not reviewed — the catalogue says 2, and its value is used" in card
    assert "My values" not in text(curator.get(f"/games/{NEO}/cards/the-thieves-code"))
    with database.connection_context():
        user = models.User.get(username="pat")
        catalogue = card_values.catalogue_for(user.id, NEO)
        assert catalogue.get("the-thieves-code").attrs["bank_value"] == 2


# --------------------------------------------------------------------------- My card values

def test_my_card_values_lists_edits_deletes_and_proposes_in_one_step_then_cards_show_them_contributed(people):
    curator, pat, _ = people
    values = {"tomatoes": {"type": "Item", "bank_value": 2}, "meaty-pie": {"type": "Item", "bank_value": 2},
              "stale-bread": {"type": "Item"}}
    pat.put("/api/card-values", json={"game": NEO, "values": values})
    page = pat.get(f"/card-values/{NEO}").get_data(as_text=True)
    assert "5 values of Neopets TCG cards" in text(pat.get(f"/card-values/{NEO}"))
    assert page.count("yours, not reviewed") == 5
    listed = re.findall(r'name="listed" value="([^"]+)"', page)
    edit = {"action": "save", "listed": listed, **form_of(values)}
    edit["cv__meaty-pie__bank_value"] = "3"
    edit["cv__stale-bread__type"] = ""  # emptied: deleted
    assert pat.post(f"/card-values/{NEO}", data=edit).status_code == 302
    mine = pat.get(f"/api/card-values?game={NEO}").get_json()["values"]
    assert mine == {"meaty-pie": {"bank_value": 3, "type": "Item"}, "tomatoes": {"bank_value": 2, "type": "Item"}}
    bad = pat.post(f"/card-values/{NEO}", data={**edit, "cv__meaty-pie__bank_value": "x"})
    assert bad.status_code == 400 and "must be a whole number" in text(bad)
    select = ["tomatoes|type", "tomatoes|bank_value", "meaty-pie|type"]
    nosource = pat.post(f"/card-values/{NEO}", data={"action": "propose", "select": select, "source_kind": "url",
                                                      "source_url": ""})
    assert nosource.status_code == 400 and "Say where the facts come from" in text(nosource)
    unchosen = pat.post(f"/card-values/{NEO}", data={"action": "propose", "select": select})
    assert unchosen.status_code == 400 and "Choose where these values come from" in text(unchosen)
    assert 'value="printed" checked' not in pat.get(f"/card-values/{NEO}").get_data(as_text=True)  # never chosen for them
    with database.connection_context():
        assert models.Proposal.select().count() == 0
    r = pat.post(f"/card-values/{NEO}", data={"action": "propose", "select": select, "source_kind": "printed"})
    assert r.status_code == 302
    assert "2 proposals sent to the curators (3 values)" in text(pat.get(f"/card-values/{NEO}"))
    with database.connection_context():
        proposals = list(models.Proposal.select().order_by(models.Proposal.id))
    assert [(p.card_key, p.values, p.source) for p in proposals] == [
        ("tomatoes", {"type": "Item", "bank_value": 2}, "printed card I own"),
        ("meaty-pie", {"type": "Item"}, "printed card I own")]
    for p in proposals:
        assert curator.post(f"/review/{p.id}/approve", data={"reason": "matches my card"}).status_code == 302
    card = pat.get(f"/games/{NEO}/cards/tomatoes").get_data(as_text=True)
    assert 'class="badge contributed"' in card
    assert pat.get(f"/api/cards/{NEO}/tomatoes").get_json()["provenance"]["bank_value"] == "contributed"
    assert "the catalogue knows it now" in text(pat.get(f"/card-values/{NEO}"))
    r = pat.post(f"/card-values/{NEO}", data={"action": "delete", "select": ["tomatoes|type", "tomatoes|bank_value"]})
    assert r.status_code == 302
    assert set(pat.get(f"/api/card-values?game={NEO}").get_json()["values"]) == {"meaty-pie"}
    assert pat.post(f"/card-values/{NEO}", data={"action": "propose", "select": ["tomatoes|type"],
                                                 "source_kind": "printed"}).status_code == 400
    assert pat.get("/card-values/kaijudo").status_code == 404


# --------------------------------------------------------------------------- the command line

def cli(*args):
    from deckhub.cli import main
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def values_file(tmp_path):
    catalogue = __import__("deckhub.games", fromlist=["load_catalogue"]).load_catalogue(NEO)
    by_name = {catalogue.get(k).name: v for k, v in darigan_values(catalogue).items()}
    path = tmp_path / "values.json"
    path.write_text(json.dumps(by_name))
    return path


def test_simulate_exits_2_naming_unknowns_plays_with_values_or_anyway(values_file, tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    refused = cli("simulate", "--game", NEO, "--deck", str(DARIGAN_PATH), "--games", "20")
    assert refused.exit_code == 2
    assert "Chocolate Korbats (card type)" in refused.stderr and "The Thieves Code (bank value)" in refused.stderr
    played = cli("simulate", "--game", NEO, "--deck", str(DARIGAN_PATH), "--games", "20", "--values", str(values_file),
                 "--json")
    assert played.exit_code == 0, played.stderr
    doc = json.loads(played.stdout)
    assert doc["wins"] > 0 and "unknown_values" not in doc
    anyway = cli("simulate", "--game", NEO, "--deck", str(DARIGAN_PATH), "--games", "20", "--allow-unknown")
    assert anyway.exit_code == 0
    assert "0 of 20 games won (0.0%), seed 0; 23 cards played without their values" in anyway.stdout
    doc = json.loads(cli("simulate", "--game", NEO, "--deck", str(DARIGAN_PATH), "--games", "5", "--allow-unknown",
                         "--json").stdout)
    assert doc["unknown_values"]["cards"] == 23
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"Tomatoes": {"bank_value": "many"}}))
    r = cli("simulate", "--game", NEO, "--deck", str(DARIGAN_PATH), "--values", str(bad))
    assert r.exit_code == 2 and "tomatoes: bank value must be a whole number" in r.stderr
    bad.write_text("{not json")
    assert cli("goldfish", "--game", NEO, "--deck", str(DARIGAN_PATH), "--values", str(bad)).exit_code == 2
    r = cli("goldfish", "--game", NEO, "--deck", str(DARIGAN_PATH), "--values", str(values_file), "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["result"] == "win"
    r = cli("goldfish", "--game", NEO, "--deck", str(DARIGAN_PATH))
    assert "played without their values: 23 cards" in r.stdout and "no known bank value" in r.stdout


def test_values_given_with_a_user_are_kept_as_theirs(values_file, databases, monkeypatch):
    from conftest import make_app
    from deckhub.services.accounts import create_user

    url = databases.with_catalogues()
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "test")
    make_app(url)
    with database.connection_context():
        create_user("sam", "correct horse")
    r = cli("simulate", "--game", NEO, "--deck", str(DARIGAN_PATH), "--games", "5", "--values", str(values_file),
            "--user", "sam")
    assert r.exit_code == 0, r.stderr
    again = cli("simulate", "--game", NEO, "--deck", str(DARIGAN_PATH), "--games", "5", "--user", "sam", "--json")
    assert again.exit_code == 0 and json.loads(again.stdout)["wins"] > 0  # the user's values, without the file
    with database.connection_context():
        sam = models.User.get(username="sam")
        assert card_values.values_of(sam.id, NEO)["tomatoes"] == {"type": "Item", "bank_value": 2, **{
            f"{a}_bonus": 2 for a in ("strength", "agility", "magic", "intelligence")}}
    nobody = cli("simulate", "--game", NEO, "--deck", str(DARIGAN_PATH), "--user", "nobody")
    assert nobody.exit_code == 2 and "no user named 'nobody'" in nobody.stderr
    if not database.is_closed():
        database.close()


def test_the_form_of_a_battledome_card_of_unknown_type_asks_each_types_fields():
    import dataclasses
    from deckhub.core.engine import get_engine
    from deckhub.games import load_catalogue

    engine = get_engine("neopets-battledome")
    catalogue = load_catalogue("neopets-battledome")
    card = dataclasses.replace(catalogue.get("starry-acara"), type=None)
    fields = {ff.field.name: ff.for_types for ff in card_values.form_fields(engine, catalogue, card)}
    assert fields["type"] == () and "Neopet" in fields["hp"] and "Codestone" in fields["attack_bonus"]
    assert "Petpet" in fields["level_requirement"] and "Neopet" not in fields["level_requirement"]

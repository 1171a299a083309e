"""The community catalogue's service (deckhub.services.community): proposing, validating, reviewing,
reverting, the audit trail, exporting, and load-cards keeping contributed facts.

Values proposed here (bank values, stats) are made up for the tests, not facts about the cards.
"""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from deckhub.services.community.audit import card_history, field_origins
from deckhub.services.community.errors import CommunityError, NotAllowed, NotFound, ProposalInvalid, RateLimited
from deckhub.services.community.export import export_cards
from deckhub.services.community.fields import PRINTED, fields_by_key, proposable_fields
from deckhub.services.community.proposing import propose_card, propose_facts
from deckhub.services.community.reverting import is_reverted, revert
from deckhub.services.community.review_queue import diff, get_proposal
from deckhub.services.community.reviewing import approve, reject
from deckhub.store import models
from deckhub.services.accounts import create_user
from deckhub.services.catalogue_store import get_catalogue, store_catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import IllegalAction, get_engine, new_game
from deckhub.core.legality import check_deck
from deckhub.core.session_values import missing_values
from deckhub.store.db import database
from deckhub.games import all_games, get_game, read_game_catalogue
from deckhub.importers.decklists import read_decklist

NEO = "neopets-tcg"
DECKS = Path(__file__).resolve().parents[1] / "data" / NEO / "decks"
URL = "https://example.org/neopets-tcg/checklist"


@pytest.fixture
def db(app):
    with app.app_context(), database.connection_context():
        yield


@pytest.fixture
def people(db):
    curator = create_user("curie", "a long password")  # the first account is a curator
    player = create_user("pat", "a long password")
    other = create_user("olga", "a long password")
    assert curator.is_curator and not player.is_curator
    return curator, player, other


def darigan():
    parsed = read_decklist((DECKS / "darigan-theme-deck.txt").read_bytes(), get_game(NEO), get_catalogue(NEO),
                           games=all_games())
    assert parsed.ok
    return parsed.deck


def card(key, game=NEO):
    return get_catalogue(game).get(key)


# ---------------------------------------------------------------------------- the "done when"

def test_approved_stats_and_bank_value_reach_the_catalogue_deck_checks_and_engine_at_once(people):
    curator, player, _ = people
    game = get_game(NEO)
    deck = darigan()
    engine = get_engine(NEO)
    # before: the Item's bank value and the pie's type are unknown to the checks and the engine
    assert missing_values(engine, deck, get_catalogue(NEO))["the-thieves-code"] == ["bank_value"]
    assert missing_values(engine, deck, get_catalogue(NEO))["meaty-pie"] == ["type"]
    before = check_deck(deck, game, game.format(), get_catalogue(NEO))
    assert any("Meaty Pie" in v.cards for v in before.unverified)

    bank = propose_facts(player, NEO, "the-thieves-code", {"bank_value": "2"}, URL)
    pie = propose_facts(player, NEO, "meaty-pie", {"type": "item", "bank_value": "1"}, PRINTED)
    stats = propose_facts(player, NEO, "blue-skeith",
                          {"strength": "3", "agility": "4", "magic": "0", "intelligence": "2"}, URL)
    assert pie.values == {"type": "Item", "bank_value": 1}  # a type is spelt as the game spells it
    assert card("the-thieves-code").attrs.get("bank_value") is None  # a proposal changes nothing yet

    for p in (bank, pie, stats):
        assert approve(p.id, curator).status == "approved"

    catalogue = get_catalogue(NEO)
    assert catalogue.get("the-thieves-code").attrs["bank_value"] == 2
    assert catalogue.get("the-thieves-code").provenance["bank_value"] == "contributed"
    assert URL in catalogue.get("the-thieves-code").sources
    assert catalogue.get("meaty-pie").type == "Item" and catalogue.get("meaty-pie").provenance["type"] == "contributed"
    assert "printed card owned by pat" in catalogue.get("meaty-pie").sources
    skeith = catalogue.get("blue-skeith")
    assert (skeith.attrs["strength"], skeith.attrs["agility"], skeith.attrs["magic"], skeith.attrs["intelligence"]) == (3, 4, 0, 2)
    assert skeith.attrs["species"] == "Skeith" and skeith.provenance["species"] == "derived"  # untouched
    # deck checks: the pie's type is known now, so it no longer makes a rule unverified
    after = check_deck(deck, game, game.format(), catalogue)
    assert not any("Meaty Pie" in v.cards for v in after.unverified)
    # the goldfish engine: no bank value flagged unknown for either Item
    missing = missing_values(engine, deck, catalogue)
    assert "the-thieves-code" not in missing and "meaty-pie" not in missing
    state = new_game(NEO, deck, catalogue, seed=3)
    assert "the-thieves-code" not in state.view()["neopets_tcg"]["missing_values"]
    # the audit trail: one FactChange per field, with who and where from
    changes = card_history(NEO, "blue-skeith")
    assert sorted(c.field for c in changes) == ["agility", "intelligence", "magic", "strength"]
    assert all(c.actor.username == "curie" and c.proposal.id == stats.id and c.old_value is None
               and c.source == URL for c in changes)


def test_an_approved_kaijudo_correction_is_played_at_once_in_the_same_process(people):
    """Compiled cards live on the catalogue they were compiled from: after a curator corrects a
    Kaijudo card's level and power, the next game plays the new values (no restart). The values
    are made up for the test."""
    curator, player, _ = people
    deck = Deck("kaijudo", {"Deck": {"toothed-grubling": 40}})

    def summon_with_three_mana():
        state = new_game("kaijudo", deck, get_catalogue("kaijudo"), seed=1, options={"first": True})
        grub = state.zones["hand"][0]
        for iid in [i for i in state.zones["deck"]][-3:]:
            state.apply_action({"kind": "manual.move", "card": iid, "to": "mana"})
        while state.phase != "main":
            state.apply_action({"kind": "next"})
        return state, grub

    state, grub = summon_with_three_mana()
    assert state.card_view(grub)["level"] == 3
    assert {"kind": "summon", "card": grub} in state.legal_actions(manual=False)
    proposal = propose_facts(player, "kaijudo", "toothed-grubling", {"level": "5", "power_value": "5000"}, URL)
    assert approve(proposal.id, curator).status == "approved"

    state, grub = summon_with_three_mana()
    assert state.card_view(grub)["level"] == 5 and state.progs[grub].power == 5000
    assert not any(a["kind"] == "summon" for a in state.legal_actions(manual=False))
    with pytest.raises(IllegalAction, match="costs 5 mana; you have 3 untapped"):
        state.apply_action({"kind": "summon", "card": grub})


def test_an_export_contains_the_contributions_and_load_cards_reads_it_back(people, tmp_path):
    curator, player, _ = people
    p = propose_facts(player, NEO, "the-thieves-code", {"bank_value": 2}, URL)
    approve(p.id, curator)
    path, data = export_cards(NEO, tmp_path)
    assert path == tmp_path / NEO / "cards.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    exported = next(c for c in doc["cards"] if c["key"] == "the-thieves-code")
    assert exported["attrs"]["bank_value"] == 2 and exported["provenance"]["bank_value"] == "contributed"
    assert URL in exported["sources"]
    again = read_game_catalogue(NEO, root=tmp_path)
    shipped = read_game_catalogue(NEO)
    assert len(again.cards) == len(shipped.cards)
    assert sum(len(c.printings) for c in again.cards) == sum(len(c.printings) for c in shipped.cards)
    assert [s.code for s in again.sets] == [s.code for s in shipped.sets]
    assert next(c for c in again.cards if c.key == "the-thieves-code").attrs["bank_value"] == 2
    # loading the export into the same database changes nothing
    result = store_catalogue(again)
    assert (result.cards_added, result.cards_updated, result.printings_added) == (0, 0, 0)


def test_export_refuses_a_folder_whose_other_files_load_cards_would_read_too(people, tmp_path):
    (tmp_path / "kaijudo" / "sets").mkdir(parents=True)
    (tmp_path / "kaijudo" / "sets" / "evo-fury.xml").write_text("<set/>")
    with pytest.raises(CommunityError, match="sets/evo-fury.xml"):
        export_cards("kaijudo", tmp_path)


# ---------------------------------------------------------------------------- load-cards keeps contributions

def test_load_cards_keeps_contributed_facts_unless_the_new_data_gives_a_value(people):
    curator, player, _ = people
    p = propose_facts(player, NEO, "meaty-pie", {"type": "Item", "bank_value": 1, "text": "Bank me."}, URL)
    approve(p.id, curator)
    data = read_game_catalogue(NEO)
    result = store_catalogue(data)  # the shipped data knows nothing of the pie: the contribution stays
    assert (result.cards_updated, result.printings_added) == (0, 0)
    pie = card("meaty-pie")
    assert (pie.type, pie.attrs["bank_value"], pie.text) == ("Item", 1, "Bank me.")
    assert pie.provenance == {"type": "contributed", "bank_value": "contributed", "text": "contributed"}
    assert URL in pie.sources
    # new data that says otherwise wins, field by field
    for i, c in enumerate(data.cards):
        if c.key == "meaty-pie":
            data.cards[i] = type(c)(**{**{f: getattr(c, f) for f in c.__dataclass_fields__},
                                       "attrs": {"bank_value": 2}, "provenance": {"bank_value": "imported"},
                                       "sources": ("https://example.org/printed-list",)})
    assert store_catalogue(data).cards_updated == 1
    pie = card("meaty-pie")
    assert pie.attrs["bank_value"] == 2 and pie.provenance["bank_value"] == "imported"
    assert pie.type == "Item" and pie.provenance["type"] == "contributed"
    assert set(pie.sources) == {"https://example.org/printed-list", URL}
    assert store_catalogue(data).cards_updated == 0  # and running it again changes nothing


def test_load_cards_keeps_cards_the_community_added(people):
    curator, player, _ = people
    p = propose_card(player, "neopets-battledome", {"name": "Test Kougra", "type": "Neopet",
                                                    "set": "defenders-of-neopia", "number": "7"},
                     {"hp": "9"}, URL)
    approve(p.id, curator)
    store_catalogue(read_game_catalogue("neopets-battledome"))
    kept = card("test-kougra", "neopets-battledome")
    assert kept is not None and kept.attrs["hp"] == 9 and kept.printings[0].number == "7"


# ---------------------------------------------------------------------------- roles

def test_only_a_curator_may_approve_reject_or_revert(people):
    curator, player, other = people
    p = propose_facts(player, NEO, "the-thieves-code", {"bank_value": 2}, URL)
    for who in (player, other):
        with pytest.raises(NotAllowed):
            approve(p.id, who)
        with pytest.raises(NotAllowed):
            reject(p.id, who, "no")
    assert models.Proposal.get_by_id(p.id).status == "pending"
    approve(p.id, curator)
    with pytest.raises(NotAllowed):
        revert(p.id, player, "spam")
    assert card("the-thieves-code").attrs["bank_value"] == 2
    made_curator = create_user("cora", "a long password", curator=True)
    revert(p.id, made_curator, "wrong card")
    assert card("the-thieves-code").attrs.get("bank_value") is None


def test_a_proposal_is_reviewed_once(people):
    curator, player, _ = people
    p = propose_facts(player, NEO, "the-thieves-code", {"bank_value": 2}, URL)
    reject(p.id, curator, "no source says so")
    with pytest.raises(CommunityError, match="rejected already"):
        approve(p.id, curator)
    assert card("the-thieves-code").attrs.get("bank_value") is None


# ---------------------------------------------------------------------------- validation

@pytest.mark.parametrize("values, field, message", [
    ({"strength": "-1"}, "strength", "from 0 to 99"),
    ({"strength": "100"}, "strength", "from 0 to 99"),
    ({"strength": "3.5"}, "strength", "whole number"),
    ({"strength": "lots"}, "strength", "whole number"),
    ({"bank_value": True}, "bank_value", "must be"),
    ({"type": "Dragon"}, "type", "one of: Basic Neopet"),
    ({"faerie": "Purple"}, "faerie", "one of: Air, Dark"),
    ({"species": "x" * 81}, "species", "at most 80"),
    ({"species": "Sk\neith"}, "species", "one line"),
    ({"text": "x" * 2001}, "text", "at most 2000"),
    ({"text": "nul\x00byte"}, "text", "control characters"),
    ({"colour": "blue"}, "colour", "no field"),
])
def test_values_are_checked_per_game_and_field(people, values, field, message):
    _, player, _ = people
    with pytest.raises(ProposalInvalid) as info:
        propose_facts(player, NEO, "blue-skeith", values, URL)
    assert message in info.value.errors[field]
    assert not models.Proposal.select().exists()


def test_other_games_fields_are_checked_by_their_own_rules(people):
    _, player, _ = people
    with pytest.raises(ProposalInvalid) as info:
        propose_facts(player, "kaijudo", "argus-vigilant-seer", {"civilizations": ["x" * 61]}, URL)
    assert "at most 60" in info.value.errors["civilizations"]
    p = propose_facts(player, "kaijudo", "argus-vigilant-seer",
                      {"race": "Battle Sphere, Light Bringer , Battle Sphere", "power_value": "12000"}, URL)
    assert p.values == {"race": ["Battle Sphere", "Light Bringer"], "power_value": 12000}
    with pytest.raises(ProposalInvalid) as info:
        propose_facts(player, "neopets-battledome", "acara", {"hp": "0"}, URL)  # the engine's range: 1-50
    assert "from 1 to 50" in info.value.errors["hp"]
    with pytest.raises(ProposalInvalid) as info:
        propose_facts(player, "huntik", "dante-vale-private-investigator", {"type": "dragon"}, URL)
    assert "major hero" in info.value.errors["type"]


@pytest.mark.parametrize("source, message", [
    ("", "Say where"), ("javascript:alert(1)", "http"), ("ftp://example.org/x", "http"),
    ("https://", "http"), ("https://example.org/a b", "http"), ("https://example.org/" + "x" * 500, "at most 500"),
])
def test_a_source_is_a_web_address_or_a_printed_card(people, source, message):
    _, player, _ = people
    with pytest.raises(ProposalInvalid) as info:
        propose_facts(player, NEO, "blue-skeith", {"strength": 3}, source)
    assert message in info.value.errors["source"]


def test_a_proposal_must_change_something(people):
    _, player, _ = people
    with pytest.raises(ProposalInvalid, match="Nothing to propose"):
        propose_facts(player, NEO, "blue-skeith", {"species": "Skeith", "type": "basic neopet"}, URL)
    with pytest.raises(NotFound):
        propose_facts(player, NEO, "no-such-card", {"strength": 1}, URL)


def test_proposals_are_rate_limited_per_user(people):
    _, player, other = people
    for n in range(3):
        propose_facts(player, NEO, "blue-skeith", {"strength": n + 1}, URL, rate_limit=3)
    with pytest.raises(RateLimited, match="3 proposals"):
        propose_facts(player, NEO, "blue-skeith", {"strength": 9}, URL, rate_limit=3)
    propose_facts(other, NEO, "blue-skeith", {"strength": 9}, URL, rate_limit=3)  # per user
    # hits older than the window no longer count
    models.RateLimitHit.update(created_at=models.utcnow() - dt.timedelta(hours=2)).execute()
    propose_facts(player, NEO, "blue-skeith", {"strength": 9}, URL, rate_limit=3)


def test_a_curator_cannot_approve_a_value_that_fails_validation(people):
    curator, player, _ = people
    # stored as it may have been before a rule tightened, or written by another tool
    bad = models.Proposal.create(game=NEO, card_key="blue-skeith", values={"strength": 500, "magic": 2},
                                 source=URL, proposer=player.id)
    with pytest.raises(ProposalInvalid, match="Strength must be a whole number from 0 to 99"):
        approve(bad.id, curator)
    assert models.Proposal.get_by_id(bad.id).status == "pending"
    assert card("blue-skeith").attrs.get("magic") is None and not models.FactChange.select().exists()
    rows = diff(get_proposal(bad.id))
    assert [r.error is not None for r in rows] == [True, False]
    bad_type = models.Proposal.create(game=NEO, card_key="", new_card={"name": "Blue Skeith", "type": "Item"},
                                      values={}, source=URL, proposer=player.id)
    with pytest.raises(ProposalInvalid, match="already has"):
        approve(bad_type.id, curator)


def test_a_rejected_proposal_changes_nothing(people):
    curator, player, _ = people
    stamp = models.CatalogueStamp.get_by_id(NEO).version
    p = propose_facts(player, NEO, "blue-skeith", {"strength": 3}, URL)
    with pytest.raises(ProposalInvalid, match="reason"):
        reject(p.id, curator, "  ")
    rejected = reject(p.id, curator, "The checklist does not say so.")
    assert (rejected.status, rejected.reason, rejected.reviewer.username) == ("rejected", "The checklist does not say so.", "curie")
    assert card("blue-skeith").attrs.get("strength") is None
    assert models.CatalogueStamp.get_by_id(NEO).version == stamp and not models.FactChange.select().exists()


# ---------------------------------------------------------------------------- audit trail and revert

def test_revert_restores_old_values_and_provenance_with_its_own_fact_changes(people):
    curator, player, other = people
    first = propose_facts(player, NEO, "blue-skeith", {"species": "Skeith Lord", "strength": 3}, URL)
    approve(first.id, curator)
    second = propose_facts(other, NEO, "blue-skeith", {"strength": 5}, "https://example.org/other")
    approve(second.id, curator)
    # the first approval's strength was changed again since: revert the later one first
    with pytest.raises(CommunityError, match="changed again"):
        revert(first.id, curator, "wrong")
    revert(second.id, curator, "misread the card")
    skeith = card("blue-skeith")
    assert skeith.attrs["strength"] == 3 and skeith.provenance["strength"] == "contributed"
    assert "https://example.org/other" not in skeith.sources  # nothing cites it any more
    origins = {o.key: o for o in field_origins(skeith)}
    assert origins["strength"].by == "pat" and origins["strength"].proposal == first.id  # the earlier contribution
    revert(first.id, curator, "spam")
    skeith = card("blue-skeith")
    assert skeith.attrs["species"] == "Skeith" and skeith.provenance["species"] == "derived"
    assert "strength" not in skeith.attrs and "strength" not in skeith.provenance
    assert URL not in skeith.sources
    history = card_history(NEO, "blue-skeith")
    reverts = [c for c in history if c.reverts_id]
    assert len(reverts) == 3 and all(c.actor.username == "curie" for c in reverts)
    species_back = next(c for c in reverts if c.field == "species")
    assert (species_back.old_value, species_back.new_value, species_back.old_provenance) == ("Skeith Lord", "Skeith", "contributed")
    assert is_reverted(get_proposal(first.id))
    with pytest.raises(CommunityError, match="reverted already"):
        revert(first.id, curator, "again")


def test_an_added_card_can_be_reverted_unless_a_collection_holds_it(people):
    curator, player, _ = people
    raw = {"name": "Test Kougra", "type": "Neopet", "set": "defenders-of-neopia", "number": "7", "rarity": "Common"}
    p = propose_card(player, "neopets-battledome", raw, {"hp": "9", "species": "Kougra"}, URL)
    assert p.card_key == "" and p.new_card["name"] == "Test Kougra"
    with pytest.raises(ProposalInvalid, match="already has"):
        propose_card(player, "neopets-battledome", {"name": "acara"}, {}, URL)
    approve(p.id, curator)
    added = card("test-kougra", "neopets-battledome")
    assert (added.type, added.attrs["hp"], added.provenance["name"]) == ("Neopet", 9, "contributed")
    assert (added.printings[0].set_code, added.printings[0].number, added.printings[0].rarity) == ("defenders-of-neopia", "7", "Common")
    assert {c.field for c in card_history("neopets-battledome", "test-kougra")} == {"card", "type", "hp", "species"}
    printing = models.Printing.get(models.Printing.card == models.Card.get(models.Card.key == "test-kougra").id)
    owned = models.OwnedCard.create(owner=player.id, printing=printing.id, quantity=1)
    with pytest.raises(CommunityError, match="collection"):
        revert(p.id, curator, "duplicate")
    owned.delete_instance()
    revert(p.id, curator, "duplicate")
    assert card("test-kougra", "neopets-battledome") is None


@pytest.mark.parametrize("raw, field, message", [
    ({"name": ""}, "name", "needs its name"),
    ({"name": "New Card", "set": "no-such-set"}, "set", "no set"),
    ({"name": "New Card", "number": "7"}, "number", "needs the set"),
    ({"name": "New Card", "set": "defenders-of-neopia", "number": "<b>"}, "number", "letters, digits"),
    ({"name": "New Card", "type": "Dragon"}, "type", "one of"),
    ({"name": "x" * 121}, "name", "at most 120"),
])
def test_a_missing_card_is_checked_too(people, raw, field, message):
    _, player, _ = people
    with pytest.raises(ProposalInvalid) as info:
        propose_card(player, "neopets-battledome", raw, {}, URL)
    assert message in info.value.errors[field]


def test_field_origins_say_how_every_known_field_is_known(people):
    curator, player, _ = people
    p = propose_facts(player, NEO, "blue-skeith", {"strength": 3}, PRINTED)
    approve(p.id, curator)
    origins = {o.key: o for o in field_origins(card("blue-skeith"))}
    assert origins["type"].how == "imported" and origins["species"].how == "derived"
    assert origins["strength"].how == "contributed" and origins["strength"].by == "pat"
    assert origins["strength"].reviewer == "curie" and origins["strength"].sources == ("printed card owned by pat",)
    assert "https://www.neopets.com/tcg/checklist.phtml?edition=2" in origins["type"].sources
    assert "printed card owned by pat" not in origins["type"].sources
    kaijudo = {o.key: o for o in field_origins(card("argus-vigilant-seer", "kaijudo"))}
    assert kaijudo["level"].how == "imported" and kaijudo["level"].sources == ("OCTGN set file",)


def test_every_game_has_proposable_fields_with_checks():
    for game in all_games():
        fields = proposable_fields(game.slug)
        keys = [f.key for f in fields]
        assert keys[0] == "type" and keys[-1] == "text" and len(keys) == len(set(keys))
        assert len({f.label for f in fields}) == len(fields), game.slug
        assert all(f.minimum is not None for f in fields if f.kind == "int")
    neo = fields_by_key(NEO)
    assert neo["tap_to_play"].choices and neo["faerie"].choices == ("Air", "Dark", "Earth", "Fire", "Light", "Water")

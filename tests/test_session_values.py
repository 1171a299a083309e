"""Session card values (deckhub/core/session_values.py): the generic way a player supplies, for one
game, a card fact the catalogue does not know. The engine here is a test fixture, not a real game."""
from __future__ import annotations

import json

import pytest

from deckhub.core.cards import Card, Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import Engine
from deckhub.core.state import EngineError, State
from deckhub.core.session_values import (CardValuesOption, ValueField, apply_card_values, card_values_option,
                                         missing_values, unknown_values)


# --- test fixtures: a made-up game with three cards, and an engine that declares its value fields ---
class FixtureState(State):
    VALUE_FIELDS = (ValueField("type", "card type", "choice", ("Item", "Pet")),
                    ValueField("bank_value", "bank value", "int", minimum=0, maximum=30),
                    ValueField("species", "species", "str"))

    @classmethod
    def needed_values(cls, card):
        if card.type is None:
            return ("type",)
        return ("bank_value",) if card.type == "Item" else ("species",)


FIXTURE_ENGINE = Engine("fixture-game", FixtureState, policy=lambda s: {}, coverage=lambda c: {},
                        options=(card_values_option(),))
CARDS = [Card("coin", "fixture-game", "Coin", type="Item", attrs={"bank_value": 2}, provenance={"bank_value": "imported"}),
         Card("gem", "fixture-game", "Gem", type="Item"),
         Card("mystery", "fixture-game", "Mystery Card", aliases=("Mystery",))]
CAT = Catalogue("fixture-game", CARDS)


def deck(*keys):
    d = Deck("fixture-game")
    for k in keys:
        d.add("Deck", k, 2)
    return d


def test_missing_values_lists_needed_unknown_fields_per_card():
    assert missing_values(FIXTURE_ENGINE, deck("coin", "gem", "mystery"), CAT) == {"gem": ["bank_value"], "mystery": ["type"]}
    with pytest.raises(EngineError, match="not in the fixture-game catalogue"):
        missing_values(FIXTURE_ENGINE, deck("nope"), CAT)


def test_applied_values_are_new_cards_marked_session_and_the_catalogue_is_untouched():
    session = apply_card_values(FIXTURE_ENGINE, CAT, {"gem": {"bank_value": "3"}, "mystery": {"type": "item"}})
    assert session.get("gem").attrs["bank_value"] == 3 and session.get("gem").provenance["bank_value"] == "session"
    assert session.get("mystery").type == "Item" and session.get("mystery").provenance["type"] == "session"
    assert session.lookup("Mystery")[0].type == "Item"  # name and alias look-ups see the new card
    assert CAT.get("gem").attrs.get("bank_value") is None and CAT.get("mystery").type is None
    assert session.get("coin") is CAT.get("coin")
    # once the type is known, the fields that type needs are asked for next
    assert missing_values(FIXTURE_ENGINE, deck("gem", "mystery"), session) == {"mystery": ["bank_value"]}
    assert unknown_values(FIXTURE_ENGINE, session.get("gem")) == []
    assert apply_card_values(FIXTURE_ENGINE, CAT, {"gem": {"bank_value": 3}}) is \
        apply_card_values(FIXTURE_ENGINE, CAT, {"gem": {"bank_value": 3}})  # cached for replays
    assert apply_card_values(FIXTURE_ENGINE, CAT, {}) is CAT


@pytest.mark.parametrize("values, message", [
    ({"nope": {"bank_value": 1}}, "not a card key"),
    ({"Gem": {"bank_value": 1}}, "did you mean 'gem'"),
    ({"gem": {"bank": 1}}, "no card value 'bank'"),
    ({"gem": {"bank_value": "lots"}}, "bank value must be a whole number"),
    ({"gem": {"bank_value": 99}}, "at most 30"),
    ({"mystery": {"type": "Villain"}}, "card type must be one of Item, Pet"),
])
def test_bad_values_are_refused_with_the_reason(values, message):
    with pytest.raises(EngineError, match=message):
        apply_card_values(FIXTURE_ENGINE, CAT, values)


def test_the_option_takes_a_mapping_or_json_text_and_checks_its_shape():
    option = card_values_option()
    assert isinstance(option, CardValuesOption) and option.default == {}
    text = json.dumps({"gem": {"bank_value": 3}})
    assert option.coerce(text) == option.coerce({"gem": {"bank_value": 3}}) == {"gem": {"bank_value": 3}}
    assert option.coerce("") == {} and option.coerce(None) == {}
    for bad in ("{not json", [1, 2], {"gem": 3}, {"gem": {}}, {"gem": {"bank_value": [1]}}, {"gem": {"x": None}}):
        with pytest.raises(EngineError, match="card_values"):
            option.coerce(bad)
    assert json.loads(json.dumps(option.coerce(text))) == {"gem": {"bank_value": 3}}
    assert ValueField("bank_value", "bank value").flag() == "bank value unknown — set it for this game"

"""The deck editor offers a card only the sections its format lets it go in, and the deck service
refuses the others with a clear error: one rule (the format's section type rules), used by both."""
from __future__ import annotations

import re

import pytest

from deckhub.core.legality import allowed_sections
from deckhub.games import all_games, get_game
from deckhub.services import decks
from deckhub.services.accounts import create_user
from deckhub.services.catalogue_store import get_catalogue
from deckhub.store.db import database


@pytest.fixture
def owner(app):
    with database.connection_context():
        yield create_user("alice", "correct horse")


def _accepted(stored, card) -> tuple[str, ...]:
    """The sections the service's check lets this card be added to."""
    accepted = []
    for section in get_game(stored.row.game).sections:
        try:
            decks._refuse_wrong_section(stored, card, section.name)
        except decks.DeckError:
            continue
        accepted.append(section.name)
    return tuple(accepted)


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_offered_sections_are_exactly_those_the_service_accepts_for_every_card(owner, slug):
    spec = get_game(slug)
    catalogue = get_catalogue(slug)
    by_type: dict[str | None, object] = {}
    for fmt in spec.formats:
        stored = decks.create_deck(owner, slug, fmt.id, f"{fmt.name} deck")
        for card in catalogue.cards.values():
            offered = decks.sections_for(stored, card)
            assert offered == _accepted(stored, card), (fmt.id, card.key)
            assert set(offered) <= {s.name for s in spec.sections}
            if fmt.default:
                by_type.setdefault(card.type, card)
    # and the whole path, one card of each type: a section offered takes the card, any other is refused
    stored = decks.create_deck(owner, slug, spec.formats[0].id, "one of each type")
    for card in by_type.values():
        offered = decks.sections_for(stored, card)
        for section in spec.sections:
            if section.name in offered:
                stored = decks.change_quantity(stored, section.name, card.key, 1)
                assert stored.deck.sections[section.name][card.key] == 1
            else:
                with pytest.raises(decks.DeckError, match=f"cannot go in the {section.name}"):
                    decks.change_quantity(stored, section.name, card.key, 1)


def _first(slug: str, card_type: str):
    return next(c for c in get_catalogue(slug).cards.values() if c.type and c.type.casefold() == card_type)


@pytest.mark.parametrize("slug, card_type, sections", [
    ("huntik", "action", ("Deck",)),
    ("huntik", "feature", ()),
    ("huntik", "mission", ()),
    ("neopets-battledome", "equipment", ("Main Deck",)),
    ("neopets-battledome", "neopet", ("Neopet Deck",)),
    ("neopets-tcg", "basic neopet", ("Neopet Stack",)),
    ("neopets-tcg", "item", ("Deck",)),
])
def test_the_sections_follow_the_construction_rules(app, slug, card_type, sections):
    spec = get_game(slug)
    with database.connection_context():
        assert allowed_sections(spec, spec.formats[0], _first(slug, card_type)) == sections


def test_the_editor_shows_only_the_allowed_buttons_and_a_forged_post_is_refused(client, auth, app):
    auth.signup()
    created = client.post("/decks/new", data={"name": "Hunters", "game": "huntik", "format": "constructed"})
    deck_id = int(re.search(r"/decks/(\d+)", created.headers["Location"]).group(1))
    with database.connection_context():
        action = _first("huntik", "action")
        mission = _first("huntik", "mission")
    html = client.get(f"/decks/{deck_id}/edit", query_string={"q": action.name}).get_data(as_text=True)
    row = re.search(r"<tr><td><a [^>]*>" + re.escape(action.display_name) + r"</a>.*?</tr>", html, re.S).group(0)
    assert "+ Deck" in row and "+ Legendary Hero Pile" not in row
    html = client.get(f"/decks/{deck_id}/edit", query_string={"q": mission.name}).get_data(as_text=True)
    row = re.search(r"<tr><td><a [^>]*>" + re.escape(mission.display_name) + r"</a>.*?</tr>", html, re.S).group(0)
    assert "No section of a Constructed deck takes this card." in row and "+ Deck" not in row
    forged = client.post(f"/decks/{deck_id}/cards", data={"section": "Legendary Hero Pile", "card": action.key,
                                                          "delta": "1"})
    assert forged.status_code == 400
    assert f"{action.display_name} ({action.type}) cannot go in the Legendary Hero Pile: it may go in the Deck." \
        in forged.get_data(as_text=True).replace("&#39;", "'")

"""Piles and unverified cards as a player reads them: a pile (bank, discard, mana...) on the
goldfish board of every game is a count that opens a list, never a wall of tiles; the deck check
names each unverified card once, under the fact the catalogue lacks."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckhub.core.engine import get_engine
from test_visible_text import GAMES, _goldfish, _import

DARIGAN = (Path(__file__).resolve().parents[1] / "data" / "neopets-tcg" / "decks" / "darigan-theme-deck.txt").read_text()


@pytest.mark.parametrize("game", GAMES)
def test_piles_are_counts_that_open_a_list(client, auth, game):
    auth.signup("alice")
    session = _goldfish(client, game, _import(client, game), 6)
    piles = [z for z in get_engine(game).state_class.ZONES if z.pile]
    assert piles, f"{game} declares no pile"
    for zone in piles:  # a card of the hand into each pile, by the manual move every board offers
        page = client.get(f"/goldfish/{session}").get_data(as_text=True)
        hand = re.search(r'<section class="zone zone-(?:hand|inventory)".*?</section>', page, re.S).group(0)
        card, step = re.search(r'id="c(\d+)"', hand).group(1), re.search(r'data-step="(\d+)"', page).group(1)
        client.post(f"/goldfish/{session}/act", data={"step": step, "kind": "manual.move", "card": card, "to": zone.name})
    page = client.get(f"/goldfish/{session}").get_data(as_text=True)
    shown = 0
    for zone in piles:
        section = re.search(rf'<section class="zone zone-{zone.name} zone-pile"[^>]*>(.*?)</section>', page, re.S)
        assert section, f"{zone.label} is not on the board"
        shown += 1
        body = section.group(1)
        assert re.search(rf"<details><summary>{re.escape(zone.label)}: \d+ cards?</summary>", body), body[:300]
        assert 'class="tile' not in body, f"{zone.label} is drawn as tiles"
    assert shown, f"no pile of {game} on the board"


def test_the_check_names_each_unverified_card_once(client, auth):
    auth.signup("alice")
    response = client.post("/decks/import", data={"name": "Darigan", "game": "neopets-tcg", "format": "",
                                                  "decklist": DARIGAN})
    page = client.get(response.location).get_data(as_text=True)
    panel = re.search(r'<section class="panel validation.*?</section>', page, re.S).group(0)
    lacking = re.findall(r"<li><strong>([^<]+) unknown:</strong> ([^<]+)</li>", panel)
    assert lacking and lacking[0][0] == "Type"
    for _, names in lacking:
        listed = names.split(", ")
        assert len(listed) == len(set(listed))
    typed = lacking[0][1].split(", ")
    outside = re.sub(r'<details class="unverified-checks">.*?</details>', "", panel, flags=re.S)
    assert all(outside.count(name) == 1 for name in typed), "a card named more than once outside the folded checks"
    assert "badge problem unverified" not in page
    assert page.count("type unknown</span>") == len(typed)  # one badge a card, in its row

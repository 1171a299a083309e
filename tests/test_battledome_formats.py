"""The Battledome formats from public sources (issue 15, item 8) on the real catalogue: the Forbidden
& Limited lists, Petpet Battles, Pauper and Brush Buff, through the command line, the API and the
deck page. Rule-by-rule tests on a fixture catalogue are in test_legality.py."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from deckhub.commands.check import check
from deckhub.core.cards import normalize_name
from deckhub.games import get_game, load_catalogue
from deckhub.core.spec import _extended

GAME = get_game("neopets-battledome")
CAT = load_catalogue("neopets-battledome")
LATER = "https://github.com/hylaster0/hylaster0.github.io/blob/67c68df921c324cee2595754718e8a0f50c1d44e/Neopets/Banlist.html"
BANNED_DECK = "Main Deck\n2 Count Boris\n2 Nilo\n46 Mau\nNeopet Deck\n1 Acara\n1 Fire Uni\n1 Turtum\n"


def test_every_name_on_the_lists_is_one_catalogue_card_that_cites_the_list():
    for list_id, data in GAME.format_lists.items():
        names = [*data["banned"], *data["limited"]]
        assert names and data["source"].startswith("https://github.com/hylaster0/"), list_id
        for name in names:
            found = CAT.lookup(name)
            assert len(found) == 1, (list_id, name, found)
            assert data["source"] in found[0].sources, (list_id, name)
        assert all(isinstance(limit, int) and limit >= 1 for limit in data["limited"].values())
        assert not set(map(normalize_name, data["banned"])) & set(map(normalize_name, data["limited"]))


def test_the_formats_from_the_public_pages_and_their_versions():
    ids = [f.id for f in GAME.formats]
    assert ids == ["standard", "rb-1.4", "forbidden-limited", "forbidden-limited-earlier", "petpet-battles",
                   "pauper", "brush-buff"]
    fl = GAME.format("Forbidden & Limited")
    assert fl.id == "forbidden-limited" and "67c68df" in fl.version and LATER in fl.source
    standard = GAME.format("standard")
    assert fl.sections == standard.sections and fl.copies == standard.copies  # Standard, plus the list
    assert [c.name for c in fl.checks] == ["distinct-species", "distinct-names", "banned-cards", "limited-cards",
                                            "limited-brush-types"]
    assert [c.name for c in GAME.format("pauper").checks][-1] == "rarities"
    assert GAME.format("petpet-battles").copies[0].default == 1


def test_extends_refuses_an_unknown_or_circular_parent():
    with pytest.raises(LookupError, match="unknown or circular"):
        _extended({"id": "a", "extends": "nope"}, {})
    loop = {"a": {"id": "a", "extends": "b"}, "b": {"id": "b", "extends": "a"}}
    with pytest.raises(LookupError, match="unknown or circular"):
        _extended(loop["a"], loop)


def run(*args, input=None):
    return CliRunner().invoke(check, list(args), input=input)


def test_a_deck_breaking_the_list_gets_structured_violations_citing_it(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(BANNED_DECK, encoding="utf-8")
    result = run("--game", "neopets-battledome", "--format", "forbidden-limited", "--json", str(path))
    assert result.exit_code == 1, result.output
    doc = json.loads(result.stdout)
    assert doc["format"] == "forbidden-limited" and doc["legal"] is False
    banned = [v for v in doc["violations"] if v["rule"] == "battledome.fl.banned"]
    assert banned == [{"rule": "battledome.fl.banned", "severity": "error", "section": None,
                       "message": "Count Boris is banned: a deck may hold no copies; this one has 2. (Forbidden & "
                                  "Limited list, later revision: Battledome rulings site, undated, commit 67c68df)",
                       "cards": ["Count Boris"], "expected": {"max": 0}, "actual": 2}]
    limited = [v for v in doc["violations"] if v["rule"] == "battledome.fl.limited"]
    assert [(v["cards"], v["expected"], v["actual"]) for v in limited] == [(["Nilo"], {"max": 1}, 2)]
    # the same deck under the earlier list: Count Boris was limited then, not banned
    earlier = json.loads(run("--game", "neopets-battledome", "--format", "forbidden-limited-earlier", "--json",
                             str(path)).stdout)
    assert {v["rule"] for v in earlier["violations"] if v["rule"].startswith("battledome.fl.")} == {"battledome.fl.limited"}
    assert sorted(c for v in earlier["violations"] if v["rule"] == "battledome.fl.limited" for c in v["cards"]) == \
        ["Count Boris", "Nilo"]
    # and the plain Standard format has no ban list
    plain = json.loads(run("--game", "neopets-battledome", "--json", str(path)).stdout)
    assert not any(v["rule"].startswith("battledome.fl.") for v in plain["violations"])


def test_upper_decks_petpet_battles_sample_deck_is_legal_so_far():
    """The Petpet Battles decklist on upperdeck.com/neopets-new-rules/, one of each card: no error;
    the Codestones it would need are not listed, so only the 14 named cards are checked for the cap."""
    names = ["Alton Moughbry", "Green Knight", "Bank Manager", "Pant Devil's Evil Twin", "Shop Wizard",
             "Regulation Meridellian Crossbow", "Regulation Meridellian Lance", "Regulation Meridellian Lowers",
             "Regulation Meridellian Shield", "Skarl's Sceptre", "Green Knight Shield", "Potato",
             "Super Juicy Berry", "Neovian Strength Potion"]
    text = "Main Deck\n" + "".join(f"1 {n}\n" for n in names) + "6 Mau\nNeopet Deck\n1 Turtum\n"
    doc = json.loads(run("--game", "neopets-battledome", "--format", "petpet-battles", "--json", "-", input=text).stdout)
    assert doc["counts"]["Main Deck"] == 20 and doc["errors"] == []
    assert not [v for v in doc["violations"] if v["severity"] == "error"], doc["violations"]
    level = [v for v in doc["violations"] if v["rule"] == "battledome.petpet.level-requirement"]
    assert [v["cards"] for v in level] == [["Mau"]]  # every listed card has a stated bound of 3; Mau has none
    assert doc["legal"] is True


def test_api_check_applies_a_list_by_format_name(client):
    body = client.post("/api/check", json={"game": "neopets-battledome", "format": "Forbidden & Limited",
                                           "decklist": BANNED_DECK}).get_json()
    assert body["format"] == "forbidden-limited" and body["legal"] is False
    assert {"battledome.fl.banned", "battledome.fl.limited"} <= {v["rule"] for v in body["violations"]}


def test_the_deck_page_shows_the_list_and_its_violations(client, auth):
    auth.signup("alice")
    response = client.post("/decks/import", data={"name": "Boris", "game": "neopets-battledome",
                                                  "format": "forbidden-limited", "decklist": BANNED_DECK})
    assert response.status_code == 302, response.data
    deck_id = int(response.location.split("/")[2])
    page = re.sub(r"\s+", " ", client.get(f"/decks/{deck_id}").get_data(as_text=True))
    assert "battledome.fl.banned" in page and "Count Boris is banned" in page
    assert "Forbidden &amp; Limited list, later revision" in page
    settings = client.get(f"/decks/{deck_id}/settings").get_data(as_text=True)
    for name in ("Forbidden &amp; Limited", "Petpet Battles", "Pauper", "Brush Buff"):
        assert name in settings


def test_the_formats_page_shows_each_format_and_the_ban_lists_cards(client):
    game_page = client.get("/games/neopets-battledome").get_data(as_text=True)
    assert 'href="/games/neopets-battledome/formats"' in game_page
    response = client.get("/games/neopets-battledome/formats")
    assert response.status_code == 200
    html = re.sub(r"\s+", " ", response.get_data(as_text=True))
    for f in GAME.formats:
        assert f'id="format-{f.id}"' in html and f"<code>{f.id}</code>" in html
    assert f'<a href="{LATER}"' in html  # the list's source, as a link
    assert 'href="/games/neopets-battledome/cards/count-boris">Count Boris</a>' in html
    assert 'href="/games/neopets-battledome/cards/king-skarl">King Skarl</a> (1 copy)' in html
    assert "Chocolate, Darigan, Robot, Sponge" in html and "not in the catalogue" not in html
    assert client.get("/games/kaijudo/formats").status_code == 200  # every game has the page
    assert client.get("/games/chess/formats").status_code == 404

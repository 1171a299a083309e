"""The pure card search (deckhub.core.search) over the shipped catalogues: no app, no database."""
from __future__ import annotations


import pytest

from deckhub.core.cards import Card, CardSet, Catalogue, Printing
from deckhub.core.search import (UNKNOWN_SET, FilterError, cards_without_set, filter_choices, normalize_filters,
                                 parse_request, run_search, search_cards, set_rows, set_summaries)
from conftest import TOY, with_toy
from deckhub.games import game_slugs, get_game, load_catalogue


@pytest.fixture(scope="module")
def kaijudo():
    return load_catalogue("kaijudo"), get_game("kaijudo")


def names(cards):
    return [c.display_name for c in cards]


@pytest.mark.parametrize("q", ["argus vigilant", "Argus, Vigilant Seer", "ARGUS VIGILANT", "argus-vigilant",
                               "argus vigilent", "argus vigil", "seer argus", "argusvigilant"])
def test_name_matching_tolerates_case_punctuation_order_and_typos(kaijudo, q):
    catalogue, game = kaijudo
    assert names(search_cards(catalogue, game, q))[0] == "Argus, Vigilant Seer"


def test_exact_then_word_start_then_substring_then_fuzzy(kaijudo):
    catalogue, game = kaijudo
    found = names(search_cards(catalogue, game, "tatsurion"))
    assert found[0] == "Tatsurion"                        # the exact name first
    assert found.index("Tatsurion the Champion") < found.index("Ragefire Tatsurion")
    assert "Frogzooka" in names(search_cards(catalogue, game, "zooka"))  # inside a word
    assert names(search_cards(catalogue, game, "tatsurian"))[0] == "Tatsurion"  # a typo, nearest first


def test_short_or_unrelated_queries_do_not_match_everything(kaijudo):
    catalogue, game = kaijudo
    assert search_cards(catalogue, game, "zzzz") == []
    assert names(search_cards(catalogue, game, "argus")) == ["Argus, Vigilant Seer"]  # not "Tar Gusher"


def test_rules_text_only_when_asked(kaijudo):
    catalogue, game = kaijudo
    assert search_cards(catalogue, game, "surveillance drones") == []
    found = names(search_cards(catalogue, game, "surveillance drones", {"in_text": True}))
    assert found == ["Argus, Vigilant Seer"]


def test_empty_query_lists_filtered_cards_in_name_order(kaijudo):
    catalogue, game = kaijudo
    everything = search_cards(catalogue, game, "")
    assert len(everything) == len(catalogue)
    assert [c.name.casefold() for c in everything[:20]] == sorted(c.name.casefold() for c in everything[:20])


def test_kaijudo_filters(kaijudo):
    catalogue, game = kaijudo
    found = search_cards(catalogue, game, "", {"level": (3, 4), "civilizations": "light", "type": "Creature",
                                               "set": "dojo-edition"})
    assert found
    for card in found:
        assert 3 <= card.attrs["level"] <= 4 and "Light" in card.attrs["civilizations"] and card.type == "Creature"
        assert any(p.set_code == "dojo-edition" for p in card.printings)
    big = search_cards(catalogue, game, "", {"power_value_min": "9000"})
    assert big and all(c.attrs["power_value"] >= 9000 for c in big)
    # spells have no power: an unknown value never matches a range
    assert all(c.type != "Spell" for c in search_cards(catalogue, game, "", {"power_value": {"min": 0}}))
    assert search_cards(catalogue, game, "", {"race": ["Cyber Lord", "Fire Bird"]})
    assert search_cards(catalogue, game, "argus", {"civilizations": "Fire"}) == []


def test_two_civilization_cards_match_either(kaijudo):
    catalogue, game = kaijudo
    dual = [c for c in catalogue if len(c.attrs.get("civilizations") or []) == 2]
    assert dual
    card = dual[0]
    for civ in card.attrs["civilizations"]:
        assert card in search_cards(catalogue, game, card.name, {"civilizations": civ})


def test_bad_filter_values(kaijudo):
    catalogue, game = kaijudo
    with pytest.raises(FilterError):
        normalize_filters(game, {"level": "abc"})
    req = parse_request(game, catalogue, {"q": "argus", "level": "abc", "set": "nope", "page": "-2",
                                          "power_value_min": "5000"})
    assert len(req.problems) == 3 and "level" not in req.filters and "set" not in req.filters
    assert req.page == 1 and req.filters["power_value_min"] == "5000"
    # digits that str.isdigit() accepts but int() does not (superscripts), and other scripts' digits
    req = parse_request(game, catalogue, {"page": "\u00b9", "per_page": "\u0663"})
    assert req.page == 1 and req.per_page == 3 and len(req.problems) == 1
    result = run_search(game, catalogue, parse_request(game, catalogue, {"q": "argus vigilnt"}))
    assert result.total == 1


def test_pagination_and_suggestions(kaijudo):
    catalogue, game = kaijudo
    page = run_search(game, catalogue, parse_request(game, catalogue, {"type": "Spell", "page": "2"}, per_page=50))
    assert page.total == 191 and page.pages == 4 and len(page.cards) == 50 and page.first == 51
    last = run_search(game, catalogue, parse_request(game, catalogue, {"type": "Spell", "page": "99"}, per_page=50))
    assert last.request.page == 4 and len(last.cards) == 41
    nothing = run_search(game, catalogue, parse_request(game, catalogue, {"q": "argus vigilant", "civilizations": "Fire"}))
    assert nothing.total == 0 and "Argus, Vigilant Seer" in names(nothing.suggestions)


def test_choices_and_set_listing(kaijudo):
    catalogue, game = kaijudo
    choices = filter_choices(catalogue, game)
    assert choices["type"][0] == "Creature" and "Spell" in choices["type"]
    assert choices["civilizations"] == ["Darkness", "Fire", "Light", "Nature", "Water"]
    rows = set_rows(catalogue, "rise-of-the-duel-masters")
    assert [r.number for r in rows[:3]] == ["1", "2", "3"] and rows[0].card.name == "Argus, Vigilant Seer"
    summary = {s.code: s for s in set_summaries(catalogue)}
    assert summary["rise-of-the-duel-masters"].label == "180 of 180"
    with pytest.raises(KeyError):
        set_rows(catalogue, "nope")


def test_unknown_values_and_set_unknown_on_a_small_catalogue():
    game = get_game("neopets-battledome")
    cards = [
        Card("a", game.slug, "Acara", type="Neopet", attrs={"species": "Acara", "hp": 8}),
        Card("b", game.slug, "Blumaroo", type="Neopet", attrs={"species": "Blumaroo", "hp": None},
             printings=(Printing("s1", "2"),)),
        Card("c", game.slug, "Codestone", type="Codestone", printings=(Printing("s1", "10"), Printing("s1", "1"))),
    ]
    catalogue = Catalogue(game.slug, cards, [CardSet("s1", "Set One", 100)])
    assert names(search_cards(catalogue, game, "", {"hp": (0, 99)})) == ["Acara"]
    assert names(search_cards(catalogue, game, "", {"set": UNKNOWN_SET})) == ["Acara"]
    assert names(search_cards(catalogue, game, "", {"species": "acara"})) == ["Acara"]
    assert [r.number for r in set_rows(catalogue, "s1")] == ["1", "2", "10"]
    assert names(cards_without_set(catalogue)) == ["Acara"]
    assert set_summaries(catalogue)[0].label == "3 known of 100"


@pytest.mark.parametrize("slug", with_toy(game_slugs()))
def test_every_game_searches_and_filters_by_each_field(request, slug):
    if slug == TOY:
        request.getfixturevalue("toy_game")
    game = get_game(slug)
    catalogue = load_catalogue(game.slug)
    assert search_cards(catalogue, game, "") or len(catalogue) == 0
    for f in game.fields:
        if not f.filter or f.kind == "text":
            continue
        if f.kind == "int":
            values = [c.attrs[f.key] for c in catalogue if isinstance(c.attrs.get(f.key), int)]
            found = search_cards(catalogue, game, "", {f.key: (min(values), max(values))}) if values else []
            assert len(found) == len(values)
        else:
            for value in filter_choices(catalogue, game).get(f.key, [])[:3]:
                assert search_cards(catalogue, game, "", {f.key: value})


from hypothesis import given, settings, strategies as st  # noqa: E402

_KAIJUDO = (load_catalogue("kaijudo"), get_game("kaijudo"))


@settings(max_examples=150, deadline=None)
@given(q=st.text(max_size=40), args=st.dictionaries(
    st.sampled_from(["level", "level_min", "level_max", "power_value_max", "civilizations", "race", "set", "type",
                     "in_text", "page", "per_page", "q"]),
    st.one_of(st.text(max_size=12), st.integers(-10**15, 10**15).map(str)), max_size=5))
def test_any_query_and_any_arguments_give_results_or_notices_never_an_exception(q, args):
    catalogue, game = _KAIJUDO
    for card in search_cards(catalogue, game, q)[:5]:
        assert card.key in catalogue.cards
    req = parse_request(game, catalogue, args)
    page = run_search(game, catalogue, req)
    assert page.total >= len(page.cards) and 1 <= req.page <= page.pages

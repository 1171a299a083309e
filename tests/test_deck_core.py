"""Pure deck helpers: version diffs and deck statistics."""
from deckhub.core.deckdiff import diff_decks
from deckhub.core.decklist import Deck
from deckhub.core.deckstats import deck_stats
from deckhub.games import get_game, load_catalogue


def test_diff_lists_added_changed_and_removed_cards():
    old = Deck("kaijudo", {"Deck": {"a": 2, "b": 1}})
    new = Deck("kaijudo", {"Deck": {"a": 3, "c": 1}})
    changes = {(c.card_key, c.before, c.after, c.delta) for c in diff_decks(old, new)}
    assert changes == {("a", 2, 3, 1), ("c", 0, 1, 1), ("b", 1, 0, -1)}
    assert diff_decks(new, new) == []


def test_kaijudo_stats_count_levels_and_both_civilizations_of_a_two_civilization_card():
    catalogue = load_catalogue("kaijudo")
    blade_seer = catalogue.lookup("Blade Seer")[0]  # Light / Nature, level 6
    argus = catalogue.lookup("Argus, Vigilant Seer")[0]  # Light, level 4
    deck = Deck("kaijudo", {"Deck": {blade_seer.key: 2, argus.key: 3}})
    stats = deck_stats(deck, catalogue, get_game("kaijudo").extras)
    assert stats.total == 5
    assert stats.curve == {6: 2, 4: 3}
    assert stats.breakdown == {"Light": 5, "Nature": 2}
    assert stats.types == {"Creature": 5}

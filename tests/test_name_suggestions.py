"""Did you mean" suggestions scored over the names that can reach the cutoff give exactly what
scoring every name gives: same cards, scores and order, on typos, partial names and unknown
words across the four games' shipped catalogues."""
from __future__ import annotations

import random

import pytest
from rapidfuzz import fuzz, process

from deckhub.core.cards import normalize_name
from deckhub.core.name_bounds import NameBounds
from deckhub.games import game_slugs, load_catalogue

LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789 "


def every_name_scored(catalogue, name: str, limit: int = 3, score_cutoff: float = 60):
    """Catalogue.suggest as it was: WRatio against every name."""
    query = normalize_name(name)
    if not query:
        return []
    found, seen = [], set()
    for choice, score, _ in process.extract(query, catalogue.name_choices(), scorer=fuzz.WRatio,
                                            limit=limit * 3, score_cutoff=score_cutoff):
        for card in catalogue._by_name[choice]:
            if card.key not in seen:
                seen.add(card.key)
                found.append((card, score))
    return found[:limit]


def queries(catalogue, count: int, seed: int) -> list[str]:
    """Misspelt, cut and mixed names, unknown words and odd shapes, reproducibly."""
    rng = random.Random(seed)
    names = sorted(c.name for c in catalogue)
    asked = ["dragon zq0x", "zzzz", "a", "x", "the the", "fire fire bird", "q" * 60, "kass's charm",
             "dragon", "of the", "1", "Æther", "  ", "&", "zq0x dragon dragon"]
    for _ in range(count):
        name = normalize_name(rng.choice(names)) or "a"
        kind = rng.randrange(7)
        text = list(name)
        if kind == 0:  # typos
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(len(text))
                op = rng.randrange(3)
                if op == 0:
                    text[i] = rng.choice(LETTERS)
                elif op == 1 and len(text) > 1:
                    del text[i]
                else:
                    text.insert(i, rng.choice(LETTERS))
            asked.append("".join(text))
        elif kind == 1:  # the start of a name
            asked.append(name[:rng.randint(1, len(name))])
        elif kind == 2:  # one word of it
            asked.append(rng.choice(name.split()))
        elif kind == 3:  # a word of it and an unknown word
            asked.append(f"{rng.choice(name.split())} zq{rng.randrange(100)}x")
        elif kind == 4:  # words of two names
            other = normalize_name(rng.choice(names)) or "b"
            asked.append(f"{rng.choice(name.split())} {rng.choice(other.split())}")
        elif kind == 5:  # made-up words
            asked.append(" ".join("".join(rng.choice(LETTERS[:36]) for _ in range(rng.randint(1, 9)))
                                  for _ in range(rng.randint(1, 3))))
        else:  # words shuffled, one repeated now and then
            words = name.split()
            rng.shuffle(words)
            if rng.random() < 0.3:
                words.append(words[0])
            asked.append(" ".join(words))
    return asked


@pytest.mark.parametrize("slug", game_slugs())
def test_suggestions_are_those_of_scoring_every_name(slug):
    catalogue = load_catalogue(slug)
    for q in queries(catalogue, 300, seed=len(slug)):
        for limit, cutoff in ((3, 60), (5, 60), (3, 80)):
            got = [(c.key, s) for c, s in catalogue.suggest(q, limit=limit, score_cutoff=cutoff)]
            want = [(c.key, s) for c, s in every_name_scored(catalogue, q, limit, cutoff)]
            assert got == want, (q, limit, cutoff)


@pytest.mark.parametrize("slug", game_slugs())
def test_no_name_reaching_the_cutoff_is_left_out(slug):
    catalogue = load_catalogue(slug)
    bounds = NameBounds(catalogue.name_choices())
    for q in queries(catalogue, 300, seed=7 * len(slug)):
        query = normalize_name(q)
        if not query:
            continue
        kept = set(bounds.candidates(query, 60))
        for choice, score, _ in process.extract(query, catalogue.name_choices(), scorer=fuzz.WRatio,
                                                limit=None, score_cutoff=60):
            assert choice in kept, (q, choice, score)


@pytest.mark.parametrize("slug", game_slugs())
def test_names_holding_a_part_are_those_found_name_by_name(slug):
    from deckhub.core.search import _index
    catalogue = load_catalogue(slug)
    index = _index(catalogue)
    rng = random.Random(3)
    parts = ["a", "e", "zz", "dragon", "of", "zq0x", "qqqqqqqqqqqq"]
    for comp in rng.sample(index.all_compact, min(150, len(index.all_compact))):
        i = rng.randrange(len(comp))
        parts.append(comp[i:i + rng.randint(1, 8)] or "a")
        parts.append(comp)
    for q in queries(catalogue, 150, seed=11):
        parts.append(normalize_name(q).replace(" ", "") or "b")
    for part in parts:
        assert index.containing(part) == [j for j, comp in enumerate(index.all_compact) if part in comp], part


def every_word_scored(index, token: str) -> dict:
    """search._word_scores as it was: ratio against every sized word and start."""
    from deckhub.core.search import WORD_CUTOFF
    scores = {}
    sized = index.sized_for(len(token))
    for _, score, i in process.extract(token, sized, scorer=fuzz.ratio, score_cutoff=WORD_CUTOFF, limit=None):
        scores[sized[i]] = score
    for length in (len(token), len(token) + 1):
        starts, owners = index.starts(length)
        for _, score, i in process.extract(token, starts, scorer=fuzz.ratio, score_cutoff=WORD_CUTOFF, limit=None):
            for word in owners[i]:
                if score > scores.get(word, 0):
                    scores[word] = score
    return scores


@pytest.mark.parametrize("slug", game_slugs())
def test_near_words_are_those_of_scoring_every_word(slug):
    from deckhub.core.search import _index, _word_scores
    catalogue = load_catalogue(slug)
    index = _index(catalogue)
    for q in queries(catalogue, 300, seed=5):
        for token in normalize_name(q).split():
            assert list(_word_scores(index, token).items()) == list(every_word_scored(index, token).items()), token


@pytest.mark.parametrize("slug", game_slugs())
def test_no_name_within_the_plain_ratio_cutoff_is_left_out(slug):
    from deckhub.core.search import NAME_CUTOFF, _index
    index = _index(load_catalogue(slug))
    bounds = NameBounds(index.all_names, whole_only=True)
    for q in queries(load_catalogue(slug), 200, seed=13):
        query = normalize_name(q)
        kept = set(bounds.kept(query, NAME_CUTOFF))
        for _, score, j in process.extract(query, index.all_names, scorer=fuzz.ratio, score_cutoff=NAME_CUTOFF,
                                           limit=None):
            assert j in kept, (q, index.all_names[j], score)

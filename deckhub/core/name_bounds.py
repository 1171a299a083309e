"""Which catalogue names can still reach a "did you mean" cutoff, found without scoring them all.

`Catalogue.suggest` scores names with rapidfuzz's WRatio. Every part of that score compares the
two names' letters (the whole names, their words sorted, or the shorter one against a stretch of
the longer), so it cannot exceed a bound worked out from how many letters the two names have in
common (a letter counted as often as both names hold it) and their lengths:

- the whole-name and sorted-words ratios are at most 200·C / (l1 + l2);
- the partial ratios (used when one name is 1.5 times the other's length) are at most
  200·C / (ls + C), ls the shorter length, scaled down by 0.9 (or more, for very unequal lengths:
  the bound keeps 0.9).

Two exceptions are scored always: names sharing a whole word with the query (the word-set ratios
then reach 100), and names repeating a word (the word-set ratios drop repeats, which shortens
them). A query repeating a word is scored against every name.

The common-letter count of the query against every name is added up at once, one bit per name,
in Python integers used as bit vectors (`_Bits`), so asking costs a few dozen integer operations
instead of a thousand scorer calls. Names kept stay in their order, so rapidfuzz ranks them (ties
included) exactly as it ranks the whole list.
"""
from __future__ import annotations

import math
from collections import Counter
from itertools import compress

from deckhub.core.caches import LRU

_MARGIN = 1e-6  # a name is left out only when its bound is below the cutoff by more than this
_ABOVE_ALL = 101  # a cutoff no score reaches: only the names always scored are kept
_BANDS_KEPT = 512  # (query length, cutoff) pairs whose length bands are kept
_SELECT = bytes.maketrans(b"01", b"\x00\x01")


def _bound(common: int, l1: int, l2: int, whole_only: bool = False) -> float:
    """The highest WRatio (with `whole_only`, plain ratio) two names of lengths l1, l2 with
    `common` letters in common can score."""
    if not l1 or not l2:
        return 0.0
    whole = 200.0 * common / (l1 + l2)
    short, long = min(l1, l2), max(l1, l2)
    if whole_only or long / short < 1.5:
        return whole
    return max(whole, 0.9 * 200.0 * common / (short + common))  # 0.9: the larger of WRatio's two scales


class NameBounds:
    """Bit-vector index of `names` (normalized, one space between words): per letter and count,
    the names holding that letter at least that often; per length and per word, the names.
    With `whole_only`, the bound is that of rapidfuzz's plain ratio (words are not looked at)."""

    def __init__(self, names: list[str], whole_only: bool = False):
        self.names = names
        self.whole_only = whole_only
        self.all = (1 << len(names)) - 1
        self.at_least: dict[str, list[int]] = {}  # letter -> [names holding it >= 1, >= 2, ...]
        self.by_length: dict[int, int] = {}
        self.by_word: dict[str, int] = {}
        self.always = 0  # names repeating a word
        self._bands: LRU[list[tuple[int, int]]] = LRU(_BANDS_KEPT)
        for i, name in enumerate(names):
            bit = 1 << i
            for letter, count in Counter(name).items():
                masks = self.at_least.setdefault(letter, [])
                while len(masks) < count:
                    masks.append(0)
                for k in range(count):
                    masks[k] |= bit
            self.by_length[len(name)] = self.by_length.get(len(name), 0) | bit
            words = [] if whole_only else name.split()
            if len(set(words)) < len(words):
                self.always |= bit
            for w in set(words):
                self.by_word[w] = self.by_word.get(w, 0) | bit

    def candidates(self, query: str, score_cutoff: float) -> list[str]:
        """The names whose WRatio against `query` (normalized) may reach `score_cutoff`, in order."""
        kept = self._kept(query, score_cutoff)
        names = self.names
        return names if kept is None else [names[i] for i in _positions(kept, len(names))]

    def best(self, query: str, limit: int, score_cutoff: float, scorer, extract) -> list[tuple[str, float]]:
        """What `extract(query, names, scorer=scorer, limit=limit, score_cutoff=score_cutoff)` finds
        (names and scores, best first, ties in list order), scoring only names that can make it:
        first the names sharing a word with the query; the last of the `limit` best of those sets
        the score the others must be able to reach (a whole number at most it, so the bands
        computed for it are kept and reused)."""
        first = self.kept(query, _ABOVE_ALL)
        found = [(score, first[k], choice) for choice, score, k in extract(
            query, [self.names[i] for i in first], scorer=scorer, limit=limit, score_cutoff=score_cutoff)]
        floor = max(score_cutoff, math.floor(found[-1][0])) if len(found) == limit else score_cutoff
        scored = set(first)
        others = [i for i in self.kept(query, floor) if i not in scored]
        found += [(score, others[k], choice) for choice, score, k in extract(
            query, [self.names[i] for i in others], scorer=scorer, limit=limit, score_cutoff=floor)]
        found.sort(key=lambda f: (-f[0], f[1]))
        return [(choice, score) for score, _, choice in found[:limit]]

    def kept(self, query: str, score_cutoff: float) -> list[int]:
        """The positions of `candidates(query, score_cutoff)` in `names`."""
        kept = self._kept(query, score_cutoff)
        return list(range(len(self.names))) if kept is None else _positions(kept, len(self.names))

    def _kept(self, query: str, score_cutoff: float) -> int | None:
        """The names kept, one bit each (None: every name). Letters are counted only when some
        length can reach the cutoff (`best` first asks for the names sharing a word, no count)."""
        words = [] if self.whole_only else query.split()
        if score_cutoff <= 0 or not query or len(set(words)) < len(words):
            return None
        kept = self.always
        for w in words:
            kept |= self.by_word.get(w, 0)
        bands = self._bands.get_or_build((len(query), score_cutoff), lambda: self._banded(len(query), score_cutoff))
        if bands:
            counter = _Bits()
            for letter, count in Counter(query).items():
                for mask in self.at_least.get(letter, ())[:count]:
                    counter.add(mask)
            for least, band in bands:
                kept |= band & counter.at_least(least)
        kept &= self.all
        return None if kept == self.all else kept

    def _banded(self, length: int, score_cutoff: float) -> list[tuple[int, int]]:
        """(fewest common letters, names of the lengths needing that many) for a query's length."""
        bands: dict[int, int] = {}
        for other, band in self.by_length.items():
            least = _least_common(length, other, score_cutoff, self.whole_only)
            if least is not None:
                bands[least] = bands.get(least, 0) | band
        return sorted(bands.items())


def _positions(mask: int, size: int) -> list[int]:
    """The set bits of `mask` (below `size`), lowest first: bit by bit when few are set (a query
    keeps few names), else through one byte a name."""
    if mask.bit_count() * 16 > size:
        return list(compress(range(size), bin(mask)[:1:-1].encode().translate(_SELECT)))
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _least_common(l1: int, l2: int, score_cutoff: float, whole_only: bool = False) -> int | None:
    """The fewest common letters with which names of lengths l1, l2 may reach the cutoff (None: never)."""
    top = min(l1, l2)
    if _bound(top, l1, l2, whole_only) < score_cutoff - _MARGIN:
        return None
    low, high = 0, top  # _bound grows with the common count: the first count reaching the cutoff
    while low < high:
        mid = (low + high) // 2
        if _bound(mid, l1, l2, whole_only) < score_cutoff - _MARGIN:
            low = mid + 1
        else:
            high = mid
    return low


class _Bits:
    """A count per name, kept as binary digits in bit planes (plane k holds bit k of every count)."""

    def __init__(self):
        self.planes: list[int] = []

    def add(self, mask: int) -> None:
        """Add one to the count of every name in `mask`."""
        carry, k = mask, 0
        while carry:
            if k == len(self.planes):
                self.planes.append(0)
            plane = self.planes[k]
            self.planes[k], carry = plane ^ carry, plane & carry
            k += 1

    def at_least(self, least: int) -> int:
        """The names whose count is at least `least`, as a mask (may hold bits past the last name)."""
        if least <= 0:
            return -1
        if least.bit_length() > len(self.planes):
            return 0
        greater, equal = 0, -1
        for k in range(len(self.planes) - 1, -1, -1):
            plane = self.planes[k]
            if (least >> k) & 1:
                equal &= plane
            else:
                greater |= equal & plane
                equal &= ~plane
        return greater | equal

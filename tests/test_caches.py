"""The one bounded cache (core.caches.LRU) and what is kept per catalogue and per database: when
full, the value used least recently goes, never everything; nothing is keyed by `id()`."""
from __future__ import annotations

import gc
import threading

from peewee import SqliteDatabase

from deckhub.core.caches import LRU
from deckhub.core.cards import Card, Catalogue
from deckhub.store.db import database, database_key


def test_a_full_cache_drops_only_the_value_used_least_recently():
    kept = LRU(3)
    for key in "abc":
        kept.put(key, key.upper())
    assert kept.get("a") == "A"  # used: "b" is now the oldest
    kept.put("d", "D")
    assert sorted(kept.keys()) == ["a", "c", "d"] and len(kept) == 3
    assert kept.get("b") is None and kept.get("b", "none") == "none"


def test_a_cache_of_sized_values_keeps_what_fits_and_never_one_larger_than_itself():
    kept = LRU(10, len)
    for key, value in (("a", "aaaa"), ("b", "bbbb"), ("c", "cc")):
        kept.put(key, value)
    assert sorted(kept.keys()) == ["a", "b", "c"]
    kept.put("d", "dd")  # 12 characters: "a", used least recently, goes
    assert sorted(kept.keys()) == ["b", "c", "d"]
    assert kept.put("e", "e" * 11) == "e" * 11 and kept.get("e") is None and len(kept) == 3


def test_get_many_gives_the_values_held_and_counts_as_a_use():
    kept = LRU(3)
    for key in "abc":
        kept.put(key, key.upper())
    assert kept.get_many(["a", "x", "b"]) == {"a": "A", "b": "B"}
    kept.put("d", "D")  # "c" was used least recently
    assert sorted(kept.keys()) == ["a", "b", "d"]


def test_get_or_build_builds_once_per_key():
    kept, built = LRU(8), []
    for _ in range(3):
        assert kept.get_or_build("k", lambda: built.append(1) or "v") == "v"
    assert built == [1]
    assert kept.get_or_build("none", lambda: None) is None and "none" in kept.keys()  # None is a value too


def test_threads_sharing_one_cache_never_see_it_break():
    kept, errors = LRU(50), []

    def work(n: int) -> None:
        try:
            for i in range(3000):
                kept.get_or_build((n, i % 120), lambda: i)
                kept.get((n + 1, i % 120))
        except Exception as exc:  # noqa: BLE001 (any failure is the finding)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [] and len(kept) == 50


def test_a_catalogue_family_with_a_limit_keeps_the_values_used_most_recently():
    catalogue = Catalogue("kaijudo", [Card("a", "kaijudo", "A")])
    built = []

    def value(key):
        return catalogue.memo_each("family", key, lambda: built.append(key) or key.upper(), limit=2)

    assert [value(k) for k in ("x", "y", "x", "z")] == ["X", "Y", "X", "Z"]  # "y" was used least recently
    assert value("x") == "X" and built == ["x", "y", "z"]
    assert value("y") == "Y" and built == ["x", "y", "z", "y"]


def test_each_database_has_its_own_number_never_given_again():
    saved = database.obj
    try:
        numbers = []
        for _ in range(3):
            db = SqliteDatabase(":memory:")
            database.initialize(db)
            numbers.append(database_key())
            assert database_key() == numbers[-1]
            del db
            database.initialize(saved)
            gc.collect()  # the database is gone: its id() may be given to the next one, its number is not
        assert len(set(numbers)) == 3
    finally:
        database.initialize(saved)

"""The one bounded cache of DeckHub: a maintained LRU cache (cachetools') behind a lock.

What is derived from an immutable catalogue lives on the catalogue (`Catalogue.memo`), and a
family of such values keyed by what users send is one of these, kept there (`memo_each`'s
`limit`); whatever else a worker keeps is one of these too. When one is full, the value used
least recently goes, never everything at once. gunicorn serves a worker's requests on several
threads and cachetools' caches are not thread-safe (even a read reorders the list), so every
access holds the lock; a value is built outside it, and two threads may both build one.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

from cachetools import LRUCache

V = TypeVar("V")
_MISSING: Any = object()


class LRU(Generic[V]):
    """At most `maxsize` values by key (with `getsizeof`, values whose sizes sum to at most
    `maxsize`; a larger value is not kept); the least recently used goes first."""

    __slots__ = ("_entries", "_lock")

    def __init__(self, maxsize: int, getsizeof: Callable[[V], int] | None = None):
        self._entries: LRUCache = LRUCache(maxsize, getsizeof)
        self._lock = threading.Lock()

    def get(self, key: Hashable, default: Any = None) -> Any:
        with self._lock:
            try:
                return self._entries[key]  # (a third faster than cachetools' own get)
            except KeyError:
                return default

    def get_many(self, keys: Iterable[Hashable]) -> dict[Hashable, V]:
        """The values of those of `keys` it holds, for one taking of the lock."""
        entries, found = self._entries, {}
        with self._lock:
            for key in keys:
                if key in entries:
                    found[key] = entries[key]
        return found

    def put(self, key: Hashable, value: V) -> V:
        with self._lock:
            try:
                self._entries[key] = value
            except ValueError:  # larger than the whole cache: not kept
                pass
        return value

    def get_or_build(self, key: Hashable, build: Callable[[], V]) -> V:
        value = self.get(key, _MISSING)
        return self.put(key, build()) if value is _MISSING else value

    def keys(self) -> list[Hashable]:
        with self._lock:
            return list(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

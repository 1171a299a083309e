"""Card search and set listings over an in-memory `Catalogue` (no Flask, no database).

`search_cards(catalogue, game_spec, q, filters)` is the one search every page and the API use.
Name matching, best first:

1. the whole name (or "name, version", or an alias) equals the query once normalized;
2. every query word starts a word of the name ("argus vigil" finds "Argus, Vigilant Seer");
3. the query, spaces removed, is a substring of the name ("hydrospy", "zooka");
4. with `in_text`, every query word starts a word of the rules text;
5. fuzzy: every query word is within a small typo of a word of the name ("argus vigilent",
   "tatsurian"), or the whole name is within a few edits of the query (rapidfuzz), ranked by score.

Filters are driven by the game's `FieldSpec`s: an "int" field takes a range (`{"min": 3, "max": 5}`,
`(3, 5)` or an exact `4`; keys `level_min`/`level_max` work too), a "str" or "list" field takes one
value or a list of values (any of them matches, case-insensitively). `set` takes a set code, or
`UNKNOWN_SET` for cards with no known printing; `type` takes a card type. An unknown value never
matches a range. Everything that can be worked out once per catalogue (normalized names, word
lists, choices, set listings) is kept in an index cached by catalogue object.
"""
from __future__ import annotations

import math
import re
import threading
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from rapidfuzz import fuzz, process

from deckhub.core.caches import LRU
from deckhub.core.cards import Card, Catalogue, Printing, normalize_name
from deckhub.core.name_bounds import NameBounds

UNKNOWN_SET = "_unknown"  # the `set` filter value for cards with no known printing
WORD_CUTOFF = 80          # rapidfuzz ratio a query word needs against a name word (typos)
NAME_CUTOFF = 85          # rapidfuzz ratio the whole query needs against a whole name
MIN_FUZZY_WORD = 4        # shorter query words must match a word's start exactly
RESULTS_KEPT = 256        # distinct searches whose results a catalogue keeps (popular ones repeat)
WORDS_KEPT = 256          # query words whose matches a catalogue keeps (searches share words: "dragon b"...)

# Ranking tiers (lower is better)
EXACT, WORD_PREFIX, SUBSTRING, TEXT, FUZZY = range(5)


class FilterError(ValueError):
    """A filter value that cannot be used (not a number, unknown set...)."""


# ---------------------------------------------------------------- the per-catalogue index

@dataclass
class _Entry:
    card: Card
    names: tuple[str, ...]             # normalized display name, name, aliases
    words: tuple[tuple[str, ...], ...]  # words of each name
    compact: tuple[str, ...]           # each name without spaces
    sort_key: tuple = ()


@dataclass
class SetRow:
    """One line of a set's checklist: a printing and the card it prints."""

    number: str | None
    card: Card
    printing: Printing


@dataclass
class _Index:
    entries: list[_Entry]
    by_key: dict[str, _Entry]
    vocabulary: list[str]                 # every distinct word of every name
    word_owners: dict[str, list[int]]     # word -> indexes of entries with it in a name
    all_names: list[str]                  # one normalized name per (entry, name) pair
    all_compact: list[str]                # the same without spaces
    name_owner: list[int]                 # the entry index of each of all_names
    exact: dict[str, list[int]]           # normalized name -> entries
    text_vocabulary: list[str]            # every distinct word of every rules text, sorted
    text_owners: dict[str, list[int]]
    set_rows: dict[str, list[SetRow]]
    no_printing: list[Card]
    _truncated: dict[int, list[str]] = field(default_factory=dict)
    _sized: dict[int, list[str]] = field(default_factory=dict)
    _starts: dict[int, tuple[list[str], list[list[str]]]] = field(default_factory=dict)
    _joined: tuple[str, list[int]] | None = None
    _bounds: dict[tuple, NameBounds] = field(default_factory=dict)
    words: LRU = field(default_factory=lambda: LRU(WORDS_KEPT))  # see `_word_matches`

    def bounds(self, key: tuple, words: list[str]) -> NameBounds:
        """The letter-count index of `words` (one of the lists above, named by `key`): which of
        them can reach a plain-ratio cutoff against a query word, without scoring them all."""
        found = self._bounds.get(key)
        if found is None:
            found = self._bounds[key] = NameBounds(words, whole_only=True)
        return found

    def containing(self, part: str) -> list[int]:
        """Indexes (in order) of the compact names holding `part`, found by searching them all
        joined in one string (a line each) rather than name by name."""
        if self._joined is None:
            starts, n = [], 0
            for comp in self.all_compact:
                starts.append(n)
                n += len(comp) + 1
            self._joined = ("\n".join(self.all_compact), starts)
        text, starts = self._joined
        found: list[int] = []
        at = text.find(part)
        while at >= 0:
            j = bisect_right(starts, at) - 1
            found.append(j)
            at = text.find(part, starts[j + 1]) if j + 1 < len(starts) else -1
        return found

    def truncated(self, length: int) -> list[str]:
        """The vocabulary cut to `length` characters (a word typed half-way, with a typo)."""
        found = self._truncated.get(length)
        if found is None:
            found = self._truncated[length] = [w[:length] for w in self.vocabulary]
        return found

    def sized_for(self, length: int) -> list[str]:
        """The words a query word of `length` characters can be within WORD_CUTOFF of: rapidfuzz's
        ratio is 200·matches/(both lengths), so a word much shorter or longer never reaches it."""
        found = self._sized.get(length)
        if found is None:
            found = self._sized[length] = [w for w in self.vocabulary
                                           if 200 * min(length, len(w)) >= WORD_CUTOFF * (length + len(w))]
        return found

    def starts(self, length: int) -> tuple[list[str], list[list[str]]]:
        """The distinct starts of `length` characters of the words longer than that, each with its
        words (a word no longer than `length` is its own start: `sized_for` holds it)."""
        found = self._starts.get(length)
        if found is None:
            owners: dict[str, list[str]] = {}
            for w in self.vocabulary:
                if len(w) > length:
                    owners.setdefault(w[:length], []).append(w)
            found = self._starts[length] = (list(owners), list(owners.values()))
        return found


_lock = threading.Lock()  # one index build at a time: the others wait for it rather than build it again


def _natural_key(number: str | None) -> tuple:
    """Collector numbers in print order: "2" < "10" < "10a" < "P1"; missing numbers last."""
    if not number:
        return (2, ())
    parts = re.findall(r"\d+|\D+", number)
    return (0 if parts[0].isdecimal() else 1,
            tuple((0, int(p), "") if p.isdecimal() else (1, 0, p.casefold()) for p in parts))


def _card_sort_key(card: Card) -> tuple:
    return (normalize_name(card.name), normalize_name(card.version or ""), card.key)


def _build_index(catalogue: Catalogue) -> _Index:
    entries: list[_Entry] = []
    word_owners: dict[str, list[int]] = {}
    all_names: list[str] = []
    name_owner: list[int] = []
    exact: dict[str, list[int]] = {}
    text_owners: dict[str, list[int]] = {}
    set_rows: dict[str, list[SetRow]] = {code: [] for code in catalogue.sets}
    no_printing: list[Card] = []
    for i, card in enumerate(catalogue):
        names = list(dict.fromkeys(n for n in (normalize_name(card.display_name), normalize_name(card.name),
                                               *(normalize_name(a) for a in card.aliases)) if n))
        words = tuple(tuple(n.split()) for n in names)
        entry = _Entry(card, tuple(names), words, tuple(n.replace(" ", "") for n in names), _card_sort_key(card))
        entries.append(entry)
        for n in names:
            all_names.append(n)
            name_owner.append(i)
            exact.setdefault(n, []).append(i)
        for w in set(normalize_name(card.text or "").split()):
            text_owners.setdefault(w, []).append(i)
        for w in {w for ws in words for w in ws}:
            word_owners.setdefault(w, []).append(i)
        for p in card.printings:
            set_rows.setdefault(p.set_code, []).append(SetRow(p.number, card, p))
        if not card.printings:
            no_printing.append(card)
    for rows in set_rows.values():
        rows.sort(key=lambda r: (_natural_key(r.number), normalize_name(r.card.name)))
    no_printing.sort(key=_card_sort_key)
    return _Index(entries, {e.card.key: e for e in entries}, sorted(word_owners), word_owners,
                  all_names, [n.replace(" ", "") for n in all_names], name_owner, exact,
                  sorted(text_owners), text_owners, set_rows, no_printing)


def _index(catalogue: Catalogue) -> _Index:
    """The search index of a catalogue, kept on it (see `Catalogue.memo`)."""
    def build() -> _Index:
        with _lock:
            return catalogue.memo("search.index.built", lambda: _build_index(catalogue))
    return catalogue.memo("search.index", build)


# ---------------------------------------------------------------- filters

def _fields(game_spec) -> dict[str, Any]:
    return {f.key: f for f in getattr(game_spec, "fields", ()) if f.filter and f.kind in ("int", "str", "list")}


def _as_int(value: Any, what: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise FilterError(f"{what}: {value!r} is not a number")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = str(value).strip()
    if re.fullmatch(r"[+-]?\d{1,12}", text):
        return int(text)
    raise FilterError(f"{what}: {str(value)[:40]!r} is not a whole number")


def normalize_filters(game_spec, filters: Mapping[str, Any] | None) -> dict[str, Any]:
    """Filters in their canonical form, or FilterError naming the first unusable value.

    `{"level": 4, "power_value_min": "3000", "civilizations": "light", "type": "Creature"}` becomes
    `{"level": (4, 4), "power_value": (3000, None), "civilizations": ("light",), "type": "Creature"}`.
    Keys that are neither a field of the game nor `set`/`type`/`in_text` are ignored.
    """
    out: dict[str, Any] = {}
    fields = _fields(game_spec)
    for key, value in (filters or {}).items():
        if value is None or value == "" or value == ():
            continue
        if key in ("set", "type"):
            text = str(value).strip()
            if text:
                out[key] = text
        elif key == "in_text":
            out[key] = value not in (False, 0, "0", "false", "off", "no")
        elif key in fields and fields[key].kind == "int":
            label = fields[key].label
            if isinstance(value, Mapping):
                lo, hi = _as_int(value.get("min"), f"{label} from"), _as_int(value.get("max"), f"{label} to")
            elif isinstance(value, (tuple, list)) and len(value) == 2:
                lo, hi = _as_int(value[0], f"{label} from"), _as_int(value[1], f"{label} to")
            else:
                lo = hi = _as_int(value, label)
            _merge_range(out, key, lo, hi)
        elif key in fields:
            values = [value] if isinstance(value, str) else list(value)
            values = tuple(v.strip() for v in map(str, values) if str(v).strip())
            if values:
                out[key] = values
        elif key.endswith(("_min", "_max")) and key[:-4] in fields and fields[key[:-4]].kind == "int":
            base = key[:-4]
            bound = _as_int(value, f"{fields[base].label} {'from' if key.endswith('_min') else 'to'}")
            _merge_range(out, base, bound if key.endswith("_min") else None, bound if key.endswith("_max") else None)
    return out


def _merge_range(out: dict, key: str, lo: int | None, hi: int | None) -> None:
    old_lo, old_hi = out.get(key, (None, None))
    lo = lo if lo is not None else old_lo
    hi = hi if hi is not None else old_hi
    if lo is not None or hi is not None:
        out[key] = (lo, hi)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)) and not (isinstance(value, float) and math.isnan(value)):
        return value
    return None


def _filter_predicates(game_spec, catalogue: Catalogue, filters: Mapping[str, Any]):
    fields = _fields(game_spec)
    checks = []
    for key, value in filters.items():
        if key == "set":
            if value == UNKNOWN_SET:
                checks.append(lambda c: not c.printings)
            else:
                checks.append(lambda c, code=value: any(p.set_code == code for p in c.printings))
        elif key == "type":
            wanted = value.casefold()
            checks.append(lambda c, wanted=wanted: (c.type or "").casefold() == wanted)
        elif key in fields and fields[key].kind == "int":
            lo, hi = value

            def in_range(c, key=key, lo=lo, hi=hi):
                n = _number(c.attrs.get(key))
                return n is not None and (lo is None or n >= lo) and (hi is None or n <= hi)
            checks.append(in_range)
        elif key in fields:
            wanted = {normalize_name(v) for v in value}

            def has_value(c, key=key, wanted=wanted):
                got = c.attrs.get(key)
                if got is None:
                    return False
                items = got if isinstance(got, (list, tuple)) else [got]
                return any(normalize_name(str(v)) in wanted for v in items)
            checks.append(has_value)
    return checks


# ---------------------------------------------------------------- name matching

def _word_scores(index: _Index, token: str) -> dict[str, float]:
    """Name words within a small typo of `token` (whole word, or the word's start), with scores."""
    scores: dict[str, float] = {}
    sized = index.bounds(("sized", len(token)), index.sized_for(len(token))).candidates(token, WORD_CUTOFF)
    for word, score, _ in process.extract(token, sized, scorer=fuzz.ratio, score_cutoff=WORD_CUTOFF, limit=None):
        scores[word] = score
    for length in (len(token), len(token) + 1):  # each distinct start once, for all its words
        starts, owners = index.starts(length)
        kept = index.bounds(("starts", length), starts).kept(token, WORD_CUTOFF)
        for _, score, k in process.extract(token, [starts[i] for i in kept], scorer=fuzz.ratio,
                                           score_cutoff=WORD_CUTOFF, limit=None):
            for word in owners[kept[k]]:
                if score > scores.get(word, 0):
                    scores[word] = score
    return scores


def _starting(vocabulary: list[str], owners: dict[str, list[int]], prefix: str) -> set[int]:
    """Entries having a word that starts with `prefix` (the vocabulary is sorted: a bisect finds them)."""
    found: set[int] = set()
    i = bisect_left(vocabulary, prefix)
    while i < len(vocabulary) and vocabulary[i].startswith(prefix):
        found.update(owners[vocabulary[i]])
        i += 1
    return found


def _substring_at_word(name: str, compact: str, query: str) -> int | None:
    """Where `query` (spaces removed) sits in `compact`, if it lies inside one word or starts at a word."""
    pos = compact.find(query)
    if pos < 0:
        return None
    if any(query in w for w in name.split()):
        return pos
    starts, n = set(), 0
    for w in name.split():
        starts.add(n)
        n += len(w)
    return pos if pos in starts else None


def _word_matches(index: _Index, token: str, fuzzy: bool) -> tuple[set[int], dict[int, float]]:
    """(entries with a name word starting with `token`, with `fuzzy` also {entry: its best score}
    for the entries with a name word within a small typo of it, exact starts scoring 100): a function
    of the catalogue and the one word, kept on its index, so a search reusing a word of an earlier
    one does not score the vocabulary for it again. Read only: callers share the values."""
    def build() -> tuple[set[int], dict[int, float]]:
        starting = _starting(index.vocabulary, index.word_owners, token)
        owners: dict[int, float] = {}
        if fuzzy:
            if len(token) >= MIN_FUZZY_WORD:
                for word, score in _word_scores(index, token).items():
                    for i in index.word_owners[word]:
                        if score > owners.get(i, 0):
                            owners[i] = score
            for i in starting:  # exact word starts count fully
                owners[i] = 100.0
        return starting, owners
    return index.words.get_or_build((token, fuzzy), build)


def _rank(index: _Index, q: str, in_text: bool, allowed: set[int] | None) -> list[tuple[tuple, _Entry]]:
    """(sort key, entry) for every entry matching `q`; `allowed` limits the entries considered."""
    query = normalize_name(q)
    tokens = query.split()
    if not tokens:
        return []
    compact = query.replace(" ", "")
    ranked: dict[int, tuple] = {}

    def offer(i: int, key: tuple) -> None:
        if (allowed is None or i in allowed) and (i not in ranked or key < ranked[i][:len(key)]):
            ranked[i] = key + index.entries[i].sort_key

    for i in index.exact.get(query, ()):
        offer(i, (EXACT, 0, 0, 0))
    matched = [_word_matches(index, t, len(compact) >= MIN_FUZZY_WORD) for t in tokens]
    prefixed = [starting for starting, _ in matched]
    for i in set.intersection(*prefixed):
        e = index.entries[i]
        starts = any(n.startswith(query) for n in e.names)
        first = min((j for ws in e.words for j, w in enumerate(ws) if w.startswith(tokens[0])), default=0)
        offer(i, (WORD_PREFIX, 0 if starts else 1, first, len(e.words[0])))
    for j in index.containing(compact):
        pos = _substring_at_word(index.all_names[j], index.all_compact[j], compact)
        if pos is not None:
            offer(index.name_owner[j], (SUBSTRING, pos, 0, 0))
    if in_text:
        in_text_sets = [_starting(index.text_vocabulary, index.text_owners, t) for t in tokens]
        for i in set.intersection(*in_text_sets):
            offer(i, (TEXT, 0, 0, 0))

    # fuzzy: each query word near a name word, or the whole name near the whole query
    if len(compact) >= MIN_FUZZY_WORD:
        fuzzy: dict[int, float] = {}
        per_token = [near for _, near in matched]
        for i in set(per_token[0]).intersection(*per_token[1:]):
            fuzzy[i] = sum(p[i] for p in per_token) / len(per_token)
        near = index.bounds(("names",), index.all_names).kept(query, NAME_CUTOFF)
        for _, score, k in process.extract(query, [index.all_names[j] for j in near], scorer=fuzz.ratio,
                                           score_cutoff=NAME_CUTOFF, limit=None):
            i = index.name_owner[near[k]]
            if score > fuzzy.get(i, 0):
                fuzzy[i] = score
        for i, score in fuzzy.items():
            if i not in ranked:
                offer(i, (FUZZY, -score, 0, len(index.entries[i].words[0])))
    return sorted(((key, index.entries[i]) for i, key in ranked.items()), key=lambda kv: kv[0])


def search_cards(catalogue: Catalogue, game_spec, q: str = "", filters: Mapping[str, Any] | None = None) -> list[Card]:
    """Cards of `catalogue` matching the name query `q` and `filters`, best match first.

    With an empty `q`, every card passing the filters, in name order. `filters` may hold raw values
    (see `normalize_filters`); FilterError is raised for a value that cannot be used.
    """
    filters = normalize_filters(game_spec, filters)
    query = normalize_name(q or "")
    key = (query, tuple(sorted(filters.items())))
    return list(catalogue.memo_each("search.results", key, lambda: _search(catalogue, game_spec, query, filters),
                                    limit=RESULTS_KEPT))


def _search(catalogue: Catalogue, game_spec, q: str, filters: dict[str, Any]) -> tuple[Card, ...]:
    index = _index(catalogue)
    in_text = bool(filters.pop("in_text", False))
    checks = _filter_predicates(game_spec, catalogue, filters)
    if checks:
        allowed = {i for i, e in enumerate(index.entries) if all(check(e.card) for check in checks)}
    else:
        allowed = None
    if not q:
        entries = index.entries if allowed is None else [index.entries[i] for i in allowed]
        return tuple(e.card for e in sorted(entries, key=lambda e: e.sort_key))
    return tuple(e.card for _, e in _rank(index, q, in_text, allowed))


def search_games(catalogues: Iterable[tuple[Any, Catalogue]], q: str, in_text: bool = False) -> list[Card]:
    """A name search over several games at once (no game-specific filters), best match first."""
    found = []
    for n, (spec, catalogue) in enumerate(catalogues):
        for key, entry in _rank(_index(catalogue), q, in_text, None):
            found.append((key[:4], n, key[4:], entry.card))
    found.sort(key=lambda t: t[:3])
    return [t[3] for t in found]


# ---------------------------------------------------------------- browsing helpers

def filter_choices(catalogue: Catalogue, game_spec) -> dict[str, list[str]]:
    """For each choice field (and `type`), the values the catalogue's cards have, in a sensible order."""
    index = _index(catalogue)
    cached = getattr(index, "_choices", None)
    if cached is not None:
        return cached
    fields = _fields(game_spec)
    values: dict[str, dict[str, str]] = {k: {} for k, f in fields.items() if f.kind in ("str", "list")}
    types: dict[str, str] = {}
    for e in index.entries:
        card = e.card
        if card.type:
            types.setdefault(card.type.casefold(), card.type)
        for key, seen in values.items():
            got = card.attrs.get(key)
            for v in (got if isinstance(got, (list, tuple)) else [got]):
                if v not in (None, ""):
                    seen.setdefault(normalize_name(str(v)), str(v))
    order = {t.casefold(): n for n, t in enumerate(getattr(game_spec, "types", ()))}
    out = {"type": sorted(types.values(), key=lambda t: (order.get(t.casefold(), len(order)), t.casefold()))}
    for key, seen in values.items():
        out[key] = sorted(seen.values(), key=str.casefold)
    index._choices = out  # type: ignore[attr-defined]
    return out


def set_rows(catalogue: Catalogue, code: str) -> list[SetRow]:
    """A set's printings in collector-number order (KeyError for an unknown set)."""
    if code not in catalogue.sets:
        raise KeyError(code)
    return _index(catalogue).set_rows.get(code, [])


def cards_without_set(catalogue: Catalogue) -> list[Card]:
    """Cards that no known printing places in a set ("set unknown"), in name order."""
    return _index(catalogue).no_printing


@dataclass(frozen=True)
class SetSummary:
    code: str
    name: str
    size: int | None
    known: int  # printings the catalogue knows in this set

    @property
    def label(self) -> str:
        if self.size is None:
            return f"{self.known} known"
        if self.known == self.size:
            return f"{self.known} of {self.size}"
        return f"{self.known} known of {self.size}"


def set_summaries(catalogue: Catalogue) -> list[SetSummary]:
    """Every set of the catalogue in its order, with how many of its printings are known."""
    index = _index(catalogue)
    cached = getattr(index, "_summaries", None)
    if cached is None:
        ordered = sorted(catalogue.sets.values(), key=lambda s: (s.position, s.name))
        cached = [SetSummary(s.code, s.name, s.size, len(index.set_rows.get(s.code, ()))) for s in ordered]
        index._summaries = cached  # type: ignore[attr-defined]
    return cached


# ---------------------------------------------------------------- a search request, as pages and the API make it

@dataclass
class SearchRequest:
    """A search parsed from query arguments.

    `problems` says what was wrong with each value that could not be used ("Level: 'abc' is not a
    whole number"), `notices` the same as sentences for people, with what was done instead.
    """

    q: str = ""
    filters: dict[str, Any] = field(default_factory=dict)
    page: int = 1
    per_page: int = 50
    problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    def problem(self, message: str, instead: str) -> None:
        self.problems.append(message)
        self.notices.append(f"{message}; {instead}.")

    @property
    def in_text(self) -> bool:
        return bool(self.filters.get("in_text"))


@dataclass
class SearchPage:
    request: SearchRequest
    cards: list[Card]
    total: int
    suggestions: list[Card] = field(default_factory=list)

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.request.per_page))

    @property
    def first(self) -> int:
        return 0 if not self.total else (self.request.page - 1) * self.request.per_page + 1

    @property
    def last(self) -> int:
        return min(self.total, self.request.page * self.request.per_page)


def parse_request(game_spec, catalogue: Catalogue | None, args: Mapping[str, Any], per_page: int = 50,
                  max_per_page: int = 100) -> SearchRequest:
    """Read `q`, `in_text`, `set`, `type`, each filterable field (`level`, `level_min`, `level_max`,
    `civilizations`...), `page` and `per_page` from query arguments. A value that cannot be used is
    left out and described in `problems`; nothing here raises."""
    getlist = getattr(args, "getlist", None)

    def get(key: str) -> Any:
        # looked up only when sent: werkzeug's MultiDict.get raises and catches an HTTP error per
        # missing key, and a search asks for every filter of its game
        return args.get(key) if key in args else None

    req = SearchRequest(q=str(get("q") or "").strip()[:200], per_page=per_page)
    raw: dict[str, Any] = {}
    if str(get("in_text") or "") not in ("", "0", "false", "off"):
        raw["in_text"] = True
    if game_spec is not None:
        fields = _fields(game_spec)
        for key in ("set", "type"):
            if get(key):
                raw[key] = str(get(key)).strip()
        for key, f in fields.items():
            if f.kind == "int":
                for arg in (key, f"{key}_min", f"{key}_max"):
                    if str(get(arg) or "").strip():
                        raw[arg] = str(get(arg)).strip()
            else:
                values = (getlist(key) if getlist else [get(key)]) if get(key) is not None else []
                values = [v for v in values if v and str(v).strip()]
                if values:
                    raw[key] = values
        if catalogue is not None and raw.get("set") and raw["set"] != UNKNOWN_SET and raw["set"] not in catalogue.sets:
            req.problem(f"{game_spec.name} has no set {raw.pop('set')[:80]!r}", "the set filter was left out")
        for key in list(raw):  # check each value alone, so one bad value does not drop the others
            try:
                normalize_filters(game_spec, {key: raw[key]})
            except FilterError as exc:
                req.problem(str(exc), "that filter was left out")
                del raw[key]
        req.filters = raw
    elif raw:
        req.filters = raw
    req.page = _positive(get("page"), 1, "page", req)
    req.per_page = min(_positive(get("per_page"), per_page, "per_page", req), max_per_page)
    return req


def _positive(value: Any, default: int, what: str, req: SearchRequest) -> int:
    if value is None or str(value).strip() == "":
        return default
    text = str(value).strip()
    if text.isdecimal() and 0 < int(text) < 10**9:
        return int(text)
    req.problem(f"{what}: {text[:20]!r} is not a positive whole number", f"{default} was used")
    return default


def run_search(game_spec, catalogue: Catalogue, request: SearchRequest, clamp: bool = True) -> SearchPage:
    """One page of results for a parsed request, with did-you-mean suggestions when nothing matched.

    With `clamp`, a page past the end shows the last page (for people); without, it is empty (for the API).
    """
    found = search_cards(catalogue, game_spec, request.q, request.filters)
    return _page(request, found, [catalogue], clamp)


def run_search_all(catalogues: list[tuple[Any, Catalogue]], request: SearchRequest) -> SearchPage:
    """One page of a name search across several games (an empty query finds nothing)."""
    found = search_games(catalogues, request.q, request.in_text) if request.q else []
    return _page(request, found, [c for _, c in catalogues])


def _page(request: SearchRequest, found: list[Card], catalogues: list[Catalogue], clamp: bool = True) -> SearchPage:
    total = len(found)
    pages = max(1, -(-total // request.per_page))
    if clamp and request.page > pages:
        request.page = pages
    start = (request.page - 1) * request.per_page
    suggestions: list[Card] = []
    if not found and request.q:
        scored = [s for c in catalogues for s in c.suggest(request.q, limit=3)]
        scored.sort(key=lambda s: -s[1])
        suggestions = [card for card, score in scored[:3] if score >= scored[0][1] - 10]
    return SearchPage(request, found[start:start + request.per_page], total, suggestions)

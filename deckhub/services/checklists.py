"""Set checklists and the collection overview: each set's printings with what a user owns, wants
and trades, and completion per set and game (the service layer, no Flask).

A checklist reads the user's own rows of the set through the (owner, printing) index with SQL
written once per backend; the overview reads the user's sums per set (`owned_set`). The sets of a
game, their printings and printing counts are kept on its catalogue.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from peewee import JOIN, fn

from deckhub.games import all_games, get_game
from deckhub.services import owned_sets
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.collection import NOTHING, Owned, _uid
from deckhub.store import models
from deckhub.store.db import PreparedRows

CHECKLIST_FILTERS = {
    "all": ("All cards", lambda o: True),
    "owned": ("Owned", lambda o: o.total > 0),
    "missing": ("Missing", lambda o: o.total == 0),
    "duplicates": ("Duplicates", lambda o: o.total > 1),
    "wanted": ("Wanted", lambda o: o.want_quantity > 0),
    "trade": ("For trade", lambda o: o.trade_quantity > 0),
}


class ChecklistRow(NamedTuple):
    """One printing of a set with my quantities (a tuple: a page of rows unpacks it)."""
    printing_id: int
    number: str | None
    card_key: str
    display_name: str  # "name, version" when the card has a version
    rarity: str | None
    promo_code: str | None
    owned: Owned
    name: str
    version: str | None


@dataclass
class Completion:
    owned: int  # distinct printings of the set owned (foil or not)
    size: int  # the set's size (or its printings, when more are known than the size says)
    size_known: bool = True

    @property
    def percent(self) -> float:
        return 100.0 * self.owned / self.size if self.size else 0.0

    @property
    def label(self) -> str:
        return f"{self.owned} of {self.size}"


@dataclass
class Checklist:
    game: str
    game_name: str
    set_code: str
    set_name: str
    rows: list[ChecklistRow]  # after the filter
    completion: Completion
    counts: dict[str, int]  # filter name -> rows it shows
    show: str


def _denominator(size: int | None, printings: int) -> tuple[int, bool]:
    return max(size or 0, printings), size is not None


def _set_printings(game: str) -> dict[str, tuple[int, str, int | None, list[tuple]]]:
    """Each set of a game by code: (id, name, size, its printings in collector-number order as
    (printing id, number, card key, display name, rarity, promo code, name, version)). Catalogue
    data, read in one statement and kept on the catalogue: a checklist reads only my quantities."""
    S, P, C = models.CardSet, models.Printing, models.Card

    def build() -> dict[str, tuple[int, str, int | None, list[tuple]]]:
        sets: dict[str, tuple[int, str, int | None, list[tuple]]] = {}
        for set_id, code, set_name, size, pid, number, key, name, version, rarity, promo in (
                S.select(S.id, S.code, S.name, S.size, P.id, P.number, C.key, C.name, C.version, P.rarity, P.promo_code)
                .join(P, JOIN.LEFT_OUTER, on=(P.card_set == S.id)).join(C, JOIN.LEFT_OUTER, on=(P.card == C.id))
                .where(S.game == game).order_by(S.id, P.number_sort, P.number, P.position, P.id).tuples()):
            printings = sets.setdefault(code, (set_id, set_name, size, []))[3]
            if pid is not None:
                printings.append((pid, number, key, f"{name}, {version}" if version else name, rarity, promo, name, version))
        return sets
    return get_catalogue(game).memo("collection.set_printings", build)


# my quantities of the set's printings I have a row for: each printing of the set looked up in
# the (owner, printing) index (SQL written once a backend)
_MINE_IN_SET = PreparedRows(2, lambda uid, set_id: (
    models.OwnedCard.select(models.OwnedCard.printing, models.OwnedCard.quantity, models.OwnedCard.foil_quantity,
                            models.OwnedCard.want_quantity, models.OwnedCard.trade_quantity)
    .where((models.OwnedCard.owner == uid)
           & models.OwnedCard.printing.in_(models.Printing.select(models.Printing.id)
                                           .where(models.Printing.card_set == set_id)))))


def set_name(game: str, set_code: str) -> str | None:
    """The set's name (catalogue data), or None if the game has no such set."""
    found = _set_printings(game).get(set_code)
    return None if found is None else found[1]


def set_checklist(user, game: str, set_code: str, show: str = "all") -> Checklist | None:
    """Every printing of a set in collector-number order with the user's quantities; None if no such set."""
    found = _set_printings(game).get(set_code)
    if found is None:
        return None
    set_id, set_name, set_size, printings = found
    mine = {pid: Owned(q, f, w, t) for pid, q, f, w, t in _MINE_IN_SET.rows(_uid(user), set_id)}
    show = show if show in CHECKLIST_FILTERS else "all"
    rows = [ChecklistRow(pid, number, key, display_name, rarity, promo, mine.get(pid, NOTHING), name, version)
            for pid, number, key, display_name, rarity, promo, name, version in printings]
    counts = _checklist_counts(rows)
    completion = Completion(counts["owned"], *_denominator(set_size, len(rows)))
    keep = CHECKLIST_FILTERS[show][1]
    rows = rows if show == "all" else [r for r in rows if keep(r.owned)]
    return Checklist(game, get_game(game).name, set_code, set_name, rows, completion, counts, show)


def _checklist_counts(rows: list[ChecklistRow]) -> dict[str, int]:
    """How many rows each of CHECKLIST_FILTERS shows, in one pass (the same tests, written out)."""
    owned = duplicates = wanted = trade = 0
    for row in rows:
        quantity, foil, want, offered = row.owned
        owned, duplicates = owned + (quantity + foil > 0), duplicates + (quantity + foil > 1)
        wanted, trade = wanted + (want > 0), trade + (offered > 0)
    return {"all": len(rows), "owned": owned, "missing": len(rows) - owned, "duplicates": duplicates,
            "wanted": wanted, "trade": trade}


@dataclass
class SetProgress:
    code: str
    name: str
    completion: Completion


@dataclass
class GameProgress:
    slug: str
    name: str
    sets: list[SetProgress]
    completion: Completion
    totals: Owned  # copies, foils, wants and trades over the whole game

    @property
    def started(self) -> bool:
        return not self.totals.empty


def _sets_of(game: str) -> list[tuple[int, str, str, int | None, int]]:
    """(id, code, name, size, printings) of a game's sets in order: catalogue data, kept on the catalogue."""
    S, P = models.CardSet, models.Printing
    return get_catalogue(game).memo("collection.sets", lambda: list(
        S.select(S.id, S.code, S.name, S.size, fn.COUNT(P.id)).join(P, JOIN.LEFT_OUTER, on=(P.card_set == S.id))
        .where(S.game == game).group_by(S.id, S.code, S.name, S.size).order_by(S.position, S.code).tuples()))


def collection_overview(user) -> list[GameProgress]:
    """Completion per set and per game, and the user's totals, from their sets' sums (a game's totals
    are its sets'), read in one query."""
    per_set = owned_sets.per_set(_uid(user))
    result = []
    for game in all_games():
        sets = []
        quantity = foil = want = trade = 0
        for set_id, code, name, set_size, printings in _sets_of(game.slug):
            size, known = _denominator(set_size, printings)
            mine = per_set.get(set_id)
            if mine is None:
                sets.append(SetProgress(code, name, Completion(0, size, known)))
                continue
            owned, q, f, w, t = mine
            sets.append(SetProgress(code, name, Completion(int(owned), size, known)))
            quantity, foil, want, trade = quantity + int(q), foil + int(f), want + int(w), trade + int(t)
        completion = Completion(sum(s.completion.owned for s in sets), sum(s.completion.size for s in sets))
        result.append(GameProgress(game.slug, game.name, sets, completion, Owned(quantity, foil, want, trade)))
    return result

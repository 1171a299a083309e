"""Real games a deck played at a table, logged by its owner: record, list, delete, and the win
rates per deck version and per opponent, each version beside its simulated (goldfish) figures.

A deck's record is its owner's: anyone else sees it only on a public deck whose owner ticked
"show my record", and then without the free notes. Every rule and limit of a logged game is here;
the web form, the API and the backup call these functions.
"""
from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from peewee import fn

from deckhub.services import decks as deck_store
from deckhub.services.limits import MAX_GAME_NOTE, MAX_OPPONENT, MAX_PLAYED_GAMES
from deckhub.store import models
from deckhub.store.db import PreparedSelect, lock, write_transaction

RESULTS = ("win", "loss", "draw")
ORDERS = ("first", "second")
EARLIEST = dt.date(1990, 1, 1)  # before any of the games DeckHub knows was printed


class GameLogError(ValueError):
    """A game that cannot be logged as sent; nothing was written."""


@dataclass
class Tally:
    """Games, wins, losses and draws of one group of games (a version, an opponent)."""

    label: str | int
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, result: str) -> None:
        self.games += 1
        self.wins += result == "win"
        self.losses += result == "loss"
        self.draws += result == "draw"

    @property
    def win_rate(self) -> float | None:
        """Wins over games played (a draw is not a win); None before a game is logged."""
        return self.wins / self.games if self.games else None


@dataclass
class Simulated:
    """The newest finished simulation of one deck version: what goldfishing says of it."""

    run_id: int
    games: int
    win_rate: float
    median_turn: float | None


@dataclass
class History:
    """A deck's logged games, newest first, with the tallies a player compares."""

    games: list[models.PlayedGame]
    total: Tally
    by_version: list[tuple[Tally, Simulated | None]] = field(default_factory=list)
    by_opponent: list[Tally] = field(default_factory=list)
    by_order: list[Tally] = field(default_factory=list)


def record_visible(stored: deck_store.StoredDeck, user) -> bool:
    """Whether `user` may see the deck's games: its owner, or anyone on a public deck that shows them."""
    row = stored.row
    return deck_store.owns(user, row) or bool(row.is_public and row.show_record)


def _clean(stored: deck_store.StoredDeck, result: str, played_on, version: int | None, order: str | None,
           opponent: str, note: str, today: dt.date) -> dict:
    if result not in RESULTS:
        raise GameLogError("A game's result is win, loss or draw.")
    if order not in (None, "", *ORDERS):
        raise GameLogError("You went first or second (or leave it out).")
    if isinstance(played_on, str):
        try:
            played_on = dt.date.fromisoformat(played_on)
        except ValueError:
            raise GameLogError("The date a game was played is written YYYY-MM-DD.") from None
    if not isinstance(played_on, dt.date) or isinstance(played_on, dt.datetime):
        raise GameLogError("Say on which day the game was played.")
    if not EARLIEST <= played_on <= today + dt.timedelta(days=1):  # a day's grace for time zones ahead of UTC
        raise GameLogError(f"A game is played between {EARLIEST:%Y} and today.")
    latest = stored.version.number
    version = latest if version is None else version
    if isinstance(version, bool) or not isinstance(version, int) or deck_store.version(stored.row, version) is None:
        raise GameLogError(f"This deck has versions 1 to {latest}; say which one you played.")
    opponent = " ".join((opponent or "").split())
    note = (note or "").strip()
    if len(opponent) > MAX_OPPONENT:
        raise GameLogError(f"Name the opponent's deck in at most {MAX_OPPONENT} characters.")
    if len(note) > MAX_GAME_NOTE:
        raise GameLogError(f"A game's note is at most {MAX_GAME_NOTE} characters.")
    return {"result": result, "played_on": played_on, "version": version, "play_order": order or None,
            "opponent": opponent, "note": note}


def record(stored: deck_store.StoredDeck, result: str, played_on, version: int | None = None,
           order: str | None = None, opponent: str = "", note: str = "",
           today: dt.date | None = None) -> models.PlayedGame:
    """Log one real game of `stored` (its owner's, checked by the caller's lookup). `version` None is
    the latest version; at most MAX_PLAYED_GAMES a deck (counted under the deck's lock)."""
    values = _clean(stored, result, played_on, version, order, opponent, note, today or models.utcnow().date())
    with write_transaction():
        lock(f"deck:{stored.row.id}")
        P = models.PlayedGame
        if P.select().where(P.deck == stored.row.id).count() >= MAX_PLAYED_GAMES:
            raise GameLogError(f"A deck keeps at most {MAX_PLAYED_GAMES:,} games; delete old ones first.")
        game = P.create(deck=stored.row.id, **values)
    stored.row.has_games = True  # (as `decks._fetch` reads it) a history read after this sees the game
    return game


def delete(stored: deck_store.StoredDeck, game_id: int) -> bool:
    """Delete one logged game of `stored`; False when the deck has no such game."""
    P = models.PlayedGame
    with write_transaction():
        return bool(P.delete().where((P.id == game_id) & (P.deck == stored.row.id)).execute())


def set_shown(stored: deck_store.StoredDeck, shown: bool) -> None:
    """Show the deck's record on its public page (or stop showing it)."""
    deck_store.update_settings(stored, show_record=shown)


def _simulated(deck_id: int, versions: set[int]) -> dict[int, Simulated]:
    """Each version's newest finished simulation run."""
    S = models.SimulationRun
    out: dict[int, Simulated] = {}
    if not versions:
        return out
    runs = (S.select(S.id, S.version, S.games, S.result)
            .where((S.deck == deck_id) & (S.status == "done") & S.version.in_(sorted(versions)))
            .order_by(S.id.desc()))
    for run in runs:
        if run.version in out or not run.result:
            continue
        out[run.version] = Simulated(run.id, run.games, run.result.get("win_rate", 0.0),
                                     (run.result.get("win_turn") or {}).get("median"))
    return out


_GAMES = PreparedSelect(models.PlayedGame, lambda deck_id: (
    models.PlayedGame.select().where(models.PlayedGame.deck == deck_id)
    .order_by(models.PlayedGame.played_on.desc(), models.PlayedGame.id.desc())))


def history(stored: deck_store.StoredDeck) -> History:
    """The deck's logged games, newest first, and their tallies: overall, per version (each with its
    simulated figures when a run of that version finished), per opponent and per turn order."""
    # the owner's deck page reads them on every visit; a deck read with its page's statement says
    # whether it has any (`decks._fetch`), and most decks have none
    games = _GAMES.all(stored.row.id) if getattr(stored.row, "has_games", True) else []
    total = Tally("all")
    versions: dict[int, Tally] = {}
    opponents: dict[str, Tally] = {}
    orders: dict[str, Tally] = {}
    names: dict[str, Counter] = {}
    for g in games:
        total.add(g.result)
        versions.setdefault(g.version, Tally(g.version)).add(g.result)
        if g.opponent:
            key = g.opponent.casefold()  # "Fire deck" and "fire deck" are one, named as written most (newest first)
            names.setdefault(key, Counter())[g.opponent] += 1
            opponents.setdefault(key, Tally(g.opponent)).add(g.result)
        if g.play_order:
            orders.setdefault(g.play_order, Tally(g.play_order)).add(g.result)
    for key, tally in opponents.items():
        tally.label = names[key].most_common(1)[0][0]
    simulated = _simulated(stored.row.id, set(versions))
    return History(games, total,
                   [(t, simulated.get(v)) for v, t in sorted(versions.items(), reverse=True)],
                   sorted(opponents.values(), key=lambda t: (-t.games, str(t.label).casefold())),
                   [orders[o] for o in ORDERS if o in orders])


def stamp(stored: deck_store.StoredDeck) -> tuple[int, int]:
    """What changes whenever a game is logged or deleted (a kept public page's key includes it)."""
    P = models.PlayedGame
    count, newest = (P.select(fn.COUNT(P.id), fn.MAX(P.id)).where(P.deck == stored.row.id).tuples().get())
    return count, newest or 0


def export_rows(deck_row: models.Deck) -> list[dict]:
    """A deck's games as `export-user` writes them."""
    P = models.PlayedGame
    return [{"version": g.version, "played_on": g.played_on.isoformat(), "result": g.result,
             "order": g.play_order, "opponent": g.opponent, "note": g.note,
             "created_at": g.created_at.isoformat(timespec="microseconds")}
            for g in P.select().where(P.deck == deck_row).order_by(P.id)]


def import_rows(deck_row: models.Deck, rows: list[dict]) -> None:
    """Restore a deck's games from an `export-user` file (inside the import's transaction)."""
    for g in rows:
        if g["result"] not in RESULTS or g.get("order") not in (None, *ORDERS):
            raise ValueError(f"not a logged game: {g!r:.200}")
        models.PlayedGame.create(
            deck=deck_row, version=int(g["version"]), played_on=dt.date.fromisoformat(g["played_on"]),
            result=g["result"], play_order=g.get("order"), opponent=str(g.get("opponent") or "")[:MAX_OPPONENT],
            note=str(g.get("note") or "")[:MAX_GAME_NOTE],
            created_at=dt.datetime.fromisoformat(g["created_at"]) if g.get("created_at") else models.utcnow())

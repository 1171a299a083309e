"""Goldfish sessions as stored: (deck, seed, options, actions), rebuilt with `replay` on each request.

Nothing about a game's position is stored but its actions, so undo is dropping the last actions,
a restart is dropping them all, and any worker can serve any request. `step` (the number of
actions the player's page showed) guards against a stale tab posting an old board: a change made at
a step is stored only while the game is still there (compare-and-set on the row's `revision`), and
a change sent without a step is applied to the latest position, in order, never lost.
A finished game is never changed: restart, undo and a new seed on it start a new session, and the
finished one stays in the history with its replay.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Callable

from peewee import JOIN

from deckhub.services import card_values, tallies
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import EngineError, IllegalAction, get_engine, play_out, replay
from deckhub.core.state import State
from deckhub.store.db import PreparedSelect, database, is_sqlite, write_transaction
from deckhub.services.limits import MAX_SEED, seed_problem

MAX_ACTIONS = 5_000  # a session longer than any real game; stops a script from growing rows forever
POSITIONS_KEPT = 64  # replayed positions a catalogue keeps (the boards being played or watched right now)


class GoldfishError(ValueError):
    """A request the session cannot take; the message says why and nothing changed."""


@dataclass
class Game:
    session: models.GoldfishSession
    state: State

    @property
    def step(self) -> int:
        return len(self.session.actions)


def random_seed() -> int:
    return random.SystemRandom().randrange(1, MAX_SEED)


def start(owner_id: int, deck_row: models.Deck | None, deck: Deck, options: dict, seed: int | None = None) -> models.GoldfishSession:
    """Start a game; options are checked by the engine (a bad one raises GoldfishError).

    Card values given in `options["card_values"]` are kept as the player's own values; the game
    plays with all of the player's values for the deck's cards (the catalogue's known ones win).
    The game is linked to `deck_row` only when the player owns it (someone's public deck is played
    as it is now, without a link)."""
    engine = get_engine(deck.game)
    seed = random_seed() if seed is None else seed
    if problem := seed_problem(seed):
        raise GoldfishError(problem)
    catalogue = get_catalogue(deck.game)
    try:
        options, typed = card_values.game_options(owner_id, engine, deck, catalogue, options)
        options = engine.normalize_options(options)
        replay(deck.game, deck, catalogue, seed, options, [])
    except (EngineError, IllegalAction, card_values.CardValuesError) as exc:
        raise GoldfishError(str(exc)) from None
    data = deck.to_json()
    with database.atomic():
        card_values.remember(owner_id, deck.game, typed)
        own_row = deck_row if deck_row is not None and deck_row.owner_id == owner_id else None
        tallies.goldfish_games_changed(deck.game, data, 1)
        return models.GoldfishSession.create(owner=owner_id, deck=own_row, game=deck.game, deck_data=data,
                                             seed=seed, options=options, actions=[])


# a game with the name of the deck it was started from (None once that deck is deleted), in one query;
# `objects()`: the name is an attribute of the game's row, its deck column stays the deck's id
_SESSION = PreparedSelect(models.GoldfishSession, lambda session_id: (
    models.GoldfishSession.select(models.GoldfishSession, models.Deck.name.alias("deck_name"))
    .join(models.Deck, JOIN.LEFT_OUTER, on=(models.GoldfishSession.deck == models.Deck.id))
    .where(models.GoldfishSession.id == session_id).limit(1).objects()))


@dataclass(frozen=True)
class DeckLink:
    """The deck a game was started from, as its board links it."""

    id: int
    name: str


def own_session(session_id: int, user) -> models.GoldfishSession | None:
    row = _SESSION.first(session_id)
    if row is None or not getattr(user, "is_authenticated", False) or row.owner_id != user.id:
        return None
    return row


def session_deck(session: models.GoldfishSession) -> DeckLink | None:
    """The deck a game was started from, while it still exists (the board links it)."""
    if session.deck_id is None:
        return None
    name = getattr(session, "deck_name", None)
    if name is None:  # a row read without the deck's name
        name = models.Deck.select(models.Deck.name).where(models.Deck.id == session.deck_id).scalar()
    return None if name is None else DeckLink(session.deck_id, name)


def user_sessions(user, archived: bool = False, limit: int = 50) -> list[models.GoldfishSession]:
    """The player's games, last played first: those in the list, or (`archived`) those put away."""
    G = models.GoldfishSession
    return list(G.select().where((G.owner == user) & (G.archived == archived))
                .order_by(G.updated_at.desc(), G.id.desc()).limit(limit))


def archived_count(user) -> int:
    """How many of the player's games are archived (the list's "Show archived (N)")."""
    G = models.GoldfishSession
    return G.select().where((G.owner == user) & (G.archived == True)).count()  # noqa: E712 — SQL, not Python


def set_archived(session: models.GoldfishSession, archived: bool) -> None:
    """Put a game away from the list (or back): it keeps its moves, its replay and its share link."""
    G = models.GoldfishSession
    G.update(archived=archived).where(G.id == session.id).execute()
    session.archived = archived


def delete_session(session: models.GoldfishSession) -> None:
    """Delete a game for good: its moves and replay go with it (the deck it was played from stays),
    and the counts of its cards lose it (only when this call deleted it: a game is counted out once)."""
    with write_transaction():
        if models.GoldfishSession.delete().where(models.GoldfishSession.id == session.id).execute():
            tallies.goldfish_games_changed(session.game, session.deck_data, -1)


def rebuild(session: models.GoldfishSession, upto: int | None = None) -> State:
    """The position after the session's first `upto` actions (all of them by default).

    Every board, replay step and move of a game replays it from its seed; the catalogue keeps the
    last positions it replayed, keyed by everything a replay reads (deck, seed, options, actions),
    and each caller gets its own clone to change."""
    actions = session.actions if upto is None else session.actions[:upto]
    catalogue = get_catalogue(session.game)
    key = (session.game, session.seed,
           json.dumps([session.deck_data, session.options, actions], sort_keys=True, separators=(",", ":")))
    try:
        position = catalogue.memo_each("goldfish.positions", key, lambda: replay(
            session.game, Deck.from_json(session.deck_data), catalogue, session.seed, session.options, actions),
            limit=POSITIONS_KEPT)
    except (EngineError, IllegalAction, KeyError) as exc:
        raise GoldfishError(f"This game can no longer be rebuilt ({exc}); the catalogue or the rules engine "
                            "changed since it was played. Restart it or start a new game.") from None
    return position.clone()


def load(session: models.GoldfishSession) -> Game:
    return Game(session, rebuild(session))


class StaleStep(GoldfishError):
    """The game moved on from the step a change was made at; nothing was applied."""

    def __init__(self, step: int):
        super().__init__(f"This board moved on since your page was loaded (another tab, or a click sent twice): "
                         f"it is at step {step} now, and your move was not applied. Here is the current position.")
        self.step = step


def _check_step(game: Game, step: int | None) -> None:
    if step is not None and step != game.step:
        raise StaleStep(game.step)


def _store(session: models.GoldfishSession, actions: list, state: State) -> bool:
    """Write the new actions only if the game is still at the revision they were computed from (one
    conditional UPDATE); False when another change got there first and nothing was written."""
    result = state.outcome.result if state.outcome else None
    written = (models.GoldfishSession.update(actions=actions, result=result, revision=models.GoldfishSession.revision + 1,
                                             updated_at=models.utcnow())
               .where((models.GoldfishSession.id == session.id)
                      & (models.GoldfishSession.revision == session.revision)).execute())
    if written:
        session.actions, session.result, session.revision = actions, result, session.revision + 1
    return bool(written)


def _reread(game: Game, lock: bool = False) -> None:
    """Bring `game` up to the stored actions; with `lock`, hold the row until the transaction ends
    (FOR UPDATE on PostgreSQL; inside `write_transaction` SQLite holds the whole database)."""
    query = (models.GoldfishSession.select(models.GoldfishSession.actions, models.GoldfishSession.result,
                                           models.GoldfishSession.revision)
             .where(models.GoldfishSession.id == game.session.id))
    if lock and not is_sqlite():
        query = query.for_update()
    row = query.first()
    if row is None:
        raise GoldfishError("This game no longer exists.")
    if row.revision != game.session.revision:
        game.session.actions, game.session.result, game.session.revision = row.actions, row.result, row.revision
        game.state = rebuild(game.session)


# a change made at a step is tried again only when the game went back to that step in the meantime
# (an undo and a new move): each try either stores the change or finds the game at another step
_TRIES_AT_STEP = 3


def _record(game: Game, step: int | None, change: Callable[[Game], tuple[list, State] | Game]) -> Game:
    """Compute `change` (new actions and position, or a new game branched off) and store it.

    Made at `step`: stored only while the game is still there (compare-and-set), else StaleStep with the
    step it is at. Without a step: applied to the latest position, in order, never lost: the row is
    held while the change is computed and written."""
    def attempt() -> Game | None:
        outcome = change(game)
        if isinstance(outcome, Game):
            return outcome
        actions, state = outcome
        if not _store(game.session, actions, state):
            return None
        game.state = state
        return game

    if step is None:
        with write_transaction():
            _reread(game, lock=True)
            done = attempt()
        if done is None:  # the row is held: only a database that ignores the lock gets here
            raise GoldfishError("The game changed while your move was stored; nothing was applied. Try again.")
        return done
    for _ in range(_TRIES_AT_STEP):
        _check_step(game, step)
        done = attempt()
        if done is not None:
            return done
        _reread(game)
    raise StaleStep(game.step)


def _check_shape(action) -> None:
    """An action is a flat JSON object of short scalars (what every engine's actions are)."""
    def scalar(value) -> bool:
        return value is None or isinstance(value, (bool, int, float)) or (isinstance(value, str) and len(value) <= 200)
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str) or len(action) > 20 or not all(
            isinstance(k, str) and len(k) <= 40 and (scalar(v) or (isinstance(v, list) and len(v) <= 100
                                                                 and all(scalar(x) for x in v)))
            for k, v in action.items()):
        raise GoldfishError('An action is a JSON object with a "kind" and short text or number values.')


def act(game: Game, action, step: int | None) -> Game:
    """Apply one action the player chose; an illegal one raises GoldfishError and changes nothing."""
    _check_shape(action)

    def change(g: Game):
        if g.step >= MAX_ACTIONS:
            raise GoldfishError(f"This game has reached {MAX_ACTIONS} actions; start a new one.")
        state = g.state  # changed in place: a change not stored leaves a newer revision, rebuilt by `_reread`
        try:
            state.apply_action(action)
        except IllegalAction as exc:
            raise GoldfishError(f"Not allowed: {exc}") from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            # a value of the wrong kind (a list for a zone name...): the half-applied state is dropped
            raise GoldfishError("Not allowed: that action names something this game does not have.") from None
        return g.session.actions + [action], state
    return _record(game, step, change)


def _branch(session: models.GoldfishSession, actions: list, seed: int | None = None) -> models.GoldfishSession:
    """A new session of the same deck and options (the old one is left as it is)."""
    with write_transaction():
        tallies.goldfish_games_changed(session.game, session.deck_data, 1)
        return models.GoldfishSession.create(owner=session.owner_id, deck=session.deck_id, game=session.game,
                                             deck_data=session.deck_data, seed=session.seed if seed is None else seed,
                                             options=session.options, actions=actions)


def undo(game: Game, count: int, step: int | None) -> Game:
    """Drop the last `count` actions; on a finished game, in a new session that continues from there."""
    def change(g: Game):
        if count < 1 or not g.session.actions:
            raise GoldfishError("There is nothing to undo.")
        actions = g.session.actions[:-count] if count < len(g.session.actions) else []
        state = rebuild(g.session, len(actions))
        if g.session.result is not None:
            return Game(_branch(g.session, actions), state)
        return actions, state
    return _record(game, step, change)


def restart(game: Game) -> Game:
    """The same seed from the start: a new session when this one has any move (it stays in the history)."""
    state = rebuild(game.session, 0)
    if game.session.actions or game.session.result is not None:
        return Game(_branch(game.session, []), state)
    return game


def play_to_end(game: Game, step: int | None) -> Game:
    """Let the game's built-in policy finish the game from here."""
    def change(g: Game):
        state = g.state
        try:
            play_out(state, max_actions=MAX_ACTIONS - g.step)
        except (EngineError, IllegalAction) as exc:
            raise GoldfishError(f"The built-in player could not finish this game: {exc}") from None
        return list(state.actions), state
    return _record(game, step, change)


def new_seed(session: models.GoldfishSession) -> models.GoldfishSession:
    """The same deck and options with a new random seed, as a new session."""
    return _branch(session, [], seed=random_seed())

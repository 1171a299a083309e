"""The goldfish engine core: one State shape for every game, OpenSpiel-style.

The API (all pure Python, no Flask or database):

    new_game(game, deck, catalogue, seed, options) -> State
    replay(game, deck, catalogue, seed, options, actions) -> State      # undo = replay(actions[:-1])
    play_out(state, policy=None) -> State                                # the built-in policy to the end
    state.legal_actions(manual=True) -> [action]    # the rules' own first, then the manual moves
    state.apply_action(action)                      # or IllegalAction(reason); nothing changes
    state.is_terminal(); state.outcome -> Outcome(result "win"|"loss", turn, reason)
    state.action_to_string(action); state.view() -> JSON-ready dict; state.log_lines(); state.actions
    get_engine(game) / find_engine(game) / engines() -> Engine(policy, coverage, options, ...)

This module holds that API (the Engine an engine package exports, the registry,
new_game / replay / play_out); the options an Engine offers are `deckhub.core.options`; the State
every engine subclasses is `deckhub.core.state`, with the zones, the op queue and its dispatch, the manual moves and the view; the ops the games share
(the deal, draw, shuffle, search, the turn's draw and phases, "may") are `deckhub.core.ops`.

The core owns everything the games share:

- card *instances*: `state.cards[i]` is the Card of instance `i` (ids are dealt after the opening
  shuffle, so an id says nothing about where a card sits in a face-down zone);
- zones: `state.zones[name]` is an ordered list of instance ids, the last element is the top;
  `state.where[i]` is the zone instance `i` is in. Every instance is in exactly one zone;
- counters (`state.counters`), turn (or round) and phase, the log, the actions applied so far;
- a seeded `random.Random` (`state.rng`): all randomness comes from it, so `replay` rebuilds any
  position from (deck, seed, options, actions);
- pending choices and an effect queue: an engine resolves card text as a queue of small tuples
  ("ops"); an op that needs the player's decision parks a `Choice`, and the player answers with
  `{"kind": "choose", "option": value}` (or `{"kind": "decline"}` when the choice is optional);
- the ops several games' cards share, written once (`deckhub.core.ops`): `("draw", n)`,
  `("turn_draw",)`, `("phase", name)`, `("shuffle",)`, `("search", filter, to, optional)`,
  `("may", what, ops)`, with the game's words and moves as hooks;
- manual moves, listed after the rules' own actions and logged as manual: `manual.draw`,
  `manual.move` {card, to, at?: "top"|"bottom"}, `manual.shuffle` {zone}, `manual.counter`
  {counter, delta}, `manual.end_phase`, `manual.skip` (drop the pending effect), `concede`. They
  keep a game from getting stuck on card text the engine does not automate.

Actions are plain JSON objects: `{"kind": "...", ...}` whose other values are ints, strings or
lists of ints (card instance ids, zone and counter names). They survive a JSON round trip unchanged.

Writing an engine for a game (`deckhub/games/<package>/engine.py`):

1. Subclass `State`: declare ZONES (ZoneSpec: hidden for face-down zones), COUNTERS, PHASES, and
   your actions as RULE_ACTIONS (`deckhub.core.actions.RuleAction`: kind, fields, phases, what it
   does; the core words every "unknown kind / missing or extra field / wrong phase / no such card"
   refusal from them); in `setup(deck, catalogue)` shuffle the cards with `self.rng`
   (`shuffle_items`), number them (`new_instances`), deal (`deal(n, zone)`), and `push` the ops
   that start the first turn. Implement
   `rule_actions()` (the rules' actions now), `apply_rule(action)` (called only for legal ones),
   `end_phase(manual)`, `run_op(op, source)` and `resolve_choice(choice, value)`. Optional:
   `check_game_rule(action)` (the game's own check of a well-formed action, without building the
   list; must agree with `rule_actions`) or `explain_game_rule` (the words of the default check),
   `describe`, `card_view` (include "automated" and "manual_text"; TILE says what a card's tile
   on the board shows of it, `deckhub.core.tiles`), `extra_view`, `manual_move`
   (keep your per-card state right), EXTRA_MANUAL with `extra_manual_actions`/`apply_extra_manual`. Declare every
   attribute your State adds in one dataclass (`TABLE`, see `deckhub.core.tables`): `clone` copies it.
   End the game with `self.win(reason)` / `self.lose(reason)`; never loop forever: a turn or round
   limit ends every game.
2. Export `ENGINE = Engine(game=slug, state_class=..., policy=..., coverage=..., options=(...))`.
   Every option needs a default (the generic tests play with `{}`); name the limit option
   `turn_limit` or `round_limit` so the tests know the bound (or, when the game's own rules end
   every game by a fixed round, declare it as `rules_limit`, as Huntik does): simulations, tuning,
   card impact and comparisons score a game not won as one past it (`Engine.last_turn`). `policy(state)` returns a legal action
   (answering a pending choice too); `coverage(catalogue)` returns `deckhub.core.effects.coverage(...)`
   (`deckhub coverage` prints it). `sample_decks` gives decks to test with when `data/<game>/decks/`
   has none.
3. Nothing else: the games registry (`deckhub.games.find_engine`) imports
   `deckhub.games.<package>.engine` (or the module a GameSpec names as its `engine`),
   `tests/test_engine_invariants.py` plays it, `deckhub goldfish` runs it, the sandbox shows `view()`.
"""
from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from deckhub.core.options import OptionSpec
from deckhub.core.state import Action, EngineError, IllegalAction

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.core.cards import Catalogue
    from deckhub.core.decklist import Deck
    from deckhub.core.state import State


def value_words(value: Any) -> str:
    """A setting or card value as a player reads it: yes/no, none, words instead of snake_case keys."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value == "":
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(value_words(v) for v in value) or "none"
    return str(value).replace("_", " ")


@dataclass(frozen=True)
class Engine:
    """What a game's `engine.py` exports as `ENGINE`."""

    game: str
    state_class: type["State"]
    policy: Callable[["State"], Action]
    coverage: Callable[["Catalogue"], dict[str, Any]]
    options: tuple[OptionSpec, ...] = ()
    description: str = ""
    # decks the generic tests and the benchmark play: (name, Deck) pairs; default `published_decks`
    sample_decks: Callable[[], list[tuple[str, "Deck"]]] | None = None
    # the options every sample game starts with: e.g. session `card_values` for the facts the
    # catalogue lacks, so sample decks of real cards can be played (never written into data/)
    sample_options: Mapping[str, Any] = field(default_factory=dict)
    # the last turn (or round) the game's own rules let any game reach, for a game whose rules end
    # every game rather than a `turn_limit`/`round_limit` option (Huntik: seven rounds at most)
    rules_limit: int | None = None

    def decks(self) -> list[tuple[str, "Deck"]]:
        return self.sample_decks() if self.sample_decks else published_decks(self.game)

    def option(self, name: str) -> OptionSpec | None:
        return next((o for o in self.options if o.name == name), None)

    def last_turn(self, options: Mapping[str, Any]) -> int | None:
        """The turn (or round) by which every game with these (normalized) options has ended: the
        limit option's value, else the rules' own limit; None when the engine declares neither."""
        limit = options.get("turn_limit") or options.get("round_limit") or self.rules_limit
        return int(limit) if limit else None

    def normalize_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, values coerced; an unknown option is an error naming the known ones."""
        result = {o.name: o.default for o in self.options}
        for name, value in (options or {}).items():
            spec = self.option(name)
            if spec is None:
                known = ", ".join(o.name for o in self.options) or "none"
                raise EngineError(f"{self.game} has no option {name!r} (its options: {known})")
            result[name] = spec.coerce(value)
        return result


# --- the game registry -------------------------------------------------------------------------
# Which games exist, their engines and their published decks are the games registry's business, not
# the core's: the application names the registry module once (`use_registry`, in deckhub/__init__.py)
# and these functions ask it. The core itself imports nothing of DeckHub outside `deckhub.core`.

_REGISTRY: str | None = None


def use_registry(module: str) -> None:
    """Name the module that finds engines: it defines `find_engine(game)`, `engines()` and
    `published_decks(slug)` (DeckHub's is `deckhub.games`)."""
    global _REGISTRY
    _REGISTRY = module


def registry() -> Any:
    if _REGISTRY is None:
        raise EngineError("no game registry: the application names it with use_registry(...)")
    # (every new game asks: sys.modules answers without the import machinery once it is loaded)
    return sys.modules.get(_REGISTRY) or importlib.import_module(_REGISTRY)


def find_engine(game: Any) -> Engine | None:
    """The engine of a game (slug or GameSpec), or None when the game has none yet."""
    return registry().find_engine(game)


def get_engine(game: Any) -> Engine:
    engine = find_engine(game)
    if engine is None:
        slug = game if isinstance(game, str) else game.slug
        raise EngineError(f"{slug} has no goldfish engine yet; games with one: {', '.join(e.game for e in engines()) or 'none'}")
    return engine


def engines() -> list[Engine]:
    """Every registered game's engine (games without one are left out)."""
    return registry().engines()


def published_decks(game: str) -> list[tuple[str, "Deck"]]:
    """The decks shipped with a game that read without errors, by file name."""
    return registry().published_decks(game)


def new_game(game: str, deck: "Deck", catalogue: "Catalogue", seed: int = 0,
             options: Mapping[str, Any] | None = None) -> "State":
    """A fresh game of `deck`, shuffled and dealt from `seed` (an int).

    Session card values (the `card_values` option, see `deckhub.core.session_values`) are applied
    to the catalogue before the engine deals, so the engine sees them as the cards' own facts."""
    engine = get_engine(game)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise EngineError(f"the seed must be a whole number, not {seed!r}")
    options = engine.normalize_options(options)
    if options.get("card_values"):
        from deckhub.core.session_values import apply_card_values

        catalogue = apply_card_values(engine, catalogue, options["card_values"])
    return engine.state_class(engine, deck, catalogue, seed, options)


def replay(game: str, deck: "Deck", catalogue: "Catalogue", seed: int, options: Mapping[str, Any] | None,
           actions: Iterable[Action]) -> "State":
    """The state after `actions`, rebuilt from scratch: the same inputs always give the same state."""
    state = new_game(game, deck, catalogue, seed, options)
    for number, action in enumerate(actions, start=1):
        try:
            state.apply_action(action)
        except IllegalAction as exc:
            raise IllegalAction(f"step {number}: {exc}", action) from None
    return state


def play_out(state: "State", policy: Callable[["State"], Action] | None = None, max_actions: int = 100_000) -> "State":
    """Let the policy (the game's built-in one by default) play until the game ends."""
    choose = policy or state.engine.policy
    for _ in range(max_actions):
        if state.outcome is not None:
            return state
        state.apply_action(choose(state))
    if state.outcome is None:
        raise EngineError(f"the game did not end within {max_actions} actions")
    return state

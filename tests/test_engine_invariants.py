"""One generic test for every registered game that has a goldfish engine (GUIDE §3, OpenSpiel's
random-game test): seeded random and policy games, checking after every step that

- every card instance is in exactly one zone (none created or lost);
- every listed legal action is accepted (a sample of them, each on a clone, leaving the original as
  it was: a clone shares no mutable state with its original);
- OpenSpiel's clone check: the same action applied to a state and to its clone gives equal views
  and legal actions, and the clone stays as it was while the original plays on;
- every mutable container a state holds is declared in the core's or the engine's table
  (`deckhub.core.tables`), a clone shares none of the copied ones and the fixed ones never change;
- `rule_refusal` (the core's checks of the declared RULE_ACTIONS, then the engine's
  `check_game_rule`: the fast path `apply_action` takes) agrees with `legal_actions` on the listed
  actions and on forged ones (another card, an extra field, a boolean for a number, a list reordered);
- a forged action is refused with a clear message and changes nothing;
- actions survive a JSON round trip, and replaying them rebuilds the same view;
- every game ends within a bound;

and, per engine, that the coverage report has the one shape every game shares and that the
`deckhub goldfish` command is deterministic and its actions replay its game.

A new engine is covered as soon as its package has `engine.py` with `ENGINE`; the `engine`
fixture (tests/conftest.py) plays the toy game (tests/toygame) beside the registered ones.
"""
from __future__ import annotations

import collections.abc
import copy
import dataclasses
import json
import random
import sys
import types
import typing

import pytest

from deckhub.core.engine import new_game, replay

from deckhub.core.ops import shuffle
from deckhub.core.state import CoreTable, IllegalAction, State
from deckhub.games import load_catalogue

RANDOM_GAMES = 60
POLICY_GAMES = 30
MAX_STEPS = 6000
MANUAL_SHARE = 0.08  # random games mostly follow the rules, sometimes take a manual move


def fingerprint(state: State):
    return (
        {k: list(v) for k, v in state.zones.items()}, list(state.where), dict(state.counters), state.turn,
        state.phase, state.pending, len(state.log), len(state.actions), list(state.queue), state.rng.getstate(),
        state.outcome,
    )


def forged_actions(state: State, rng: random.Random, legal: list[dict]) -> list[object]:
    """Actions that must be refused: nonsense, and legal rule actions pointed at another card."""
    n = len(state.cards)
    forged: list[object] = ["attack", None, {"kind": 3}, {"kind": "no-such-action"},
                            {"kind": "manual.move", "card": n + 7, "to": state.HAND_ZONE},
                            {"kind": "manual.move", "card": 0, "to": "no-such-zone"},
                            {"kind": "manual.counter", "counter": "no-such-counter", "delta": 1},
                            {"kind": "choose", "option": "no-such-option"}]
    rules = [a for a in legal if not a["kind"].startswith("manual.") and a["kind"] != "concede"]
    for action in rng.sample(rules, min(3, len(rules))):
        for key in ("card", "option"):
            if isinstance(action.get(key), int) and not isinstance(action.get(key), bool):
                for other in rng.sample(range(n), min(n, 8)):
                    fake = dict(action, **{key: other})
                    if fake not in legal:
                        forged.append(fake)
                        break
    return forged


def rule_variants(state: State, rng: random.Random, listed: list[dict]) -> list[dict]:
    """Rule actions close to the listed ones: another card, True for a number, an extra field,
    a list reordered or cut short, a kind without its fields."""
    n = len(state.cards)
    variants: list[dict] = [{"kind": kind} for kind in sorted({a["kind"] for a in listed})]
    for action in rng.sample(listed, min(6, len(listed))):
        variants.append(dict(action, extra=1))
        for key, value in action.items():
            if isinstance(value, int) and not isinstance(value, bool):
                variants.append(dict(action, **{key: True}))
                variants.extend(dict(action, **{key: other}) for other in rng.sample(range(n), min(n, 6)))
            elif isinstance(value, list) and value:
                variants.append(dict(action, **{key: list(reversed(value))}))
                variants.append(dict(action, **{key: value[:-1]}))
    return variants


def _has_bool(action: dict) -> bool:
    return any(isinstance(v, bool) for k, v in action.items() if k != "kind")


def bound_turns(state: State) -> int:
    """The turn (or round) every game has ended by: each engine declares one (a limit option, or
    the rules' own last round, as Huntik's seven), and simulations score a game not won past it."""
    bound = state.engine.last_turn(state.options)
    assert bound, f"{state.engine.game} declares no turn or round limit"
    return bound


def play_checked(engine, deck, catalogue, seed: int, use_policy: bool) -> State:
    state = new_game(engine.game, deck, catalogue, seed, dict(engine.sample_options))
    rng = random.Random(seed * 7919 + use_policy)
    n = len(state.cards)
    steps = 0
    set_aside: list[tuple] = []  # clones taken during the game, with their fingerprint and view then
    while not state.is_terminal():
        assert state.check_invariants() == [], f"seed {seed} step {steps}"
        assert len(state.where) == n and sum(len(z) for z in state.zones.values()) == n
        legal = state.legal_actions()
        assert legal, f"seed {seed}: no legal action in a live game"
        # a sample of the listed actions is accepted (each on an independent copy, which shares
        # nothing with the original: the original's view is unchanged)
        view_now = state.view() if steps % 5 == 0 else None
        for action in rng.sample(legal, min(4, len(legal))):
            copy = state.clone()
            copy.apply_action(action)
            assert copy.check_invariants() == []
        if view_now is not None:
            assert state.view() == view_now, f"seed {seed} step {steps}: playing on a clone changed the original"
        # check_rule agrees with legal_actions (listed and forged rule actions)
        if state.pending is None and steps % 2 == 0:
            listed = state.legal_actions(manual=False)
            for action in listed + rule_variants(state, rng, listed):
                legal_now = action in listed and not _has_bool(action)
                assert (state.rule_refusal(action) is None) == legal_now, (seed, steps, state.phase, action)
                # a forged action is described without error, and True never stands for card #1
                text = state.action_to_string(action)
                named = {v for k, value in action.items() if k != "card" for v in (value if isinstance(value, list) else [value])}
                assert isinstance(text, str) and not (action.get("card") is True and 1 not in named and "(#1)" in text), (action, text)
        # forged actions are refused, with a reason, and change nothing
        if steps % 3 == 0:
            before = fingerprint(state)
            view_before = state.view() if steps % 15 == 0 else None
            for bad in forged_actions(state, rng, legal):
                with pytest.raises(IllegalAction) as refused:
                    state.apply_action(bad)
                assert len(str(refused.value)) > 10
                assert fingerprint(state) == before, f"refusing {bad!r} changed the state"
            if view_before is not None:
                assert state.view() == view_before
        if use_policy:
            action = engine.policy(state)
        else:
            rules = state.legal_actions(manual=False)
            if rules and rng.random() > MANUAL_SHARE:
                action = rng.choice(rules)
            else:
                action = rng.choice(legal)
        assert isinstance(state.action_to_string(action), str)
        wire = json.loads(json.dumps(action))
        assert wire == action
        twin = state.clone() if steps % 3 == 1 else None
        state.apply_action(wire)
        if twin is not None:  # OpenSpiel's clone check: the same action on a clone gives the same state
            twin.apply_action(json.loads(json.dumps(action)))
            assert fingerprint(twin) == fingerprint(state) and twin.view() == state.view(), f"seed {seed} step {steps}"
            assert twin.legal_actions() == state.legal_actions(), f"seed {seed} step {steps}: the clone's legal actions differ"
            if steps % 15 == 1 and len(set_aside) < 4:  # ... and stays as it is while the original plays on
                set_aside.append((steps, twin, fingerprint(twin), twin.view()))
        steps += 1
        assert steps < MAX_STEPS, f"seed {seed}: no end after {MAX_STEPS} actions"
    for at, twin, print_then, view_then in set_aside:
        assert fingerprint(twin) == print_then and twin.view() == view_then, \
            f"seed {seed}: playing on changed the clone taken at step {at}"
    assert state.check_invariants() == []
    assert state.outcome.result in ("win", "loss")
    assert 0 <= state.outcome.turn <= bound_turns(state)
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction):
        state.apply_action({"kind": "concede"})
    json.dumps(state.view())
    return state


def test_engine_invariants(engine):
    catalogue = load_catalogue(engine.game)
    decks = engine.decks()
    assert decks, f"{engine.game}: no sample decks to play"
    for number in range(RANDOM_GAMES + POLICY_GAMES):
        use_policy = number >= RANDOM_GAMES
        name, deck = decks[number % len(decks)]
        state = play_checked(engine, deck, catalogue, seed=number, use_policy=use_policy)
        # replay (the undo mechanism) rebuilds the identical state, also from JSON
        actions = json.loads(json.dumps(state.actions))
        again = replay(engine.game, deck, catalogue, number, dict(engine.sample_options), actions)
        assert again.view() == state.view(), f"{name} seed {number}: replay differs"
        assert again.outcome == state.outcome
        if len(actions) > 1:  # undo = replay without the last action
            undone = replay(engine.game, deck, catalogue, number, dict(engine.sample_options), actions[:-1])
            assert not undone.is_terminal()


COVERAGE_KEYS = {"game", "cards", "full", "partial", "none", "vanilla", "abilities", "top_unautomated", "notes", "patterns",
                 "self_checks"}


def test_coverage_has_one_shape(engine):
    report = engine.coverage(load_catalogue(engine.game))
    assert COVERAGE_KEYS <= set(report), sorted(COVERAGE_KEYS - set(report))
    assert report["game"] == engine.game
    assert report["full"] + report["partial"] + report["none"] == report["cards"] > 0
    assert set(report["abilities"]) == {"automated", "no_effect", "manual"}
    assert all(set(t) == {"phrase", "cards"} for t in report["top_unautomated"])
    assert all(isinstance(n, str) for n in report["notes"])
    json.dumps(report)


def _option_value(value) -> str:
    return json.dumps(value) if isinstance(value, (dict, list)) else str(value)


def test_goldfish_command_is_deterministic_and_replayable(engine, tmp_path):
    from click.testing import CliRunner

    from deckhub.commands.goldfish import goldfish

    name, deck = engine.decks()[0]
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck.to_json()))
    options = [arg for key, value in engine.sample_options.items() for arg in ("--option", f"{key}={_option_value(value)}")]
    args = ["--game", engine.game, "--deck", str(path), "--seed", "5", "--json", *options]
    runner = CliRunner()
    first = runner.invoke(goldfish, args)
    assert first.exit_code == 0, first.output
    assert runner.invoke(goldfish, args).output == first.output
    data = json.loads(first.output)
    # `unknown_values` is there only when the engine lacked card values the deck needs
    assert set(data) - {"unknown_values"} == {"game", "seed", "result", "turn", "reason", "actions", "log"}
    assert data["game"] == engine.game and data["seed"] == 5 and data["result"] in ("win", "loss")
    assert data["log"] and all(isinstance(line, str) for line in data["log"])
    rebuilt = replay(engine.game, deck, load_catalogue(engine.game), 5, dict(engine.sample_options), data["actions"])
    assert rebuilt.outcome.to_json() == {"result": data["result"], "turn": data["turn"], "reason": data["reason"]}


# --- every mutable attribute is declared once, and a clone shares none of them ----------------

def _frozen_dataclass(value) -> bool:
    params = getattr(type(value), "__dataclass_params__", None)
    return params is not None and params.frozen


def mutable_parts(value, path: str):
    """(path, object) of every mutable container reachable from `value` (lists, dicts, sets and
    objects that are not frozen dataclasses), at any depth. A frozen dataclass is a value (a Choice,
    an Outcome, a Card): shared by clones, as `deckhub.core.tables.copier` shares it."""
    if isinstance(value, (int, float, str, bytes, type(None), type)) or callable(value) and not hasattr(value, "__dict__"):
        return
    if isinstance(value, (list, dict, set, bytearray)):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value) if not isinstance(value, set) else ()
        for key, item in items:
            yield from mutable_parts(item, f"{path}[{key!r}]")
    elif isinstance(value, (tuple, frozenset)):
        for number, item in enumerate(value):
            yield from mutable_parts(item, f"{path}[{number}]")
    elif not callable(value) and not _frozen_dataclass(value):
        yield path, value


def declared_parts(value, tp, path: str):
    """(path, object) of the mutable containers in `value` that its declared type says a clone copies;
    fails when a part declared immutable (a tuple, say) holds a mutable container. A part declared
    `Mapping` is a read-only promise: it is shared, not looked into."""
    if value is None:
        return
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is typing.Any:
        yield from mutable_parts(value, path)
    elif origin in (typing.Union, types.UnionType):
        parts = [a for a in args if a is not type(None)]
        yield from declared_parts(value, parts[0] if len(parts) == 1 else typing.Any, path)
    elif (origin or tp) in (list, dict, set):
        yield path, value
        inner = args[-1] if args else typing.Any
        items = value.items() if isinstance(value, dict) else enumerate(value) if not isinstance(value, set) else ()
        for key, item in items:
            yield from declared_parts(item, inner, f"{path}[{key!r}]")
    elif (origin or tp) is random.Random:
        yield path, value
    elif (origin or tp) is not collections.abc.Mapping:
        stray = next(mutable_parts(value, path), None)
        assert stray is None, f"{stray[0]} is mutable but its declared type {tp!r} says it is not"


def declaration(state: State) -> dict[str, tuple[str, object]]:
    """Every declared attribute of a state: name -> (kind, type), the engine's table over the core's."""
    found = {}
    for table in (CoreTable, type(state).TABLE):
        module = vars(sys.modules[table.__module__])
        for f in dataclasses.fields(table):
            tp = f.type
            found[f.name] = (f.metadata.get("kind", "copy"), eval(tp, module) if isinstance(tp, str) and f.metadata.get("kind", "copy") == "copy" else tp)
    return found


def check_declared(state: State, where: str) -> None:
    declared = declaration(state)
    missing = set(declared) - set(state.__dict__)
    assert not missing, f"{where}: declared but never set (a stale declaration?): {sorted(missing)}"
    for name, value in state.__dict__.items():
        if name not in declared:
            stray = next(mutable_parts(value, name), None)
            assert stray is None, f"{where}: {stray[0]} is mutable and not declared in {type(state).TABLE.__name__}"
    twin = state.clone()
    for name, (kind, tp) in declared.items():
        if kind == "cache":
            assert twin.__dict__[name] is None, f"{where}: a clone starts without the cached {name}"
        elif kind == "copy":
            mine = {id(obj): path for path, obj in declared_parts(state.__dict__[name], tp, name)}
            shared = [mine[id(obj)] for _, obj in declared_parts(twin.__dict__[name], tp, name) if id(obj) in mine]
            assert not shared, f"{where}: a clone shares {shared[:5]} with its original"


def fixed_values(state: State) -> dict[str, object]:
    return {name: copy.deepcopy(state.__dict__[name]) for name, (kind, _) in declaration(state).items() if kind == "fixed"}


def test_state_declares_its_mutable_attributes(engine):
    """After setup and during play (manual moves too), every mutable container a state holds is
    declared in the core's or the engine's table, a clone shares none of the copied ones, and the
    fixed ones never change."""
    catalogue = load_catalogue(engine.game)
    decks = engine.decks()
    for seed in range(8):
        name, deck = decks[seed % len(decks)]
        state = new_game(engine.game, deck, catalogue, seed, dict(engine.sample_options))
        fixed = fixed_values(state)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal() and step < 600:
            check_declared(state, f"{name} seed {seed} step {step}")
            if seed % 2:  # the policy reaches what random play seldom does (evolutions, combats)
                action = engine.policy(state)
            else:
                rules = state.legal_actions(manual=False)
                action = rng.choice(rules) if rules and rng.random() > 0.15 else rng.choice(state.legal_actions())
            state.apply_action(action)
            step += 1
        check_declared(state, f"{name} seed {seed} at the end")
        now = fixed_values(state)
        changed = [field for field in fixed if now[field] != fixed[field]]
        assert not changed, f"{name} seed {seed}: fields declared fixed changed during play: {changed}"


def test_the_cores_shuffle_is_random_shuffle():
    """`deckhub.core.ops.shuffle` deals faster than `random.Random.shuffle` but must give the same
    order and leave the generator in the same state, or every seed would play another game."""
    for seed in range(200):
        for size in (0, 1, 2, 3, 7, 40, 41, 64, 65, 129):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, reference = list(range(size)), list(range(size))
            shuffle(ours, mine)
            theirs.shuffle(reference)
            assert mine == reference, (seed, size)
            assert ours.getstate() == theirs.getstate(), (seed, size)

"""A SHA-256 of every engine's seeded games, to show that a refactor of the engines changed nothing.

    python benchmarks/engine_fingerprint.py [--seeds 50] [--option-seeds 10] [--random-seeds 20] [--game SLUG]

For every registered game with an engine it plays, through the public engine API:

- policy games: each of the engine's decks (`Engine.decks()`: the published ones, or its samples)
  with seeds 0..N-1 and its sample options, the built-in policy to the end;
- option games: every other value of each yes/no and choice option (Huntik's missions, Battledome's
  deck-out rule, who goes first...), seeds 0..M-1, the decks in turn;
- random games: seeds 0..R-1, the decks in turn, a seeded pick among all legal actions (manual moves
  too: draw, move, shuffle, counters), up to a step bound; each is replayed from its actions, and a
  replay that ends elsewhere is an error.

Every step folds into the game's hash the action and its words, the legal actions (random games),
all the state's own attributes (zones in order, counters, turn, phase, the pending choice, the op
queue, the generator's state, the engine's table) and the new log lines. The same code and data
print the same hashes; any change in what a game does, in what order it draws random numbers or in
what it logs prints others. Run it before and after a change and compare the output (`diff`).
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deckhub.core.engine import engines, new_game, replay  # noqa: E402
from deckhub.core.tables import CACHE, FIXED, field_kinds  # noqa: E402
from deckhub.games import load_catalogue  # noqa: E402

RANDOM_STEPS = 400  # a random game stops here if it has not ended
MANUAL_SHARE = 0.1  # how often a random game takes a manual move when the rules offer an action
SKIPPED = {"engine", "cards", "options", "log", "actions"}  # fixed, or folded in step by step


def canon(value) -> str:
    """`value` as text that is the same in every process: sets sorted, objects by their fields,
    functions by name, the generator by its state (never an address or a string hash order)."""
    cls = value.__class__
    if value is None or cls in (bool, int, float, str):
        return repr(value)
    if cls in (list, tuple):
        return ("[" if cls is list else "(") + ",".join(map(canon, value)) + ("]" if cls is list else ")")
    if isinstance(value, dict):  # a dict by its items, whatever marks its class adds (e.g. coerced card values)
        return "{" + ",".join(f"{canon(k)}:{canon(v)}" for k, v in value.items()) + "}"
    if cls in (set, frozenset):
        return "set(" + ",".join(sorted(map(canon, value))) + ")"
    if cls is random.Random:
        return "rng" + canon(value.getstate())
    if dataclasses.is_dataclass(value):
        return cls.__name__ + canon({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
    if callable(value) and hasattr(value, "__qualname__"):
        return f"fn:{value.__module__}.{value.__qualname__}"
    if hasattr(value, "key") and hasattr(value, "display_name"):  # a Card
        return f"card:{value.key}"
    if hasattr(value, "__dict__"):
        return cls.__name__ + canon(dict(sorted(vars(value).items())))
    raise TypeError(f"cannot fingerprint a {cls.__name__}: {value!r}")


class Fold:
    """One game's running hash, fed step by step."""

    def __init__(self, state):
        self.hash = hashlib.sha256()
        kinds = field_kinds(state.TABLE)
        self.skipped = SKIPPED | {n for n, k in kinds.items() if k in (FIXED, CACHE)} | {"_legal"}
        self.logged = 0
        self.add("cards", [c.key for c in state.cards])
        self.state(state)

    def add(self, tag: str, value) -> None:
        self.hash.update(f"{tag}={canon(value)}\n".encode())

    def state(self, state) -> None:
        own = {name: value for name, value in sorted(vars(state).items()) if name not in self.skipped}
        self.add("state", own)
        self.add("log", state.log[self.logged:])
        self.logged = len(state.log)

    def hexdigest(self) -> str:
        return self.hash.hexdigest()


def play_policy(engine, deck, catalogue, seed: int, options: dict) -> str:
    state = new_game(engine.game, deck, catalogue, seed, options)
    fold = Fold(state)
    policy = engine.policy
    while state.outcome is None:
        action = policy(state)
        fold.add("action", [action, state.action_to_string(action)])
        state.apply_action(action)
        fold.state(state)
    fold.add("outcome", state.outcome)
    return fold.hexdigest()


def play_random(engine, deck, catalogue, seed: int, options: dict) -> str:
    state = new_game(engine.game, deck, catalogue, seed, options)
    fold = Fold(state)
    chooser = random.Random(seed)
    for _ in range(RANDOM_STEPS):
        if state.outcome is not None:
            break
        legal = state.legal_actions()
        fold.add("legal", legal)
        manual = [a for a in legal if a["kind"].startswith("manual.")]
        rules = [a for a in legal if not a["kind"].startswith("manual.") and a["kind"] != "concede"]
        action = chooser.choice(manual if not rules or chooser.random() < MANUAL_SHARE else rules)
        fold.add("action", [action, state.action_to_string(action)])
        state.apply_action(action)
        fold.state(state)
    fold.add("outcome", state.outcome)
    fold.add("view", state.view())
    again = replay(engine.game, deck, catalogue, seed, options, json.loads(json.dumps(state.actions)))
    if again.view() != state.view() or again.rng.getstate() != state.rng.getstate():
        raise SystemExit(f"{engine.game} random game {seed}: the replay of its actions ends elsewhere")
    return fold.hexdigest()


def option_variants(engine) -> list[dict]:
    """The sample options with one yes/no option flipped or one choice option set to another value."""
    base = engine.normalize_options(engine.sample_options)
    variants = []
    for option in engine.options:
        if option.kind == "bool":
            values = [not base[option.name]]
        elif option.kind in ("choice", "turn_order"):
            values = [c for c in option.choices if c != base[option.name]]
        else:
            continue
        variants.extend({**engine.sample_options, option.name: value} for value in values)
    return variants


def fingerprint(engine, seeds: int, option_seeds: int, random_seeds: int) -> tuple[str, list[str]]:
    catalogue = load_catalogue(engine.game)
    decks = [deck for _, deck in engine.decks()]
    sample = dict(engine.sample_options)
    parts = []
    games = [play_policy(engine, deck, catalogue, seed, sample) for deck in decks for seed in range(seeds)]
    parts.append((f"policy: {len(decks)} decks x {seeds} seeds", games))
    variants = option_variants(engine)
    games = [play_policy(engine, decks[seed % len(decks)], catalogue, seed, options)
             for options in variants for seed in range(option_seeds)]
    parts.append((f"options: {len(variants)} variants x {option_seeds} seeds", games))
    games = [play_random(engine, decks[seed % len(decks)], catalogue, seed, sample) for seed in range(random_seeds)]
    parts.append((f"random: {random_seeds} seeds, up to {RANDOM_STEPS} steps", games))
    lines, total = [], hashlib.sha256()
    for label, hashes in parts:
        digest = hashlib.sha256("\n".join(hashes).encode()).hexdigest()
        total.update(digest.encode())
        lines.append(f"  {digest}  {label}")
    return total.hexdigest(), lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=50, help="policy games per deck")
    parser.add_argument("--option-seeds", type=int, default=10, help="policy games per option variant")
    parser.add_argument("--random-seeds", type=int, default=20, help="random games per game")
    parser.add_argument("--game", help="one game only")
    args = parser.parse_args(argv)
    total = hashlib.sha256()
    for engine in sorted(engines(), key=lambda e: e.game):
        if args.game and engine.game != args.game:
            continue
        started = time.perf_counter()
        digest, lines = fingerprint(engine, args.seeds, args.option_seeds, args.random_seeds)
        total.update(digest.encode())
        print(f"{digest}  {engine.game}")
        print("\n".join(lines))
        print(f"  ({time.perf_counter() - started:.1f}s)", file=sys.stderr)
    print(f"{total.hexdigest()}  total")
    return 0


if __name__ == "__main__":
    sys.exit(main())

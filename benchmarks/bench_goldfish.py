"""Automated goldfish speed: complete games with the built-in policy, next to a same-run baseline.

    python benchmarks/bench_goldfish.py [--game kaijudo] [--games N] [--profile]

GUIDE §6: >= 1,000 full Kaijudo games a second on one core, with the built-in policy. The figure is
games per CPU-second of this process (`time.process_time`: what one core does, even when other
processes share the machine), with wall-clock beside it. Absolute times drift on shared machines,
so it is also given as a ratio to a baseline measured in the same run on the same decks: shuffling each deck with `random.Random(seed)` and dealing 5 shields
and 5 cards (the least any game must do). The decks are the game's published ones (`data/<game>/decks`).
`--profile` prints the cProfile top 25 (cumulative) of the game loop instead of timing it.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deckhub.core.engine import get_engine, new_game  # noqa: E402
from deckhub.games import load_catalogue  # noqa: E402

TARGET_GAMES_PER_SECOND = 1000.0


def play_games(game: str, decks, catalogue, count: int) -> tuple[int, int, int]:
    """`count` complete games over the decks in turn; returns (games, wins, actions)."""
    engine = get_engine(game)
    policy = engine.policy
    options = dict(engine.sample_options)
    wins = actions = 0
    for seed in range(count):
        state = new_game(game, decks[seed % len(decks)], catalogue, seed, options)
        apply = state.apply_action
        while state.outcome is None:
            apply(policy(state))
        wins += state.outcome.result == "win"
        actions += len(state.actions)
    return count, wins, actions


def baseline(decks, catalogue, count: int) -> int:
    """Shuffle and deal the same decks the same number of times."""
    dealt = 0
    for seed in range(count):
        deck = decks[seed % len(decks)]
        cards = deck.expand(next(iter(deck.sections)), catalogue)
        random.Random(seed).shuffle(cards)
        shields, hand = cards[-5:], cards[-10:-5]
        dealt += len(shields) + len(hand)
    return dealt


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kaijudo")
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best of each is reported")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)

    engine = get_engine(args.game)
    catalogue = load_catalogue(args.game)
    named = engine.decks()
    decks = [deck for _, deck in named]
    play_games(args.game, decks, catalogue, min(200, args.games))  # warm the per-card caches

    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        play_games(args.game, decks, catalogue, args.games)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return 0

    wall = cpu = base_wall = base_cpu = float("inf")
    for _ in range(max(1, args.rounds)):  # best of N, interleaved, as timeit does: load only slows runs down
        w, c = time.perf_counter(), time.process_time()
        games, wins, actions = play_games(args.game, decks, catalogue, args.games)
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
        w, c = time.perf_counter(), time.process_time()
        baseline(decks, catalogue, args.games)
        base_wall, base_cpu = min(base_wall, time.perf_counter() - w), min(base_cpu, time.process_time() - c)

    rate, wall_rate = games / cpu, games / wall
    base_rate = args.games / base_cpu
    print(f"{args.game}: {len(decks)} published decks, {games} games with the built-in policy, {wins} won, "
          f"{actions / games:.1f} actions a game; best of {args.rounds} rounds")
    print(f"  goldfish: {rate:,.0f} games per CPU-second on one core ({1e6 / rate:,.0f} us a game); "
          f"target >= {TARGET_GAMES_PER_SECOND:,.0f}")
    print(f"            {wall_rate:,.0f} games per wall-clock second (lower when other processes share the cores)")
    print(f"  baseline (shuffle + deal the same decks): {base_rate:,.0f} deals per CPU-second")
    print(f"  a whole game costs {base_rate / rate:.1f} deals")
    return 0 if rate >= TARGET_GAMES_PER_SECOND else 1


if __name__ == "__main__":
    sys.exit(main())

"""Huntik goldfish speed and strength over every encoded mission, next to a same-run baseline.

    python benchmarks/bench_goldfish_huntik.py [--games N] [--rounds R] [--profile]

`bench_goldfish.py --game huntik` plays only the default mission (the engine's sample options);
a Huntik game's length depends mostly on its mission (Deliver the Ring of Arc is over in a round or
two, Control the Idols of Omeed always runs to round 7), so this one plays N games of each mission
with the sample decks in turn and reports, per mission, how often and in which round the built-in
policy wins. Speed is games per CPU-second of this process (`time.process_time`), and, since
absolute times drift on shared machines, also a ratio to the baseline measured in the same run
(`bench_goldfish.baseline`: shuffle each deck and deal 10 cards, the least any game does).
GUIDE §6 sets no Huntik target (the 1,000 games a second are Kaijudo's); this records the figure.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_goldfish import baseline  # noqa: E402
from deckhub.core.engine import get_engine, new_game  # noqa: E402
from deckhub.games.huntik.missions import MISSIONS  # noqa: E402
from deckhub.games import load_catalogue  # noqa: E402


def play(decks, catalogue, games_per_mission: int) -> dict[str, tuple[int, Counter, int]]:
    """{mission label: (games, Counter of winning rounds, actions)}."""
    policy = get_engine("huntik").policy
    results = {}
    for key, mission in MISSIONS.items():
        rounds: Counter = Counter()
        actions = 0
        for seed in range(games_per_mission):
            state = new_game("huntik", decks[seed % len(decks)], catalogue, seed, {"mission": key})
            apply = state.apply_action
            while state.outcome is None:
                apply(policy(state))
            if state.outcome.result == "win":
                rounds[state.outcome.turn] += 1
            actions += len(state.actions)
        results[mission.label] = (games_per_mission, rounds, actions)
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games of each mission")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best of each is reported")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)

    catalogue = load_catalogue("huntik")
    named = get_engine("huntik").decks()
    decks = [deck for _, deck in named]
    play(decks, catalogue, min(5, args.games))  # warm the per-card caches

    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        play(decks, catalogue, args.games)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return 0

    total = args.games * len(MISSIONS)
    cpu = base_cpu = wall = float("inf")
    results = {}
    for _ in range(max(1, args.rounds)):
        w, c = time.perf_counter(), time.process_time()
        results = play(decks, catalogue, args.games)
        cpu, wall = min(cpu, time.process_time() - c), min(wall, time.perf_counter() - w)
        c = time.process_time()
        baseline(decks, catalogue, total)
        base_cpu = min(base_cpu, time.process_time() - c)

    print(f"huntik: {len(decks)} sample decks, {len(MISSIONS)} missions x {args.games} games with the built-in policy; "
          f"best of {args.rounds} rounds")
    print(f"  {'mission':40s} {'won':>6s}  {'mean round':>10s}  {'actions/game':>12s}  winning rounds")
    won_all = 0
    for label, (games, rounds, actions) in results.items():
        won = sum(rounds.values())
        won_all += won
        mean = sum(r * n for r, n in rounds.items()) / won if won else float("nan")
        spread = " ".join(f"R{r}:{n}" for r, n in sorted(rounds.items()))
        print(f"  {label:40s} {100 * won / games:5.0f}%  {mean:10.2f}  {actions / games:12.1f}  {spread}")
    rate, base_rate = total / cpu, total / base_cpu
    print(f"  all missions: {won_all}/{total} won")
    print(f"  goldfish: {rate:,.0f} games per CPU-second on one core ({1e6 / rate:,.0f} us a game); "
          f"{total / wall:,.0f} per wall-clock second")
    print(f"  baseline (shuffle + deal the same decks): {base_rate:,.0f} deals per CPU-second")
    print(f"  a whole game costs {base_rate / rate:.1f} deals")
    return 0


if __name__ == "__main__":
    sys.exit(main())

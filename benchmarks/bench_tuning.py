"""Deck tuning: successive halving next to exhaustive evaluation of every variant, in the same run.

    python benchmarks/bench_tuning.py [--deck FILE] [--candidates 50] [--budget 60000] [--workers 2]

Tunes a published Kaijudo deck (Rocket Storm) against the first N Kaijudo cards of its
civilizations that it does not hold (every legal one-for-one swap), on `--workers` processes. Then
plays every variant as many games as successive halving gave its finalists — what exhaustive
evaluation needs to reach the same confidence on each swap. Playing all of that takes hours, so the
exhaustive run plays `--sample` of the variants in full and its time is projected from their games
a second (said so in the output). Prints wall time, games played, and the saving as a ratio.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deckhub.services.tunings import catalogue_candidates  # noqa: E402
from deckhub.core.legality import check_deck  # noqa: E402
from deckhub.core.tuning import swapped, tune  # noqa: E402
from deckhub.games import all_games, get_game, load_catalogue  # noqa: E402
from deckhub.importers.decklists import read_decklist  # noqa: E402

DEFAULT_DECK = ROOT / "data" / "kaijudo" / "decks" / "[3RIS]Rocket_Storm.o8d"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", default=str(DEFAULT_DECK))
    parser.add_argument("--candidates", type=int, default=50)
    parser.add_argument("--budget", type=int, default=60_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sample", type=int, default=8, help="variants the exhaustive run plays in full")
    args = parser.parse_args(argv)
    spec = get_game("kaijudo")
    catalogue = load_catalogue("kaijudo")
    fmt = spec.format(None)
    deck = read_decklist(Path(args.deck).read_bytes(), spec, catalogue, args.deck, games=all_games()).deck
    held = {key for _s, key, _q in deck.entries()}
    pool = [k for k in catalogue_candidates(spec, deck, catalogue) if k not in held][:args.candidates]

    def legal(variant) -> bool:
        return check_deck(variant, spec, fmt, catalogue).legal

    started = time.perf_counter()
    halving = tune(spec.slug, deck, catalogue, pool, legal, budget=args.budget, seed=args.seed, workers=args.workers)
    halving_seconds = time.perf_counter() - started
    per_variant = halving.settings["games_per_variant"]["last_round"]
    exhaustive_games = per_variant * (halving.variants + 1)
    # the sample: the swaps halving ranked first, each played `per_variant` games like every swap would be
    sampled = {s.swap for s in halving.suggestions[:args.sample]}
    started = time.perf_counter()
    exhaustive = tune(spec.slug, deck, catalogue, sorted({s.into for s in sampled}),
                      lambda v: legal(v) and (v is deck or any(swapped(deck, s).sections == v.sections for s in sampled)),
                      budget=per_variant * (len(sampled) + 1), seed=args.seed, workers=args.workers, halving=False)
    sample_seconds = time.perf_counter() - started
    exhaustive_seconds = sample_seconds / exhaustive.games_played * exhaustive_games
    print(f"{deck.name or Path(args.deck).name}: {len(pool)} candidates, {halving.variants} legal swaps, "
          f"{args.workers} workers")
    print(f"successive halving: {halving.games_played:,} games in {halving_seconds:.1f} s; "
          f"finalists played {per_variant} games each")
    print(f"exhaustive, {per_variant} games for every swap: {exhaustive_games:,} games, about "
          f"{exhaustive_seconds:.0f} s (projected from {len(sampled)} swaps played in full: "
          f"{exhaustive.games_played:,} games in {sample_seconds:.1f} s)")
    print(f"saving: {exhaustive_games / halving.games_played:.1f}x fewer games, "
          f"{exhaustive_seconds / halving_seconds:.1f}x less time")
    for label, result in (("halving", halving), ("exhaustive sample", exhaustive)):
        top = result.suggestions[0]
        print(f"top swap ({label}): -{top.out_name} +{top.in_name} {top.delta:+.3f} "
              f"[{top.ci[0]:+.3f}, {top.ci[1]:+.3f}] over {top.games} games")
    print(halving.verdict)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

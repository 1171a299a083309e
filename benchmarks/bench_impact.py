"""Causal card impact: successive halving against giving every card the same games.

    python benchmarks/bench_impact.py [--budget GAMES] [--seed S]

Plays a published 40-card Kaijudo deck's impact run both ways with the same budget and prints, for
each, the games played, the seconds, the cards whose 95% interval excludes zero and the widest
interval among the cards whose difference stayed unclear (where halving spends its games).
"""
from __future__ import annotations

import argparse
import time

from deckhub.core.engine import published_decks
from deckhub.core.impact import impact
from deckhub.games import load_catalogue


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    catalogue = load_catalogue("kaijudo")
    name, deck = published_decks("kaijudo")[0]
    distinct = len(deck.sections["Deck"])
    print(f"{name}: {sum(deck.sections['Deck'].values())} cards, {distinct} distinct, budget {args.budget}, seed {args.seed}")
    for halving in (True, False):
        started = time.perf_counter()
        result = impact("kaijudo", deck, catalogue, budget=args.budget, seed=args.seed, halving=halving)
        seconds = time.perf_counter() - started
        clear = [c for c in result.cards if c.slower_without or c.faster_without]
        unclear = [c.ci[1] - c.ci[0] for c in result.cards if c not in clear]
        print(f"{'halving' if halving else 'every card alike'}: {result.games_played:,} games, {seconds:.1f} s, "
              f"{len(clear)} cards beyond the noise, widest unclear interval {max(unclear, default=0):.3f} turns, "
              f"games per card {min(c.games for c in result.cards)}-{max(c.games for c in result.cards)}")


if __name__ == "__main__":
    main()

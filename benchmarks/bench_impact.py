"""Causal card impact: successive halving against giving every card the same games.

    python benchmarks/bench_impact.py [--budget GAMES] [--seed S]

Plays a published 40-card Kaijudo deck's impact run both ways with the same budget and prints, for
each, the games played, the seconds, the cards whose 95% interval excludes zero and the widest
interval among the cards whose difference stayed unclear (where halving spends its games). Then it
gives every card the same games with a growing budget (x1.1 each step, up to --most times the
budget) until as many cards clear zero as with halving: the games and seconds that same answer
costs without halving, as ratios to halving's.
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
    parser.add_argument("--most", type=int, default=8, help="the largest budget tried without halving, in budgets")
    args = parser.parse_args()
    catalogue = load_catalogue("kaijudo")
    name, deck = published_decks("kaijudo")[0]
    distinct = len(deck.sections["Deck"])
    print(f"{name}: {sum(deck.sections['Deck'].values())} cards, {distinct} distinct, budget {args.budget}, seed {args.seed}")
    runs = {}
    for halving in (True, False):
        runs[halving] = _run(deck, catalogue, args.budget, args.seed, halving)
    halved = runs[True]
    budget, alike = args.budget, runs[False]
    while alike["clear"] < halved["clear"] and budget < args.most * args.budget:
        budget = int(budget * 1.1)
        alike = _run(deck, catalogue, budget, args.seed, False)
    reached = "as many" if alike["clear"] >= halved["clear"] else f"only {alike['clear']} (stopped at --most)"
    print(f"same answer without halving: {reached} cards beyond the noise after {alike['games']:,} games, "
          f"{alike['seconds']:.1f} s: {alike['games'] / halved['games']:.2f}x the games, "
          f"{alike['seconds'] / halved['seconds']:.2f}x the time of halving")


def _run(deck, catalogue, budget: int, seed: int, halving: bool) -> dict:
    started = time.perf_counter()
    result = impact("kaijudo", deck, catalogue, budget=budget, seed=seed, halving=halving)
    seconds = time.perf_counter() - started
    clear = [c for c in result.cards if c.slower_without or c.faster_without]
    unclear = [c.ci[1] - c.ci[0] for c in result.cards if c not in clear]
    print(f"{'halving' if halving else 'every card alike'} (budget {budget:,}): {result.games_played:,} games, "
          f"{seconds:.1f} s, {len(clear)} cards beyond the noise, widest unclear interval "
          f"{max(unclear, default=0):.3f} turns, games per card {min(c.games for c in result.cards)}-"
          f"{max(c.games for c in result.cards)}")
    return {"games": result.games_played, "seconds": seconds, "clear": len(clear)}

if __name__ == "__main__":
    main()

"""Deck validation speed: `check_deck` on a 50-card deck of each game, next to a same-run baseline.

    python benchmarks/bench_legality.py [--iterations N]

GUIDE §6: <= 50 us per check of a 50-card deck on one core. Absolute times drift on shared
machines, so each game's figure is also given as a ratio to a baseline measured in the same run on
the same deck: summing its quantities (the least any check must do). Decks are built from the real
shipped catalogues: Kaijudo and Huntik (Good heroes and actions, 3 copies each), the Neopets TCG
Darigan theme deck from the rulebook (10 + 40 cards), Battledome (a 50-card Main Deck by type plus
its Neopets). The first check of a deck fills the per-card cache; it is timed separately.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deckhub.core.decklist import Deck  # noqa: E402
from deckhub.core.legality import check_deck  # noqa: E402
from deckhub.games import all_games, get_game, load_catalogue  # noqa: E402
from deckhub.importers.catalogue import data_root  # noqa: E402
from deckhub.importers.decklists import read_decklist  # noqa: E402

BUDGET_US = 50.0


def _fill(deck: Deck, section: str, cards, total: int, per_card: int) -> None:
    cards = list(cards)
    i = 0
    while deck.count(section) < total and cards:
        card = cards[i % len(cards)]
        add = min(per_card - deck.sections.get(section, {}).get(card.key, 0), total - deck.count(section))
        if add > 0:
            deck.add(section, card.key, add)
        i += 1
        if i > 10 * len(cards):
            break


def decks():
    k = load_catalogue("kaijudo")
    kd = Deck("kaijudo", name="Kaijudo, 50 cards")
    _fill(kd, "Deck", sorted(k, key=lambda c: c.key)[:17], 50, 3)
    yield "kaijudo", "standard", None, kd, k

    h = load_catalogue("huntik")
    hd = Deck("huntik", name="Huntik Good, 50 cards")
    good = [c for c in sorted(h, key=lambda c: c.key) if c.attrs.get("team") == "Good"
            and c.type in ("major hero", "minor hero", "action")]
    _fill(hd, "Deck", good[:17], 50, 3)
    yield "huntik", "constructed", None, hd, h
    yield "huntik", "limited", 10, hd, h

    n = load_catalogue("neopets-tcg")
    text = (data_root() / "neopets-tcg" / "decks" / "darigan-theme-deck.txt").read_text(encoding="utf-8")
    nd = read_decklist(text, get_game("neopets-tcg"), n, games=all_games()).deck
    yield "neopets-tcg", "standard", None, nd, n

    b = load_catalogue("neopets-battledome")
    bd = Deck("neopets-battledome", name="Battledome, 50-card Main Deck")
    cards = sorted(b, key=lambda c: c.key)
    _fill(bd, "Main Deck", [c for c in cards if c.type not in (None, "Neopet", "Rainbow Pool Neopet", "Codestone")], 34, 2)
    _fill(bd, "Main Deck", [c for c in cards if c.type == "Codestone"], 50, 50)
    _fill(bd, "Neopet Deck", [c for c in cards if c.type == "Neopet"], 3, 1)
    yield "neopets-battledome", "standard", None, bd, b
    yield "neopets-battledome", "rb-1.4", None, bd, b
    yield "neopets-battledome", "forbidden-limited", None, bd, b  # Standard plus the ban list's three checks


def per_call_us(fn, iterations: int, repeats: int = 7) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(iterations):
            fn()
        times.append((time.perf_counter() - start) / iterations * 1e6)
    return min(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=20000)
    args = parser.parse_args(argv)
    print(f"check_deck, {args.iterations} checks x 7 runs, best run; budget {BUDGET_US:.0f} us per check")
    print(f"{'game / format':34} {'cards':>5} {'entries':>7} {'first':>9} {'check':>9} {'baseline':>9} {'ratio':>7}  verdict")
    worst = 0.0
    for slug, fmt_id, packs, deck, catalogue in decks():
        game = get_game(slug)
        fmt = game.format(fmt_id)
        sections = deck.sections
        start = time.perf_counter()
        report = check_deck(deck, game, fmt, catalogue, packs=packs)
        first = (time.perf_counter() - start) * 1e6
        check = per_call_us(lambda: check_deck(deck, game, fmt, catalogue, packs=packs), args.iterations)
        base = per_call_us(lambda: sum(q for s in sections.values() for q in s.values()), args.iterations)
        cards = sum(q for s in sections.values() for q in s.values())
        entries = sum(len(s) for s in sections.values())
        worst = max(worst, check)
        verdict = "ok" if check <= BUDGET_US else "OVER BUDGET"
        print(f"{slug + ' / ' + fmt_id:34} {cards:5d} {entries:7d} {first:7.0f}us {check:7.1f}us {base:7.2f}us "
              f"{check / base:6.1f}x  {verdict} ({len(report.violations)} violations)")
    print(f"worst: {worst:.1f} us per check ({worst / BUDGET_US:.0%} of the budget)")
    return 0 if worst <= BUDGET_US else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""`deckhub tune`: which one-for-one swap makes a deck win faster, by paired simulation.

    deckhub tune --game SLUG --deck FILE [--candidates collection|catalogue|FILE] [--user NAME]
                 [--budget GAMES] [--seed S] [--format NAME] [--option K=V] [--values FILE.json]
                 [--allow-unknown] [--workers W] [--json]

Candidates: `collection` takes the cards of the game that `--user` owns; `catalogue` (the default)
takes the game's cards whose civilizations, team or faerie are all among the deck's (every card,
for a game without one); a FILE is a deck list whose cards are the candidates (quantities ignored).
`--values` gives card values the catalogue lacks (the same `{card key or name: {field: value}}`
mapping as `deckhub goldfish`); with `--user` that user's own values play too. A deck whose cards lack values
the engine needs is not tuned unless `--allow-unknown`, and then the result says how many cards
played without them. `--json` prints {"game", "deck", "seed", "baseline": {"win_rate", "mean_turn"},
"suggestions": [{"out", "in", "mean_turn", "delta", "ci": [lo, hi], "games", ...}], "games_played", ...}.
Exit status: 0 tuned (whether or not a swap beats the noise), 2 unusable input.
"""
from __future__ import annotations

import json

import click

from deckhub.commands.goldfish import (_USER_HELP, deck_file, game_options, paired_run_flags, play_with_bar,
                                       read_file, with_game_flags)


@with_game_flags
@click.command("tune")
@paired_run_flags(20_000, "variant")
@click.option("--candidates", default="catalogue", show_default=True,
              help="'collection' (the --user's cards), 'catalogue', or a deck-list FILE whose cards may come in")
@click.option("--user", "username", default=None, help=_USER_HELP + "; --candidates collection takes their cards")
@click.option("--format", "format_name", default=None, help="the format the variants must stay legal in")
@click.option("--option", "pairs", multiple=True, metavar="KEY=VALUE", help="a game option")
@click.option("--values", "values_path", default=None, type=click.Path(dir_okay=False, allow_dash=True),
              help="card values the catalogue lacks, as JSON")
@click.option("--allow-unknown", is_flag=True, help="tune even though some cards lack values the engine needs")
@click.option("--top", default=10, show_default=True, type=click.IntRange(1, 100), help="suggestions to list")
def tune(game_slug, deck_path, budget, seed, workers, as_json, candidates, username, format_name, pairs, values_path,
         allow_unknown, top, **game_flags):
    """Suggest one-for-one swaps that make a deck win faster, each with a paired 95% interval."""
    from deckhub.services import playing

    source = deck_file(game_slug, deck_path, game_options(None, pairs, game_flags), values_path, username)
    listed = None if candidates in ("catalogue", "collection") else (read_file(candidates), candidates)
    tuned = play_with_bar("tuning", budget, as_json, playing.tuning, source, candidates, listed, format_name,
                          allow_unknown=allow_unknown, budget=budget, seed=seed, workers=workers, top=top)
    result, unknown, deck, fmt, spec = tuned.result, tuned.unknown, tuned.deck, tuned.format, tuned.spec
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    unit = spec.extras.get("turn_unit", "turn")
    mean = result.baseline_mean_turn
    click.echo(f"{spec.name}, {fmt.name}: {deck.name}, seed {seed}: the deck wins {result.baseline_win_rate:.1%} "
               f"of {result.baseline_games} games" + (f", mean winning {unit} {mean:.2f}" if mean is not None else ""))
    if unknown:
        click.echo(f"warning: {unknown} cards played without the values the engine needs; "
                   "these suggestions are built on unknowns")
    rounds = result.settings["games_per_variant"]
    click.echo(f"{result.variants} legal swaps tried, {result.games_played:,} games played "
               f"({rounds['first_round']} to {rounds['last_round']} games a variant, {result.settings['rounds']} rounds)")
    for s in result.suggestions:
        mark = "*" if s.better else " "
        click.echo(f"{mark} -{s.out_name} +{s.in_name}: {s.delta:+.2f} {unit}s (95% {s.ci[0]:+.2f} to {s.ci[1]:+.2f}), "
                   f"win rate {s.win_rate:.1%}, {s.games} games")
    click.echo(result.verdict)


"""`deckhub impact`: what each card does for a deck, measured by replacing one copy with a blank.

    deckhub impact --game SLUG --deck FILE [--budget GAMES] [--seed S] [--option K=V]
                   [--values FILE.json] [--user NAME] [--allow-unknown] [--workers W] [--json]

For each distinct card, one copy is replaced by a blank filler card that does nothing and counts for
nothing, and the deck is played on its own seeds (paired games, as `deckhub tune` plays them);
successive halving spends the budget on the cards whose difference is still unclear. `--json` prints
{"game", "deck", "seed", "games_played", "budget", "cards": [{"card", "key", "delta", "ci": [lo, hi],
"games"}], "verdict", "settings"}, where `delta` is the change in the mean winning-turn score (a game
not won scores the turn limit plus one) without the card: positive, the deck is slower without it;
most positive first, each with its 95% interval. Exit status: 0 measured, 2 unusable input.
"""
from __future__ import annotations

import json
import sys

import click

from deckhub.commands.goldfish import _USER_HELP, _VALUES_HELP, deck_file, game_options, play, with_game_flags


@with_game_flags
@click.command("impact")
@click.option("--game", "game_slug", required=True, help="game slug, e.g. kaijudo")
@click.option("--deck", "deck_path", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="deck list: text, OCTGN .o8d or JSON ('-' reads standard input)")
@click.option("--budget", default=4_000, show_default=True, type=click.IntRange(1, 1_000_000),
              help="games to spend in all (the deck's own included)")
@click.option("--seed", default=0, show_default=True, type=int, help="master seed; every arm plays the same seeds")
@click.option("--option", "pairs", multiple=True, metavar="KEY=VALUE", help="a game option")
@click.option("--values", "values_path", default=None, type=click.Path(dir_okay=False, allow_dash=True), help=_VALUES_HELP)
@click.option("--user", "username", default=None, help=_USER_HELP)
@click.option("--allow-unknown", is_flag=True, help="measure even though some cards lack values the engine needs")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="processes to share the games")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
def impact(game_slug, deck_path, budget, seed, pairs, values_path, username, allow_unknown, workers, as_json,
           **game_flags):
    """Each card's effect on the winning turn, with a paired 95% interval."""
    from deckhub.services import playing

    source = deck_file(game_slug, deck_path, game_options(None, pairs, game_flags), values_path, username)
    bar = None
    if sys.stderr.isatty() and not as_json:
        bar = click.progressbar(length=budget, label="measuring", file=sys.stderr)
        bar.__enter__()
    last = [0]

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.length = total
            bar.update(done - last[0])
            last[0] = done
    try:
        measured = play(playing.card_impact, source, allow_unknown=allow_unknown, budget=budget, seed=seed,
                        workers=workers, progress=progress)
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    result, spec = measured.result, measured.spec
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    unit = spec.extras.get("turn_unit", "turn")
    click.echo(f"{spec.name}: {measured.deck.name}, seed {seed}: {result.games_played:,} games played "
               f"({len(result.cards)} cards, {result.settings['rounds']} rounds)")
    if measured.unknown:
        click.echo(f"warning: {measured.unknown} cards played without the values the engine needs")
    for c in result.cards:
        mark = "*" if c.slower_without or c.faster_without else " "
        click.echo(f"{mark} {c.card}: {c.delta:+.3f} {unit}s without one copy "
                   f"(95% {c.ci[0]:+.3f} to {c.ci[1]:+.3f}), {c.games} games")
    click.echo(result.verdict)

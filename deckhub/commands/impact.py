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

import click

from deckhub.commands.goldfish import (_USER_HELP, _VALUES_HELP, deck_file, game_options, paired_run_flags,
                                       play_with_bar, with_game_flags)


@with_game_flags
@click.command("impact")
@paired_run_flags(4_000, "arm")
@click.option("--option", "pairs", multiple=True, metavar="KEY=VALUE", help="a game option")
@click.option("--values", "values_path", default=None, type=click.Path(dir_okay=False, allow_dash=True), help=_VALUES_HELP)
@click.option("--user", "username", default=None, help=_USER_HELP)
@click.option("--allow-unknown", is_flag=True, help="measure even though some cards lack values the engine needs")
def impact(game_slug, deck_path, budget, seed, workers, as_json, pairs, values_path, username, allow_unknown,
           **game_flags):
    """Each card's effect on the winning turn, with a paired 95% interval."""
    from deckhub.services import playing

    source = deck_file(game_slug, deck_path, game_options(None, pairs, game_flags), values_path, username)
    measured = play_with_bar("measuring", budget, as_json, playing.card_impact, source, allow_unknown=allow_unknown,
                             budget=budget, seed=seed, workers=workers)
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

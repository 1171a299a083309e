"""`deckhub compare`: two decks of one game played on the same seeds, side by side.

    deckhub compare --game SLUG DECK_A DECK_B [--games N] [--seed S] [--option K=V]
                    [--mulligan POLICY] [--mulligan-b POLICY] [--first|--second|--random-order]
                    [--values FILE.json] [--user NAME] [--allow-unknown] [--workers W] [--json]

Game i of both decks plays with the same seed, so `delta` (B's mean winning-turn score minus A's; a
game not won scores the turn limit plus one) is a paired difference, with its 95% interval `ci`; a
deck compared with itself gives exactly 0. `--json` prints {"a", "b", "delta", "ci", "games", "seed",
"cards", "settings"}, where "a"/"b" are {"deck", "games", "wins", "win_rate", "win_turn"} and
"cards" the card lists' differences [{"section", "card", "key", "a", "b"}]. `--mulligan-b` plays B
with another mulligan policy (see `deckhub simulate`): a deck compared with itself under two
policies, on the same seeds. Exit 2: unusable input.
"""
from __future__ import annotations

import json

import click

from deckhub.commands.goldfish import (_USER_HELP, _VALUES_HELP, deck_file, game_options, play, turn_order_flags,
                                       with_game_flags)


@with_game_flags
@click.command("compare")
@click.option("--game", "game_slug", required=True, help="game slug, e.g. kaijudo")
@click.argument("deck_a", type=click.Path(dir_okay=False, allow_dash=True))
@click.argument("deck_b", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--games", default=1000, show_default=True, type=click.IntRange(2, 100_000), help="games of each deck")
@click.option("--seed", default=0, show_default=True, type=int, help="master seed; both decks play the same seeds")
@turn_order_flags
@click.option("--mulligan", "mulligan", default=None, metavar="POLICY", help="both decks' mulligan policy")
@click.option("--mulligan-b", "mulligan_b", default=None, metavar="POLICY", help="B's mulligan policy, if another")
@click.option("--option", "pairs", multiple=True, metavar="KEY=VALUE", help="a game option")
@click.option("--values", "values_path", default=None, type=click.Path(dir_okay=False, allow_dash=True), help=_VALUES_HELP)
@click.option("--user", "username", default=None, help=_USER_HELP)
@click.option("--allow-unknown", is_flag=True, help="compare even though some cards lack values the engine needs")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="processes to share the games")
@click.option("--json", "as_json", is_flag=True, help="print the comparison as JSON")
def compare(game_slug, deck_a, deck_b, games, seed, first, mulligan, mulligan_b, pairs, values_path,
            username, allow_unknown, workers, as_json, **game_flags):
    """Play two decks on the same seeds and give the paired difference in winning turn."""
    from deckhub.services import playing

    options = game_options(first, pairs, game_flags, mulligan)
    a = deck_file(game_slug, deck_a, options, values_path, username)
    b = deck_file(game_slug, deck_b, options, values_path, username)
    ready, data = play(playing.compare_files, a, b, games=games, seed=seed, workers=workers,
                       allow_unknown=allow_unknown, options_b={"mulligan_policy": mulligan_b} if mulligan_b else None)
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    unit = ready.spec.extras.get("turn_unit", "turn")
    for label in ("a", "b"):
        side = data[label]
        mean = side["win_turn"]["mean"]
        click.echo(f"{label.upper()} {side['deck']}: {side['wins']} of {side['games']} won ({side['win_rate']:.1%})"
                   + (f", mean winning {unit} {mean:.2f}" if mean is not None else ""))
    click.echo(f"B - A: {data['delta']:+.3f} {unit}s (95% {data['ci'][0]:+.3f} to {data['ci'][1]:+.3f}) "
               f"over {games} paired games, seed {seed}")
    for c in data["cards"]:
        click.echo(f"  {c['card']}: {c['a']} in A, {c['b']} in B")

"""`deckhub simulate`: many automated goldfish games of one deck, summarised.

    deckhub simulate --game SLUG --deck FILE [--games N] [--seed S] [--workers W] [--json]
                     [--first|--second|--random-order] [--drawn-by N] [--mulligan POLICY]
                     [--values FILE.json] [--user NAME] [--allow-unknown]

`--json` prints {"game", "games", "seed", "wins", "win_rate", "losses": {reason: n},
"win_turn": {"mean", "median", "p10", "p90", "histogram": {turn: count}}, "games_per_second",
"by_turn_order": {"first"|"second": {"games", "wins", "win_turn"}}, "card_impact_turn": N,
"card_impact": [{"card", "key", "games_opening_hand", "mean_turn_opening_hand", "games_drawn_by",
"mean_turn_drawn_by", "games_never_drawn", "mean_turn_never_drawn", "games_played",
"mean_turn_played", and "wins_*" / "win_rate_*" of each group}]}: the observed card impact, from the
games played (drawn by turn N: `--drawn-by`, default the median winning turn), and
`--random-order` lets each game's seed decide who goes first; `--mulligan POLICY` decides the
opening hand where the rules offer a mulligan (Huntik, Battledome): `keep`, `without:GROUP` or
`fewer:K:GROUP`, GROUP as FIELD=VALUE / FIELD<=N joined by '&' (e.g. `without:type=Codestone`), and
"mulligans" counts the hands it sent back; and
with --allow-unknown on a deck whose values are not all known also
"unknown_values": {"cards": n, "values": {card key: [field, ...]}}.
While the engine lacks card values the deck needs, nothing is played and the command exits 2 naming
them (card and field); `--values FILE.json` gives them (as `deckhub goldfish`), `--allow-unknown`
plays anyway and every summary says how many cards were played without their values.
The same inputs give the same numbers whatever --workers is (only games_per_second varies).
"""
from __future__ import annotations

import json
import os

import click

from deckhub.commands.goldfish import (_USER_HELP, _VALUES_HELP, deck_file, game_options, play_with_bar,
                                       turn_order_flags, with_game_flags)


@with_game_flags
@click.command("simulate")
@click.option("--game", "game_slug", required=True, help="game slug, e.g. kaijudo")
@click.option("--deck", "deck_path", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="deck list: text, OCTGN .o8d or JSON ('-' reads standard input)")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1, 100_000), help="games to play")
@click.option("--seed", default=0, show_default=True, type=int, help="master seed; game i plays with a seed derived from it")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="processes to share the games (at most the machine's cores)")
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@turn_order_flags
@click.option("--mulligan", "mulligan", default=None, metavar="POLICY",
              help="keep | without:GROUP | fewer:K:GROUP (GROUP: FIELD=VALUE or FIELD<=N, joined by '&')")
@click.option("--drawn-by", type=click.IntRange(0, 1000), default=None,
              help="the turn of the card impact's \"drawn by\" column (default: the median winning turn)")
@click.option("--option", "pairs", multiple=True, metavar="KEY=VALUE", help="any other game option")
@click.option("--values", "values_path", default=None, type=click.Path(dir_okay=False, allow_dash=True), help=_VALUES_HELP)
@click.option("--user", "username", default=None, help=_USER_HELP)
@click.option("--allow-unknown", is_flag=True,
              help="play even though the engine lacks some card values (the summary says how many cards)")
def simulate(game_slug, deck_path, games, seed, workers, as_json, first, mulligan, drawn_by, pairs,
             values_path, username, allow_unknown, **game_flags):
    """Play many automated games of a deck and report win rate, losses and the winning turn."""
    from deckhub.services import playing

    source = deck_file(game_slug, deck_path, game_options(first, pairs, game_flags, mulligan), values_path, username)
    workers = min(workers, os.cpu_count() or 1)
    ready, summary = play_with_bar("playing", games, as_json, playing.simulation, source, games, seed, workers,
                                   allow_unknown=allow_unknown)
    spec, catalogue, missing = ready.spec, ready.catalogue, ready.missing
    data = summary.to_json(catalogue, drawn_by)
    if missing:  # (only then: the JSON of a fully known deck keeps its documented keys)
        data["unknown_values"] = {"cards": len(missing), "values": missing}
    if as_json:
        click.echo(json.dumps(data))
        return
    turn = data["win_turn"]
    without = f"; {len(missing)} cards played without their values" if missing else ""
    click.echo(f"{spec.name}: {summary.wins} of {games} games won ({summary.win_rate:.1%}), seed {seed}{without}")
    if missing:
        click.echo(f"played without their values ({len(missing)} cards): {ready.missing_words}; "
                   "these are not the deck's real odds")
    if summary.wins:
        click.echo(f"winning {spec.extras.get('turn_unit', 'turn')}: mean {turn['mean']:.2f}, median {turn['median']}, 10th percentile {turn['p10']}, "
                   f"90th percentile {turn['p90']}")
        width = max(turn["histogram"].values())
        for t, n in turn["histogram"].items():
            click.echo(f"  {spec.extras.get('turn_unit', 'turn')} {t:>3}: {'#' * max(1, round(40 * n / width)):<40} {n}")
    for reason, n in data["losses"].items():
        click.echo(f"lost ({reason}): {n}")
    stuck = summary.stuck_cards(catalogue, 5)
    if stuck:
        click.echo("most often left in hand: " + ", ".join(f"{name} ({share:.0%})" for name, _, share in stuck))
    if mulligan:
        click.echo(f"mulligan policy {mulligan}: {data['mulligans']} of {games} opening hands sent back")
    for side, part in data["by_turn_order"].items():
        mean = part["win_turn"]["mean"]
        click.echo(f"going {side}: {part['wins']} of {part['games']} games won"
                   + (f", mean winning {spec.extras.get('turn_unit', 'turn')} {mean:.2f}" if mean is not None else ""))
    click.echo(f"{data['games_per_second']:,} games a second on {workers} worker(s)")

"""`deckhub goldfish` and `deckhub coverage`: play a deck against the dummy with the built-in policy,
and report how much of a game's card text the engine automates.

    deckhub goldfish --game SLUG --deck FILE [--seed N] [--first|--second] [--json]
                     [--option KEY=VALUE ...] [a game's own flags, e.g. --mission NAME]
                     [--values FILE.json] [--user NAME]
    deckhub coverage --game SLUG [--json]

The seed defaults to 0, so the same command always prints the same game. `--json` prints
`{"game", "seed", "result": "win"|"loss", "turn", "reason", "actions", "log"}`; `actions` replays the
game exactly (`deckhub.core.engine.replay`). Every game option is given as `--option KEY=VALUE`
and goes to the game's engine, which refuses the ones it does not have; `--first/--second` and
the flags the games declare (`GameSpec.command_options`: Huntik's `--mission`, Battledome's
`--dummy-hp/--dummy-defence/--dummy-agility`) are shorthands for `--option first=...`,
`--option mission=...`, `--option dummy_hp=...`; when the engine lacked card values the deck needs, the JSON also has
`"unknown_values": {card key: [field, ...]}`. `--values FILE.json` gives card values (keys or names); with
`--user NAME` the user's own values are used too and the file's are kept as theirs (see deckhub.services.card_values).
Exit status: 0 when a game was played (won or lost), 2 when the game, deck or options are unusable.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Mapping

import click

from deckhub.commands.site import open_app, site_database_url

EXIT_BAD_INPUT = 2


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    raise click.exceptions.Exit(EXIT_BAD_INPUT)


def turn_order_flags(command: click.Command) -> click.Command:
    """`--first`, `--second` or `--random-order` (the `first` option: go first, go second, or drawn
    from each game's seed); none given: the game's default, drawn at random as its rules do."""
    for flag, value, words in (("--random-order", "random", "who goes first is drawn at random (the rules' way)"),
                               ("--second", "second", "go second"), ("--first", "first", "go first")):
        command = click.option(flag, "first", flag_value=value, default=None, help=words)(command)
    return command


def game_options(first: str | None, pairs: tuple[str, ...], game_flags: Mapping[str, Any],
                 mulligan: str | None = None) -> dict[str, Any]:
    """The options the command line names, as the engine's option names (the engine checks them):
    `--option` pairs, then `--first/--second/--random-order`, the `--mulligan` policy (the run's
    `mulligan_policy`) and the games' own flags (`with_game_flags`)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            _fail(f"--option takes KEY=VALUE, not {pair!r}")
        options[key.strip().replace("-", "_")] = value.strip()
    named = {"first": first, "mulligan_policy": mulligan, **game_flags}
    options.update({k: v for k, v in named.items() if v is not None})
    return options


def with_game_flags(command: click.Command) -> click.Command:
    """`command` (one that plays games) with the flags every registered game declares for its own
    options (`GameSpec.command_options`), after `--option`: each is a shorthand for
    `--option NAME=VALUE`, reaches the callback as the keyword NAME (its `game_flags`), and the
    game played refuses an option it does not have, as it does an `--option`."""
    from deckhub.games import all_games

    flags: dict[str, tuple[Any, Any]] = {}
    for game in all_games():
        for flag in game.command_options:
            flags.setdefault(flag.flag, (game, flag))
    taken = {p.name for p in command.params}
    clash = [flag.option for _, flag in flags.values() if flag.option in taken]
    if clash:
        raise TypeError(f"game flags {clash} would take the names of {command.name}'s own options")
    at = next(i for i, p in enumerate(command.params) if p.name == "pairs") + 1
    command.params[at:at] = [
        click.Option([flag.flag, flag.option], type=int if flag.kind == "int" else str, default=None,
                     metavar="N" if flag.kind == "int" else "NAME",
                     help=f"{game.name}: {flag.help} (shorthand for --option {flag.option}=...)")
        for game, flag in flags.values()]
    return command


def read_file(path: str) -> bytes:
    """The bytes of a file named on the command line ('-': standard input), or exit 2."""
    try:
        with click.open_file(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")


def read_values_file(path: str) -> dict:
    """The `--values` file: the `values` mapping of a `PUT /api/card-values` body (the whole body is
    accepted too), `{card key or name: {field: value}}`; exit 2 when it cannot be read."""
    try:
        data = json.loads(read_file(path))
    except ValueError as exc:
        _fail(f"{path} is not JSON: {exc}")
    if isinstance(data, dict) and isinstance(data.get("values"), dict) and set(data) <= {"game", "values"}:
        data = data["values"]
    if not isinstance(data, dict):
        _fail(f'{path} must hold a JSON object: {{"card key or name": {{"field": value}}}}')
    return data


def deck_file(game_slug: str, deck_path: str, options: dict, values_path: str | None, username: str | None):
    """What the command line names for a play of a deck: the deck file read, the `--values` file
    read, and (with `--user`) the site's database opened for that user's own values."""
    from deckhub.services.playing import DeckFile

    if username:
        open_app()
    return DeckFile(game_slug, read_file(deck_path), deck_path, site_database_url(), options,
                    read_values_file(values_path) if values_path else None, values_path, username)


def play(use_case, *args, **kwargs):
    """`use_case(*args, **kwargs)` of the playing service, or exit 2 with its error and lines."""
    from deckhub.services.playing import PlayError
    try:
        return use_case(*args, **kwargs)
    except PlayError as exc:
        for line in exc.lines:
            click.echo(line, err=True)
        _fail(str(exc))


def play_with_bar(label: str, length: int, quiet: bool, use_case, *args, **kwargs):
    """`play(use_case, *args, progress=..., **kwargs)` with a progress bar of `length` steps on standard
    error when it is a terminal (none when `quiet`, e.g. for --json); the use case's progress calls
    (done, total) may correct the length once it knows the total."""
    bar = None
    if sys.stderr.isatty() and not quiet:
        bar = click.progressbar(length=length, label=label, file=sys.stderr)
        bar.__enter__()
    last = [0]

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.length = total
            bar.update(done - last[0])
            last[0] = done
    try:
        return play(use_case, *args, progress=progress, **kwargs)
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)


def paired_run_flags(default_budget: int, arms: str):
    """The flags `deckhub tune` and `deckhub impact` share: --game, --deck, --budget, --seed, --workers
    and --json (`arms`: what plays the deck's seeds, in --seed's help)."""
    flags = (
        click.option("--game", "game_slug", required=True, help="game slug, e.g. kaijudo"),
        click.option("--deck", "deck_path", required=True, type=click.Path(dir_okay=False, allow_dash=True),
                     help="deck list: text, OCTGN .o8d or JSON ('-' reads standard input)"),
        click.option("--budget", default=default_budget, show_default=True, type=click.IntRange(1, 1_000_000),
                     help="games to spend in all (the deck's own included)"),
        click.option("--seed", default=0, show_default=True, type=int,
                     help=f"master seed; every {arms} plays the same seeds"),
        click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
                     help="processes to share the games"),
        click.option("--json", "as_json", is_flag=True, help="print the result as JSON"),
    )

    def add(command):
        for flag in reversed(flags):
            command = flag(command)
        return command
    return add


_VALUES_HELP = ("card values for this game, a JSON file {\"card key or name\": {\"field\": value}} "
                "(the values of PUT /api/card-values)")
_USER_HELP = "use this site user's own card values too, and keep the --values given as theirs"


@with_game_flags
@click.command("goldfish")
@click.option("--game", "game_slug", required=True, help="game slug, e.g. kaijudo")
@click.option("--deck", "deck_path", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="deck list: text, OCTGN .o8d or JSON ('-' reads standard input)")
@click.option("--seed", type=int, default=0, show_default=True, help="shuffle seed; the same seed replays the same game")
@turn_order_flags
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
@click.option("--option", "pairs", multiple=True, metavar="KEY=VALUE", help="any other game option")
@click.option("--values", "values_path", default=None, type=click.Path(dir_okay=False, allow_dash=True), help=_VALUES_HELP)
@click.option("--user", "username", default=None, help=_USER_HELP)
def goldfish(game_slug, deck_path, seed, first, as_json, pairs, values_path, username, **game_flags):
    """Play one automated goldfish game with the game's built-in policy."""
    from deckhub.services import playing

    source = deck_file(game_slug, deck_path, game_options(first, pairs, game_flags), values_path, username)
    ready, state = play(playing.goldfish, source, seed)
    spec, missing = ready.spec, ready.missing
    outcome = state.outcome
    if as_json:
        doc = {"game": spec.slug, "seed": seed, "result": outcome.result, "turn": outcome.turn,
               "reason": outcome.reason, "actions": state.actions, "log": state.log_lines()}
        if missing:
            doc["unknown_values"] = missing
        click.echo(json.dumps(doc))
        return
    for line in state.log_lines():
        click.echo(line)
    unit = "round" if state.view().get("round_based") else "turn"
    click.echo(f"Result: {outcome.result} on {unit} {outcome.turn}: {outcome.reason} (seed {seed})")
    if missing:
        click.echo(f"played without their values: {len(missing)} cards ({ready.missing_words})")


@click.command("coverage")
@click.option("--game", "game_slug", required=True, help="game slug, e.g. kaijudo")
@click.option("--json", "as_json", is_flag=True, help="print the report as JSON")
@click.option("--top", default=15, show_default=True, help="how many unautomated phrases to list")
def coverage(game_slug, as_json, top):
    """How many distinct cards the engine automates fully, partly or not at all."""
    from deckhub.services import playing

    spec, report = play(playing.coverage, game_slug, site_database_url())
    if as_json:
        click.echo(json.dumps(report))
        return
    total = report["cards"] or 1

    def share(n: int) -> str:
        return f"{n} ({100 * n / total:.0f}%)"

    click.echo(f"{spec.name}: {report['cards']} distinct cards")
    click.echo(f"  fully automated: {share(report['full'])} (of which {report['vanilla']} have no rules text)")
    click.echo(f"  partly automated: {share(report['partial'])}")
    click.echo(f"  not automated: {share(report['none'])}")
    if "abilities" in report:
        a = report["abilities"]
        click.echo(f"  abilities: {a.get('automated', 0)} automated, {a.get('no_effect', 0)} with no effect against "
                   f"the dummy, {a.get('manual', 0)} left to manual moves")
    if report.get("demoted", {}).get("abilities"):
        words = ", ".join(f"{w} {n}" for w, n in list(report["demoted"]["by_word"].items())[:5])
        click.echo(f"  left manual for a word no pattern read: {report['demoted']['abilities']} abilities ({words})")
    if report["top_unautomated"]:
        click.echo("most common unautomated phrases:")
        for item in report["top_unautomated"][:top]:
            click.echo(f"  {item['cards']:4d}  {item['phrase']}")
    for note in report.get("notes", ()):
        click.echo(f"note: {note}")

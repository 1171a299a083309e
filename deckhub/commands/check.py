"""`deckhub check`: read a deck list (text, .o8d or JSON) and check it against a game's format.

    deckhub check --game SLUG [--format NAME] [--packs N] [--json] FILE

FILE may be `-` for standard input. Exit status: 0 legal (warnings and unverified allowed),
1 illegal, 2 the input cannot be read or a line names an unknown card (errors on standard error,
each with its line number). `--json` prints
`{"game", "format", "legal", "verified", "counts", "violations", "errors"}` (`verified` is false while a
check needs a card value the catalogue does not know: the deck is legal so far, not known to be legal);
`POST /api/check` answers the same dict: both call the deck-check service, `deckhub.services.checks`.
"""
from __future__ import annotations

import json
import sys

import click

from deckhub.commands.site import command_catalogue
from deckhub.services.checks import CheckError, CheckResult, check_source

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


def _exit_code(result: CheckResult) -> int:
    if result.parse.errors:
        return EXIT_UNREADABLE
    return EXIT_LEGAL if result.report.legal else EXIT_ILLEGAL


def _human(result: CheckResult) -> str:
    counts = ", ".join(f"{s} {n}" for s, n in result.report.counts.items())
    if result.parse.errors:
        verdict = "not checked fully: fix the lines above"
    elif not result.legal:
        verdict = "illegal"
    elif not result.report.verified:
        verdict = f"legal so far: {len(result.report.unverified_cards())} cards unverified"
    else:
        verdict = "legal"
    lines = [f"{result.game.name}, {result.format.name}: {verdict} ({counts})"]
    for v in result.report.violations:
        where = f" [{v.section}]" if v.section else ""
        lines.append(f"{v.severity}: {v.rule}{where}: {v.message}")
    return "\n".join(lines)


@click.command("check")
@click.option("--game", "game_slug", required=True, metavar="SLUG", help="kaijudo, huntik, neopets-tcg, neopets-battledome")
@click.option("--format", "format_name", metavar="NAME", help="a format id or name (default: the game's default)")
@click.option("--packs", type=int, metavar="N", help="packs used, for a Limited format (Huntik: deck >= 5 x N)")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
@click.argument("file", type=click.File("rb"))
def check(game_slug: str, format_name: str | None, packs: int | None, as_json: bool, file) -> None:
    """Check a deck list FILE (text, .o8d or JSON; - for standard input) against a game's rules."""
    name = getattr(file, "name", "-")
    try:
        data = file.read()
    except OSError as exc:
        click.echo(f"line 1: cannot read {name}: {exc}", err=True)
        sys.exit(EXIT_UNREADABLE)
    filename = None if not isinstance(name, str) or name in ("-", "<stdin>") else name
    try:
        result = check_source(game_slug, data, format_name, packs, filename=filename, catalogues=command_catalogue)
    except CheckError as exc:
        raise click.UsageError(str(exc)) from None
    for err in result.parse.errors:
        click.echo(str(err), err=True)
    for notice in result.parse.notices:
        click.echo(f"notice: {notice}", err=True)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
    else:
        click.echo(_human(result))
    sys.exit(_exit_code(result))

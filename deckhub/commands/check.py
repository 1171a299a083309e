"""`deckhub check`: read a deck list (text, .o8d or JSON) and check it against a game's format.

    deckhub check --game SLUG [--format NAME] [--packs N] [--json] FILE

FILE may be `-` for standard input. Exit status: 0 legal (warnings and unverified allowed),
1 illegal, 2 the input cannot be read or a line names an unknown card (errors on standard error,
each with its line number). `--json` prints
`{"game", "format", "legal", "verified", "counts", "violations", "errors"}` (`verified` is false while a
check needs a card value the catalogue does not know: the deck is legal so far, not known to be legal);
`POST /api/check` answers the same dict through `check_text`.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

import click

from deckhub.core.cards import Catalogue
from deckhub.core.legality import Format, Report, check_deck
from deckhub.games import UnknownGame, get_game
from deckhub.games.spec import GameSpec
from deckhub.importers.decklists import DeckParse, read_decklist

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


class CheckError(ValueError):
    """The request itself is wrong (unknown game or format, a pack count the format cannot use)."""


def _catalogue(slug: str) -> Catalogue:
    """The catalogue the check reads cards from: the site's (community facts included) or data/."""
    from deckhub.catalogue_store import command_catalogue

    return command_catalogue(slug)


def choose_format(game: GameSpec, name: str | None, packs: int | None) -> Format:
    """The named format (default: the game's default, or its pack format when packs are given)."""
    if packs is not None and packs < 1:
        raise CheckError(f"--packs must be a positive whole number, not {packs}")
    if name is None and packs is not None:
        with_packs = [f for f in game.formats if f.needs_packs]
        if with_packs:
            return with_packs[0]
    try:
        fmt = game.format(name)
    except LookupError as exc:
        raise CheckError(str(exc)) from None
    if fmt.needs_packs and packs is None:
        raise CheckError(f"the {game.name} {fmt.name} format needs the number of packs used (--packs N)")
    if packs is not None and not fmt.needs_packs:
        raise CheckError(f"the {game.name} {fmt.name} format is not played with packs; drop --packs")
    return fmt


@dataclass
class CheckResult:
    game: GameSpec
    format: Format
    parse: DeckParse
    report: Report

    @property
    def legal(self) -> bool:
        return self.report.legal and not self.parse.errors

    @property
    def exit_code(self) -> int:
        if self.parse.errors:
            return EXIT_UNREADABLE
        return EXIT_LEGAL if self.report.legal else EXIT_ILLEGAL

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game.slug, "format": self.format.id, "legal": self.legal,
                "verified": self.report.verified, "counts": dict(self.report.counts),
                "violations": [v.to_json() for v in self.report.violations],
                "errors": [e.to_json() for e in self.parse.errors]}


def check_source(game_slug: str, data: str | bytes, format: str | None = None, packs: int | None = None,
                 catalogue: Catalogue | None = None, filename: str | None = None) -> CheckResult:
    """Parse and check one deck list; the result keeps the parse (deck, errors, notices) and the report.

    Raises CheckError for an unknown game or format or a pack count the format cannot use.
    """
    try:
        game = get_game(game_slug)
    except UnknownGame as exc:
        raise CheckError(str(exc)) from None
    fmt = choose_format(game, format, packs)
    cat = catalogue if catalogue is not None else _catalogue(game.slug)
    others = None if catalogue is not None else _catalogue
    parse = read_decklist(data, game, cat, filename, others=others)
    report = check_deck(parse.deck, game, fmt, cat, packs=packs)
    return CheckResult(game, fmt, parse, report)


def check_text(game_slug: str, text: str | bytes, format: str | None = None, packs: int | None = None,
               catalogue: Catalogue | None = None) -> dict[str, Any]:
    """The `--json` answer for a deck list: {"game", "format", "legal", "verified", "counts", "violations", "errors"}.

    `legal` is false while any line has an error (the deck is not fully known). Raises CheckError
    for an unknown game or format or a pack count the format cannot use.
    """
    return check_source(game_slug, text, format, packs, catalogue).to_json()


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
        result = check_source(game_slug, data, format_name, packs, filename=filename)
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
    sys.exit(result.exit_code)

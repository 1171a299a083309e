"""The deck-check service: one use case for every front end that checks a deck.

`deckhub check` (the CLI), `POST /api/check`, the deck page's validation panel and
`GET /api/decks/<id>/check` all call these, so a list or a stored deck is judged the same way
everywhere. `check_text` answers `{"game", "format", "legal", "verified", "counts", "violations", "errors"}`;
`verified` is false while a check needs a card value nobody knows (the deck is legal so far).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from deckhub.core.cards import Catalogue
from deckhub.core.legality import Format, Report, check_deck
from deckhub.games import UnknownGame, all_games, get_game, load_catalogue
from deckhub.core.spec import GameSpec
from deckhub.importers.decklists import DeckParse, read_decklist


class CheckError(ValueError):
    """The request itself is wrong (unknown game or format, a pack count the format cannot use)."""


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

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game.slug, "format": self.format.id, "legal": self.legal,
                "verified": self.report.verified, "counts": dict(self.report.counts),
                "violations": [v.to_json() for v in self.report.violations],
                "errors": [e.to_json() for e in self.parse.errors]}


def check_source(game_slug: str, data: str | bytes, format: str | None = None, packs: int | None = None,
                 catalogue: Catalogue | None = None, filename: str | None = None,
                 catalogues: Callable[[str], Catalogue] = load_catalogue) -> CheckResult:
    """Parse and check one deck list; the result keeps the parse (deck, errors, notices) and the report.

    Cards are read from `catalogue`, else from `catalogues` (a game's slug -> its catalogue: the
    shipped files unless a command gives the site's), which then also names cards of other games.

    Raises CheckError for an unknown game or format or a pack count the format cannot use.
    """
    try:
        game = get_game(game_slug)
    except UnknownGame as exc:
        raise CheckError(str(exc)) from None
    fmt = choose_format(game, format, packs)
    cat = catalogue if catalogue is not None else catalogues(game.slug)
    others = None if catalogue is not None else catalogues
    parse = read_decklist(data, game, cat, filename, games=all_games(), others=others)
    report = check_deck(parse.deck, game, fmt, cat, packs=packs)
    return CheckResult(game, fmt, parse, report)


def check_text(game_slug: str, text: str | bytes, format: str | None = None, packs: int | None = None,
               catalogue: Catalogue | None = None) -> dict[str, Any]:
    """The `--json` answer for a deck list: {"game", "format", "legal", "verified", "counts", "violations", "errors"}.

    `legal` is false while any line has an error (the deck is not fully known). Raises CheckError
    for an unknown game or format or a pack count the format cannot use.
    """
    return check_source(game_slug, text, format, packs, catalogue).to_json()


REPORTS_KEPT = 1024  # per catalogue: the reports of the deck versions checked most recently


def check_stored(stored, catalogue: Catalogue | None = None, user_id: int | None = None) -> Report:
    """The construction report of a stored deck's latest version (a `decks.StoredDeck`), in its format,
    with `user_id`'s own card values where the catalogue knows nothing. `report.yours` counts the
    values used (not reviewed, so pages say so); `report.enterable` whether players can enter any.

    A report no player's values went into is the same for everyone who opens that version, so it is
    kept on the catalogue (a corrected card drops it) per `StoredDeck.stamp`, format and pack count,
    the REPORTS_KEPT most recent: callers read a report, never change it."""
    from deckhub.services import card_values
    from deckhub.services.catalogue_store import get_catalogue
    spec = get_game(stored.row.game)
    base = catalogue if catalogue is not None else get_catalogue(spec.slug)
    deck = None  # read from its JSON once, and only when it is checked or the player's values may apply
    if card_values.values_may_apply(user_id, spec.slug):
        deck = stored.deck
        checked = card_values.catalogue_for(user_id, spec.slug, deck, base)
        if checked is not base:
            return _check_stored(stored, spec, deck, checked, len(getattr(checked, "values", None) or ()))
    return base.memo_each("checks.stored", (*stored.stamp, stored.row.format, stored.row.packs),
                          lambda: _check_stored(stored, spec, deck or stored.deck, base, 0), limit=REPORTS_KEPT)


def _check_stored(stored, spec: GameSpec, deck, catalogue: Catalogue, yours: int) -> Report:
    from deckhub.services import card_values
    report = check_deck(deck, spec, spec.format(stored.row.format), catalogue, packs=stored.row.packs)
    report.yours = yours
    report.enterable = card_values.enterable(spec.slug)
    report.fits = other_formats_fitting(deck, spec, report, catalogue)
    return report


def other_formats_fitting(deck, spec, report: Report, catalogue: Catalogue) -> list:
    """The game's other formats a deck that is not legal in its own is legal in (the Neopets TCG's
    starter decks as sold are legal as Starter Set, not under the advanced rules), so its page can
    say which format the deck was built for. Formats that need a pack count are left out."""
    if report.legal:
        return []
    return [fmt for fmt in spec.formats if fmt.id != report.format and not fmt.needs_packs
            and check_deck(deck, spec, fmt, catalogue).legal]

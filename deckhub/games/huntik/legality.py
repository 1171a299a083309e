"""Huntik's own deck check: a Constructed deck is Good or Evil, never both (Huntik 100)."""
from __future__ import annotations

from typing import Iterable

from deckhub.core.legality import CheckContext, CheckSpec, Violation, cited, names_keys


def teams(ctx: CheckContext, spec: CheckSpec) -> Iterable[Violation]:
    """Cards with a team tag (params["attr"]) in params["section"] must all share one of params["teams"].

    A card without a team (amulets, legendary heroes) fits either deck.
    """
    p = spec.params
    section = p.get("section", "Deck")
    attr = p.get("attr", "team")
    wanted = {t.casefold(): t for t in p.get("teams", ("Good", "Evil"))}
    team_of: dict[str, str | None] = ctx.remember(("huntik.teams", attr, tuple(wanted)), dict)  # card key -> team
    by_team: dict[str, list] = {}
    for facts, _qty in ctx.section(section):
        team = team_of.get(facts.key, "")
        if team == "":  # a card not seen yet by this catalogue and format
            tag = facts.card.attrs.get(attr)
            team = team_of[facts.key] = wanted.get(tag.casefold()) if isinstance(tag, str) else None
        if team is not None:
            by_team.setdefault(team, []).append(facts)
    if len(by_team) < 2:
        return []
    order = [t for t in wanted.values() if t in by_team]
    names, keys = names_keys(f for t in order for f in by_team[t])
    parts = "; ".join(f"{t}: {', '.join(names_keys(by_team[t])[0])}" for t in order)
    return [Violation(spec.rule, spec.severity, section,
                      cited(f"A deck may not hold both {' and '.join(order)} cards. {parts}.", spec.cite),
                      names, "one team", {t: len(by_team[t]) for t in order}, keys)]


CHECKS = {"teams": teams}

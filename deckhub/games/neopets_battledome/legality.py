"""Battledome's own deck checks: the Neopet Deck's Neopets differ in species and in name (CR 1.4).

Copy limits (Codestones free, one of each Faerie and unique Map Piece, two of the rest) are data
in formats.json, so that Rulebook 1.4's one-copy Heroes, Petpets and Villains are a format entry.
"""
from __future__ import annotations

from typing import Iterable

from deckhub.core.legality import UNVERIFIED, CheckContext, CheckSpec, Violation, cited, names_keys


def distinct_species(ctx: CheckContext, spec: CheckSpec) -> Iterable[Violation]:
    p = spec.params
    section = p.get("section", "Neopet Deck")
    attr = p.get("attr", "species")
    seen: dict[str, list] = {}
    unknown = []
    entries = ctx.section(section)
    for facts, qty in entries:
        value = facts.card.attrs.get(attr)
        if not isinstance(value, str) or not value:
            unknown.append(facts)
            continue
        seen.setdefault(value.casefold(), []).extend([facts] * qty)
    out = []
    for group in seen.values():
        if len(group) > 1:
            names, keys = names_keys(group)
            sp = group[0].card.attrs.get(attr)
            out.append(Violation(spec.rule, spec.severity, section,
                                 cited(f"The {section}'s Neopets must all be different species; {len(group)} are "
                                       f"{sp}: {', '.join(names)}.", spec.cite),
                                 names, {"max": 1}, len(group), keys))
    if unknown and sum(q for _, q in entries) > 1:
        names, keys = names_keys(unknown)
        out.append(Violation(spec.rule, UNVERIFIED, section,
                             cited(f"The {section}'s Neopets must all be different species; the catalogue lacks "
                                   f"the species of: {', '.join(names)}.", spec.cite),
                             names, {"max": 1}, None, keys))
    return out


def distinct_names(ctx: CheckContext, spec: CheckSpec) -> Iterable[Violation]:
    section = spec.params.get("section", "Neopet Deck")
    by_name: dict[str, list] = {}
    counts: dict[str, int] = {}
    for facts, qty in ctx.section(section):
        n = facts.name_key
        by_name.setdefault(n, []).append(facts)
        counts[n] = counts.get(n, 0) + qty
    out = []
    for n, total in counts.items():
        if total > 1:
            names, keys = names_keys(by_name[n])
            out.append(Violation(spec.rule, spec.severity, section,
                                 cited(f"No two Neopets in the {section} may share a name; {total} are named "
                                       f"{by_name[n][0].card.name}.", spec.cite),
                                 names, {"max": 1}, total, keys))
    return out


CHECKS = {"distinct-species": distinct_species, "distinct-names": distinct_names}

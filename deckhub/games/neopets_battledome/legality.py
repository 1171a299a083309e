"""Battledome's own deck checks: the Neopet Deck's Neopets differ in species and in name (CR 1.4);
a Forbidden & Limited list's banned cards, limited cards and limited brush types; the Petpet
Battles level cap; Pauper's rarities.

Copy limits (Codestones free, one of each Faerie and unique Map Piece, two of the rest) are data
in formats.json, so that Rulebook 1.4's one-copy Heroes, Petpets and Villains are a format entry.
So are the Forbidden & Limited lists (formats.json "lists", named by a check's `list` parameter):
a new list is a new entry, not new code.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from deckhub.core.cards import normalize_name
from deckhub.core.legality import (ERROR, UNVERIFIED, CardFacts, CheckContext, CheckSpec, Violation, cited,
                                   names_keys)


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
    shared = tuple(tuple([f.key for f in group]) for group in seen.values() if len(group) > 1)
    unsure = tuple([f.key for f in unknown]) if unknown and sum(q for _, q in entries) > 1 else ()
    if not shared and not unsure:
        return ()

    def word() -> tuple[Violation, ...]:
        out = []
        for group in seen.values():
            if len(group) > 1:
                names, keys = names_keys(group)
                sp = group[0].card.attrs.get(attr)
                out.append(Violation(spec.rule, spec.severity, section,
                                     cited(f"The {section}'s Neopets must all be different species; {len(group)} are "
                                           f"{sp}: {', '.join(names)}.", spec.cite),
                                     names, {"max": 1}, len(group), keys))
        if unsure:
            names, keys = names_keys(unknown)
            out.append(Violation(spec.rule, UNVERIFIED, section,
                                 cited(f"The {section}'s Neopets must all be different species; the catalogue lacks "
                                       f"the species of: {', '.join(names)}.", spec.cite),
                                 names, {"max": 1}, None, keys, missing="species"))
        return tuple(out)
    # worded once per catalogue and format for the cards that decide the messages (see CheckContext.remember)
    return ctx.remember((spec.rule, section, attr, shared, unsure), word)


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


# --------------------------------------------------------------------------- Forbidden & Limited

@dataclass(frozen=True)
class CardList:
    """A Forbidden & Limited list as the checks use it: names folded by normalize_name."""

    banned: frozenset[str]
    limited: dict[str, int]
    brush_types: frozenset[str]
    cite: str


_UNSEEN = object()


def card_list(ctx: CheckContext, spec: CheckSpec) -> CardList:
    """The list a check names (`params.list`), read from the game's formats.json once per format."""
    name = spec.params.get("list")

    def read() -> CardList:
        data: dict[str, Any] | None = ctx.game.format_lists.get(name)
        if data is None:
            raise LookupError(f"{ctx.game.slug}: check {spec.name} names list {name!r}, which formats.json lacks")
        limited = data.get("limited") or {}
        return CardList(frozenset(normalize_name(n) for n in data.get("banned") or ()),
                        {normalize_name(n): int(limit) for n, limit in limited.items()},
                        frozenset(b.casefold() for b in data.get("limited_brush_types") or ()),
                        data.get("cite") or name)
    return ctx.remember(("battledome.fl.list", name), read)


def _listed(facts: CardFacts, names: Iterable[str]) -> str | None:
    """The list entry a card is, by its name or one of its aliases (None when it is not listed)."""
    if facts.name_key in names:
        return facts.name_key
    return next((a for a in map(normalize_name, facts.card.aliases) if a in names), None)


def _hits(ctx: CheckContext, spec: CheckSpec, which: str) -> tuple[CardList, dict[str, tuple[tuple, int]]]:
    """The deck's cards on the list's `which` part ("banned" or "limited"), by copy key: (cards, copies
    across every section). Whether a card is listed is worked out once per catalogue and format, and
    the deck is read once for both parts (the banned and limited checks name the same list)."""
    fl = card_list(ctx, spec)
    name = spec.params.get("list")
    found = ctx.shared.get(("battledome.fl.hits", name))
    if found is None:
        # card key -> (banned entry, limited entry), or None for a card on neither part (most cards)
        listed: dict[str, tuple[str | None, str | None] | None] = ctx.remember(("battledome.fl.listed", name), dict)
        found = ctx.shared[("battledome.fl.hits", name)] = {"banned": {}, "limited": {}}
        for rows in ctx.rows.values():
            for facts, qty in rows:
                entry = listed.get(facts.key, _UNSEEN)
                if entry is None:
                    continue
                if entry is _UNSEEN:
                    entry = (_listed(facts, fl.banned), _listed(facts, fl.limited))
                    entry = listed[facts.key] = entry if entry != (None, None) else None
                    if entry is None:
                        continue
                for part, on_list in zip(("banned", "limited"), entry):
                    if on_list is not None:
                        hits = found[part]
                        group, n = hits.get(facts.copy_key, ((), 0))
                        hits[facts.copy_key] = (group if facts in group else (*group, facts), n + qty)
    return fl, found[which]


def banned_cards(ctx: CheckContext, spec: CheckSpec) -> Iterable[Violation]:
    fl, hits = _hits(ctx, spec, "banned")
    if not hits:
        return ()

    def word() -> tuple[Violation, ...]:
        out = []
        for group, total in hits.values():
            names, keys = names_keys(group)
            out.append(Violation(spec.rule, spec.severity, None,
                                 cited(f"{' / '.join(names)} is banned: a deck may hold no copies; this one has "
                                       f"{total}.", fl.cite),
                                 names, {"max": 0}, total, keys))
        return tuple(out)
    return ctx.remember((spec.rule, spec.params.get("list"),
                         tuple((tuple([f.key for f in g]), n) for g, n in hits.values())), word)


def limited_cards(ctx: CheckContext, spec: CheckSpec) -> Iterable[Violation]:
    fl, hits = _hits(ctx, spec, "limited")
    over = {}
    for ck, (group, total) in hits.items():
        limit = min(fl.limited[_listed(f, fl.limited)] for f in group)
        if total > limit:
            over[ck] = (group, total, limit)
    if not over:
        return ()

    def word() -> tuple[Violation, ...]:
        out = []
        for group, total, limit in over.values():
            names, keys = names_keys(group)
            out.append(Violation(spec.rule, spec.severity, None,
                                 cited(f"{' / '.join(names)} is limited to {limit} "
                                       f"{'copy' if limit == 1 else 'copies'} per deck; this one has {total}.",
                                       fl.cite),
                                 names, {"max": limit}, total, keys))
        return tuple(out)
    return ctx.remember((spec.rule, spec.params.get("list"),
                         tuple((tuple([f.key for f in g]), n) for g, n, _limit in over.values())), word)


def limited_brush_types(ctx: CheckContext, spec: CheckSpec) -> Iterable[Violation]:
    """One Neopet of each limited brush type in the Rainbow Pool; a Neopet's brush type is the
    first word of its name, as the list itself reads it ("Chocolate Jubjub" is a Chocolate pet)."""
    fl = card_list(ctx, spec)
    section = spec.params.get("section", "Rainbow Pool")
    by_brush: dict[str, list] = {}
    for facts, qty in ctx.section(section):
        brush = facts.name_key.split(" ", 1)[0]
        if brush in fl.brush_types and (facts.type is None or "neopet" in facts.type):
            by_brush.setdefault(brush, []).append((facts, qty))
    out = []
    for brush, rows in by_brush.items():
        sure = sum(q for f, q in rows if f.type is not None)
        total = sum(q for _f, q in rows)
        if total <= 1:
            continue
        names, keys = names_keys(f for f, _q in rows)
        if sure > 1:
            out.append(Violation(spec.rule, ERROR, section,
                                 cited(f"The {section} may hold 1 Neopet of the {brush.title()} brush type; it "
                                       f"holds {sure}: {', '.join(names)}.", fl.cite),
                                 names, {"max": 1}, sure, keys))
        else:
            out.append(Violation(spec.rule, UNVERIFIED, section,
                                 cited(f"The {section} may hold 1 Neopet of the {brush.title()} brush type; it "
                                       f"holds {total} cards of that name, and the catalogue does not know which "
                                       f"are Neopets: {', '.join(names)}.", fl.cite),
                                 names, {"max": 1}, {"min": sure, "max": total}, keys, missing="type"))
    return out


# --------------------------------------------------------------------------- alternate formats

def max_level_requirement(ctx: CheckContext, spec: CheckSpec) -> Iterable[Violation]:
    """No card above a level requirement (Petpet Battles: 3). A card's stated bound
    (`level_requirement_at_most`) settles it when the exact value is unknown."""
    p = spec.params
    cap, attr, bound = p["max"], p.get("attr", "level_requirement"), p.get("bound_attr", "level_requirement_at_most")
    out = []
    for section in p.get("sections", ("Main Deck",)):
        over, unknown = [], []
        for facts, _qty in ctx.section(section):
            value = facts.card.attrs.get(attr)
            if isinstance(value, int) and not isinstance(value, bool):
                if value > cap:
                    over.append(facts)
                continue
            limit = facts.card.attrs.get(bound)
            if not (isinstance(limit, int) and not isinstance(limit, bool) and limit <= cap):
                unknown.append(facts)
        if over:
            names, keys = names_keys(over)
            listed = ", ".join(f"{f.name} ({f.card.attrs[attr]})" for f in over)
            out.append(Violation(spec.rule, spec.severity, section,
                                 cited(f"No card may have a level requirement above {cap}; the {section} holds "
                                       f"{listed}.", spec.cite),
                                 names, {"max": cap}, [f.card.attrs[attr] for f in over], keys))
        if unknown:
            names, keys = names_keys(unknown)
            out.append(Violation(spec.rule, UNVERIFIED, section,
                                 cited(f"No card may have a level requirement above {cap}; the catalogue does not "
                                       f"know the level requirement of: {', '.join(names)}.", spec.cite),
                                 names, {"max": cap}, None, keys, missing="level requirement"))
    return out


def rarities(ctx: CheckContext, spec: CheckSpec) -> Iterable[Violation]:
    """Only cards printed at one of the allowed rarities (Pauper: Common or Rare); a card with a
    printing at an allowed rarity is fine at any other printing too (alt-arts)."""
    allowed = [r.casefold() for r in spec.params["allowed"]]
    label = " or ".join(spec.params["allowed"])
    out = []
    for section in spec.params.get("sections", [s.name for s in ctx.game.sections]):
        bad, unknown = [], []
        for facts, _qty in ctx.section(section):
            known = [p.rarity for p in facts.card.printings if p.rarity]
            if any(r.casefold() in allowed for r in known):
                continue
            if known and len(known) == len(facts.card.printings):
                bad.append(facts)
            else:
                unknown.append(facts)
        if bad:
            names, keys = names_keys(bad)
            listed = ", ".join(f"{f.name} ({'/'.join(sorted({p.rarity for p in f.card.printings}))})" for f in bad)
            out.append(Violation(spec.rule, spec.severity, section,
                                 cited(f"Only cards printed at {label} rarity are allowed; the {section} holds "
                                       f"{listed}.", spec.cite),
                                 names, {"rarities": list(spec.params["allowed"])},
                                 sorted({p.rarity for f in bad for p in f.card.printings}), keys))
        if unknown:
            names, keys = names_keys(unknown)
            out.append(Violation(spec.rule, UNVERIFIED, section,
                                 cited(f"Only cards printed at {label} rarity are allowed; the catalogue does not "
                                       f"know the rarity of: {', '.join(names)}.", spec.cite),
                                 names, {"rarities": list(spec.params["allowed"])}, None, keys, missing="rarity"))
    return out


CHECKS = {"distinct-species": distinct_species, "distinct-names": distinct_names,
          "banned-cards": banned_cards, "limited-cards": limited_cards, "limited-brush-types": limited_brush_types,
          "max-level-requirement": max_level_requirement, "rarities": rarities}

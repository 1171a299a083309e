"""The Neopets TCG's own deck advice (Building Your Own Deck): what a generic limit cannot say.

Both are warnings in the rulebook's words ("should", "make sure"). A card whose type or species
the catalogue does not know makes the advice `unverified` for that card, never a guess.
"""
from __future__ import annotations

from typing import Iterable

from deckhub.core.legality import UNVERIFIED, CheckContext, CheckSpec, Violation, cited, names_keys


def bankable_half(ctx: CheckContext, spec: CheckSpec) -> Iterable[Violation]:
    """At least half the Deck should be cards you can bank (Items and Equipment)."""
    p = spec.params
    section = p.get("section", "Deck")
    bankable = {t.casefold() for t in p.get("types", ("Item", "Equipment"))}
    known = unknown_qty = total = 0
    unknown = []
    for facts, qty in ctx.section(section):
        total += qty
        t = facts.type
        if t is None:
            unknown.append(facts)
            unknown_qty += qty
        elif t in bankable:
            known += qty
    if total == 0 or 2 * known >= total:
        return []
    most = known + unknown_qty
    need = (total + 1) // 2
    kinds = " and ".join(p.get("types", ("Item", "Equipment")))
    if 2 * most < total:
        return [Violation(spec.rule, spec.severity, section,
                          cited(f"At least half the {section} should be cards you can bank ({kinds}): "
                                f"{known} of {total} are.", spec.cite),
                          (), {"min": need}, known)]

    def word() -> list[Violation]:
        names, keys = names_keys(unknown)
        return [Violation(spec.rule, UNVERIFIED, section,
                          cited(f"At least half the {section} should be cards you can bank ({kinds}): {known} to "
                                f"{most} of {total} are, depending on the unknown types of: {', '.join(names)}.",
                                spec.cite),
                          names, {"min": need}, {"min": known, "max": most}, keys, missing="type")]

    return ctx.remember((spec.rule, section, kinds, known, unknown_qty, total, tuple([f.key for f in unknown])), word)


def experienced_species(ctx: CheckContext, spec: CheckSpec) -> Iterable[Violation]:
    """Each Experienced Neopet in the Deck should share its species with a Basic Neopet in the Stack.

    Only cards known to be Experienced Neopets are checked (a card of unknown type is already
    reported as unverified by the Deck's no-Basic-Neopet rule).
    """
    p = spec.params
    attr = p.get("attr", "species")
    basic_type = p.get("basic", "Basic Neopet").casefold()
    exp_type = p.get("experienced", "Experienced Neopet").casefold()
    species: set[str] = set()
    uncertain_stack = []
    for facts, _qty in ctx.section(p.get("stack", "Neopet Stack")):
        if facts.type is None or facts.type == basic_type:
            value = facts.card.attrs.get(attr)
            if isinstance(value, str) and value and facts.type is not None:
                species.add(value.casefold())
            else:
                uncertain_stack.append(facts)
    missing, unknown = [], []
    for facts, _qty in ctx.section(p.get("deck", "Deck")):
        if facts.type != exp_type:
            continue
        value = facts.card.attrs.get(attr)
        if not isinstance(value, str) or not value:
            unknown.append(facts)
        elif value.casefold() not in species:
            (unknown if uncertain_stack else missing).append(facts)
    out = []
    if missing:
        names, keys = names_keys(missing)
        listed = ", ".join(f"{f.name} ({f.card.attrs.get(attr)})" for f in missing)
        out.append(Violation(spec.rule, spec.severity, p.get("deck", "Deck"),
                             cited(f"No Basic Neopet in the Neopet Stack shares the species of: {listed}.", spec.cite),
                             names, "a Basic Neopet of the same species", sorted({f.card.attrs.get(attr) for f in missing}), keys))
    if unknown:
        names, keys = names_keys(unknown + uncertain_stack)
        out.append(Violation(spec.rule, UNVERIFIED, p.get("deck", "Deck"),
                             cited("Cannot tell whether the Neopet Stack holds Basic Neopets of the species of "
                                   f"{', '.join(names_keys(unknown)[0])}: the catalogue lacks the species of: "
                                   f"{', '.join(names)}.", spec.cite),
                             names, "a Basic Neopet of the same species", None, keys, missing="species"))
    return out


CHECKS = {"bankable-half": bankable_half, "experienced-species": experienced_species}

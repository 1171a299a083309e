"""The Neopets TCG (Wizards of the Coast, 2003-2005)."""
from deckhub.core.faces import FaceSpec, FaceStat
from deckhub.core.spec import DrawSpec, FieldSpec, GameSpec, SectionSpec

_NEOPETS = ("Basic Neopet", "Experienced Neopet")
_STATS = (("strength", "STR"), ("agility", "AGI"), ("magic", "MAG"), ("intelligence", "INT"))

GAME = GameSpec(
    slug="neopets-tcg",
    name="Neopets TCG",
    package=__name__,
    sections=(SectionSpec("Neopet Stack", ("Neopets", "Stack")), SectionSpec("Deck", ("Main",))),
    fields=(
        FieldSpec("species", "Species", "str"),
        FieldSpec("faerie", "Faerie", "str"),
        FieldSpec("strength", "Strength", "int"),
        FieldSpec("agility", "Agility", "int"),
        FieldSpec("magic", "Magic", "int"),
        FieldSpec("intelligence", "Intelligence", "int"),
        FieldSpec("bank_value", "Bank value", "int"),
        FieldSpec("subtype", "Subtype", "str"),
        FieldSpec("strength_bonus", "Strength bonus", "int", filter=False),
        FieldSpec("agility_bonus", "Agility bonus", "int", filter=False),
        FieldSpec("magic_bonus", "Magic bonus", "int", filter=False),
        FieldSpec("intelligence_bonus", "Intelligence bonus", "int", filter=False),
        FieldSpec("note", "Note", "text", filter=False),  # the sources' notes on how a fact was seen
    ),
    types=("Basic Neopet", "Experienced Neopet", "Hero", "Villain", "Item", "Equipment",
           "Something Has Happened!", "Location"),
    draws=DrawSpec("Deck", hand=4, per_turn=1, first_skips=True),
    breakdown=("faerie", "Faerie"),
    face=FaceSpec(colour="faerie", beside_type=("species", "subtype"),
                  stats=(*(FaceStat(key, label, _NEOPETS) for key, label in _STATS),
                         *(FaceStat(f"{key}_bonus", f"+{label}", None) for key, label in _STATS),
                         FaceStat("bank_value", "Bank", None))),
    extras={"colours": {"Air": "#7cc6e8", "Dark": "#5b2a86", "Earth": "#7a5230", "Fire": "#d6401f", "Light": "#e8c21f", "Water": "#1f6fd6"}},
)

"""The Neopets TCG (Wizards of the Coast, 2003-2005)."""
from deckhub.core.spec import DrawSpec, FieldSpec, GameSpec, SectionSpec

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
    extras={"colours": {"Air": "#7cc6e8", "Dark": "#5b2a86", "Earth": "#7a5230", "Fire": "#d6401f", "Light": "#e8c21f", "Water": "#1f6fd6"}},
)

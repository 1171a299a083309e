"""Toy, the smallest game DeckHub runs (as OpenSpiel keeps tiny games beside the big ones): gems
worth one to three points go into a pile, and a pile of ten points wins.

It lives with the tests, not in `deckhub/games`: `deckhub.games.extra_game("toygame", DATA)`
registers it (the `toy_game` fixture), and the generic tests play it as they play the real games,
which shows what a fifth game needs: this package (GAME, formats.json, engine.py) and a data folder.
"""
from pathlib import Path

from deckhub.core.spec import DrawSpec, FieldSpec, GameSpec, SectionSpec

DATA = Path(__file__).resolve().parent / "data"  # what data/<slug>/ is to a shipped game

GAME = GameSpec(
    slug="toy",
    name="Toy",
    package=__name__,
    sections=(SectionSpec("Deck", ("Main",)),),
    fields=(FieldSpec("points", "Points", "int", minimum=0, maximum=9),),
    types=("Gem", "Spell"),
    draws=DrawSpec("Deck", hand=4, per_turn=1, first_skips=True),
)

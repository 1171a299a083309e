"""Kaijudo goldfish: your side follows the rules (Kaijudo 3, 5, 7-13); the dummy has 5 shields,
an unlimited deck, no creatures, and never acts (GUIDE §5).

Rules actions (JSON):
  {"kind": "charge", "card": i}                  mana phase, once a turn (Kaijudo 10B)
  {"kind": "summon", "card": i}                  main phase; an evolution adds "onto": [base] or
                                                 [base1, base2] (Vortex) (Kaijudo 8)
  {"kind": "cast", "card": i}                    main phase (Kaijudo 9)
  {"kind": "attack", "card": i}                  attack phase: attack the dummy (Kaijudo 10D)
  {"kind": "next"}                               end the mana / main / attack phase
plus the core's answers to pending choices and its manual moves, and "manual.tap" (tap or untap a
card in the battle or mana zone).
"""
from __future__ import annotations

from deckhub.core.engine import Engine
from deckhub.core.options import turn_limit_option, turn_order_option
from deckhub.games.kaijudo.effects import coverage
from deckhub.games.kaijudo.policy import policy
from deckhub.games.kaijudo.state import KaijudoState


ENGINE = Engine(
    game="kaijudo",
    state_class=KaijudoState,
    policy=policy,
    coverage=coverage,
    options=(
        turn_order_option("a random player chooses; whoever goes first skips the draw on turn 1 (rulebook section 3)"),
        turn_limit_option(),
    ),
    description="Kaijudo against a dummy with 5 shields that never acts",
)

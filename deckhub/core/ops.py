"""The ops every game's cards are made of, written once (as fireplace's Draw, Shuffle, Search).

`CoreOps` is mixed into `deckhub.core.state.State`, so every engine has these without writing them:

- the deal plan, before play: `new_instances` numbers the cards after the shuffle (an id says
  nothing about where a card sits in a face-down zone), `deal(n, to)` puts the top cards of the
  deck into the opening hand, the shields ...;
- drawing, by the game's empty-deck rule (`EMPTY_DECK`) and log style (`DRAW_NOTE`), with the
  `on_draw` hook for draw triggers; the op `("draw", n)`;
- shuffling a zone or a list with the game's one generator (`shuffle`, CPython's own
  Fisher-Yates: the same order from the same draws); the op `("shuffle",)` shuffles the deck and
  says so;
- searching the deck, `("search", filter, destination, optional)`: one option per distinct card
  the game's `search_finds` accepts, the game's `search_put` puts the one chosen, then the deck is
  shuffled; the game words the question (`search_prompt`) and what a search that finds nothing
  does (`search_missed`);
- the turn's steps: `("turn_draw",)` (which the player going first may skip on turn 1:
  `FIRST_DRAW_SKIPPED`), `("phase", name)`;
- the optional effect, `("may", what it does, ops)`: asks, and runs the ops on "yes";
- abilities that trigger at once, `push_triggers`: the player chooses the order they resolve in
  (`("order_triggers", queued)`), the game words the question (`ORDER_PROMPT`) and each
  option (`trigger_label`).

An engine overrides an op only where its game really differs; the random draws stay in the order
these methods make them, so a game replays the same from its seed.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.core.cards import Card

LOSE_ON_DRAW, LOSE_WHEN_EMPTY, STOP = "lose_on_draw", "lose_when_empty", "stop"  # empty-deck rules


def shuffle(rng: random.Random, items: list) -> None:
    """`rng.shuffle(items)`: the same order from the same draws of `rng`, dealt without two Python
    calls per card (shuffling is much of a short goldfish game). It is CPython's own Fisher-Yates
    over `getrandbits` (tests/test_engine_invariants.py holds it to `random.Random.shuffle`); a
    generator of another kind shuffles itself."""
    if rng.__class__ is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


class CoreOps:
    """The shared ops and the primitives under them (see the module docstring); part of every State."""

    # The game's empty-deck rule, declared once: (rule, log text). LOSE_ON_DRAW: you lose when you
    # must draw from an empty deck; LOSE_WHEN_EMPTY: you lose as soon as your deck is empty, whatever
    # emptied it; STOP: an empty deck only stops the drawing (the text, if any, is logged).
    EMPTY_DECK: tuple[str, str | None] = (STOP, None)
    DRAW_NOTE = "each"  # "each": one log line per card drawn; "count": one line for the whole draw
    MAY_PROMPT = "you may {}"  # the question of an optional effect ("may" op), {}: what it does
    # A search may find nothing the player wants in a deck only they see: True lets them decline
    # every search, not only the ones whose text says "may".
    SEARCH_MAY_DECLINE = False
    # The log line when the player going first (the `first` option) skips the draw of turn 1; None:
    # every turn's draw is drawn.
    FIRST_DRAW_SKIPPED: str | None = None
    ORDER_PROMPT = "Several abilities trigger at once: which resolves first?"  # the question of "order_triggers"

    # -- the deal plan --------------------------------------------------------------------------
    def new_instance(self, card: "Card", zone: str) -> int:
        """One card as the next instance, at the top of `zone`; returns its id."""
        iid = len(self.cards)
        self.cards.append(card)
        self.where.append(zone)
        self.zones[zone].append(iid)
        return iid

    def new_instances(self, cards: Sequence["Card"], zone: str | Sequence[str]) -> range:
        """Number `cards` as the next instances, in order, each at the top of `zone` (one zone, or
        one per card): deal after the shuffle, so an id tells nothing. Returns their ids."""
        start = len(self.cards)
        ids = range(start, start + len(cards))
        self.cards.extend(cards)
        if isinstance(zone, str):
            self.where.extend([zone] * len(cards))
            self.zones[zone].extend(ids)
        else:
            self.where.extend(zone)
            zones = self.zones
            for iid, name in zip(ids, zone):
                zones[name].append(iid)
        return ids

    def deal(self, n: int, to: str | None = None) -> int:
        """Put the top `n` cards of the deck (fewer when it runs out) into `to` (the hand), the top
        card first; returns how many. Dealing is not drawing: no log line, no draw trigger, no
        empty-deck rule, and no engine's `move` hook, so it is for the deal before play (opening
        hands, shields, a mulligan's new hand)."""
        deck = self.zones[self.DECK_ZONE]
        to = to or self.HAND_ZONE
        dealt = deck[max(0, len(deck) - n):][::-1] if n > 0 else []
        if dealt:
            del deck[len(deck) - len(dealt):]
            self.zones[to].extend(dealt)
            where = self.where
            for iid in dealt:
                where[iid] = to
        return len(dealt)

    # -- drawing --------------------------------------------------------------------------------
    def draw(self, n: int, to: str | None = None, quiet: bool = False) -> int:
        """Draw `n` cards from the top of the deck (into the hand, or `to`); returns how many were
        drawn. An empty deck follows the game's EMPTY_DECK rule."""
        deck = self.zones[self.DECK_ZONE]
        to = to or self.HAND_ZONE
        drawn = 0
        for _ in range(n):
            if not deck:
                rule, text = self.EMPTY_DECK
                if rule == LOSE_ON_DRAW:
                    self.lose(text or "had to draw from an empty deck")
                elif text:
                    self.note(text)
                break
            iid = deck[-1]
            self.move(iid, to)
            drawn += 1
            if not quiet and self.DRAW_NOTE == "each":
                self.note(f"drew {self.label(iid)}")
            self.on_draw(iid)
        if drawn and not quiet and self.DRAW_NOTE == "count":
            self.note(f"drew {drawn} card(s)")
        return drawn

    def on_draw(self, iid: int) -> None:
        """A card was drawn (an engine queues its draw triggers here)."""

    def _op_draw(self, op, source):
        self.draw(op[1])

    def _op_turn_draw(self, op, source):
        """The turn's draw of one card (skipped on turn 1 by the player going first, where the game says so)."""
        if self.FIRST_DRAW_SKIPPED is not None and self.turn == 1 and self.first:
            self.note(self.FIRST_DRAW_SKIPPED)
            return
        self.draw(1)

    # -- shuffling ------------------------------------------------------------------------------
    def shuffle(self, zone: str) -> None:
        shuffle(self.rng, self.zones[zone])

    def shuffle_items(self, items: list) -> None:
        """Shuffle a list with the game's generator (a deck before it is dealt), as `shuffle` does a zone."""
        shuffle(self.rng, items)

    def shuffle_deck(self) -> None:
        self.shuffle(self.DECK_ZONE)
        self.note("shuffled the deck")

    def _op_shuffle(self, op, source):
        self.shuffle_deck()

    # -- searching the deck ---------------------------------------------------------------------
    def distinct(self, ids: Sequence[int]) -> list[int]:
        """The first instance of each card among `ids`: copies are interchangeable, so a choice
        offers one of them."""
        seen: dict[str, int] = {}
        cards = self.cards
        for iid in ids:
            seen.setdefault(cards[iid].key, iid)
        return list(seen.values())

    def _op_search(self, op, source):
        _, filt, dest, optional = op
        found = self.distinct([i for i in self.zones[self.DECK_ZONE] if self.search_finds(filt, i, dest)])
        if not found:
            self.search_missed(source)
            return
        self.ask(self.search_prompt(source, dest), [(i, self.cards[i].display_name) for i in found], op, source,
                 optional or self.SEARCH_MAY_DECLINE)

    def _res_search(self, op, source, value):
        if value is not None:
            self.search_put(value, op[2], source)
        self.shuffle_deck()

    def search_finds(self, filt: Any, iid: int, dest: str) -> bool:
        """Whether a search with the card text's filter `filt` for `dest` may take the deck card `iid`."""
        raise NotImplementedError(f"{type(self).__name__} searches: define search_finds")

    def search_prompt(self, source: int | None, dest: str) -> str:
        return self.prompt(source, f"search your deck for a card to put into your {self.zone_label(dest).lower()}")

    def search_put(self, iid: int, dest: str, source: int | None) -> None:
        """Put the card a search found where the text says (the default: on top of that zone)."""
        self.move(iid, dest)

    def search_missed(self, source: int | None) -> None:
        """A search found no card: the deck is shuffled all the same."""
        self.shuffle_deck()

    # -- the turn's steps -----------------------------------------------------------------------
    def _op_phase(self, op, source):
        """("phase", name): the turn moves on to that phase (queued after the steps before it)."""
        self.phase = op[1]

    # -- the optional effect --------------------------------------------------------------------
    def _op_may(self, op, source):
        self.ask(self.prompt(source, self.MAY_PROMPT.format(op[1])), (("yes", "Yes"),), op, source, optional=True)

    def _res_may(self, op, source, value):
        if value == "yes":
            self.push(op[2], source)

    # -- abilities that trigger at once -----------------------------------------------------------
    def push_triggers(self, queued: list[tuple[tuple, int]]) -> None:
        """Queue abilities that trigger at once, `[(ops, source), ...]` in the order they were found:
        the player chooses which resolves first, then the next, and so on (Kaijudo 13, Huntik 702).
        One alone, or copies of one card in one zone with the same ability, are queued as they are:
        their order changes nothing, so nobody is asked."""
        if not queued:  # (the usual case: it runs on every draw, attack and card entering play)
            return
        cards, where = self.cards, self.where
        if len(queued) > 1 and len({(cards[src].display_name, where[src], ops) for ops, src in queued}) > 1:
            self.push((("order_triggers", tuple(queued)),))
        else:
            for ops, src in reversed(queued):
                self.push(ops, src)

    def trigger_label(self, ops: tuple, source: int) -> str:
        """One option of the choice of order: the card and what its ability does, in a few words."""
        raise NotImplementedError(f"{type(self).__name__} orders triggers: define trigger_label")

    def _op_order_triggers(self, op, source):
        self.ask(self.ORDER_PROMPT, [(n, self.trigger_label(ops, src)) for n, (ops, src) in enumerate(op[1])], op)

    def _res_order_triggers(self, op, source, value):
        queued = list(op[1])
        ops, src = queued.pop(value)
        self.push_triggers(queued)  # the rest, after this one
        self.push(ops, src)

"""A card's face drawn from its facts, as a layout of boxes and texts (`layout`).

No image source for these games can be reached, so the site draws each card: its name, its cost or
level in a disc, a frame in its colours (civilizations, team, faerie), the type line, the numbers,
the rules text and the set and number it was printed as. A fact that is not known is written as
unknown ("?", "Type unknown"), never guessed. Each game declares only what is its own, as data
(`FaceSpec`, beside its fields in its `GameSpec`, with its colours in `extras["colours"]`); the
layout knows no game, and both renderers (SVG for pages, Pillow for PDFs and sprite sheets) draw
the same `Face`, so a page and a printed sheet show the same card.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any, Mapping

from deckhub.core.cards import Card, CardSet

WIDTH, HEIGHT = 250, 350      # the layout's units; renderers scale them to the pixels asked for
UNKNOWN_COLOUR = "#8c8c8c"    # a frame whose colour is not known (or that has none)
INK, PAPER, MUTED = "#1b1b1b", "#fbfaf6", "#555555"
CHAR_WIDTH = 0.56             # a character's average width in ems (DejaVu Sans / Helvetica)
_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class FaceStat:
    """A number the face shows along its foot: `key` of the card's facts after a short `label`.
    `types`: the card types that have it (empty: every type; None: none is sure to, so it is drawn
    only when known); on a card of one of them an unknown value is written "?", on other types it
    is left out, as the printed card has no such box."""

    key: str
    label: str
    types: tuple[str, ...] | None = ()


@dataclass(frozen=True)
class FaceSpec:
    """What a game's faces show: the cost or level in the corner disc (`cost`, with its `types`
    as a FaceStat's), the field whose values colour the frame (`colour`, looked up in the game's
    `extras["colours"]`), fields written after the type (`beside_type`) and the numbers (`stats`)."""

    cost: FaceStat | None = None
    colour: str | None = None
    beside_type: tuple[str, ...] = ()
    stats: tuple[FaceStat, ...] = ()


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str | None = None
    radius: float = 0


@dataclass(frozen=True)
class Text:
    """Lines of text from (x, y) (the first line's baseline), `size` units high; `anchor` is
    "start", "middle" or "end" as in SVG."""

    x: float
    y: float
    lines: tuple[str, ...]
    size: float
    colour: str = INK
    bold: bool = False
    italic: bool = False
    anchor: str = "start"


@dataclass(frozen=True)
class Face:
    """A drawn card: its items back to front, and `title` (its name, the words a screen reader says)."""

    title: str
    items: tuple[Box | Text, ...]
    width: int = WIDTH
    height: int = HEIGHT


def plain(text: str | None) -> str:
    """Card text as a player reads it: the sources' markup (Huntik's <b>) and entities removed."""
    return html.unescape(_TAG.sub("", text or "")).strip()


def wrap(text: str, size: float, width: float) -> list[str]:
    """Lines of `text` at `size` that fit `width` units (by average character width), keeping the
    text's own line breaks; a word longer than a line is cut."""
    per_line = max(1, int(width / (size * CHAR_WIDTH)))
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            while len(word) > per_line:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:per_line])
                word = word[per_line:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= per_line:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return [ln for ln in lines if ln] or []


def fit(text: str, sizes: tuple[float, ...], width: float, height: float) -> tuple[float, list[str]]:
    """The largest of `sizes` at which `text` fits the box; at the smallest, the lines that fit,
    the last one ending in "…" when some text is left out."""
    for size in sizes:
        lines = wrap(text, size, width)
        if len(lines) * size * 1.2 <= height:
            return size, lines
    size = sizes[-1]
    lines = wrap(text, size, width)
    keep = max(1, int(height / (size * 1.2)))
    if len(lines) > keep:
        lines = lines[:keep]
        lines[-1] = lines[-1][: max(1, int(width / (size * CHAR_WIDTH)) - 1)].rstrip() + "…"
    return size, lines


def tint(colour: str, strength: float) -> str:
    """`colour` mixed into the paper (a pale band of the card's colour behind dark letters)."""
    ink = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    paper = [int(PAPER[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(p + (c - p) * strength):02x}" for c, p in zip(ink, paper))


def _shown(value: Any) -> str:
    if value is None or value == "" or value == []:
        return "?"
    if isinstance(value, (list, tuple)):
        return " / ".join(str(v) for v in value)
    return str(value)


def _applies(stat: FaceStat, card: Card) -> bool:
    """A stat is drawn when the card knows it, or when its type is one that has it ("?")."""
    if card.get(stat.key) not in (None, "", []):
        return True
    return stat.types is not None and card.type is not None and (not stat.types or card.type in stat.types)


def colours_of(card: Card, spec: FaceSpec, palette: Mapping[str, str] | None) -> list[str]:
    """The frame's colours, one per value of the colour field (a card of two civilizations is
    drawn in both); grey when the value is unknown or the game has no colour for it."""
    if spec.colour is None:
        return [UNKNOWN_COLOUR]
    value = card.get(spec.colour)
    values = value if isinstance(value, (list, tuple)) else [value] if value else []
    return [(palette or {}).get(str(v), UNKNOWN_COLOUR) for v in values] or [UNKNOWN_COLOUR]


def type_line(card: Card, spec: FaceSpec) -> str:
    words = [card.type.title() if card.type and card.type.islower() else card.type or "Type unknown"]
    for key in spec.beside_type:
        value = card.get(key)
        if value not in (None, "", []):
            words.append(_shown(value))
    return " · ".join(words)


def printed_as(card: Card, sets: Mapping[str, CardSet], set_code: str | None = None) -> str:
    """"Set name · No. 12" of the printing in `set_code` (else the card's first); unknown parts say so."""
    printing = next((p for p in card.printings if set_code and p.set_code == set_code),
                    card.printings[0] if card.printings else None)
    if printing is None:
        return "Set unknown · No. ?"
    known = sets.get(printing.set_code)
    name = known.name if known else printing.set_code
    number = printing.number or printing.promo_code or "?"
    return f"{name} · No. {number}"


def layout(card: Card, spec: FaceSpec, palette: Mapping[str, str] | None, sets: Mapping[str, CardSet],
           size: str = "card", set_code: str | None = None) -> Face:
    """The face of `card` at "card" size (everything) or "thumb" (name, cost, type and numbers in
    larger letters, for a grid of small pictures)."""
    thumb = size == "thumb"
    colours = colours_of(card, spec, palette)
    items: list[Box | Text] = [Box(0, 0, WIDTH, HEIGHT, colours[0], INK, 12)]
    stripe = WIDTH / len(colours)
    for i, colour in enumerate(colours[1:], start=1):  # the frame split between a card's colours
        items.append(Box(i * stripe, 0, stripe if i < len(colours) - 1 else WIDTH - i * stripe, HEIGHT, colour))
    items.append(Box(10, 10, WIDTH - 20, HEIGHT - 20, PAPER, INK, 8))

    disc = 0.0
    if spec.cost is not None and _applies(spec.cost, card):
        disc = 44
        items.append(Box(WIDTH - 10 - disc, 10, disc, disc, colours[0], INK, disc / 2))
        items.append(Text(WIDTH - 10 - disc / 2, 10 + disc * 0.68, (_shown(card.get(spec.cost.key)),), 22,
                          PAPER if colours[0] != UNKNOWN_COLOUR else INK, bold=True, anchor="middle"))

    name_size, name_lines = fit(card.display_name, (30, 24, 20, 16) if thumb else (19, 16, 13),
                                (WIDTH - 36 - disc) * 0.9, 110 if thumb else 44)  # bold letters are wider
    top = 18 + name_size
    items.append(Text(18, top, tuple(name_lines), name_size, bold=True))
    top = max(top + name_size * 1.2 * (len(name_lines) - 1) + 8, 14 + disc)  # below the disc

    type_size, type_lines = fit(type_line(card, spec), (20, 16) if thumb else (12, 10), WIDTH - 36, 50 if thumb else 28)
    items.append(Box(14, top, WIDTH - 28, type_size * 1.2 * len(type_lines) + 8, tint(colours[0], 0.25)))
    items.append(Text(18, top + 4 + type_size, tuple(type_lines), type_size, italic=True))
    top += type_size * 1.2 * len(type_lines) + 14

    stats = [s for s in spec.stats if _applies(s, card)]
    foot = HEIGHT - 34
    stats_top = foot - (36 if thumb else 28) if stats else foot
    if not thumb:
        text = plain(card.text) or "Text unknown"
        text_size, text_lines = fit(text, (12, 10.5, 9, 8), WIDTH - 40, stats_top - top - 8)
        items.append(Text(20, top + text_size, tuple(text_lines), text_size,
                          MUTED if not card.text else INK, italic=not card.text))
    if stats:
        cell = (WIDTH - 28) / len(stats)
        stat_size = (18 if thumb else 12) if len(stats) <= 3 else (14 if thumb else 10)
        for i, stat in enumerate(stats):
            x = 14 + i * cell
            items.append(Box(x + 2, stats_top, cell - 4, foot - stats_top - 4, tint(colours[0], 0.15), INK, 4))
            items.append(Text(x + cell / 2, stats_top + (foot - stats_top) / 2 + stat_size * 0.3,
                              (f"{stat.label} {_shown(card.get(stat.key))}",), stat_size, bold=True, anchor="middle"))
    foot_size, foot_lines = fit(printed_as(card, sets, set_code), (13,) if thumb else (10, 8.5), WIDTH - 36, 16)
    items.append(Text(WIDTH / 2, HEIGHT - 18, tuple(foot_lines[:1]), foot_size, MUTED, anchor="middle"))
    return Face(card.display_name, tuple(items))


def scaled(face: Face, width_px: int) -> tuple[float, int]:
    """The factor from layout units to pixels for a picture `width_px` wide, and its height."""
    factor = width_px / face.width
    return factor, round(face.height * factor)


def to_svg(face: Face, width_px: int) -> str:
    """The face as a standalone SVG document (its viewBox in layout units, `width_px` wide)."""
    _, height_px = scaled(face, width_px)
    title = html.escape(face.title)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {face.width} {face.height}" '
           f'width="{width_px}" height="{height_px}" role="img" aria-label="{title}">',
           f"<title>{title}</title>",
           '<g font-family="DejaVu Sans, Helvetica, Arial, sans-serif">']
    for item in face.items:
        if isinstance(item, Box):
            stroke = f' stroke="{item.stroke}" stroke-width="1.5"' if item.stroke else ""
            out.append(f'<rect x="{item.x:g}" y="{item.y:g}" width="{item.w:g}" height="{item.h:g}" '
                       f'rx="{item.radius:g}" fill="{item.fill}"{stroke}/>')
        else:
            style = (' font-weight="bold"' if item.bold else "") + (' font-style="italic"' if item.italic else "")
            lines = "".join(f'<tspan x="{item.x:g}" dy="{0 if i == 0 else item.size * 1.2:g}">{html.escape(line)}</tspan>'
                            for i, line in enumerate(item.lines))
            out.append(f'<text x="{item.x:g}" y="{item.y:g}" font-size="{item.size:g}" fill="{item.colour}" '
                       f'text-anchor="{item.anchor}"{style}>{lines}</text>')
    out.append("</g></svg>")
    return "".join(out)


def _pile(card: Card | None, by: str, cost: FaceStat | None) -> tuple[tuple, str]:
    """(sort key, label) of the pile a card goes to in the visual deck view."""
    if by == "cost" and cost is not None:
        value = card.get(cost.key) if card is not None else None
        if value in (None, ""):
            return (2, 0, ""), f"{cost.label} unknown"
        if isinstance(value, (int, float)):
            return (0, value, ""), f"{cost.label} {value}"
        return (1, 0, str(value)), f"{cost.label} {value}"
    kind = card.type if card is not None else None
    if not kind:
        return (2, 0, ""), "Type unknown"
    return (0, 0, kind.casefold()), kind.title() if kind.islower() else kind


def group_cards(rows: list, card_of, by: str, cost: FaceStat | None) -> list[tuple[str, list]]:
    """A deck's rows in piles for the visual view: by type (alphabetically) or by the game's cost
    (lowest first); a card whose type or cost is unknown (or that is not in the catalogue) goes
    to a last pile that says so. Without a cost (`cost` None) the piles are by type."""
    piles: dict[tuple, tuple[str, list]] = {}
    for row in rows:
        order, label = _pile(card_of(row), by, cost)
        piles.setdefault(order, (label, []))[1].append(row)
    return [piles[order] for order in sorted(piles)]

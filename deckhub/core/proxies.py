"""Where a proxy sheet puts its cards: real card size (63 × 88 mm), nine to a page in a 3 × 3
grid centred on A4 or Letter paper, with crop marks outside the grid on every cutting line. The
printable HTML sheet and the server's PDF both draw this one layout, in millimetres."""
from __future__ import annotations

from dataclasses import dataclass

CARD_W, CARD_H = 63.0, 88.0
COLUMNS, ROWS = 3, 3
PER_PAGE = COLUMNS * ROWS
PAPERS = {"a4": ("A4", 210.0, 297.0), "letter": ("Letter", 215.9, 279.4)}
MARK_GAP, MARK_LENGTH = 1.5, 5.0  # crop marks start this far outside the grid and are this long


@dataclass(frozen=True)
class Sheet:
    paper: str
    label: str
    width: float
    height: float
    left: float  # the grid's top-left corner on the page
    top: float

    def slots(self) -> list[tuple[float, float]]:
        """The top-left corner of each of the nine cards, row by row."""
        return [(self.left + c * CARD_W, self.top + r * CARD_H) for r in range(ROWS) for c in range(COLUMNS)]

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """(x1, y1, x2, y2) of each crop mark: above and below the grid on every vertical cutting line,
        left and right of it on every horizontal one, so a trimmer lines up on each."""
        right, bottom = self.left + COLUMNS * CARD_W, self.top + ROWS * CARD_H
        marks = []
        for c in range(COLUMNS + 1):
            x = self.left + c * CARD_W
            marks += [(x, self.top - MARK_GAP - MARK_LENGTH, x, self.top - MARK_GAP),
                      (x, bottom + MARK_GAP, x, bottom + MARK_GAP + MARK_LENGTH)]
        for r in range(ROWS + 1):
            y = self.top + r * CARD_H
            marks += [(self.left - MARK_GAP - MARK_LENGTH, y, self.left - MARK_GAP, y),
                      (right + MARK_GAP, y, right + MARK_GAP + MARK_LENGTH, y)]
        return marks


def sheet(paper: str) -> Sheet:
    """The layout on `paper` ("a4" or "letter"); KeyError for another."""
    label, width, height = PAPERS[paper]
    return Sheet(paper, label, width, height, (width - COLUMNS * CARD_W) / 2, (height - ROWS * CARD_H) / 2)


def pages(keys: list[str]) -> list[list[str]]:
    """Cards (one entry per copy) nine to a page."""
    return [keys[i:i + PER_PAGE] for i in range(0, len(keys), PER_PAGE)]


def stylesheet() -> str:
    """The proxy sheet's CSS for every paper, written from this layout (the site's pages take no inline
    styles): each paper a named page of its size, each of the nine slots and each crop mark placed."""
    rules = []
    for paper in PAPERS:
        layout = sheet(paper)
        rules += [f"@page {paper} {{ size: {layout.width}mm {layout.height}mm; margin: 0; }}",
                  # a pixel short of the paper: rounded up to whole device pixels, a full-height page spills a
                  # sliver onto one more sheet
                  f".paper-{paper} {{ width: {layout.width}mm; height: calc({layout.height}mm - 1px); }}",
                  # the whole document prints on the named page: a change of page name would break a page
                  f"body:has(.paper-{paper}) {{ page: {paper}; }}"]
        rules += [f".paper-{paper} .slot-{i} {{ left: {x:.2f}mm; top: {y:.2f}mm; }}"
                  for i, (x, y) in enumerate(layout.slots())]
        rules += [f".paper-{paper} .mark-{i} {{ left: {x1:.2f}mm; top: {y1:.2f}mm; width: {x2 - x1:.2f}mm; "
                  f"height: {y2 - y1:.2f}mm; }}" for i, (x1, y1, x2, y2) in enumerate(layout.crop_marks())]
    rules.append(f".proxy-card {{ width: {CARD_W}mm; height: {CARD_H}mm; }}")
    return "\n".join(rules) + "\n"

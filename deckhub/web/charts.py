"""Server-side SVG charts (pygal), served as images: no scripts, nothing fetched from elsewhere."""
from __future__ import annotations

import re

import pygal
from pygal.style import Style

from deckhub.core.deckstats import DeckStats

STYLE = Style(background="white", plot_background="white", font_family="system-ui, sans-serif",
              label_font_size=12, major_label_font_size=12, title_font_size=15, legend_font_size=12,
              colors=("#2f5bd3", "#1f7a3a", "#9a6100", "#b42318", "#6941c6", "#0e7490", "#5b6474"))
_SCRIPT = re.compile(rb"<script.*?</script>", re.S)


def render(chart) -> bytes:
    """The chart as SVG bytes without pygal's inline script (charts are shown as <img>)."""
    return _SCRIPT.sub(b"", chart.render())


def _options(title: str, **extra) -> dict:
    return {"style": STYLE, "title": title, "height": 260, "width": 520, "js": (), **extra}


def bar(title: str, labels: list[str], values: list[int], horizontal: bool = False) -> bytes:
    chart = (pygal.HorizontalBar if horizontal else pygal.Bar)(**_options(title, show_legend=False))
    chart.x_labels = labels
    chart.add("copies", values)
    return render(chart)


def from_run(title: str, games: int, seed: int, settings: str = "") -> str:
    """A figure's title that says what it came from: games, seed and the settings that differ."""
    return f"{title}\n{games:,} games, seed {seed}" + (f", {settings}" if settings else "")


def grouped(title: str, labels: list[str], series: dict[str, list[int]]) -> bytes:
    """Bars side by side, one series a colour (going first and second by winning turn)."""
    chart = pygal.Bar(**_options(title, legend_at_bottom=True))
    chart.x_labels = labels
    for name, values in series.items():
        chart.add(name, values)
    return render(chart)


def intervals(title: str, labels: list[str], deltas: list[float], unit: str) -> bytes:
    """Each card's paired difference as a horizontal bar (the interval is in the table beside it),
    tall enough for one readable row a card."""
    chart = pygal.HorizontalBar(**{**_options(f"{title}\n({unit}s later without one copy)", show_legend=False),
                                   "height": max(260, 60 + 22 * len(labels)), "value_formatter": "{:+.2f}".format})
    low, high = min(0.0, *deltas), max(0.0, *deltas)
    step = (high - low) / 4 or 0.25
    chart.y_labels = [round(low + i * step, 3) for i in range(5)]
    chart.x_labels = labels
    chart.add("change", [round(d, 3) for d in deltas])
    return render(chart)


NONE_COLOUR = "#b8bec9"  # cards with no colour of the breakdown ("none")


def _colours(labels: list[str], colours: dict[str, str] | None) -> Style:
    """The style with each slice in its game's own colour (Kaijudo Fire red, Water blue...): the game
    spec's `colours` extra, grey for "none", the site palette for anything else."""
    palette = iter(STYLE.colors * 3)
    chosen = [(colours or {}).get(label) or (NONE_COLOUR if label == "none" else next(palette)) for label in labels]
    return Style(**{**{k: getattr(STYLE, k) for k in ("background", "plot_background", "font_family",
                                                        "label_font_size", "major_label_font_size",
                                                        "title_font_size", "legend_font_size")},
                    "colors": tuple(chosen)})


def deck_chart(stats: DeckStats, kind: str, colours: dict[str, str] | None = None) -> bytes | None:
    if kind == "types":
        labels = sorted(stats.types, key=lambda t: -stats.types[t])
        return bar("Card types", labels, [stats.types[t] for t in labels], horizontal=True)
    if kind == "curve" and stats.curve_label:
        steps = stats.curve_steps()
        return bar(f"Curve ({stats.curve_label})", [str(k) for k, _ in steps], [n for _, n in steps])
    if kind == "breakdown" and stats.breakdown_label:
        slices = [(str(label), count) for label, count in stats.breakdown.most_common()]
        chart = pygal.Pie(**{**_options(stats.breakdown_label, inner_radius=0.4),
                             "style": _colours([label for label, _ in slices], colours)})
        for label, count in slices:
            chart.add(label, count)
        return render(chart)
    return None


def line(title: str, labels: list[str], values: list[int], series: str) -> bytes:
    """One series over time (a set's known facts by day)."""
    chart = pygal.Line(**_options(title, show_legend=False, x_label_rotation=30, show_minor_x_labels=False))
    chart.x_labels = labels
    chart.x_labels_major = labels[::7]
    chart.add(series, values)
    return render(chart)

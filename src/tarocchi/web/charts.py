"""The history's charts, drawn as SVG on the server: a game's margin deal by deal with its
moving average, and the reviews' accuracy over time.

The drawing is scaled by its viewBox (one drawing fits a phone and a laptop), its colours
are the page's CSS variables (light and dark alike), its words come translated from the
caller, and each chart has a title and a description for screen readers (and a table of
the same numbers beside it on the page).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from tarocchi.progress import moving_average

# small enough that its 16-unit words stay legible on a phone (about 11 px at 360 px wide)
WIDTH, HEIGHT = 480, 200
LEFT, RIGHT, TOP, BOTTOM = 52, 10, 12, 30  # room for the axis's numbers and its words


@dataclass(frozen=True, slots=True)
class Words:
    """A chart's translated words: its title, its description and its axes."""

    title: str
    description: str
    first: str  # under the x axis's start ("oldest")
    last: str  # under its end ("newest")


def _num(value: float, percent: bool) -> str:
    return f"{round(value * 100)}%" if percent else f"{value:+g}" if value else "0"


def chart(
    values: Sequence[float], words: Words, chart_id: str, bars: bool, percent: bool = False
) -> Markup:
    """Return an SVG chart of values in order (oldest first): bars from zero (a margin) or
    dots (an accuracy, 0 to 1), and their moving average as a line."""
    if not values:
        return Markup("")
    low = 0.0 if percent else min(0.0, *values)
    high = 1.0 if percent else max(0.0, *values)
    span = (high - low) or 1.0
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = inner_w / len(values)

    def y(v: float) -> float:
        return TOP + inner_h * (high - v) / span

    def x(i: int) -> float:
        return LEFT + step * (i + 0.5)

    marks = []
    for i, v in enumerate(values):
        if bars:
            top, bottom = sorted((y(v), y(0.0)))
            kind = "up" if v > 0 else "down" if v < 0 else "even"
            box = f'x="{x(i) - step * 0.4:.1f}" y="{top:.1f}" width="{step * 0.8:.1f}"'
            marks.append(f'<rect class="bar {kind}" {box} height="{max(bottom - top, 1):.1f}"/>')
        else:
            marks.append(f'<circle class="dot" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3"/>')
    average = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(moving_average(values)))
    ticks = sorted({low, high, *([] if percent else [0.0]), *([0.5] if percent else [])})
    axis = "".join(
        f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(t):.1f}" y2="{y(t):.1f}"/>'
        f'<text class="tick" x="{LEFT - 6}" y="{y(t) + 4:.1f}" text-anchor="end">'
        f"{escape(_num(t, percent))}</text>"
        for t in ticks
    )
    base = HEIGHT - 8
    under = (
        f'<text class="tick" x="{LEFT}" y="{base}">{escape(words.first)}</text>'
        f'<text class="tick" x="{WIDTH - RIGHT}" y="{base}" text-anchor="end">'
        f"{escape(words.last)}</text>"
    )
    return Markup(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" preserveAspectRatio="xMidYMid meet">'
        f'<title id="{chart_id}-t">{escape(words.title)}</title>'
        f'<desc id="{chart_id}-d">{escape(words.description)}</desc>'
        f"{axis}{''.join(marks)}"
        f'<polyline class="average" points="{average}" fill="none"/>{under}</svg>'
    )

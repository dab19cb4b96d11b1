"""A rating history as an SVG line chart, computed on the server (no JavaScript, no CDN).

`history_chart` turns (label, rating) points into coordinates of a viewBox; the template draws them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ratings.core.fibs import START_RATING


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # "x,y x,y …" for <polyline>
    dots: list[tuple[float, float, str, float]]  # x, y, label, rating
    y_ticks: list[tuple[float, int]]  # y, rating value
    x_labels: list[tuple[float, str]]
    baseline_y: float | None  # where 1500 lies, when inside the range


def _nice_step(span: float) -> int:
    raw = max(span / 4.0, 1.0)
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return int(factor * magnitude)
    return int(10 * magnitude)


def history_chart(
    values: list[tuple[str, float]],
    *,
    width: int = 600,
    height: int = 220,
    start: float | None = START_RATING,
    min_span: float = 20,
) -> Chart | None:
    """values: (label, value after) in date order; the chart starts at `start` before the first match (a dashed
    line marks it), or at the first value when `start` is None. The value axis spans at least `min_span`."""
    if not values:
        return None
    series = [("", start), *values] if start is not None else list(values)
    ratings = [v for _, v in series]
    low, high = min(ratings), max(ratings)
    if high - low < min_span:
        middle = (high + low) / 2
        low, high = middle - min_span / 2, middle + min_span / 2
        if low < 0 <= min(ratings):  # a figure that cannot be negative (an error rate) keeps its axis at 0 and up
            low, high = 0.0, min_span
    step = _nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    left, right, top, bottom = 48.0, 8.0, 8.0, 24.0  # the template's grid lines use the same margins
    plot_w, plot_h = width - left - right, height - top - bottom

    def x_of(index: int) -> float:
        return round(left + plot_w * (index / max(len(series) - 1, 1)), 1)

    def y_of(rating: float) -> float:
        return round(top + plot_h * (1 - (rating - low) / (high - low)), 1)

    coords = [(x_of(i), y_of(v)) for i, (_, v) in enumerate(series)]
    skip = 1 if start is not None else 0
    dots = [(x, y, label, v) for (x, y), (label, v) in zip(coords[skip:], series[skip:], strict=True)]
    y_ticks = [(y_of(v), v) for v in range(int(low), int(high) + 1, step)]
    every = max(1, math.ceil(len(values) / 5))
    x_labels = [(x, label) for i, (x, _y, label, _v) in enumerate(dots) if i % every == 0]
    baseline = y_of(start) if start is not None and low <= start <= high else None
    return Chart(
        width=width,
        height=height,
        points=" ".join(f"{x},{y}" for x, y in coords),
        dots=dots,
        y_ticks=y_ticks,
        x_labels=x_labels,
        baseline_y=baseline,
    )

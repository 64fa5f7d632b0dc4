"""Figures for arena and balance reports, drawn with matplotlib's Agg backend (no display
needed) and saved as both PNG and SVG."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _figure(width: float, height: float) -> Figure:
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def save(figure: Figure, folder: Path, stem: str) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg`` into ``folder``; return both paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{stem}.png", folder / f"{stem}.svg"]
    figure.savefig(paths[0], dpi=130)
    figure.savefig(paths[1], metadata={"Date": None})  # no timestamp: reproducible files
    return paths


def score_matrix(
    bots: Sequence[str], matrix: Sequence[Sequence[float | None]], title: str
) -> Figure:
    """Heatmap of each row bot's score rate against each column bot."""
    import numpy as np

    n = len(bots)
    data = np.array([[np.nan if v is None else v for v in row] for row in matrix], dtype=float)
    fig = _figure(1.6 + 0.9 * n, 1.2 + 0.8 * n)
    ax = fig.add_subplot()
    image = ax.imshow(data, cmap="RdYlGn", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(n), labels=list(bots), rotation=30, ha="right")
    ax.set_yticks(range(n), labels=list(bots))
    ax.set_xlabel("opponent")
    ax.set_ylabel("bot")
    for i in range(n):
        for j in range(n):
            if not np.isnan(data[i, j]):
                ax.text(j, i, f"{data[i, j]:.2f}", ha="center", va="center", fontsize=9)
    fig.colorbar(image, ax=ax, label="score rate (win 1, draw ½)")
    ax.set_title(title)
    return fig


def rating_bars(
    bots: Sequence[str], ratings: Sequence[float], errors: Sequence[float], title: str
) -> Figure:
    """Ratings with their 95% bands as error bars, best on top."""
    order = sorted(range(len(bots)), key=lambda i: ratings[i])
    fig = _figure(6.0, 1.0 + 0.45 * len(bots))
    ax = fig.add_subplot()
    ax.errorbar(
        [ratings[i] for i in order],
        [bots[i] for i in order],
        xerr=[errors[i] for i in order],
        fmt="o",
        color="#4c72b0",
        capsize=4,
    )
    ax.grid(axis="x", alpha=0.3)
    low = min(r - e for r, e in zip(ratings, errors, strict=True))
    high = max(r + e for r, e in zip(ratings, errors, strict=True))
    pad = 0.05 * (high - low or 100)
    ax.set_xlim(low - pad, high + pad)
    ax.set_xlabel("rating (openskill, shown as 60·mu; bars: ±2 sigma)")
    ax.set_title(title)
    return fig


def first_seat(
    labels: Sequence[str],
    rates: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    draws: Sequence[float],
    title: str,
) -> Figure:
    """First-seat score rate per variant with its 95% interval, and the draw rate."""
    fig = _figure(max(5.0, 1.8 + 1.1 * len(labels)), 3.8)
    ax = fig.add_subplot()
    x = list(range(len(labels)))
    # Clamped: an interval computed in floating point may end a hair inside its own estimate
    # (all games won: Wilson's upper end 0.9999999...), and matplotlib refuses negative bars.
    below = [max(0.0, r - lo) for r, (lo, _) in zip(rates, intervals, strict=True)]
    above = [max(0.0, hi - r) for r, (_, hi) in zip(rates, intervals, strict=True)]
    ax.bar(x, rates, yerr=[below, above], capsize=5, color="#4c72b0", label="first seat score")
    ax.scatter(x, draws, color="#dd8452", zorder=3, label="draw rate")
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xticks(x, labels=list(labels), rotation=20, ha="right")
    ax.set_ylim(0, 1.22)  # headroom above 1 for the legend, so it never hides a bar
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1])
    ax.set_ylabel("rate")
    ax.legend(loc="upper center", ncols=2, fontsize=8, frameon=False)
    ax.set_title(title, fontsize=10)
    return fig


def histograms(
    labels: Sequence[str], samples: Sequence[Sequence[float]], xlabel: str, title: str
) -> Figure:
    """One histogram per variant, stacked vertically on a shared x axis."""
    n = max(1, len(labels))
    fig = _figure(6.0, 0.6 + 1.5 * n)
    axes: Any = fig.subplots(n, 1, sharex=True, squeeze=False)
    lo = min((min(s) for s in samples if s), default=0.0)
    hi = max((max(s) for s in samples if s), default=1.0)
    integer = all(float(v).is_integer() for s in samples for v in s)
    if integer:
        bins: Any = [b - 0.5 for b in range(int(lo), int(hi) + 2)]
        if len(bins) > 60:
            bins = 40
    else:
        bins = 30
    for row, (label, sample) in enumerate(zip(labels, samples, strict=True)):
        ax = axes[row][0]
        ax.hist(sample, bins=bins, color="#55a868")
        ax.set_ylabel(label, rotation=0, ha="right", va="center", fontsize=8)
    axes[-1][0].set_xlabel(xlabel)
    axes[0][0].set_title(title)
    return fig


def shares(labels: Sequence[str], samples: Sequence[Sequence[str]], title: str) -> Figure:
    """How each variant's games split between categories (e.g. how they ended): one stacked
    horizontal bar per variant, the share written on each part wide enough to hold it."""
    kinds = list(dict.fromkeys(w for sample in samples for w in sorted(sample)))
    colours = ["#4c72b0", "#55a868", "#dd8452", "#c44e52", "#8172b3", "#937860"]
    fig = _figure(7.0, 1.2 + 0.42 * max(1, len(labels)))
    ax = fig.add_subplot()
    y = list(range(len(labels)))[::-1]
    left = [0.0] * len(labels)
    for i, kind in enumerate(kinds):
        widths = [(sample.count(kind) / len(sample)) if sample else 0.0 for sample in samples]
        ax.barh(y, widths, left=left, color=colours[i % len(colours)], label=kind)
        for row, (start, width) in enumerate(zip(left, widths, strict=True)):
            if width >= 0.08:
                ax.text(
                    start + width / 2,
                    y[row],
                    f"{width:.0%}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white",
                )
        left = [a + b for a, b in zip(left, widths, strict=True)]
    ax.set_yticks(y, labels=list(labels), fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.legend(
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        ncols=max(1, len(kinds)),
        fontsize=8,
        frameon=False,
    )
    ax.set_title(title, fontsize=10, pad=22)
    return fig


# One measure of a comparison: its axis label, per series per variant (value, low, high),
# reference lines (x, words) such as a target or a limit, and the axis range (None: fitted).
Panel = tuple[
    str,
    Sequence[Sequence[tuple[float, float, float]]],
    Sequence[tuple[float, str]],
    tuple[float, float] | None,
]


def interval_panels(
    labels: Sequence[str], series: Sequence[str], panels: Sequence[Panel], title: str
) -> Figure:
    """Several measures side by side, one panel each, sharing the variants on the y axis: each
    series' value with its 95% interval, slightly offset so the series do not hide each other."""
    n = len(labels)
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    fig = _figure(2.2 + 2.6 * columns, 0.9 + rows * (0.6 + 0.3 * n))
    axes: Any = fig.subplots(rows, columns, sharey=True, squeeze=False)
    markers = ["o", "s", "^", "D"]
    colours = ["#4c72b0", "#dd8452", "#55a868", "#c44e52"]
    y = list(range(n))[::-1]
    for index, (name, values, refs, limits) in enumerate(panels):
        ax = axes[index // columns][index % columns]
        for s, per_variant in enumerate(values):
            offset = (s - (len(values) - 1) / 2) * 0.22
            ys = [row + offset for row in y]
            xs = [v for v, _, _ in per_variant]
            below = [max(0.0, v - lo) for v, lo, _ in per_variant]
            above = [max(0.0, hi - v) for v, _, hi in per_variant]
            ax.errorbar(
                xs,
                ys,
                xerr=[below, above],
                fmt=markers[s % len(markers)],
                color=colours[s % len(colours)],
                markersize=4,
                capsize=2,
                linewidth=1,
                label=series[s] if index == 0 else None,
            )
        for at, words in refs:
            ax.axvline(at, color="grey", linewidth=0.8, linestyle="--")
            ax.text(at, n - 0.4, words, fontsize=7, color="grey", ha="center", va="bottom")
        ax.set_xlabel(name, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(axis="x", alpha=0.3)
        ax.set_ylim(-0.6, n + 0.2)
        if limits is not None:
            ax.set_xlim(*limits)
    for row in axes:
        row[0].set_yticks(y, labels=list(labels), fontsize=8)
    for extra in range(len(panels), rows * columns):
        axes[extra // columns][extra % columns].set_visible(False)
    fig.legend(loc="outside lower center", ncols=len(series), fontsize=8, frameon=False)
    fig.suptitle(title, fontsize=10)
    return fig

"""Small helpers every figure uses: titles wrapped to fit their axes, and number labels set beside a plot.

Nothing here plays games; the figures themselves live with the experiments, the sweep and the tuning report.
"""

from __future__ import annotations

import textwrap


def _wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.fill(part, width) if part else "" for part in text.split("\n"))


def fit_title(ax, text: str, fontsize: float = 10, **kwargs):
    """Set ``ax``'s title, wrapped so that no line runs past the axes' width (measured after drawing).

    Call it after the figure's layout is settled (after ``tight_layout``); returns the title's Text.
    """
    fig = ax.figure
    width = max(len(line) for line in text.split("\n"))
    while True:
        title = ax.set_title(_wrap(text, width), fontsize=fontsize, **kwargs)
        renderer = fig.canvas.get_renderer()
        if title.get_window_extent(renderer).width <= 0.95 * ax.get_window_extent(renderer).width or width <= 20:
            return title
        width = max(20, int(width * 0.9))


def fit_suptitle(fig, text: str, fontsize: float = 10, **kwargs):
    """Set the figure's title, wrapped so that no line runs past the figure's width; returns its Text."""
    width = max(len(line) for line in text.split("\n"))
    while True:
        title = fig.suptitle(_wrap(text, width), fontsize=fontsize, **kwargs)
        renderer = fig.canvas.get_renderer()
        if title.get_window_extent(renderer).width <= 0.92 * fig.bbox.width or width <= 20:
            return title
        width = max(20, int(width * 0.9))

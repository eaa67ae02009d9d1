"""Small helpers every figure uses: titles wrapped to fit their axes, the title and caption that end a figure, and
number labels set beside a plot.

Nothing here plays games; the figures themselves live with the experiments, the sweep and the tuning report.
"""

from __future__ import annotations

import textwrap


def subplots(*args, figsize=None, dpi=None, **kwargs):
    """``(figure, axes)`` as ``matplotlib.pyplot.subplots`` makes them, but drawn without pyplot: no backend is
    chosen or switched (a notebook keeps its own), and nothing is left open once the figure is saved.

    ``figsize`` and ``dpi`` go to `matplotlib.figure.Figure`, the rest to its ``subplots``. The figure gets an
    Agg canvas of its own (what ``savefig`` draws a PNG with anyway), so ``fig.canvas.draw()`` and its renderer work
    as on a pyplot figure, without touching the backend.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=figsize, dpi=dpi)
    FigureCanvasAgg(figure)
    return figure, figure.subplots(*args, **kwargs)


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
        renderer = _renderer(fig)
        if title.get_window_extent(renderer).width <= 0.95 * ax.get_window_extent(renderer).width or width <= 20:
            return title
        width = max(20, int(width * 0.9))


def fit_suptitle(fig, text: str, fontsize: float = 10, **kwargs):
    """Set the figure's title, wrapped so that no line runs past the figure's width; returns its Text."""
    width = max(len(line) for line in text.split("\n"))
    while True:
        title = fig.suptitle(_wrap(text, width), fontsize=fontsize, **kwargs)
        renderer = _renderer(fig)
        if title.get_window_extent(renderer).width <= 0.92 * fig.bbox.width or width <= 20:
            return title
        width = max(20, int(width * 0.9))


def titled(fig, title: str, caption: str, fontsize: float = 10):
    """End a figure with its title over a line that says how it was measured; return the figure.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The drawn figure.
    title : str
        What was compared, and under which rules.
    caption : str
        The intervals, the sample size and the seed (one or more lines).
    fontsize : float
        Of the title and caption, which are wrapped to the figure's width (`fit_suptitle`).
    """
    fit_suptitle(fig, f"{title}\n{caption}", fontsize=fontsize)
    fig.tight_layout()
    return fig


def captioned(fig, titles, caption: str, room: float):
    """End a figure with titles over its axes and a caption along its bottom edge; return the figure.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The drawn figure.
    titles : iterable of (matplotlib.axes.Axes, str, float)
        Each axes' title and font size, wrapped to the axes' width (`fit_title`).
    caption : str
        The intervals, the sample size and the seed, in small type below the axes.
    room : float
        The fraction of the figure's height kept free for the caption.
    """
    titles = list(titles)
    for _ in range(2):  # wrapping the titles changes the layout, which changes the room they have
        for ax, text, fontsize in titles:
            fit_title(ax, text, fontsize=fontsize)
        fit_suptitle(fig, caption, fontsize=8, y=0.005, va="bottom")
        fig.tight_layout(rect=(0, room, 1, 1))
    return fig


def _renderer(fig):
    """A renderer to measure text with: the figure's own canvas's, or an Agg canvas attached to a figure made
    without pyplot (whose base canvas cannot render)."""
    if not hasattr(fig.canvas, "get_renderer"):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    return fig.canvas.get_renderer()

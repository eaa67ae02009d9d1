"""The committed notebooks carry their outputs, and executing them again from the committed results/ changes none.

Each notebook is run in a fresh kernel the way ``python -m golfsim.experiments.notebooks`` runs it (reading
``results/``, GOLFSIM_NOTEBOOK_GAMES unset) and its outputs are compared with the committed ones, cell by cell:
printed text, Markdown, HTML and text tables exactly. A figure is compared by what is stable across matplotlib and
FreeType releases: that it is there, its ``text/plain`` line (figure size in pixels and number of axes) exactly, and
the PNG's pixel size within 10% (``bbox_inches="tight"`` trims by the extent of the text, which font versions move
by a few pixels). The numbers a figure draws are the table columns the same notebook prints, which are compared
exactly; the pixels themselves are not (antialiasing and font hinting differ between machines).
"""

from __future__ import annotations

import base64
import struct

import nbformat
import pytest

from golfsim.experiments.notebooks import NOTEBOOKS, run

PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def png_size(data: str) -> tuple[int, int]:
    raw = base64.b64decode(data)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", raw[16:24])


def shown(notebook) -> list[list[dict]]:
    """Per code cell, each output as a dict of what is compared."""
    cells = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.outputs:
            if output.output_type == "stream":
                outputs.append({"stream": output.name, "text": output.text})
            elif output.output_type == "error":
                outputs.append({"error": output.ename, "value": output.evalue})
            else:
                data = dict(output.get("data", {}))
                image = data.pop("image/png", None)
                outputs.append({"type": output.output_type, **data,
                                "png": None if image is None else png_size(image)})
        cells.append(outputs)
    return cells


def same_size(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return all(abs(x - y) <= 0.1 * max(x, y) for x, y in zip(a, b, strict=True))


def test_png_size_reads_the_header_and_the_tolerance_is_relative():
    one_pixel = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
    assert png_size(one_pixel) == (1, 1)
    assert same_size((900, 500), (950, 520)) and not same_size((900, 500), (700, 500))


@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_a_committed_notebook_carries_figures_and_tables(path):
    cells = shown(nbformat.read(path, 4))
    flat = [o for outputs in cells for o in outputs]
    assert not [o for o in flat if "error" in o], "a committed notebook with an error"
    assert [o for o in flat if o.get("png")], "no figure saved in the notebook"
    assert [o for o in flat if "text/html" in o], "no table saved in the notebook"


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS, ids=[p.name for p in PATHS])
def test_executing_a_notebook_again_changes_none_of_its_outputs(path):
    committed = shown(nbformat.read(path, 4))
    again = shown(run(path, games=None, timeout=300))
    assert len(again) == len(committed), "the notebook's code cells changed"
    for number, (old, new) in enumerate(zip(committed, again, strict=True)):
        assert len(new) == len(old), f"code cell {number}: {len(old)} outputs committed, {len(new)} now"
        for before, now in zip(old, new, strict=True):
            if before.get("png") or now.get("png"):
                assert before.get("png") and now.get("png"), f"code cell {number}: a figure appeared or went"
                assert same_size(before.pop("png"), now.pop("png")), f"code cell {number}: figure size"
            assert now == before, f"code cell {number} shows something else now (re-execute and commit it: " \
                                  "python -m golfsim.experiments.notebooks)"

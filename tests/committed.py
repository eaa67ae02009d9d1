"""Where the checkout's committed results are (tests compare them with the code)."""

from pathlib import Path

RESULTS = Path(__file__).resolve().parent.parent / "results"

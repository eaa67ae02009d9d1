"""Check or regenerate the golden files: ``python -m tests.golden`` shows any difference, ``--regenerate`` rewrites.

Regenerate only after checking that the difference is meant (a rule fix, a deliberate change to a stream or an
agent), and say so in the commit: every committed result in ``results/`` was made with the streams the files pin.
"""

from __future__ import annotations

import argparse
import difflib
import sys

from tests.golden.playthroughs import expected_files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__.splitlines()[0])
    parser.add_argument("--regenerate", action="store_true", help="rewrite every golden file from the code as it is")
    args = parser.parse_args(argv)
    changed = 0
    for path, text in expected_files().items():
        old = path.read_text() if path.exists() else ""
        if old == text:
            continue
        changed += 1
        if args.regenerate:
            path.write_text(text)
            print(f"rewrote {path.name}")
        else:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                       f"{path.name} (committed)", f"{path.name} (now)"))
    if not changed:
        print("every golden file matches")
    return 1 if changed and not args.regenerate else 0


if __name__ == "__main__":
    sys.exit(main())

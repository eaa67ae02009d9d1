"""``golfsim cache-clear`` and ``golfsim cache-warm``: the Numba cache."""


from __future__ import annotations

import typer

from golfsim.cli.shared import app, err


@app.command("cache-clear")
def cache_clear():
    """Delete golfsim's compiled-function cache (every source version's; see golfsim._numba.jit)."""
    from golfsim._numba.jit import clear_cache

    removed = clear_cache()
    err.print(f"removed {removed} cached files", highlight=False)


@app.command("cache-warm")
def cache_warm():
    """Compile everything a first run needs now (a minute or two once per golfsim version), so that later commands
    start at once."""
    from golfsim._numba.jit import CACHE_DIR
    from golfsim.cli.cache_warm import warm
    from golfsim.runs.compile_notice import active_line

    def say(line: str) -> None:  # above the compile line, never over it: the line is cleared, then redrawn
        compiling = active_line()
        if compiling is not None:
            compiling.pause()
        err.print(line, markup=False, highlight=False)
        if compiling is not None:
            compiling.resume()

    try:
        say(f"compiling into {CACHE_DIR} ...")
        records = warm(say=say)
    except KeyboardInterrupt:
        err.print("interrupted: what was compiled so far is cached; run golfsim cache-warm again to finish",
                  markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(130) from None
    total = sum(r["seconds"] for r in records)
    err.print(f"cache warm: {sum(r['compiles'] for r in records)} functions compiled in {total:.0f} s",
              highlight=False)

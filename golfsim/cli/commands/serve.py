"""``golfsim serve``: play against the agents in a browser (`golfsim.web.app`; needs ``golfsim[web]``)."""


from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from golfsim.cli.shared import app, clear_errors


@app.command()
@clear_errors
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: only this machine).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    save_dir: Annotated[Path, typer.Option(
        help="Folder the games are saved to, one decision log per game ('golfsim replay' shows it).")] = Path("."),
):
    """Play six-card Golf against any agents in your browser, with hints and the scorecard; every game is saved."""
    try:
        import uvicorn

        from golfsim.web.app import create_app
    except ImportError as err:
        raise ValueError(f"golfsim serve needs the web extra: pip install 'golfsim[web]' ({err.name} is missing)") \
            from None
    if not save_dir.is_dir():
        raise ValueError(f"cannot save games to {save_dir}: it is not a folder")
    if not 0 < port < 65536:
        raise ValueError(f"--port must be 1 to 65535, got {port}")
    from golfsim.atomic import check_writable

    check_writable(save_dir / ".golfsim-serve-probe", "the games", "--save-dir")
    print(f"golfsim serve: open http://{host}:{port}/ (games saved in {save_dir}; Ctrl-C stops)", flush=True)
    uvicorn.run(create_app(save_dir), host=host, port=port, log_level="warning")

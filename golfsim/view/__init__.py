"""Pictures of the game: a position as SVG (`golfsim.view.svg`), written atomically (`golfsim.view.files`).
A logged game as a self-contained HTML replay is `golfsim.logs.replay_html`, built on these pictures."""

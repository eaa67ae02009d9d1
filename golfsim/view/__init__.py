"""Pictures of the game: a position as SVG (:mod:`golfsim.view.svg`), written atomically (:mod:`golfsim.view.files`).
A logged game as a self-contained HTML replay is :mod:`golfsim.logs.replay_html`, built on these pictures."""

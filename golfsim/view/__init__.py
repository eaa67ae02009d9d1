"""Pictures of the game: a position as SVG (:mod:`golfsim.view.svg`) and a logged game as a self-contained HTML
replay (:mod:`golfsim.view.replay_html`)."""

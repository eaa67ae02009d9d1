"""``golfsim learn``: train the learned player by self-play (the body is `golfsim.cli.learn_body`)."""

from __future__ import annotations

from golfsim.cli.learn_body import LEARN_HELP
from golfsim.cli.learn_body import learn as _learn
from golfsim.cli.shared import app, clear_errors

app.command("learn", help=LEARN_HELP)(clear_errors(_learn))

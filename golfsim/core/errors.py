"""Errors golfsim raises besides ``ValueError`` (which always means bad input)."""


class IllegalActionError(RuntimeError):
    """An agent returned an action that is not legal; the message names the agent and the move."""


class AgentError(RuntimeError):
    """A plain-Python agent raised an exception while deciding; the message names the agent, its seat and the
    exception, and the original is chained as ``__cause__``."""


def check_agent_errors(errors, labels, first_game: int) -> None:
    """Raise [`IllegalActionError`][golfsim.core.errors.IllegalActionError] for the first game of a batch whose kernel
    reported an illegal action.

    Parameters
    ----------
    errors : ndarray, shape (games, 4)
        The kernel's error rows ``(hole + 1, seat, action, phase)``, all zero for a game that played cleanly.
    labels : sequence of str
        The seats' agent labels.
    first_game : int
        The game number of the batch's first row.
    """
    import numpy as np

    from golfsim.core.spec import PHASE_NAMES, action_name

    bad = np.flatnonzero(errors[:, 0])
    if bad.size:
        i = int(bad[0])
        hole, seat, action, phase = (int(x) for x in errors[i])
        raise IllegalActionError(
            f"agent {labels[seat]!r} (seat {seat}) returned the illegal action {action} ({action_name(action)}) "
            f"in the {PHASE_NAMES[phase]} phase of game {first_game + i}, hole {hole} (holes count from 1)")

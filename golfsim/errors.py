"""Errors golfsim raises besides ``ValueError`` (which always means bad input)."""


class IllegalActionError(RuntimeError):
    """An agent returned an action that is not legal; the message names the agent and the move."""

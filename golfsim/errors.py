"""Errors golfsim raises besides ``ValueError`` (which always means bad input)."""


class IllegalActionError(RuntimeError):
    """An agent returned an action that is not legal; the message names the agent and the move."""


class AgentError(RuntimeError):
    """A plain-Python agent raised an exception while deciding; the message names the agent, its seat and the
    exception, and the original is chained as ``__cause__``."""

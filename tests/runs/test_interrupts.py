"""A stop signal whose KeyboardInterrupt is lost (raised while Python runs a finalizer or garbage-collection
callback, which prints it as "Exception ignored" and goes on) is still a stop: the next `raise_pending_stop`
raises it."""

import os
import signal
import sys

import pytest

from golfsim.runs import interrupts
from golfsim.runs.interrupts import CaughtStop, RunStopped, raise_pending_stop, stop_means, stop_pending


@pytest.fixture
def stop_handlers():
    saved = {s: signal.getsignal(s) for s in interrupts.STOP_SIGNALS}
    interrupts.sigterm_as_ctrl_c()
    yield
    for s, handler in saved.items():
        signal.signal(s, handler)
    interrupts._stop_taken()


class SignalledWhileFinalized:
    """Sends ``sig`` to this process from ``__del__``: the handler runs inside the finalizer, whose exception Python
    only prints."""

    def __init__(self, sig):
        self.sig = sig

    def __del__(self):
        os.kill(os.getpid(), self.sig)
        for _ in range(1000):  # bytecode for the interpreter to run the handler on
            pass


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_lost_in_a_finalizer_is_raised_by_the_next_check(stop_handlers, sig, monkeypatch):
    lost = []
    monkeypatch.setattr(sys, "unraisablehook", lost.append)  # where Python reports it ("Exception ignored in")
    SignalledWhileFinalized(sig)  # dropped at once: its __del__ runs here, and its KeyboardInterrupt is lost
    assert [type(u.exc_value) for u in lost] == [KeyboardInterrupt]
    assert stop_pending()
    with CaughtStop() as stop:
        raise_pending_stop()
    assert stop.arrived
    assert not stop_pending()
    raise_pending_stop()  # taken: nothing more to raise


def test_a_stop_taken_by_stop_means_is_not_raised_again(stop_handlers):
    with pytest.raises(RunStopped, match="kept 3"), stop_means("kept 3"):
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):
            pass
    assert not stop_pending()
    raise_pending_stop()


def test_without_a_signal_nothing_is_pending(stop_handlers):
    assert not stop_pending()
    raise_pending_stop()

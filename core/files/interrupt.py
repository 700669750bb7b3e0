"""Signals held back while files are written, so a ^C cannot leave half a write behind.

SIGINT, SIGTERM and SIGHUP are blocked for the span of a write run; the writer asks, at its commit
point, whether one arrived, and then puts every file back and stops with 128 + the signal's
number (130, 143, 129). A signal that arrives after that point is delivered when the span ends,
when the write is complete. SIGKILL cannot be blocked: the write order (``transaction._steps``)
covers it.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Callable, Iterator

from hookweave.core.errors import HooksError

SIGNALS = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(HooksError):
    """A stop signal arrived while files were being written; every file was put back."""

    def __init__(self, signum: int) -> None:
        self.exit_code = 128 + signum
        name = signal.Signals(signum).name
        super().__init__(f"stopped by {name} while writing; every file was put back as it was")


@contextlib.contextmanager
def held() -> Iterator[Callable[[], int | None]]:
    """Block the stop signals for the span; yields ``arrived()``: the number of a signal that is
    waiting (taken off the queue: the caller acts on it), or ``None``."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield lambda: None  # only the main thread gets signals in Python; nothing to hold elsewhere
        return
    # An ignored signal stays ignored (``nohup`` ignores SIGHUP): a blocked one would still queue.
    stops = frozenset(s for s in SIGNALS if signal.getsignal(s) is not signal.SIG_IGN)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, stops)

    def arrived() -> int | None:
        waiting = stops & signal.sigpending()
        if not waiting:
            return None
        first = signal.sigtimedwait(waiting, 0)  # off the queue: the caller acts on it
        while signal.sigtimedwait(stops, 0) is not None:  # a second ^C asks for the same thing
            pass
        return first.si_signo if first is not None else min(waiting)

    try:
        yield arrived
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)  # a late signal is delivered here


class Stop(KeyboardInterrupt):
    """A stop signal turned into an exception by ``raised``, so a run unwinds through its put-back."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def raised() -> Iterator[None]:
    """For a run of several write spans (``hooks sync``): SIGTERM and SIGHUP between them raise
    ``Stop`` as ^C raises ``KeyboardInterrupt``, so the run puts back what it already wrote instead
    of dying half-way. Within a span ``held`` still blocks them until its commit point."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise Stop(signum)

    before = {s: signal.signal(s, stop) for s in SIGNALS - {signal.SIGINT} if signal.getsignal(s) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)

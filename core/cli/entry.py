"""The console entry point of ``hooks`` and ``hookweave``.

Loading the command (typer and its imports) and typer building it are most of a run's start-up; a
^C then would print Python's KeyboardInterrupt traceback (found by the stop-signals attack in CI).
``hookweave.core`` (the package's first code to run) makes it quiet until the command is loaded;
here ^C becomes KeyboardInterrupt again, which stops the command quietly before anything was read
or written, and from then on click and ``interrupt`` own it. Once the command has ended, a ^C is
ignored: the exit is a matter of milliseconds and has nothing left to stop.
"""

from __future__ import annotations

import gc
import os
import signal
import sys

# A command lives for well under a second and builds hardly any reference cycles, yet the
# collector's default threshold (700 allocations) makes it run 40-odd times while typer and our
# modules load (about 3 ms of a 70 ms run), and hundreds of times over a big settings file's
# values. A higher threshold keeps cycles (an exception's traceback, a prompt's widgets) bounded
# while sparing those passes; the older generations keep their defaults.
GC_THRESHOLD = 50_000
_running_as_command = False  # set where ^C is given back to KeyboardInterrupt; only then does finish ignore it


def main() -> None:
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        _preload(sys.argv[1:])
        from hookweave.core.cli.app import main as run_command
    except KeyboardInterrupt:
        sys.stderr.write("hooks: stopped; nothing written\n")
        raise SystemExit(130) from None
    try:
        _interrupts_raise()
        run_command()
    except SystemExit as done:
        finish(done.code)
    except KeyboardInterrupt:  # while typer builds the command, before click's own handler runs it
        sys.stderr.write("hooks: stopped; nothing written\n")
        finish(130)
    except BrokenPipeError:  # output the console did not print (typer's help): the reader left
        from hookweave.core.cli.console import closed

        closed(sys.stdout)
        finish(0)
    finish(0)


def _preload(argv: list[str]) -> None:
    """Load the modules the command will import, in one step each (``quickimport.preload``): 6.6
    million instructions of a no-op install's 30 past the typer import. The command is the first
    word naming one (``app`` parses the line; a wrong guess costs time, never a result)."""
    from hookweave.core.cli.loadorder import ORDER

    names = next((ORDER[word] for word in argv if word in ORDER), None)
    if names:
        from hookweave.core.files.quickimport import preload

        hosts = [f"hookweave.hosts.{name}" for name in _hosts_named(argv)]
        preload([f"hookweave.{name}" for name in names.split()] + hosts)


def _hosts_named(argv: list[str]) -> list[str]:
    """The hosts ``--host``/``-H`` names (the order records none: which ones load depends on them)."""
    named = []
    for at, word in enumerate(argv):
        if word in ("--host", "-H") and at + 1 < len(argv):
            named.append(argv[at + 1])
        elif word.startswith("--host="):
            named.append(word[len("--host="):])
    return [name for name in named if name.isidentifier()]


def _interrupts_raise() -> None:
    """^C raises KeyboardInterrupt again (``hookweave.core`` made it quiet while the command loaded)."""
    from hookweave.core import _stopped_quietly

    global _running_as_command
    if signal.getsignal(signal.SIGINT) is _stopped_quietly:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _running_as_command = True


def finish(code: object) -> None:
    """End the process with ``code`` without the interpreter's teardown.

    Every file the command wrote is closed and synced by then (``fileio``), and the operating
    system frees the memory at once; the teardown would instead destroy every module and object
    one by one and run a last full collection: 8-10 ms of a 60 ms run, more with a big file's values
    still referenced (mypy ends the same way). What a normal exit does that anyone can observe is
    done here: standard streams flushed and ``atexit`` functions run (coverage, ``weakref.finalize``,
    temporary folders). The normal exit stays where it decides something: an exit code that is
    not a number (printed), a stream that cannot be flushed (a closed pipe: Python's own report
    and status), or a thread still running that it would wait for.
    """
    _ignore_interrupts()
    if code is None:
        code = 0
    if not isinstance(code, int) or _threads_running():
        raise SystemExit(code)
    try:
        _flush()
    except Exception:  # noqa: BLE001 - the interpreter's exit reports it as it always has
        raise SystemExit(code) from None
    import atexit

    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):  # an atexit function may have printed
            if stream is not None:
                stream.flush()
    except Exception:  # noqa: BLE001
        raise SystemExit(code) from None
    os._exit(code & 0xFF)


def _ignore_interrupts() -> None:
    """The command has ended: a ^C now would only turn its exit into a traceback."""
    if _running_as_command:  # not in a test that calls finish: its process goes on
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _flush() -> None:
    """Flush stdout and stderr; a pipe whose reader has gone (``| head``) is pointed at the null
    device, so the command keeps its exit code and prints no traceback (issue 25)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except BrokenPipeError:
            from hookweave.core.cli.console import closed

            closed(stream)


def _threads_running() -> bool:
    """A thread (not a daemon) besides this one: a normal exit would wait for it."""
    threading = sys.modules.get("threading")
    if threading is None:
        return False
    main_thread = threading.main_thread()
    return any(t is not main_thread and not t.daemon and t.is_alive() for t in threading.enumerate())

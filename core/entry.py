"""The console entry point of ``hooks`` and ``hookweave``.

Loading the command (typer and its imports) is most of a run's start-up; a ^C then would print
Python's KeyboardInterrupt traceback. Here it stops the command quietly, before anything was read
or written. From then on ``cli`` and ``interrupt`` own ^C.
"""

from __future__ import annotations

import gc
import sys

# A command lives for well under a second and builds hardly any reference cycles, yet the
# collector's default threshold (700 allocations) makes it run 40-odd times while typer and our
# modules load (about 3 ms of a 70 ms run), and hundreds of times over a big settings file's
# values. A higher threshold keeps cycles (an exception's traceback, a prompt's widgets) bounded
# while sparing those passes; the older generations keep their defaults.
GC_THRESHOLD = 50_000


def main() -> None:
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        from hookweave.core.cli import main as run_command
    except KeyboardInterrupt:
        sys.stderr.write("hooks: stopped; nothing written\n")
        raise SystemExit(130) from None
    run_command()

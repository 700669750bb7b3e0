"""The console entry point of ``hooks`` and ``hookweave``.

Loading the command (typer and its imports) is most of a run's start-up; a ^C then would print
Python's KeyboardInterrupt traceback. Here it stops the command quietly, before anything was read
or written. From then on ``cli`` and ``interrupt`` own ^C.
"""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from hookweave.core.cli import main as run_command
    except KeyboardInterrupt:
        sys.stderr.write("hooks: stopped; nothing written\n")
        raise SystemExit(130) from None
    run_command()

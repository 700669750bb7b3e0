"""All user-facing output goes through here. Colour (no-color.org, force-color.org): ``NO_COLOR``
set and not empty turns it off, ``FORCE_COLOR`` set and not empty turns it on (also into a pipe),
``TERM=dumb`` turns it off; otherwise colour on a terminal only. An empty variable counts as unset.
``hooks --color always|never`` wins over all of them (``auto``: the rules above)."""

from __future__ import annotations

import os
import sys
from typing import Any

import typer

from hookweave.core.formats.textsafe import escape_surrogates

_STYLES = {"ok": "green", "problem": "red", "warning": "yellow", "note": "cyan", "head": "bold"}
COLOUR_CHOICES = ("auto", "always", "never")
_chosen = "auto"  # --color's answer, for the rest of the run


def choose_colour(when: str) -> None:
    """``--color WHEN``: always, never, or auto (the environment and the terminal decide)."""
    global _chosen
    if when not in COLOUR_CHOICES:
        import difflib

        from hookweave.core.cli.usage import click

        close = difflib.get_close_matches(when, COLOUR_CHOICES, n=1)
        raise click.BadParameter(f"{when!r} is not auto, always or never" + (f"; did you mean {close[0]!r}?" if close else ""))
    _chosen = when


def _color(stream) -> bool:
    if _chosen != "auto":
        return _chosen == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _safe(text: str) -> str:
    """Text any terminal encoding can take: a lone surrogate (a ``"\\ud800"`` escape read from a
    settings file, or a path's undecodable byte) shown as its ``\\uXXXX`` escape; in JSON output the
    escape is the same value."""
    return escape_surrogates(text)


def out(text: str = "", style: str | None = None) -> None:
    text = _safe(text)
    colour = bool(style) and _color(sys.stdout)
    if colour:
        text = typer.style(text, fg=_STYLES[style] if style != "head" else None, bold=style == "head")
    _echo(text, colour)  # click strips styles off a pipe unless told


def err(text: str) -> None:
    """One line on stderr, whatever the message embeds: control characters are escaped here too."""
    from hookweave.core.files.paths import printable

    text = printable(_safe(text))
    colour = _color(sys.stderr)
    if colour:
        text = typer.style(text, fg="red")
    _echo(text, colour, err=True)


def columns(rows: list[tuple[str, ...]], indent: str = "") -> list[str]:
    """Rows as lines, each column as wide as its widest cell (the last one is not padded)."""
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return [indent + "  ".join([*(c.ljust(w) for c, w in zip(row, widths)), row[-1]]).rstrip() for row in rows]


def progress(text: str | None) -> None:
    """A transient line on stderr while a long run works (on a terminal only; ``None`` clears it),
    so stdout and ``--json`` stay exactly what they were."""
    stream = sys.stderr
    if not getattr(stream, "isatty", lambda: False)() or os.environ.get("TERM") == "dumb":
        return
    stream.write("\r\x1b[K" + (_safe(text)[:70] if text else ""))
    stream.flush()


def json_out(data: Any) -> None:
    import json  # --json alone: its indented encoder

    _echo(_safe(json.dumps(data, indent=2, ensure_ascii=False)), False)


def _echo(text: str, colour: bool, err: bool = False) -> None:
    """Print a line; a reader that closed the pipe early (``hooks ... | head -5``) silences the
    rest of the output and the command goes on to its own exit code (issue 25: click turned the
    broken pipe into exit 1 on some runs and not others, as the reader's timing fell)."""
    try:
        typer.echo(text, err=err, color=True if colour else None)
    except BrokenPipeError:
        closed(sys.stderr if err else sys.stdout)


def closed(stream) -> None:
    """Point ``stream``'s file descriptor at the null device: what is still buffered and printed
    later goes nowhere, and the interpreter's last flush reports nothing."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture): nothing to point
        pass


def status(text: str) -> None:
    """A passing status line on stderr, overwritten by the next one (``""`` clears it): for a
    terminal only; the caller asks ``live()`` first."""
    sys.stderr.write("\r\x1b[K" + _safe(text)[:100])
    sys.stderr.flush()


def live() -> bool:
    """Whether stderr is a terminal, where a long run may show its progress."""
    return sys.stderr.isatty()

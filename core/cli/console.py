"""All user-facing output goes through here: colour only on a terminal and without NO_COLOR."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import typer

from hookweave.core.formats.textsafe import escape_surrogates

_STYLES = {"ok": "green", "problem": "red", "warning": "yellow", "note": "cyan", "head": "bold"}


def _color(stream) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def _safe(text: str) -> str:
    """Text any terminal encoding can take: a lone surrogate (a ``"\\ud800"`` escape read from a
    settings file, or a path's undecodable byte) shown as its ``\\uXXXX`` escape; in JSON output the
    escape is the same value."""
    return escape_surrogates(text)


def out(text: str = "", style: str | None = None) -> None:
    text = _safe(text)
    if style and _color(sys.stdout):
        text = typer.style(text, fg=_STYLES[style] if style != "head" else None, bold=style == "head")
    typer.echo(text)


def err(text: str) -> None:
    """One line on stderr, whatever the message embeds: control characters are escaped here too."""
    from hookweave.core.files.paths import printable

    text = printable(_safe(text))
    if _color(sys.stderr):
        text = typer.style(text, fg="red")
    typer.echo(text, err=True)


def json_out(data: Any) -> None:
    typer.echo(_safe(json.dumps(data, indent=2, ensure_ascii=False)))


def status(text: str) -> None:
    """A passing status line on stderr, overwritten by the next one (``""`` clears it): for a
    terminal only; the caller asks ``live()`` first."""
    sys.stderr.write("\r\x1b[K" + _safe(text)[:100])
    sys.stderr.flush()


def live() -> bool:
    """Whether stderr is a terminal, where a long run may show its progress."""
    return sys.stderr.isatty()

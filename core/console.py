"""All user-facing output goes through here: colour only on a terminal and without NO_COLOR."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import typer

_STYLES = {"ok": "green", "problem": "red", "warning": "yellow", "note": "cyan", "head": "bold"}


def _color(stream) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def _printable(text: str) -> str:
    """``text`` with each lone surrogate (a ``"\\ud800"`` escape read from a settings file) shown as
    its escape: a terminal or pipe takes UTF-8 only, and in JSON output the escape is the same value."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(f"\\u{ord(c):04x}" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def out(text: str = "", style: str | None = None) -> None:
    text = _printable(text)
    if style and _color(sys.stdout):
        text = typer.style(text, fg=_STYLES[style] if style != "head" else None, bold=style == "head")
    typer.echo(text)


def err(text: str) -> None:
    text = _printable(text)
    if _color(sys.stderr):
        text = typer.style(text, fg="red")
    typer.echo(text, err=True)


def json_out(data: Any) -> None:
    typer.echo(_printable(json.dumps(data, indent=2, ensure_ascii=False)))

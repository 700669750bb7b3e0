"""All user-facing output goes through here: colour only on a terminal and without NO_COLOR."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import typer

from hookweave.core.textsafe import escape_surrogates

_STYLES = {"ok": "green", "problem": "red", "warning": "yellow", "note": "cyan", "head": "bold"}


def _color(stream) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def out(text: str = "", style: str | None = None) -> None:
    text = escape_surrogates(text)
    if style and _color(sys.stdout):
        text = typer.style(text, fg=_STYLES[style] if style != "head" else None, bold=style == "head")
    typer.echo(text)


def err(text: str) -> None:
    text = escape_surrogates(text)
    if _color(sys.stderr):
        text = typer.style(text, fg="red")
    typer.echo(text, err=True)


def json_out(data: Any) -> None:
    typer.echo(escape_surrogates(json.dumps(data, indent=2, ensure_ascii=False)))

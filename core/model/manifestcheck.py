"""What every part of a manifest check shares: the checker that words each error (file, key, fix),
key paths and kinds as messages print them, names and orders.

Every error is a ``BadInput`` (exit 2) naming the file, the key and the fix.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from hookweave.core.errors import BadInput
from hookweave.core.formats import jsonlite, lazypattern, tomlplain

NAME_RE = lazypattern.NAME  # fullmatch of [a-z0-9][a-z0-9-]{0,63}: "$" would let a final newline in
ENV_RE = lazypattern.ENV_NAME  # fullmatch of [A-Za-z_][A-Za-z0-9_]*
ORDERS = ("alone", "chain")


class Checker:
    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, what: str, fix: str) -> BadInput:
        return BadInput(f"{self.path}: {where}: {what}; {fix}")

    def keys(self, table: Any, allowed: tuple[str, ...], where: str) -> dict[str, Any]:
        if not isinstance(table, dict):
            raise self.fail(where, f"must be a table, not {kind(table)}", f"write it as [{where}]")
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f"did you mean {close[0]!r}?" if close else f"allowed keys: {', '.join(allowed)}"
                raise self.fail(f"{where}.{key_path(key)}", "unknown key", hint)
        return table

    def string(self, value: Any, where: str, fix: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, "must be a non-empty string", fix)
        return value

    def name(self, value: Any, where: str) -> str:
        value = self.string(value, where, 'use lowercase letters, digits and dashes, e.g. "my-guard"')
        if not NAME_RE.fullmatch(value):
            raise self.fail(
                where, f"{value!r} is not a valid name", "use lowercase letters, digits and dashes (up to 64)"
            )
        return value

    def hosts(self, value: Any, where: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not value or not all(isinstance(h, str) for h in value):
            raise self.fail(where, "must be a list of host names", 'e.g. hosts = ["claude", "gemini"]')
        return tuple(value)


def key_path(key: str) -> str:
    """A TOML key as written in a dotted path: bare when it can be, else quoted (one line, always)."""
    return key if tomlplain.bare_key(key) else jsonlite.dumps(key, ensure_ascii=False)


def kind(value: Any) -> str:
    return {dict: "a table", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), type(value).__name__
    )


def check_order(check: Checker, value: Any, where: str) -> str:
    if value not in ORDERS:
        shown = jsonlite.dumps(value) if isinstance(value, str) else kind(value)
        raise check.fail(where, f"unknown order {shown}", 'use "chain" (one after another, first block wins) or "alone"')
    return value


def control(value: str, allowed: str = "") -> str | None:
    """The first control character in ``value`` that is not in ``allowed``, as an escape."""
    bad = next((c for c in value if (c < " " or c == "\x7f") and c not in allowed), None)
    return None if bad is None else bad.encode("unicode_escape").decode()

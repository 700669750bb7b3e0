"""What a parsed settings value is, in words an error message can use, and an event's groups read
without trusting the file's shape (a host's parsed document may hold anything)."""

from __future__ import annotations

from typing import Any


def kind_of(value: Any) -> str:
    """A JSON value's type as Python names it (``list``, ``dict``), ``null`` for null."""
    return "null" if value is None else type(value).__name__


def event_groups(doc: Any, key: str, event: str) -> list:
    """``doc[key][event]`` when each step is what it should be, else no groups."""
    hooks = doc.get(key) if isinstance(doc, dict) else None
    groups = hooks.get(event) if isinstance(hooks, dict) else None
    return groups if isinstance(groups, list) else []

"""The containers install creates in a settings file (``/hooks``, ``/hooks/Stop``, ``/env``), noted by
JSON pointer in the record so that uninstall removes them once they are empty again, and only those:
an empty object the operator wrote stays."""

from __future__ import annotations

from typing import Any


def mark(created: list[str], pointer: str) -> None:
    """Note a container install made; once, though a host or a killed run may make us make it again."""
    if pointer not in created:
        created.append(pointer)


def drop_empty(doc: dict, created: list[str], required: dict) -> None:
    """Remove what install created once it is empty again (deepest first), and the host's
    required keys once no bundle is left (while they still hold the value we wrote)."""
    for pointer in sorted(created, key=lambda p: p.count("/"), reverse=True):
        parent, key = _parent(doc, pointer)
        if parent is None:
            created.remove(pointer)
        elif parent[key] in ({}, []) or (pointer.count("/") == 1 and key in required and parent[key] == required[key]):
            del parent[key]
            created.remove(pointer)


def _parent(doc: dict, pointer: str) -> tuple[dict | None, str]:
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]
    node: Any = doc
    for token in tokens[:-1]:
        if not isinstance(node, dict) or token not in node:
            return None, ""
        node = node[token]
    if not isinstance(node, dict) or tokens[-1] not in node:
        return None, ""
    return node, tokens[-1]

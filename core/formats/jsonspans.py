"""Source spans read lazily, for the editor: a container's members are read only when an edit or a
style lookup walks into it; every other value is skipped at C speed (the stdlib's decoder), so an
edit of one event in a 10,000-entry file reads the spans of a few containers, not of the file.

The text must already be valid (``jsontext.load`` checks it and names the fault); these nodes
answer like ``jsontext.Node`` without values, which the editor does not need.
"""

from __future__ import annotations

import json
import re

from hookweave.core.formats import jsontext
from hookweave.core.formats.jsontext import Node

GAP = re.compile(r"(?:[ \t\n\r]+|//[^\n]*|/\*.*?\*/)*", re.DOTALL)  # blanks and comments
_GAP_PART = re.compile(r"(?P<ws>[ \t\n\r]+)|//[^\n]*|/\*.*?\*/|,", re.DOTALL)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null")
_SKIP = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?\*/|[\[\]{}]', re.DOTALL)
_DECODER = json.JSONDecoder()


def root(text: str, path: str, *, comments: bool = False, checked: bool = False) -> Node | LazyNode:
    """The top value of ``text``, its members unread; raises ``ParseError`` if the text is bad
    (unless ``checked``: the editor's own intermediate text, whose result is proven after).

    The editor and the edit's proof (``jsoncheck``) both walk the file as read: its nodes are kept
    by the text's identity, so a member list read once (skipping a 100,000-entry list) is not read
    again."""
    if not checked:
        jsontext.load(text, path, comments=comments)
    seen = _ROOTS.get(id(text))
    if seen is not None and seen[0] is text:
        return seen[1]
    node = _value_at(text, _gap_end(text, 1 if text.startswith("\ufeff") else 0))
    if len(_ROOTS) >= jsontext.RECENT_TEXTS:
        del _ROOTS[next(iter(_ROOTS))]
    _ROOTS[id(text)] = (text, node)  # holding the text keeps its id from being reused
    return node


_ROOTS: dict[int, tuple[str, Node | LazyNode]] = {}


def node_at(text: str, path: str, comments: bool, tokens: list[str]) -> Node | LazyNode | None:
    """The value at ``tokens`` (keys and indexes; of duplicate keys the last, as readers keep),
    or ``None`` when there is none."""
    node = root(text, path, comments=comments)
    for token in tokens:
        found = node.child(token) if node.kind in ("object", "array") else None
        if found is None:
            return None
        node = found[1]
    return node


def value_text(text: str, comments: bool, tokens: list[str]) -> str | None:
    """The source text of the value at ``tokens`` in ``text``, or ``None``."""
    try:
        node = node_at(text, "", comments, tokens)
    except (ValueError, LookupError):  # not JSON this module can walk (another host's format)
        return None
    return None if node is None else text[node.start : node.end]


jsontext.FORGETTERS.append(_ROOTS.clear)


def break_outside_comments(text: str, start: int, end: int) -> int:
    """Offset just after the first line break in the gap ``[start, end)`` that no comment holds."""
    pos = start
    while pos < end:
        m = _GAP_PART.match(text, pos)
        if m is None:
            return -1
        if m.group("ws"):
            brk = text.find("\n", pos, min(m.end(), end))
            if brk >= 0:
                return brk + 1
        pos = m.end()
    return -1


def _gap_end(text: str, pos: int) -> int:
    return GAP.match(text, pos).end()


def _value_at(text: str, pos: int) -> Node | LazyNode:
    ch = text[pos]
    if ch in "{[":
        return LazyNode(text, "object" if ch == "{" else "array", pos, container_end(text, pos))
    if ch == '"':
        return Node("string", pos, _STRING.match(text, pos).end())
    m = _SCALAR.match(text, pos)
    return Node("number" if m.group()[0] in "-0123456789" else "literal", pos, m.end())


def container_end(text: str, pos: int) -> int:
    try:
        return _DECODER.raw_decode(text, pos)[1]  # C speed; refuses a comment inside: scan then
    except (ValueError, RecursionError):
        depth = 0
        for m in _SKIP.finditer(text, pos):
            token = m.group()
            if token in ("{", "["):
                depth += 1
            elif token in ("}", "]"):
                depth -= 1
                if depth == 0:
                    return m.end()
        raise ValueError("unbalanced brackets in text that parsed") from None


class LazyNode:
    """A container whose members (spans of keys, values and commas) are read on first use."""

    def __init__(self, text: str, kind: str, start: int, end: int) -> None:
        self.text, self.kind, self.start, self.end = text, kind, start, end
        self._children: list | None = None
        self._keys: list[str] = []
        self._key_spans: list[tuple[int, int]] = []
        self._commas: list[int] = []

    @property
    def children(self) -> list:
        if self._children is None:
            self._read()
        return self._children

    @property
    def keys(self) -> list[str]:
        self.children  # noqa: B018 - reads the members
        return self._keys

    @property
    def key_spans(self) -> list[tuple[int, int]]:
        self.children  # noqa: B018
        return self._key_spans

    @property
    def commas(self) -> list[int]:
        self.children  # noqa: B018
        return self._commas

    member_span = Node.member_span
    child = Node.child

    def _read(self) -> None:
        text, children = self.text, []
        close = "}" if self.kind == "object" else "]"
        pos = _gap_end(text, self.start + 1)
        while text[pos] != close:
            if self.kind == "object":
                key = _STRING.match(text, pos)
                self._keys.append(json.loads(key.group()))
                self._key_spans.append((pos, key.end()))
                pos = _gap_end(text, _gap_end(text, key.end()) + 1)  # past the colon
            child = _value_at(text, pos)
            children.append(child)
            pos = _gap_end(text, child.end)
            if text[pos] == ",":
                self._commas.append(pos)
                pos = _gap_end(text, pos + 1)
        self._children = children

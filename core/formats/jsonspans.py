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
_BLANKS = re.compile(r"[ \t\n\r]*")  # the gap of a text with no comment, matched in fewer steps
_GAP_PART = re.compile(r"(?P<ws>[ \t\n\r]+)|//[^\n]*|/\*.*?\*/|,", re.DOTALL)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null")
_SKIP = re.compile(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?\*/|[\[\]{}]', re.DOTALL)
_SCAN = json.JSONDecoder().scan_once  # what ``raw_decode`` calls, without its frame (1,000 calls on a big file)


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
    end = _top_end(text, comments)
    gap = GAP.match if end is None else _BLANKS.match  # no comment anywhere: blanks are all a gap holds
    node = _value_at(text, gap(text, 1 if text.startswith("\ufeff") else 0).end(), end, gap)
    if len(_ROOTS) >= jsontext.RECENT_TEXTS:
        del _ROOTS[next(iter(_ROOTS))]
    _ROOTS[id(text)] = (text, node)  # holding the text keeps its id from being reused
    return node


_ROOTS: dict[int, tuple[str, Node | LazyNode]] = {}


def _top_end(text: str, comments: bool) -> int | None:
    """Where the top value ends, when only blanks can follow it (a text with no comment): before
    the trailing blanks, found without decoding the whole file to learn it (21 million
    instructions on a 10,000-entry file). ``None``: a comment may follow; the decoder says."""
    if comments and "/" in text:
        return None
    end = len(text)
    while end and text[end - 1] in " \t\n\r":
        end -= 1
    return end


def node_at(text: str, path: str, comments: bool, tokens: list[str]) -> Node | LazyNode | None:
    """The value at ``tokens`` (keys and indexes; of duplicate keys the last, as readers keep),
    or ``None`` when there is none."""
    node = root(text, path, comments=comments)
    along(node, tokens[:-1])
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


def along(node: Node | LazyNode, *paths: list[str]) -> None:
    """Read the containers on the way to each of ``paths`` (keys and indexes) member by member, each
    one while its parent's members are read: its end is then where its walk stops, not what a
    decoding of it found first. An edit deep in a big file then decodes each value beside its paths
    once, instead of once for every container around it."""
    if isinstance(node, LazyNode):
        trie: dict = {}
        for tokens in paths:
            level = trie
            for token in tokens:
                level = level.setdefault(token, {})
        node.along(trie)


def _value_at(text: str, pos: int, end: int | None = None, gap=GAP.match) -> Node | LazyNode:
    ch = text[pos]
    if ch in "{[":
        return LazyNode(text, "object" if ch == "{" else "array", pos, container_end(text, pos) if end is None else end, gap)
    if ch == '"':
        return Node("string", pos, _STRING.match(text, pos).end())
    m = _SCALAR.match(text, pos)
    return Node("number" if m.group()[0] in "-0123456789" else "literal", pos, m.end())


def container_end(text: str, pos: int) -> int:
    try:
        return _SCAN(text, pos)[1]  # C speed; refuses a comment inside: scan then
    except (StopIteration, ValueError, RecursionError):
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

    __slots__ = ("text", "kind", "start", "end", "_gap", "_children", "_keys", "_key_spans", "_commas")

    def __init__(self, text: str, kind: str, start: int, end: int | None, gap=GAP.match) -> None:
        self.text, self.kind, self.start, self.end, self._gap = text, kind, start, end, gap
        self._children: list | None = None

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

    def along(self, trie: dict) -> None:
        if not trie:
            return
        if self._children is None:
            self._read(trie)
            return
        for token, below in trie.items():
            found = self.child(token)
            if found is not None and isinstance(found[1], LazyNode):
                found[1].along(below)

    def _read(self, trie: dict | None = None) -> None:
        """The members' spans. A member ``trie`` leads to (every one of a key met twice) is read the
        same way at once; the others are skipped by the decoder. A container read with no end yet
        (its parent's walk) gets it here. One pass of few calls a member: 1,000 hook groups."""
        text, gap, is_object, scan = self.text, self._gap, self.kind == "object", _SCAN
        children: list = []
        keys, key_spans, commas = self._keys, self._key_spans, self._commas = [], [], []
        close = "}" if is_object else "]"
        trie = trie or {}
        indexes = {} if is_object else {int(t): below for t, below in trie.items() if t.isdigit()}
        pos = gap(text, self.start + 1).end()
        while text[pos] != close:
            if is_object:
                key = _STRING.match(text, pos)
                name = json.loads(key.group())
                keys.append(name)
                key_spans.append((pos, key.end()))
                pos = gap(text, gap(text, key.end()).end() + 1).end()  # past the colon
                below = trie.get(name)
            else:
                below = indexes.get(len(children)) if indexes else None
            ch = text[pos]
            if ch == "{" or ch == "[":
                kind = "object" if ch == "{" else "array"
                if below is None:
                    try:
                        end = scan(text, pos)[1]  # container_end's first try, without its call
                    except (StopIteration, ValueError, RecursionError):
                        end = container_end(text, pos)
                    child = LazyNode(text, kind, pos, end, gap)
                else:
                    child = LazyNode(text, kind, pos, None, gap)
                    child._read(below)
            else:
                child = _value_at(text, pos)
            children.append(child)
            pos = gap(text, child.end).end()
            if text[pos] == ",":
                commas.append(pos)
                pos = gap(text, pos + 1).end()
        self._children = children
        if self.end is None:
            self.end = pos + 1

"""Pure reading of a JSON file's own layout: line ends, indentation and key separators.

New text takes its style from the nearest well-formed sibling: the container being edited, then
its ancestors, then the rest of the file. An oddity elsewhere (a tab or a line break between a key
and its colon, one entry indented by hand) is the operator's, and is not copied into ours.
"""

from __future__ import annotations

import re

from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.formats.jsontext import Node

DEFAULT_UNIT = "  "  # what Claude and Gemini write themselves (JSON.stringify(obj, null, 2))
DEFAULT_SEP = ": "
_PLAIN_SEP = re.compile(r" *: *")  # spaces only: no tab, line break or comment around the colon
_PLAIN_UNIT = re.compile(r" +|\t+")
SIBLINGS_LOOKED_AT = 16  # a few members tell the style; never scan a 10,000-entry array for it


class Style(FieldTuple):
    nl: str
    unit: str
    sep: str


def line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def line_end(text: str, pos: int) -> int:
    """Offset of the line break after ``pos`` (before a ``\\r\\n``), or the end of the text."""
    idx = text.find("\n", pos)
    if idx < 0:
        return len(text)
    return idx - 1 if idx > 0 and text[idx - 1] == "\r" else idx


def indent_of(text: str, pos: int) -> str:
    start = line_start(text, pos)
    line = text[start:pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def first_on_line(text: str, pos: int) -> bool:
    return text[line_start(text, pos) : pos].strip(" \t") == ""


def has_comment(segment: str) -> bool:
    # Between two tokens there is only white space, commas and comments, so a slash means a comment.
    return "/" in segment


def line_break_at(text: str, pos: int) -> str:
    """The line end the lines around ``pos`` use: the break before it, else the one after it."""
    before = text.rfind("\n", 0, pos)
    idx = before if before >= 0 else text.find("\n", pos)
    if idx < 0:
        return "\n"
    return "\r\n" if idx > 0 and text[idx - 1] == "\r" else "\n"


def inline(text: str, node: Node) -> bool:
    """A container whose first child sits on the line of its opening bracket."""
    if not node.children:
        return False
    return "\n" not in text[node.start : node.member_span(0)[0]]


def style(text: str, root: Node, chain: list[Node], pos: int) -> Style:
    """The style for text inserted at ``pos`` into ``chain[-1]`` (``chain``: root down to it)."""
    return Style(line_break_at(text, pos), _unit(text, root, chain), _sep(text, root, chain))


def _nearest_first(root: Node, chain: list[Node]):
    """The edited container, its children, its ancestors, then every container of the file."""
    parent = chain[-1]
    yield parent
    yield from (c for c in parent.children[:SIBLINGS_LOOKED_AT] if c.kind in ("object", "array"))
    yield from reversed(chain[:-1])
    queue = [root]
    while queue:
        node = queue.pop(0)
        yield node
        queue.extend(c for c in node.children[:SIBLINGS_LOOKED_AT] if c.kind in ("object", "array"))


def _unit(text: str, root: Node, chain: list[Node]) -> str:
    for node in _nearest_first(root, chain):
        if node.children and not inline(text, node):
            outer, close = indent_of(text, node.start), node.end - 1
            if first_on_line(text, close) and indent_of(text, close) != outer:
                continue  # its brackets disagree on its level: not a sibling to learn from
            extras = [indent_of(text, node.member_span(i)[0]) for i in range(min(len(node.children), SIBLINGS_LOOKED_AT))]
            extras = [e[len(outer) :] for e in extras if e.startswith(outer) and _PLAIN_UNIT.fullmatch(e[len(outer) :])]
            if extras:  # the most common: one entry indented by hand does not set the style
                return max(extras, key=extras.count)
    return DEFAULT_UNIT


def _sep(text: str, root: Node, chain: list[Node]) -> str:
    for node in _nearest_first(root, chain):
        if node.kind != "object":
            continue
        for i in range(min(len(node.keys), SIBLINGS_LOOKED_AT)):
            between = text[node.key_spans[i][1] : node.children[i].start]
            if _PLAIN_SEP.fullmatch(between):
                return between
    return DEFAULT_SEP

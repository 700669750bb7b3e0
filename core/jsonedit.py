"""Pure, format-preserving application of RFC 6902 operations to JSON / JSONC text.

Each operation splices only the region it changes; indentation, key order, spacing, comments,
non-ASCII text, CRLF line ends, a BOM and the trailing newline elsewhere stay as they were.
Insertion and removal are written as exact inverses, so installing and then uninstalling with
nothing in between gives back the original bytes.
"""

from __future__ import annotations

import json
from typing import Any

from hookweave.core import jsontext
from hookweave.core.jsontext import Node

DEFAULT_UNIT = "  "  # what Claude and Gemini write themselves (JSON.stringify(obj, null, 2))


def apply_ops(text: str, ops: list[dict], path: str, *, comments: bool = False) -> str:
    """Return ``text`` with every operation applied in order (``add``, ``remove``, ``replace``)."""
    for op in ops:
        doc = jsontext.parse(text, path, comments=comments)
        text = _Editor(text, doc.root, doc.comments).apply(op)
        if op["op"] == "remove":
            # JSON.parse keeps the last of duplicated keys; removing the key must remove every copy.
            while True:
                doc = jsontext.parse(text, path, comments=comments)
                editor = _Editor(text, doc.root, doc.comments)
                if not editor.is_member(op["path"]):
                    break
                text = editor.apply(op)
    return text


def split_pointer(pointer: str) -> list[str]:
    if pointer == "":
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _line_end(text: str, pos: int) -> int:
    """Offset of the line break after ``pos`` (before a ``\\r\\n``), or the end of the text."""
    idx = text.find("\n", pos)
    if idx < 0:
        return len(text)
    return idx - 1 if idx > 0 and text[idx - 1] == "\r" else idx


def _indent_of(text: str, pos: int) -> str:
    start = _line_start(text, pos)
    line = text[start:pos]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _first_on_line(text: str, pos: int) -> bool:
    return text[_line_start(text, pos) : pos].strip(" \t") == ""


def _has_comment(segment: str) -> bool:
    # Between two tokens there is only white space, commas and comments, so a slash means a comment.
    return "/" in segment


class _Editor:
    def __init__(self, text: str, root: Node, comments: list[tuple[int, int]]) -> None:
        self.text, self.root, self.comments = text, root, comments
        self.nl = "\r\n" if "\r\n" in text else "\n"
        self.unit = self._indent_unit()
        self.sep = self._key_separator()

    # -- style detection ---------------------------------------------------------------------

    def _indent_unit(self) -> str:
        stack = [self.root]
        while stack:
            node = stack.pop(0)
            if node.children and not self._inline(node):
                outer = _indent_of(self.text, node.start)
                inner = _indent_of(self.text, node.member_span(0)[0])
                if inner.startswith(outer) and len(inner) > len(outer):
                    return inner[len(outer) :]
            stack.extend(c for c in node.children if c.kind in ("object", "array"))
        return DEFAULT_UNIT

    def _key_separator(self) -> str:
        stack = [self.root]
        while stack:
            node = stack.pop(0)
            if node.kind == "object" and node.keys:
                between = self.text[node.key_spans[0][1] : node.children[0].start]
                return between if not _has_comment(between) else ": "
            stack.extend(c for c in node.children if c.kind in ("object", "array"))
        return ": "

    def _inline(self, node: Node) -> bool:
        """A container whose first child sits on the line of its opening bracket."""
        if not node.children:
            return False
        return "\n" not in self.text[node.start : node.member_span(0)[0]]

    def _item_sep(self, node: Node) -> str:
        if len(node.children) > 1:
            between = self.text[node.children[0].end : node.member_span(1)[0]]
            if not _has_comment(between) and "\n" not in between:
                return between
        return ", "

    def render(self, value: Any, indent: str, inline: bool) -> str:
        if inline:
            return _escape_surrogates(json.dumps(value, ensure_ascii=False, separators=(", ", self.sep)))
        dumped = json.dumps(value, ensure_ascii=False, indent=self.unit, separators=(",", self.sep))
        return _escape_surrogates(dumped.replace("\n", self.nl + indent))

    # -- operations ----------------------------------------------------------------------------

    def apply(self, op: dict) -> str:
        tokens = split_pointer(op["path"])
        if not tokens:
            raise ValueError("replacing the whole document is not an edit")
        parent = self._resolve(tokens[:-1])
        last = tokens[-1]
        found = parent.child(last)
        if op["op"] == "remove":
            return self._remove(parent, found[0])
        if op["op"] == "replace" or (op["op"] == "add" and parent.kind == "object" and found):
            return self._replace(parent, found[1], op["value"])
        if op["op"] == "add":
            index = len(parent.children) if last == "-" or parent.kind == "object" else int(last)
            return self._insert(parent, index, last, op["value"])
        raise ValueError(f"unsupported operation {op['op']!r}")

    def is_member(self, pointer: str) -> bool:
        """Whether ``pointer`` names a key (not an index) that is still in its object."""
        tokens = split_pointer(pointer)
        try:
            parent = self._resolve(tokens[:-1])
        except KeyError:
            return False
        return parent.kind == "object" and parent.child(tokens[-1]) is not None

    def _break_outside_comments(self, start: int, end: int) -> int:
        """Offset just after the first line break in ``[start, end)`` that is not inside a comment."""
        pos = self.text.find("\n", start, end)
        while pos >= 0:
            if not any(c_start <= pos < c_end for c_start, c_end in self.comments):
                return pos + 1
            pos = self.text.find("\n", pos + 1, end)
        return -1

    def _resolve(self, tokens: list[str]) -> Node:
        node = self.root
        for token in tokens:
            found = node.child(token)
            if found is None:
                raise KeyError(token)
            node = found[1]
        return node

    def _replace(self, parent: Node, node: Node, value: Any) -> str:
        indent = _indent_of(self.text, node.start)
        return _splice(self.text, node.start, node.end, self.render(value, indent, self._inline(parent)))

    def _piece(self, parent: Node, key: str, value: Any, indent: str, inline: bool) -> str:
        rendered = self.render(value, indent, inline)
        if parent.kind == "object":
            return _escape_surrogates(json.dumps(key, ensure_ascii=False)) + self.sep + rendered
        return rendered

    def _insert(self, parent: Node, index: int, key: str, value: Any) -> str:
        text, nl = self.text, self.nl
        n = len(parent.children)
        if n == 0:
            return self._insert_into_empty(parent, key, value)
        if self._inline(parent):
            piece = self._piece(parent, key, value, "", True)
            sep = self._item_sep(parent)
            if index >= n:
                pos = parent.children[-1].end
                return _splice(text, pos, pos, sep + piece)
            pos = parent.member_span(index)[0]
            return _splice(text, pos, pos, piece + sep)
        neighbour = parent.member_span(min(index, n - 1))[0]
        indent = _indent_of(text, neighbour)
        piece = self._piece(parent, key, value, indent, False)
        if index >= n:
            return self._append(parent, indent + piece)
        return self._insert_before(parent, index, indent, piece)

    def _insert_into_empty(self, parent: Node, key: str, value: Any) -> str:
        text, nl = self.text, self.nl
        base = _indent_of(text, parent.start)
        child = base + self.unit
        inner_start, inner_end = parent.start + 1, parent.end - 1
        inner = text[inner_start:inner_end]
        if _has_comment(inner):
            # Keep comments where they are: the entry goes on a new line after the first line break.
            anchor = self._break_outside_comments(inner_start, inner_end)
            if anchor < 0:
                lead = "" if inner[-1:].isspace() else " "
                return _splice(text, inner_end, inner_end, lead + self._piece(parent, key, value, "", True))
            return _splice(text, anchor, anchor, child + self._piece(parent, key, value, child, False) + nl)
        if inner and "\n" not in inner:
            # "[ ]" written on one line stays on one line: "[ x ]"; removal gives "[ ]" back.
            return _splice(text, inner_end, inner_end, self._piece(parent, key, value, "", True) + inner)
        # "[]" (and, less exactly, a multi-line empty container) opens onto lines of their own.
        return _splice(text, inner_start, inner_end, nl + child + self._piece(parent, key, value, child, False) + nl + base)

    def _append(self, parent: Node, line: str) -> str:
        text, last_end = self.text, parent.children[-1].end
        after = text[last_end : parent.end - 1].lstrip(" \t")
        if after.startswith("//"):
            # A trailing comment belongs to the last entry: keep it on that entry's line.
            eol = _line_end(text, last_end)
            text = _splice(text, eol, eol, self.nl + line)
            return _splice(text, last_end, last_end, ",")
        return _splice(text, last_end, last_end, "," + self.nl + line)

    def _insert_before(self, parent: Node, index: int, indent: str, piece: str) -> str:
        text = self.text
        prev_end = parent.start + 1 if index == 0 else parent.commas[index - 1] + 1
        start = parent.member_span(index)[0]
        anchor = self._break_outside_comments(prev_end, start)
        if anchor < 0:
            return _splice(text, start, start, piece + ", ")
        # New line at the top of the gap, so comments above the next entry stay with it.
        return _splice(text, anchor, anchor, indent + piece + "," + self.nl)

    def _remove(self, parent: Node, index: int) -> str:
        text = self.text
        n = len(parent.children)
        start, end = parent.member_span(index)
        if n == 1:
            inner = text[parent.start + 1 : start] + text[end : parent.end - 1]
            if _has_comment(inner):
                return self._remove_own_line(start, end)
            if "\n" not in text[parent.start : parent.end]:
                return _splice(text, start, parent.end - 1, "")  # "[ x ]" back to "[ ]"
            return _splice(text, parent.start + 1, parent.end - 1, "")
        if index < n - 1:
            return self._remove_with_next(parent, index, start, end)
        prev_end = parent.children[index - 1].end
        if not _has_comment(text[prev_end:start]):
            return _splice(text, prev_end, end, "")
        comma = parent.commas[index - 1]
        text = self._remove_own_line(start, end)
        return _splice(text, comma, comma + 1, "")

    def _remove_with_next(self, parent: Node, index: int, start: int, end: int) -> str:
        text = self.text
        comma = parent.commas[index]
        eol = _line_end(text, comma + 1)
        if (
            _first_on_line(text, start)
            and text[end:comma].strip() == ""
            and text[comma + 1 : eol].strip() == ""
            and eol < len(text)
        ):
            line_break_end = text.find("\n", eol) + 1
            return _splice(text, _line_start(text, start), line_break_end, "")
        nxt = parent.member_span(index + 1)[0]
        if not _has_comment(text[end:nxt]):
            return _splice(text, start, nxt, "")
        stop = comma + 1
        while stop < len(text) and text[stop] in " \t":
            stop += 1
        return _splice(text, start, stop, "")

    def _remove_own_line(self, start: int, end: int) -> str:
        """Remove an entry; with its line when it stands alone there (the line break before it too)."""
        text = self.text
        ls = _line_start(text, start)
        if _first_on_line(text, start) and text[end : _line_end(text, end)].strip() == "" and ls > 0:
            brk = ls - 1
            if brk > 0 and text[brk - 1] == "\r":
                brk -= 1
            return _splice(text, brk, end, "")
        return _splice(text, start, end, "")


def _escape_surrogates(text: str) -> str:
    """A lone surrogate (only possible inside a JSON string) as its ``\\uXXXX`` escape, so the file
    stays valid UTF-8 and reads back as the same value."""
    return "".join(f"\\u{ord(c):04x}" if "\ud800" <= c <= "\udfff" else c for c in text) if _has_surrogate(text) else text


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False

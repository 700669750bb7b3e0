"""Pure JSON / JSONC parsing that keeps where every value sits in the text.

The editor in ``jsonedit`` splices new text into the operator's file at these offsets, so
everything outside our change stays byte-identical. JSONC here is what Gemini CLI accepts:
JSON plus ``//`` and ``/* */`` comments, no trailing commas.
"""

from __future__ import annotations

import re
from typing import Any

from hookweave.core.errors import ParseError
from hookweave.core.formats import jsonlite
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.formats.lazypattern import LazyPattern

MAX_DEPTH = 256

# The tokenizer of the exact parser, which runs only on a text the C decoder refused (to name the
# fault): compiled on first use, off every command's start-up.
_TOKEN_SOURCE = r"""
    (?P<ws>[ \t\n\r]+)
  | (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*.*?\*/)
  | (?P<string>"(?:[^"\\\x00-\x1f]|\\.)*")
  | (?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
  | (?P<literal>true|false|null)
  | (?P<punct>[{}\[\]:,])
"""
_TOKEN: re.Pattern | None = None


def _tokens() -> re.Pattern:
    global _TOKEN
    if _TOKEN is None:
        _TOKEN = re.compile(_TOKEN_SOURCE, re.VERBOSE | re.DOTALL)
    return _TOKEN


_LITERALS = {"true": True, "false": False, "null": None}


class Node:
    """A JSON value and its ``[start, end)`` span; containers also know their children's spans.

    A plain slotted class: a file holds many nodes, and a dataclass costs start-up time."""

    __slots__ = ("kind", "start", "end", "value", "children", "keys", "key_spans", "commas")

    def __init__(self, kind: str, start: int, end: int, value: Any = None) -> None:
        self.kind = kind  # object | array | string | number | literal
        self.start = start
        self.end = end
        self.value = value
        self.children: list[Node] = []
        self.keys: list[str] = []
        self.key_spans: list[tuple[int, int]] = []
        self.commas: list[int] = []  # offset of the comma after child i

    def __repr__(self) -> str:
        return f"Node({self.kind!r}, {self.start}, {self.end})"

    def member_span(self, i: int) -> tuple[int, int]:
        """Span of child ``i`` including its key, for objects."""
        start = self.key_spans[i][0] if self.kind == "object" else self.children[i].start
        return start, self.children[i].end

    def child(self, token: str) -> tuple[int, Node] | None:
        """Child by JSON Pointer token; for duplicate keys the last one wins, as in JSON.parse."""
        if self.kind == "object":
            for i in range(len(self.keys) - 1, -1, -1):
                if self.keys[i] == token:
                    return i, self.children[i]
            return None
        if self.kind == "array" and token.isdigit() and int(token) < len(self.children):
            return int(token), self.children[int(token)]
        return None


class Document(FieldTuple):
    text: str
    root: Node
    comments: list[tuple[int, int]]

    @property
    def value(self) -> Any:
        return self.root.value


def split_pointer(pointer: str) -> list[str]:
    """The tokens of a JSON Pointer, unescaped (``~1`` is ``/``, ``~0`` is ``~``)."""
    if pointer == "":
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    if line == 1 and text.startswith("\ufeff") and offset > 0:
        col -= 1  # editors do not show the BOM as a column
    return line, col


def parse(text: str, path: str, *, comments: bool = False, comment_fix: str = "") -> Document:
    """Parse ``text``; raise ``ParseError`` naming ``path:line:col`` on the first fault."""
    return _Parser(text, path, comments, comment_fix).document()


def load(text: str, path: str, *, comments: bool = False, comment_fix: str = "") -> Any:
    """The value ``parse`` gives, read by the stdlib's C decoder when the text is well formed
    (comments blanked out first); anything it refuses goes to ``parse`` for the exact error.

    A command meets the same text several times (the plan reads it, the editor and the gates
    read what the plan made), so the last few values are kept by the text's identity and given
    again: a value from ``load`` is shared, to be read and never changed (``plan._editable``
    copies what a plan changes)."""
    key = (id(text), comments)
    seen = _RECENT.get(key)
    if seen is not None and seen[0] is text:
        return seen[1]
    value = _load(text, path, comments, comment_fix)
    if len(_RECENT) >= RECENT_TEXTS:
        del _RECENT[next(iter(_RECENT))]
    _RECENT[key] = (text, value)  # holding the text keeps its id from being reused
    return value


RECENT_TEXTS = 8
_RECENT: dict[tuple[int, bool], tuple[str, Any]] = {}


def forget_recent() -> None:
    """Drop the kept values, and what other modules keep by text (a command about to write needs
    texts only)."""
    _RECENT.clear()
    for forget in FORGETTERS:
        forget()


FORGETTERS: list = []  # modules that keep data by text add their ``clear`` here when they load


def _load(text: str, path: str, comments: bool, comment_fix: str) -> Any:
    body = text[1:] if text.startswith("\ufeff") else text
    if comments and "/" in body:
        body = blank_comments(body)
    try:
        value = jsonlite.loads(body, parse_constant=refuse_constant)  # NaN, Infinity: not JSON
        if jsonlite.depth(value) <= MAX_DEPTH:  # the C decoder takes deeper nesting than the hosts
            return value
    except (ValueError, RecursionError):
        pass
    return parse(text, path, comments=comments, comment_fix=comment_fix).value


_STRING_OR_COMMENT = LazyPattern(r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*.*?\*/', re.DOTALL)


def blank_comments(text: str) -> str:
    """``text`` with each comment turned into one space (strings untouched), for the C decoder."""
    return _STRING_OR_COMMENT.sub(_blank_comment, text)


def _blank_comment(match: re.Match) -> str:
    return match.group() if match.group().startswith('"') else " "


def refuse_constant(name: str) -> Any:
    """``parse_constant`` for ``json.loads``: NaN and Infinity are not JSON."""
    raise ValueError(name)


class _Parser:
    def __init__(self, text: str, path: str, comments: bool, comment_fix: str) -> None:
        self.text, self.path = text, path
        self.allow_comments, self.comment_fix = comments, comment_fix
        self.comments: list[tuple[int, int]] = []
        self.tokens = self._tokenize()
        self.i = 0

    def fail(self, offset: int, reason: str, fix: str = "") -> ParseError:
        line, col = line_col(self.text, offset)
        return ParseError(self.path, line, col, reason, fix)

    def _tokenize(self) -> list[tuple[str, int, int]]:
        text, tokens = self.text, []
        pos = 1 if text.startswith("\ufeff") else 0  # JSON.parse in the hosts strips a BOM
        while pos < len(text):
            m = _tokens().match(text, pos)
            if m is None:
                raise self._bad_char(pos)
            kind, end = m.lastgroup, m.end()
            if kind in ("line_comment", "block_comment"):
                if not self.allow_comments:
                    raise self.fail(pos, "comments are not allowed in this file", self.comment_fix)
                self.comments.append((pos, end))
            elif kind != "ws":
                tokens.append((kind, pos, end))
            pos = end
        return tokens

    def _bad_char(self, pos: int) -> ParseError:
        text = self.text
        if text.startswith("/*", pos):
            return self.fail(pos, "unterminated /* comment")
        if text[pos] == '"':
            return self.fail(pos, "unterminated string or invalid character in string")
        return self.fail(pos, f"unexpected character {text[pos]!r}")

    def document(self) -> Document:
        if not self.tokens:
            raise self.fail(len(self.text), "the file holds no JSON value", "write {} into it or delete it")
        root = self.value(0)
        if self.i < len(self.tokens):
            raise self.fail(self.tokens[self.i][1], "unexpected text after the JSON value")
        return Document(self.text, root, self.comments)

    def next(self, expected: str) -> tuple[str, int, int]:
        if self.i >= len(self.tokens):
            raise self.fail(len(self.text), f"unexpected end of file, expected {expected}")
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def value(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail(self.tokens[self.i][1], f"nested deeper than {MAX_DEPTH} levels")
        kind, start, end = self.next("a value")
        raw = self.text[start:end]
        if kind == "string":
            return Node("string", start, end, self._string(raw, start))
        if kind == "number":
            try:
                return Node("number", start, end, jsonlite.loads(raw))
            except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
                raise self.fail(start, f"a number of {end - start} characters", "shorten it") from None
        if kind == "literal":
            return Node("literal", start, end, _LITERALS[raw])
        if raw == "{":
            return self.container(Node("object", start, start, {}), "}", depth)
        if raw == "[":
            return self.container(Node("array", start, start, []), "]", depth)
        raise self.fail(start, f"unexpected {raw!r}, expected a value")

    def _string(self, raw: str, start: int) -> str:
        import json  # the exact parser runs only on a text the C decoder refused

        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            raise self.fail(start + exc.pos, f"invalid string: {exc.msg}") from None

    def container(self, node: Node, close: str, depth: int) -> Node:
        if self._peek() == close:
            node.end = self.next(close)[2]
            return node
        while True:
            if node.kind == "object":
                self._member(node, depth)
            else:
                child = self.value(depth + 1)
                node.children.append(child)
                node.value.append(child.value)
            kind, start, end = self.next(f"',' or '{close}'")
            raw = self.text[start:end]
            if raw == close:
                node.end = end
                return node
            if raw != ",":
                raise self.fail(start, f"unexpected {raw!r}, expected ',' or '{close}'")
            if self._peek() == close:
                raise self.fail(start, "trailing comma", "remove the comma")
            node.commas.append(start)

    def _member(self, node: Node, depth: int) -> None:
        kind, start, end = self.next("a key")
        if kind != "string":
            raise self.fail(start, "expected a double-quoted key")
        key = self._string(self.text[start:end], start)
        _, cstart, cend = self.next("':'")
        if self.text[cstart:cend] != ":":
            raise self.fail(cstart, "expected ':' after the key")
        child = self.value(depth + 1)
        node.keys.append(key)
        node.key_spans.append((start, end))
        node.children.append(child)
        node.value[key] = child.value

    def _peek(self) -> str | None:
        if self.i >= len(self.tokens):
            return None
        _, start, end = self.tokens[self.i]
        return self.text[start:end]

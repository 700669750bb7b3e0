"""Pure computation of the splices that apply a run of RFC 6902 operations to one parse of a file.

A run is a few operations on one container (``jsonedit`` cuts the plan into runs): adds at
consecutive places, or removals of consecutive entries. Every splice is an offset range of the
text as parsed, so ``jsonedit`` can apply the splices of many runs from one parse, last offset
first. The text is what applying the operations one at a time gives (tests/formats/test_jsonedit.py
checks that), and insertion and removal (``jsonremove``) are exact inverses.
"""

from __future__ import annotations

import json
from typing import Any

from hookweave.core.formats.jsonlayout import Style, has_comment, indent_of, inline, line_end, style
from hookweave.core.formats.jsonremove import Removals, Splice
from hookweave.core.formats.jsonspans import along, break_outside_comments
from hookweave.core.formats.jsontext import Node, split_pointer
from hookweave.core.formats.textsafe import escape_surrogates


class Editor(Removals):
    """Splices for runs of operations, all read from one parse of ``text`` (its ``root``)."""

    def __init__(self, text: str, root: Node) -> None:
        self.text, self.root = text, root

    def run(self, ops: list[dict]) -> tuple[list[Splice], list[dict]]:
        """Splices for the leading operations of ``ops`` (one run) and the operations left over,
        which need the text after these splices parsed again."""
        tokens = split_pointer(ops[0]["path"])
        if not tokens:
            raise ValueError("replacing the whole document is not an edit")
        chain = self._resolve(tokens[:-1])
        parent, kind = chain[-1], ops[0]["op"]
        found = parent.child(tokens[-1])
        if kind == "remove":
            if found is None:
                raise KeyError(tokens[-1])
            return self._remove_run(chain, ops)
        if kind == "replace" or (kind == "add" and parent.kind == "object" and found):
            return self._replace(chain, found[1], ops[0]["value"], ops[0].get("spelling")), ops[1:]
        if kind == "add":
            return self._add_run(chain, ops)
        raise ValueError(f"unsupported operation {kind!r}")

    def _resolve(self, tokens: list[str]) -> list[Node]:
        along(self.root, tokens)
        chain = [self.root]
        for token in tokens:
            found = chain[-1].child(token)
            if found is None:
                raise KeyError(token)
            chain.append(found[1])
        return chain

    def render(self, value: Any, indent: str, inline: bool, st: Style) -> str:
        if inline:
            return escape_surrogates(json.dumps(value, ensure_ascii=False, separators=(", ", st.sep)))
        dumped = escape_surrogates(json.dumps(value, ensure_ascii=False, indent=st.unit, separators=(",", st.sep)))
        return dumped.replace("\n", st.nl + indent)

    def _piece(self, parent: Node, op: dict, indent: str, inline: bool, st: Style) -> str:
        rendered = _spelling(op.get("spelling"), op["value"]) or self.render(op["value"], indent, inline, st)
        if parent.kind == "object":
            return escape_surrogates(json.dumps(split_pointer(op["path"])[-1], ensure_ascii=False)) + st.sep + rendered
        return rendered

    def _replace(self, chain: list[Node], node: Node, value: Any, spelling: str | None = None) -> list[Splice]:
        st = style(self.text, self.root, chain, node.start)
        indent = indent_of(self.text, node.start)
        return [(node.start, node.end,
                 _spelling(spelling, value) or self.render(value, indent, inline(self.text, chain[-1]), st))]

    # -- adds --------------------------------------------------------------------------------

    def _add_run(self, chain: list[Node], ops: list[dict]) -> tuple[list[Splice], list[dict]]:
        parent, text = chain[-1], self.text
        n = len(parent.children)
        if n == 0:
            return self._insert_into_empty(chain, ops[0]), ops[1:]
        if parent.kind == "object":
            keys, seen = [split_pointer(op["path"])[-1] for op in ops], set(parent.keys)
            fresh = next((i for i, k in enumerate(keys) if k in seen or seen.add(k)), len(ops))
            ops, rest, index = ops[:fresh], ops[fresh:], n  # a key met again is a replace: next parse
        else:
            last = split_pointer(ops[0]["path"])[-1]
            index, rest = (n if last == "-" else int(last)), []
        if inline(text, parent):
            pos = parent.children[-1].end if index >= n else parent.member_span(index)[0]
            st = style(text, self.root, chain, pos)
            sep = self._item_sep(parent)
            pieces = [self._piece(parent, op, "", True, st) for op in ops]
            if index >= n:
                return [(pos, pos, "".join(sep + p for p in pieces))], rest
            return [(pos, pos, "".join(p + sep for p in pieces))], rest
        neighbour = parent.member_span(min(index, n - 1))[0]
        indent = indent_of(text, neighbour)
        pos = parent.children[-1].end if index >= n else neighbour
        st = style(text, self.root, chain, pos)
        if index >= n:
            pieces = [self._piece(parent, op, indent, False, st) for op in ops]
            return self._append(parent, indent + ("," + st.nl + indent).join(pieces), st), rest
        return self._insert_before(parent, index, indent, ops, st), rest

    def _item_sep(self, node: Node) -> str:
        if len(node.children) > 1:
            between = self.text[node.children[0].end : node.member_span(1)[0]]
            if not has_comment(between) and "\n" not in between:
                return between
        return ", "

    def _insert_into_empty(self, chain: list[Node], op: dict) -> list[Splice]:
        parent, text = chain[-1], self.text
        inner_start, inner_end = parent.start + 1, parent.end - 1
        st = style(text, self.root, chain, inner_start)
        base = indent_of(text, parent.start)
        child = base + st.unit
        inner = text[inner_start:inner_end]
        if has_comment(inner):
            # Keep comments where they are: the entry goes on a new line after the first line break.
            anchor = self._break_outside_comments(inner_start, inner_end)
            if anchor < 0:
                lead = "" if inner[-1:].isspace() else " "
                return [(inner_end, inner_end, lead + self._piece(parent, op, "", True, st))]
            st = Style(self._break_before(anchor), st.unit, st.sep)
            return [(anchor, anchor, child + self._piece(parent, op, child, False, st) + st.nl)]
        if inner and "\n" not in inner:
            # "[ ]" written on one line stays on one line: "[ x ]"; removal gives "[ ]" back.
            return [(inner_end, inner_end, self._piece(parent, op, "", True, st) + inner)]
        block = st.nl + child + self._piece(parent, op, child, False, st)
        if inner:
            # A multi-line empty keeps its blanks after the entry, so removal can give back a hand-made
            # one ("[\n\n]", "{ \n }"). "[\n  ]" itself reads like what "[]" becomes: known limit.
            return [(inner_start, inner_start, block)]
        return [(inner_start, inner_end, block + st.nl + base)]

    def _break_before(self, anchor: int) -> str:
        return "\r\n" if anchor >= 2 and self.text[anchor - 2] == "\r" else "\n"

    def _break_outside_comments(self, start: int, end: int) -> int:
        return break_outside_comments(self.text, start, end)

    def _append(self, parent: Node, lines: str, st: Style) -> list[Splice]:
        text, last_end = self.text, parent.children[-1].end
        after = text[last_end : parent.end - 1].lstrip(" \t")
        if after.startswith("//"):
            # A trailing comment belongs to the last entry: keep it on that entry's line.
            eol = line_end(text, last_end)
            return [(eol, eol, st.nl + lines), (last_end, last_end, ",")]
        return [(last_end, last_end, "," + st.nl + lines)]

    def _insert_before(self, parent: Node, index: int, indent: str, ops: list[dict], st: Style) -> list[Splice]:
        prev_end = parent.start + 1 if index == 0 else parent.commas[index - 1] + 1
        start = parent.member_span(index)[0]
        anchor = self._break_outside_comments(prev_end, start)
        if anchor < 0:
            return [(start, start, "".join(self._piece(parent, op, indent, False, st) + ", " for op in ops))]
        # New lines at the top of the gap, so comments above the next entry stay with it; they end
        # as the line break they follow does.
        st = Style(self._break_before(anchor), st.unit, st.sep)
        pieces = [self._piece(parent, op, indent, False, st) for op in ops]
        return [(anchor, anchor, "".join(indent + p + "," + st.nl for p in pieces))]


def _spelling(spelling: Any, value: Any) -> str | None:
    """The file's own text for ``value`` (a prior the record spelled), when it is one JSON string
    reading as ``value``; else ``None`` and the value is written as we write values."""
    if not isinstance(spelling, str) or not isinstance(value, str) or not spelling.startswith('"'):
        return None
    try:
        return spelling if json.loads(spelling) == value else None
    except ValueError:
        return None

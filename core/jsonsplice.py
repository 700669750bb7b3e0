"""Pure computation of the splices that apply a run of RFC 6902 operations to one parse of a file.

A run is a few operations on one container (``jsonedit`` cuts the plan into runs): adds at
consecutive places, or removals of consecutive entries. Every splice is an offset range of the
text as parsed, so ``jsonedit`` can apply the splices of many runs from one parse, last offset
first. The text is what applying the operations one at a time gives (tests/test_jsonedit.py
checks that), and insertion and removal are exact inverses.
"""

from __future__ import annotations

import json
from typing import Any

from hookweave.core.jsonlayout import (first_on_line, has_comment, indent_of, inline, line_break_at, line_end,
                                       line_start, style, Style)
from hookweave.core.jsonspans import break_outside_comments
from hookweave.core.jsontext import Node

Splice = tuple[int, int, str]  # replace text[start:end] with the string


def split_pointer(pointer: str) -> list[str]:
    if pointer == "":
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


class Editor:
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
            return self._replace(chain, found[1], ops[0]["value"]), ops[1:]
        if kind == "add":
            return self._add_run(chain, ops)
        raise ValueError(f"unsupported operation {kind!r}")

    def _resolve(self, tokens: list[str]) -> list[Node]:
        chain = [self.root]
        for token in tokens:
            found = chain[-1].child(token)
            if found is None:
                raise KeyError(token)
            chain.append(found[1])
        return chain

    def render(self, value: Any, indent: str, inline: bool, st: Style) -> str:
        if inline:
            return json.dumps(value, ensure_ascii=False, separators=(", ", st.sep))
        dumped = json.dumps(value, ensure_ascii=False, indent=st.unit, separators=(",", st.sep))
        return dumped.replace("\n", st.nl + indent)

    def _piece(self, parent: Node, op: dict, indent: str, inline: bool, st: Style) -> str:
        rendered = self.render(op["value"], indent, inline, st)
        if parent.kind == "object":
            return json.dumps(split_pointer(op["path"])[-1], ensure_ascii=False) + st.sep + rendered
        return rendered

    def _replace(self, chain: list[Node], node: Node, value: Any) -> list[Splice]:
        st = style(self.text, self.root, chain, node.start)
        indent = indent_of(self.text, node.start)
        return [(node.start, node.end, self.render(value, indent, inline(self.text, chain[-1]), st))]

    # -- adds --------------------------------------------------------------------------------

    def _add_run(self, chain: list[Node], ops: list[dict]) -> tuple[list[Splice], list[dict]]:
        parent, text = chain[-1], self.text
        n = len(parent.children)
        if n == 0:
            return self._insert_into_empty(chain, ops[0]), ops[1:]
        if parent.kind == "object":
            keys = [split_pointer(op["path"])[-1] for op in ops]
            fresh = next((i for i, k in enumerate(keys) if parent.child(k) or k in keys[:i]), len(ops))
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

    # -- removals ----------------------------------------------------------------------------

    def _remove_run(self, chain: list[Node], ops: list[dict]) -> tuple[list[Splice], list[dict]]:
        """Removals of entries ``b, b-1, ..., a`` (one at a time, as the operations say) in one go
        when each one's splice is what it would be after the ones before: whole own lines in the
        middle of a container, or ``", entry"`` tails at its end. Else one removal per parse."""
        parent = chain[-1]
        first = parent.child(split_pointer(ops[0]["path"])[-1])[0]
        if parent.kind == "object":
            return self._remove_keys(parent, first, ops)
        n, count = len(parent.children), 1
        lowest = 1 if first == n - 1 else 0  # removing every entry ends on the one-entry case: next parse
        while count < len(ops) and first - count >= lowest and split_pointer(ops[count]["path"])[-1] == str(first - count):
            count += 1
        if count == 1 or not all(self._simple_removal(parent, j, first == n - 1) for j in range(first - count + 1, first + 1)):
            return self._remove(parent, first), ops[1:]
        run = range(first, first - count, -1)
        if first == n - 1:  # each one the last entry when its turn comes: ", entry" goes
            return [(parent.children[j - 1].end, parent.children[j].end, "") for j in run], ops[count:]
        return [s for j in run for s in self._remove_with_next(parent, j, *parent.member_span(j))], ops[count:]

    def _remove_keys(self, parent: Node, first: int, ops: list[dict]) -> tuple[list[Splice], list[dict]]:
        """Removals of keys that sit one after the other (in file order, as a diff lists them):
        whole own lines in the middle, or everything from the entry before them to the end."""
        keys, n = parent.keys, len(parent.children)
        if keys.count(keys[first]) > 1:  # JSON.parse keeps the last of duplicated keys: remove every copy
            return self._remove(parent, first), ops
        count = 1
        while (count < len(ops) and first + count < n and keys.count(keys[first + count]) == 1
               and split_pointer(ops[count]["path"])[-1] == keys[first + count]):
            count += 1
        last = first + count - 1
        lines = all(self._own_line(*parent.member_span(j), parent.commas[j]) for j in range(first, min(last + 1, n - 1)))
        if count == 1 or not lines or first == 0 and last == n - 1:
            return self._remove(parent, first), ops[1:]
        if last < n - 1:
            return [s for j in range(first, last + 1) for s in self._remove_with_next(parent, j, *parent.member_span(j))], ops[count:]
        prev_end = parent.children[first - 1].end
        if has_comment(self.text[prev_end : parent.member_span(last)[0]]):
            return self._remove(parent, first), ops[1:]
        return [(prev_end, parent.children[last].end, "")], ops[count:]

    def _simple_removal(self, parent: Node, j: int, tail: bool) -> bool:
        text = self.text
        if tail:
            return not has_comment(text[parent.children[j - 1].end : parent.member_span(j)[0]])
        start, end = parent.member_span(j)
        return self._own_line(start, end, parent.commas[j])

    def _own_line(self, start: int, end: int, comma: int) -> bool:
        text = self.text
        eol = line_end(text, comma + 1)
        return (first_on_line(text, start) and text[end:comma].strip() == ""
                and text[comma + 1 : eol].strip() == "" and eol < len(text))

    def _remove(self, parent: Node, index: int) -> list[Splice]:
        text = self.text
        n = len(parent.children)
        start, end = parent.member_span(index)
        if n == 1:
            inner = text[parent.start + 1 : start] + text[end : parent.end - 1]
            if has_comment(inner):
                return self._remove_own_line(start, end)
            if "\n" not in text[parent.start : parent.end]:
                return [(start, parent.end - 1, "")]  # "[ x ]" back to "[ ]"
            if text[end : parent.end - 1] == line_break_at(text, parent.start + 1) + indent_of(text, parent.start):
                return [(parent.start + 1, parent.end - 1, "")]  # what "[]" became goes back to "[]"
            return [(parent.start + 1, end, "")]  # a hand-made empty keeps its blanks
        if index < n - 1:
            return self._remove_with_next(parent, index, start, end)
        prev_end = parent.children[index - 1].end
        if not has_comment(text[prev_end:start]):
            return [(prev_end, end, "")]
        comma = parent.commas[index - 1]
        return self._remove_own_line(start, end) + [(comma, comma + 1, "")]

    def _remove_with_next(self, parent: Node, index: int, start: int, end: int) -> list[Splice]:
        text = self.text
        comma = parent.commas[index]
        if self._own_line(start, end, comma):
            line_break_end = text.find("\n", line_end(text, comma + 1)) + 1
            return [(line_start(text, start), line_break_end, "")]
        nxt = parent.member_span(index + 1)[0]
        if not has_comment(text[end:nxt]):
            return [(start, nxt, "")]
        stop = comma + 1
        while stop < len(text) and text[stop] in " \t":
            stop += 1
        return [(start, stop, "")]

    def _remove_own_line(self, start: int, end: int) -> list[Splice]:
        """Remove an entry; with its line when it stands alone there (the line break before it too)."""
        text = self.text
        ls = line_start(text, start)
        if first_on_line(text, start) and text[end : line_end(text, end)].strip() == "" and ls > 0:
            brk = ls - 1
            if brk > 0 and text[brk - 1] == "\r":
                brk -= 1
            return [(brk, end, "")]
        return [(start, end, "")]

"""Pure computation of the splices that remove entries, for ``jsonsplice.Editor``.

Removal is written as the exact inverse of insertion. A run of removals of neighbouring entries
is served from one parse when each splice is what it would be after the ones before it (whole own
lines, or a tail from the entry before them); any other removal waits for the next parse.
"""

from __future__ import annotations

from collections import Counter

from hookweave.core.formats.jsonlayout import (
    first_on_line,
    has_comment,
    indent_of,
    line_break_at,
    line_end,
    line_start,
)
from hookweave.core.formats.jsontext import Node, split_pointer

Splice = tuple[int, int, str]  # replace text[start:end] with the string


class Removals:
    text: str

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
        copies = Counter(keys)
        if copies[keys[first]] > 1:  # JSON.parse keeps the last of duplicated keys: remove every copy
            return self._remove(parent, first), ops
        count = 1
        while (count < len(ops) and first + count < n and copies[keys[first + count]] == 1
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

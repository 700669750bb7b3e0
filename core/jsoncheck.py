"""Pure proof that an edited JSON / JSONC text reads as the data the plan wanted, at the cost of
what changed rather than of the file.

A plan's edit must not be written unless its text reads back as the plan's data. Re-reading the
whole file proves it but costs a second parse and a second copy of the data (on a 100,000-entry
file, most of an install's memory). Here the proof is local and independent of the editor:

1. The two texts are compared from both ends (at C speed, in slices): everything outside one
   changed stretch is the old text, byte for byte.
2. The smallest value of the old text whose span holds that stretch is found by its offsets, with
   its JSON Pointer (a member hidden by a later duplicate key ends the walk: then we re-read all).
3. That value's new text is decoded on its own and must equal the plan's data at the pointer.
4. Outside the pointer, the plan's data must equal the old data (``patch.same``; what the plan
   shares with the old data costs nothing).

The old text read as the old data, so the new text reads as the old data with the value at the
pointer replaced: by 3 and 4, the plan's data. Anything this cannot decide goes to a full read.
"""

from __future__ import annotations

import json
from typing import Any

from hookweave.core import jsonspans, jsontext
from hookweave.core.errors import ParseError
from hookweave.core.patch import canonical, same

SLICE = 1 << 16  # characters compared at a time while looking for the first difference


def reads_as(old_text: str | None, new_text: str, new: Any, path: str, *, comments: bool) -> bool:
    """Whether ``new_text`` parses to ``new`` (given that ``old_text`` parses, as the plan read it)."""
    if old_text is None:
        return _whole(new_text, new, path, comments)
    old = jsontext.load(old_text, path, comments=comments)  # the plan's own read: kept, not re-parsed
    start = _common_prefix(old_text, new_text)
    end = len(old_text) - _common_suffix(old_text, new_text, len(old_text) - start, len(new_text) - start)
    found = _enclosing(old_text, path, comments, start, end)
    if found is None:
        return _whole(new_text, new, path, comments)
    tokens, (a, b) = found
    piece = new_text[a : b + len(new_text) - len(old_text)]
    try:
        value = _decode(piece, comments)
    except ValueError:
        return _whole(new_text, new, path, comments)  # e.g. a trailing comma the C decoder refuses
    target = _at(new, tokens)
    return target is not _MISSING and canonical(value) == canonical(target) and _same_beside(old, new, tokens)


def _whole(new_text: str, new: Any, path: str, comments: bool) -> bool:
    try:
        return same(jsontext.load(new_text, path, comments=comments), new)
    except (ParseError, ValueError):  # our edit broke the text: refused as a failed proof, not as the user's input
        return False


def _decode(piece: str, comments: bool) -> Any:
    if comments and "/" in piece:
        piece = jsontext.blank_comments(piece)
    return json.loads(piece, parse_constant=jsontext.refuse_constant)


def _common_prefix(a: str, b: str) -> int:
    n, lo = min(len(a), len(b)), 0
    while lo < n and a[lo : lo + SLICE] == b[lo : lo + SLICE]:
        lo += SLICE
    hi = min(lo + SLICE, n)
    while lo < hi:  # a[:lo] == b[:lo]; the longest equal prefix ends in [lo, hi]
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: str, b: str, room_a: int, room_b: int) -> int:
    """The longest equal ending, no longer than what the prefix left of either text."""
    n, lo = min(room_a, room_b), 0
    la, lb = len(a), len(b)
    while lo < n and a[la - min(lo + SLICE, n) : la - lo] == b[lb - min(lo + SLICE, n) : lb - lo]:
        lo = min(lo + SLICE, n)
    hi = min(lo + SLICE, n)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[la - mid : la - lo] == b[lb - mid : lb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _enclosing(text: str, path: str, comments: bool, start: int, end: int) -> tuple[list[str], tuple[int, int]] | None:
    """Pointer tokens and span of the deepest value holding the changed stretch ``[start, end)``
    of ``text`` (an insertion, ``start == end``, must fall strictly inside it); ``None`` when that
    is the top value, or the walk meets a member that a later duplicate key hides."""
    node = jsonspans.root(text, path, comments=comments)
    tokens: list[str] = []
    while True:
        inner = None
        for i, child in enumerate(node.children):
            if _holds(child, start, end):
                inner = i
                break
        if inner is None:
            break
        child = node.children[inner]
        if node.kind == "object":
            key = node.keys[inner]
            if key in node.keys[inner + 1 :]:
                return None  # this member is not the one a reader keeps
            tokens.append(key)
        else:
            tokens.append(str(inner))
        node = child
        if node.kind not in ("object", "array"):
            break
    return (tokens, (node.start, node.end)) if tokens else None


def _holds(node: Any, start: int, end: int) -> bool:
    if start == end:
        return node.start < start < node.end
    return node.start <= start and end <= node.end


_MISSING = object()


def _at(value: Any, tokens: list[str]) -> Any:
    for token in tokens:
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return _MISSING
    return value


def _same_beside(old: Any, new: Any, tokens: list[str]) -> bool:
    """``old`` and ``new`` are equal everywhere but at the value ``tokens`` points to."""
    for token in tokens:
        if isinstance(old, dict) and isinstance(new, dict):
            if old.keys() != new.keys() or any(not same(v, new[k]) for k, v in old.items() if k != token):
                return False
            old, new = old[token], new[token]
        elif isinstance(old, list) and isinstance(new, list):
            at = int(token)
            if len(old) != len(new) or any(not same(old[i], new[i]) for i in range(len(old)) if i != at):
                return False
            old, new = old[at], new[at]
        else:
            return False
    return True

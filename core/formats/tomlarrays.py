"""Elements of a top-level array of tables (``[[hooks]]``) added, changed and taken out as text.

tomlkit cannot give back a file whose ``[[hooks]]`` tables another table splits in two (it moves
the second part up to the first), and an operator who appends a hook at the end of such a file
makes one. As with ``tomltables``, a table of plain values is spelled one way only and appended at
the end of the file after one blank line (TOML continues the array there, wherever its other
elements stand); a table spelled exactly that way is cut out again with that blank line, or
changed where it stands; an element spelled any other way (an operator's, as a rule) is left to
tomlkit. ``apply`` returns
``None`` for any operation that is not of that kind (the caller edits through tomlkit instead),
and the caller proves every result by reading it again.
"""

from __future__ import annotations

from typing import Any

from hookweave.core.formats.jsonedit import split_pointer
from hookweave.core.formats.tomltables import append_block, cut_block, render, scalar


def apply(text: str, ops: list[dict], doc: dict) -> str | None:
    """``text`` with ``ops`` applied to elements of top-level arrays of plain tables, or ``None``.
    ``doc``: the data ``text`` reads as (never changed)."""
    nl = "\r\n" if text.endswith("\r\n") or ("\r\n" in text and not text.endswith("\n")) else "\n"
    arrays = {k: list(v) for k, v in doc.items() if isinstance(v, list) and v and all(_plain(e) for e in v)}
    for op in ops:
        tokens = split_pointer(op["path"])
        name = tokens[0] if tokens else None
        if len(tokens) == 1 and op["op"] == "add" and name not in doc and name not in arrays:
            if not isinstance(op["value"], list) or not op["value"] or not all(_plain(e) for e in op["value"]):
                return None
            for element in op["value"]:
                text = append_block(text, render((name,), element, nl, "[[]]"), nl)
            arrays[name] = list(op["value"])
            continue
        if len(tokens) == 1 and op["op"] == "remove" and name in arrays:
            for element in reversed(arrays.pop(name)):  # the whole array: each table cut, last first
                text = cut_block(text, render((name,), element, nl, "[[]]"), nl)  # type: ignore[arg-type]
                if text is None:
                    return None
            continue
        if name not in arrays or len(tokens) not in (2, 3) or not tokens[1].isdigit():
            return None
        elements, index = arrays[name], int(tokens[1])
        if len(tokens) == 2 and op["op"] == "add":
            if index != len(elements) or not _plain(op["value"]):
                return None
            text = append_block(text, render((name,), op["value"], nl, "[[]]"), nl)
            elements.append(op["value"])
            continue
        if index >= len(elements):
            return None
        old = render((name,), elements[index], nl, "[[]]")
        new = _changed(elements[index], tokens[2:], op)
        if new is None:
            text = cut_block(text, old, nl)  # type: ignore[arg-type]
            del elements[index]
        elif not _plain(new) or not new or text.count(old) != 1 or not _standalone(text, old, nl):
            return None
        else:
            text = text.replace(old, render((name,), new, nl, "[[]]"))
            elements[index] = new
        if text is None:
            return None
        if not elements:
            del arrays[name]
    return text


def _changed(element: dict, rest: list[str], op: dict) -> dict | None:
    """The element after ``op`` (``None``: the element goes)."""
    if not rest:
        return None if op["op"] == "remove" else op["value"]
    out = dict(element)
    if op["op"] == "remove":
        out.pop(rest[0], None)
    else:
        out[rest[0]] = op["value"]
    return out


def _standalone(text: str, block: str, nl: str) -> bool:
    """Whether ``block`` stands as a whole table in ``text``: at a line start, with a table or the
    end of the file after it (not the first lines of a longer table of the operator's)."""
    at = text.find(block)
    after = at + len(block)
    return (at == 0 or text[:at].endswith(nl)) and (after == len(text) or text.startswith((nl, "["), after))


def _plain(value: Any) -> bool:
    return isinstance(value, dict) and all(scalar(v) for v in value.values())

"""Tables of plain values added to and taken out of a TOML text as text, byte for byte reversible.

tomlkit rewrites more than it is asked to in some files (a dotted key at the root, a file without
a final newline, CRLF, a comment after a dotted key: lines moved, blank lines added, a line
lost). Codex's trust state is a set of small tables (``[hooks.state."<key>"]`` holding
``trusted_hash`` and maybe ``enabled``), and a table's place in the file does not change what
the file means. So a new one is appended as a block of its own, spelled one way only, after one
blank line; and a block spelled exactly that way is cut out again with that blank line. An
append then a cut gives the old text back whatever the rest of the file holds. ``apply`` returns
``None`` when an operation is not of that kind (the caller edits through tomlkit instead); the
caller proves every result by reading it again.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hookweave.core.errors import BadInput
from hookweave.core.formats.jsonedit import split_pointer

BARE = re.compile(r"[A-Za-z0-9_-]+")


def apply(text: str, ops: list[dict], doc: dict) -> str | None:
    """``text`` with ``ops`` applied as appended or cut blocks, or ``None``. ``doc``: the data
    ``text`` reads as (never changed)."""
    nl = "\r\n" if text.endswith("\r\n") or ("\r\n" in text and not text.endswith("\n")) else "\n"
    current = leaves(doc)
    for op in ops:
        tokens = tuple(split_pointer(op["path"]))
        if not tokens or op["op"] not in ("add", "remove", "replace"):
            return None
        table = _owner(current, tokens, op)
        if table is None and op["op"] == "replace":  # a string changed in place (a hook's command upgraded)
            text = _replace_string(text, _at(doc, tokens), op["value"])
            if text is None:
                return None
            continue
        if table is None:
            if op["op"] != "add" or _exists(current, tokens):
                return None
            blocks = _blocks(tokens, op["value"])
            if blocks is None:
                return None
            for key, value in blocks:
                text = append_block(text, render(key, value, nl), nl)
                current[key] = value
            continue
        old = current.pop(table)
        if tokens == table:
            value = None if op["op"] == "remove" else op["value"]
        else:
            value = dict(old)
            if op["op"] == "remove":
                value.pop(tokens[-1], None)
            else:
                value[tokens[-1]] = op["value"]
        cut = cut_block(text, render(table, old, nl), nl)
        if cut is None or (value is not None and (not isinstance(value, dict) or not value
                                                  or not all(scalar(v) for v in value.values()))):
            return None
        text = cut
        if value:
            text = append_block(text, render(table, value, nl), nl)
            current[table] = value
    return text


def leaves(doc: Any, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], dict]:
    """Every table of only plain values, by its key path (the blocks this module can cut)."""
    out: dict[tuple[str, ...], dict] = {}
    for key, value in doc.items() if isinstance(doc, dict) else ():
        if isinstance(value, dict):
            if value and all(scalar(v) for v in value.values()):
                out[prefix + (key,)] = value
            out.update(leaves(value, prefix + (key,)))
    return out


def _at(doc: Any, tokens: tuple[str, ...]) -> Any:
    for token in tokens:
        if isinstance(doc, list) and token.isdigit() and int(token) < len(doc):
            doc = doc[int(token)]
        elif isinstance(doc, dict) and token in doc:
            doc = doc[token]
        else:
            return None
    return doc


def _replace_string(text: str, old: Any, new: Any) -> str | None:
    """``text`` with the one value ``old`` spelled as a basic or a literal string replaced by
    ``new`` in the same spelling; ``None`` unless both are one-line strings and ``old`` is there
    exactly once (the caller reads the result again)."""
    if not (isinstance(old, str) and isinstance(new, str)) or "\n" in old or "\n" in new:
        return None
    spellings = [(literal(old), literal(new))]
    if "'" not in old and "'" not in new and all(c >= " " and c != "\x7f" for c in new):
        spellings.append((f"'{old}'", f"'{new}'"))
    found = [(was, now) for was, now in spellings if text.count(f"= {was}") == 1]
    if len(found) != 1 or sum(text.count(f"= {was}") for was, _ in spellings) != 1:
        return None
    was, now = found[0]
    return text.replace(f"= {was}", f"= {now}", 1)


def _exists(current: dict, tokens: tuple[str, ...]) -> bool:
    return any(path[: len(tokens)] == tokens for path in current)


def _owner(current: dict, tokens: tuple[str, ...], op: dict) -> tuple[str, ...] | None:
    """The leaf table that ``tokens`` names or holds a plain value of (``None`` for a new table)."""
    if tokens in current:
        return tokens
    parent = tokens[:-1]
    if parent in current and (tokens[-1] in current[parent] or scalar(op.get("value"))):
        return parent
    return None


def _blocks(tokens: tuple[str, ...], value: Any) -> list[tuple[tuple[str, ...], dict]] | None:
    """``value`` added at ``tokens`` as leaf tables, or ``None`` if it is not only tables of plain values."""
    if not isinstance(value, dict) or not value:
        return None
    if all(scalar(v) for v in value.values()):
        return [(tokens, value)]
    out: list[tuple[tuple[str, ...], dict]] = []
    for key, inner in value.items():
        more = _blocks(tokens + (key,), inner)
        if more is None:
            return None
        out += more
    return out


def scalar(value: Any) -> bool:
    return isinstance(value, (str, bool, int)) and not (isinstance(value, int) and abs(value) >= 2**63)


def render(path: tuple[str, ...], value: dict, nl: str, brackets: str = "[]") -> str:
    """The one spelling of a table of plain values: its header (``[[...]]`` for an element of an
    array of tables), then one ``key = value`` line each, every line ended by ``nl``."""
    half = len(brackets) // 2
    header = brackets[:half] + ".".join(key(k) for k in path) + brackets[half:]
    return nl.join([header] + [f"{key(k)} = {literal(v)}" for k, v in value.items()]) + nl


def key(name: str) -> str:
    """A TOML key: bare when it can be, else a basic string."""
    return name if BARE.fullmatch(name) else literal(name)


def literal(value: Any) -> str:
    """A JSON value as TOML; strings as basic strings (JSON's escapes are TOML's, but DEL, which
    TOML wants escaped and JSON writes as it is)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key(k)} = {literal(v)}" for k, v in value.items()) + " }" if value else "{}"
    raise BadInput(f"a value of type {type(value).__name__} cannot be written as TOML")


def append_block(text: str, block: str, nl: str) -> str:
    """``block`` after one blank line; in a file without a final newline, without its own either,
    so that the file keeps that style and the cut knows which it was."""
    if not text:
        return block
    if text.endswith("\n"):
        return text + nl + block
    return text + nl + nl + block[: -len(nl)]


def cut_block(text: str, block: str, nl: str) -> str | None:
    """``text`` less ``block`` and the blank line ``_append`` put before it; ``None`` unless the
    block is there exactly once, spelled as ``_append`` spells it."""
    if text == block:
        return ""
    if text.startswith(block + nl) and text.count(block) == 1:  # appended to an empty file, then more after it
        return text[len(block + nl):]
    bare = block[: -len(nl)]
    if text.endswith(nl + nl + bare) and text.count(bare) == 1:
        return text[: -len(nl + nl + bare)]
    spaced = nl + block
    at = text.find(nl + spaced)
    if at < 0 or text.count(block) != 1:
        return None
    after = at + len(nl + spaced)
    if after < len(text) and not text.startswith((nl, "["), after):
        return None  # the block runs on into lines of the operator's: not a block of ours
    return text[:at] + text[at + len(spaced):]

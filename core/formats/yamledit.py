"""RFC 6902 operations applied to YAML text, keeping comments, anchors, quoting and layout.

The same patch the planner computes for JSON hosts drives YAML hosts (Hermes Agent's
``config.yaml``). ruamel.yaml's round-trip mode keeps comments, anchors and aliases, merge keys,
each scalar's quotes and the key order; what it cannot keep by itself is the file's indentation,
which it writes from settings. So the settings are found first: the indentation with which
reading and writing the file unchanged gives back every byte. A file no setting gives back is
refused, naming its first line that would change, rather than rewritten in another layout.
Every result is then read again and compared with the planned data before it is written.

ruamel.yaml is imported only on these paths: commands that never touch YAML do not pay for it.
"""

from __future__ import annotations

import io
from typing import Any

from hookweave.core.errors import BadInput, ParseError
from hookweave.core.formats.jsontext import split_pointer

# (mapping indent, dash offset): the layouts tried, the common ones first. A sequence's items are
# indented by the dash offset plus two (``- `` and the item).
LAYOUTS = ((2, 2), (2, 0), (4, 4), (4, 2), (4, 0), (3, 3), (3, 0), (3, 1), (2, 1))


def parse(text: str, path: str) -> Any:
    """The data as plain dicts, lists and scalars; an empty file is an empty mapping."""
    return plain(_load(_yaml(2, 2), text, path))


def apply_ops(text: str, ops: list[dict], path: str) -> str:
    """``text`` with every operation applied in order (``add``, ``remove``, ``replace``)."""
    crlf = "\r\n" in text and "\n" not in text.replace("\r\n", "")
    if crlf:  # edit as LF and give the file its own line ending back, our new lines included
        text = text.replace("\r\n", "\n")
    head = _comments_only(text)
    yaml, doc = _layout(text, path) if head is None else (_yaml(2, 2), None)
    if doc is None:  # empty, or comments only: ours goes after them
        from ruamel.yaml.comments import CommentedMap

        doc = CommentedMap()
    for op in ops:
        _apply(doc, op, path)
    out = (head or "") + _dump(yaml, doc) if doc else _leading_comments(text)  # the last removal: what was before
    return out.replace("\n", "\r\n") if crlf else out


def _comments_only(text: str) -> str | None:
    """``text`` when it holds no YAML but comments and blank lines (an empty file too), else ``None``."""
    lines = text.splitlines(keepends=True)
    if all(not line.strip() or line.lstrip().startswith("#") for line in lines):
        return text if not text or text.endswith("\n") else text + "\n"
    return None


def _leading_comments(text: str) -> str:
    """The comment and blank lines before the first line of YAML: a file emptied by the last removal."""
    kept = []
    for line in text.splitlines(keepends=True):
        if line.strip() and not line.lstrip().startswith("#"):
            break
        kept.append(line)
    return "".join(kept)


def plain(value: Any) -> Any:
    """ruamel's round-trip values (CommentedMap, quoted strings, ScalarFloat) as plain Python ones,
    merge keys resolved (``<<: *base`` gives its keys, as the agent reads them)."""
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    for kind in (str, int, float):
        if isinstance(value, kind):
            return kind(value)
    return value


def _yaml(mapping: int, offset: int) -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 30  # never fold a long line the operator wrote on one
    yaml.indent(mapping=mapping, sequence=offset + 2, offset=offset)
    return yaml


def _load(yaml: Any, text: str, path: str) -> Any:
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if text.startswith("\ufeff"):
        raise ParseError(path, 1, 1, "starts with a byte order mark", "save the file as UTF-8 without a BOM")
    try:
        return yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise ParseError(path, line, col, f"invalid YAML: {exc.problem or exc.context}", "fix the file by hand") from None
    except YAMLError as exc:
        raise ParseError(path, 1, 1, f"invalid YAML: {exc}", "fix the file by hand") from None


def _dump(yaml: Any, doc: Any) -> str:
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue()


def _layout(text: str, path: str) -> tuple[Any, Any]:
    """The ruamel settings that write ``text`` back unchanged, with the document they read (read once);
    refused when none does."""
    if not text.strip():
        return _yaml(2, 2), None
    first_change = None
    for mapping, offset in LAYOUTS:
        yaml = _yaml(mapping, offset)
        doc = _load(yaml, text, path)
        again = _dump(yaml, doc)
        if again == text:
            return yaml, doc
        if first_change is None:
            first_change = _first_difference(text, again)
    raise BadInput(f"{path}:{first_change}: hookweave cannot write this YAML back unchanged (its indentation "
                   "differs from one block to another, or a line holds what YAML writers spell otherwise), so it "
                   "edits nothing; indent every block alike, or add the hooks by hand")


def _first_difference(a: str, b: str) -> int:
    for number, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return number
    return min(len(a.splitlines()), len(b.splitlines())) + 1


def _apply(doc: Any, op: dict, path: str) -> None:
    tokens = split_pointer(op["path"])
    if not tokens:
        raise BadInput(f"{path}: cannot {op['op']} the whole document")
    parent = doc
    for token in tokens[:-1]:
        parent = parent[int(token)] if isinstance(parent, list) else parent[token]
    last = tokens[-1]
    if op["op"] == "remove":
        del parent[int(last) if isinstance(parent, list) else last]
    elif op["op"] == "add" and isinstance(parent, list):
        parent.insert(len(parent) if last == "-" else int(last), op["value"])
    elif op["op"] in ("add", "replace"):
        parent[int(last) if isinstance(parent, list) else last] = op["value"]
    else:
        raise ValueError(f"unsupported op {op['op']!r}")

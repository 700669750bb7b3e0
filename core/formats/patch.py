"""Pure diffs between two JSON values as RFC 6902 operations, and canonical hashes.

We write our own diff instead of ``jsonpatch.make_patch`` because the text editor needs
operations shaped like the change we made: an inserted hook group must be one ``add`` at its
index, never a chain of ``replace`` and ``move`` that would re-render the operator's entries.
jsonpatch still applies the result to the data as an independent check (``check_patch``).
"""

from __future__ import annotations

import difflib
import operator
from typing import Any

from hookweave.core.formats import jsonlite

try:  # the interpreter's own SHA-256: hashlib loads OpenSSL first, 3 ms of every command's start-up
    from _sha256 import sha256 as _new_sha256  # Python 3.10 and 3.11
except ImportError:
    try:
        from _sha2 import sha256 as _new_sha256  # Python 3.12 and later
    except ImportError:
        from hashlib import sha256 as _new_sha256


def canonical(value: Any) -> str:
    return jsonlite.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256(value: Any) -> str:
    # surrogatepass: a lone surrogate (a "\ud800" escape in a settings file) hashes as its own
    # three bytes instead of failing; every other string encodes exactly as plain UTF-8.
    return sha256_text(canonical(value))


def sha256_text(text: str) -> str:
    """``sha256:<hex>`` of ``text`` (lone surrogates as their own bytes, as above)."""
    return "sha256:" + _new_sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def same(a: Any, b: Any) -> bool:
    """Exact JSON equality, as of the canonical texts (``1``, ``1.0`` and ``true`` differ; key
    order does not matter), without making them. An object is equal to itself at no cost, so data
    that shares what did not change (``plan._editable``) compares in the time of what did."""
    if a is b:
        return True
    if isinstance(a, dict):
        return isinstance(b, dict) and len(a) == len(b) and all(k in b and same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if type(a) is float:
        return type(b) is float and repr(a) == repr(b)  # -0.0 is not 0.0 in the text
    return type(a) is type(b) and a == b


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def diff(old: Any, new: Any, path: str = "") -> list[dict]:
    """Operations that turn ``old`` into ``new``, applied in order. A plan's data shares what it
    did not change with the file's (``plan._editable``): the same object is equal to itself."""
    if old is new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        return _diff_object(old, new, path)
    if isinstance(old, list) and isinstance(new, list):
        return _diff_array(old, new, path)
    if canonical(old) == canonical(new) and type(old) is type(new):
        return []
    return [{"op": "replace", "path": path, "value": new}]


def _diff_object(old: dict, new: dict, path: str) -> list[dict]:
    ops: list[dict] = []
    for key in old:
        if key not in new:
            ops.append({"op": "remove", "path": f"{path}/{escape(key)}"})
    for key, value in new.items():
        if key in old:
            ops.extend(diff(old[key], value, f"{path}/{escape(key)}"))
        else:
            ops.append({"op": "add", "path": f"{path}/{escape(key)}", "value": value})
    return ops


def _diff_array(old: list, new: list, path: str) -> list[dict]:
    if len(old) == len(new) and all(map(operator.is_, old, new)):  # a plan's list that kept every element
        return []
    if old == new and canonical(old) == canonical(new):  # equal copies, at C speed (== alone takes 1 for true)
        return []
    # The same objects at both ends (what a plan kept) are left out before matching the middle;
    # in it, an element both lists hold is matched by identity and only the others by their
    # canonical text, so a 10,000-group event with one new group costs one dump.
    head = _same_run(old, new, range(min(len(old), len(new))))
    tail = _same_run(old, new, (-1 - k for k in range(min(len(old), len(new)) - head)))
    old_mid, new_mid = old[head : len(old) - tail], new[head : len(new) - tail]
    shared = {id(v) for v in new_mid} & {id(v) for v in old_mid}
    matcher = difflib.SequenceMatcher(a=[_token(v, shared) for v in old_mid], b=[_token(v, shared) for v in new_mid],
                                      autojunk=False)
    opcodes = [(tag, i1 + head, i2 + head, j1 + head, j2 + head) for tag, i1, i2, j1, j2 in matcher.get_opcodes()]
    ops: list[dict] = []
    # Work from the end so each operation's index still refers to the untouched prefix.
    for tag, i1, i2, j1, j2 in reversed(opcodes):
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            for k in range(i2 - i1 - 1, -1, -1):
                ops.extend(diff(old[i1 + k], new[j1 + k], f"{path}/{i1 + k}"))
            continue
        for k in range(i2 - 1, i1 - 1, -1):
            ops.append({"op": "remove", "path": f"{path}/{k}"})
        for k in range(j1, j2):
            ops.append({"op": "add", "path": f"{path}/{i1 + k - j1}", "value": new[k]})
    return ops


def _same_run(old: list, new: list, indexes) -> int:
    """How many of ``indexes`` (counting from the start, or from the end) hold the same object in both."""
    count = 0
    for i in indexes:
        if old[i] is not new[i]:
            break
        count += 1
    return count


def _token(value: Any, shared: set[int]) -> Any:
    return id(value) if id(value) in shared else canonical(value)


def check_patch(old: Any, ops: list[dict], new: Any) -> bool:
    """True when jsonpatch, applying ``ops`` to ``old``, arrives at ``new``."""
    return canonical(applied(old, ops)) == canonical(new)


def applied(old: Any, ops: list[dict]) -> Any:
    """``old`` with ``ops`` applied by jsonpatch, ``old`` left as it was. Before each operation the
    containers on its path (as the data stands then) are copied, and only those: a deep copy of a
    big file's data would double its memory. jsonpatch then changes the copies in place."""
    import jsonpatch

    doc = _shallow(old)
    for op in ops:
        for key in ("from", "path"):
            if isinstance(op.get(key), str):
                _copy_path(doc, op[key])
        doc = jsonpatch.JsonPatch([op]).apply(doc, in_place=True)
    return doc


def _copy_path(top: Any, pointer: str) -> None:
    """Give every container along ``pointer`` (the target included) a copy of its own."""
    node = top
    for token in (t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]):
        key: Any = token
        if isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                return  # an append ("-") or an index past the end: nothing below to copy
            key = int(token)
        elif not isinstance(node, dict) or token not in node:
            return
        child = node[key]
        if not isinstance(child, (dict, list)):
            return
        if not isinstance(child, _Copied):
            child = node[key] = _shallow(child)
        node = child


class _CopiedDict(dict):
    """A container ``_copy_paths`` made: copied once, however many ops pass through it."""


class _CopiedList(list):
    pass


_Copied = (_CopiedDict, _CopiedList)


def _shallow(value: Any) -> Any:
    if isinstance(value, dict):
        return _CopiedDict(value)
    if isinstance(value, list):
        return _CopiedList(value)
    return value

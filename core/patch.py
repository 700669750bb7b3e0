"""Pure diffs between two JSON values as RFC 6902 operations, and canonical hashes.

We write our own diff instead of ``jsonpatch.make_patch`` because the text editor needs
operations shaped like the change we made: an inserted hook group must be one ``add`` at its
index, never a chain of ``replace`` and ``move`` that would re-render the operator's entries.
jsonpatch still applies the result to the data as an independent check (``check_patch``).
"""

from __future__ import annotations

import difflib
import json
from typing import Any

try:  # the interpreter's own SHA-256: hashlib loads OpenSSL first, 3 ms of every command's start-up
    from _sha256 import sha256 as _new_sha256  # Python 3.10 and 3.11
except ImportError:
    try:
        from _sha2 import sha256 as _new_sha256  # Python 3.12 and later
    except ImportError:
        from hashlib import sha256 as _new_sha256


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256(value: Any) -> str:
    # surrogatepass: a lone surrogate (a "\ud800" escape in a settings file) hashes as its own
    # three bytes instead of failing; every other string encodes exactly as plain UTF-8.
    return sha256_text(canonical(value))


def sha256_text(text: str) -> str:
    """``sha256:<hex>`` of ``text`` (lone surrogates as their own bytes, as above)."""
    return "sha256:" + _new_sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def diff(old: Any, new: Any, path: str = "") -> list[dict]:
    """Operations that turn ``old`` into ``new``, applied in order."""
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
    if old == new and canonical(old) == canonical(new):  # the common case, at C speed (== alone takes 1 for true)
        return []
    matcher = difflib.SequenceMatcher(
        a=[canonical(v) for v in old], b=[canonical(v) for v in new], autojunk=False
    )
    ops: list[dict] = []
    # Work from the end so each operation's index still refers to the untouched prefix.
    for tag, i1, i2, j1, j2 in reversed(matcher.get_opcodes()):
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


def check_patch(old: Any, ops: list[dict], new: Any) -> bool:
    """True when jsonpatch, applying ``ops`` to ``old``, arrives at ``new``."""
    return canonical(applied(old, ops)) == canonical(new)


def applied(old: Any, ops: list[dict], *, in_place: bool = False) -> Any:
    """``old`` with ``ops`` applied by jsonpatch; ``in_place`` spares a copy of a big file's data
    when the caller needs ``old`` no more."""
    import jsonpatch

    return jsonpatch.JsonPatch(ops).apply(old, in_place=in_place)

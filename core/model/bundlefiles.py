"""Pure: a bundle's files as data, their content hash and the diff a reviewer reads.

A vendored bundle is ``{posix path: (bytes, executable)}``. Its hash covers every path, its
executable bit and its bytes, so a renamed script, a lost ``chmod +x`` or one changed byte all
change it; the project file keeps it beside the pin (``hash = "sha256:..."``).
"""

from __future__ import annotations

import difflib
import hashlib

Files = dict[str, tuple[bytes, bool]]


def content_hash(files: Files) -> str:
    digest = hashlib.sha256()
    for path in sorted(files):
        data, executable = files[path]
        name = path.encode("utf-8", "surrogateescape")
        digest.update(b"%d:%s%s%d:" % (len(name), name, b"x" if executable else b"-", len(data)))
        digest.update(data)
    return "sha256:" + digest.hexdigest()


def changed_paths(old: Files, new: Files) -> list[str]:
    """Every path added, removed, or with other bytes or another executable bit."""
    return sorted(p for p in set(old) | set(new) if old.get(p) != new.get(p))


def diff(old: Files, new: Files, old_label: str, new_label: str) -> str:
    """A unified diff of every text file that changed (a binary one: one line saying so), and
    each executable bit that changed: what the hooks will run is what the reader must see."""
    out: list[str] = []
    for path in changed_paths(old, new):
        before, after = old.get(path), new.get(path)
        if before is not None and after is not None and before[1] != after[1]:
            out.append(f"mode {path}: {'executable' if after[1] else 'not executable'} now\n")
            if before[0] == after[0]:
                continue
        a_text, b_text = _text(before), _text(after)
        a_name = f"{old_label}/{path}" if before is not None else "/dev/null"
        b_name = f"{new_label}/{path}" if after is not None else "/dev/null"
        if a_text is None or b_text is None:
            out.append(f"Binary file {path} {'added' if before is None else 'removed' if after is None else 'changed'}\n")
            continue
        lines = difflib.unified_diff(a_text.splitlines(keepends=True), b_text.splitlines(keepends=True), a_name, b_name)
        out += [line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines]
    return "".join(out)


def _text(entry: tuple[bytes, bool] | None) -> str | None:
    if entry is None:
        return ""
    try:
        text = entry[0].decode("utf-8")
    except UnicodeDecodeError:
        return None
    return None if "\x00" in text else text

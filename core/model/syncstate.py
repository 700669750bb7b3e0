"""Pure: ``.hookweave/synced.json``, what the last ``hooks sync`` put where, committed with it.

Sync takes out only what it put in: a bundle leaves the agents' files when it leaves the project
file, and one installed by hand with ``hooks install`` is never touched. The file also keeps, per
vendored bundle, the rev its commit was resolved from (an edited rev is fetched again) and each
file's hash, so ``sync --check`` names the files edited by hand without the network.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from hookweave.core.errors import BadInput
from hookweave.core.formats.fieldtuple import FieldTuple

STATE_PATH = ".hookweave/synced.json"
ATTRIBUTES_PATH = ".hookweave/.gitattributes"
# The vendored files must reach every clone byte for byte (their hash is pinned, and a CRLF shebang
# does not run): no end-of-line conversion by git (core.autocrlf on Windows), no diff of binaries.
ATTRIBUTES = "# hookweave: vendored bundles are kept byte for byte (their hash is pinned)\nbundles/** -text\n"
VERSION = 1


class Synced(FieldTuple):
    hosts: tuple[str, ...]
    scope: str
    rev: str | None = None
    files: dict[str, str] = {}  # noqa: RUF012 - read only: path -> "x:" or "-:" + sha256 of the bytes


def file_digests(files: dict[str, tuple[bytes, bool]]) -> dict[str, str]:
    return {path: ("x:" if executable else "-:") + hashlib.sha256(data).hexdigest()
            for path, (data, executable) in sorted(files.items())}


def parse(text: str | None, shown: str) -> dict[str, Synced]:
    if text is None:
        return {}
    try:
        data = json.loads(text)
        bundles = data["bundles"]
        return {name: Synced(tuple(v["hosts"]), v["scope"], v.get("rev"), dict(v.get("files", {})))
                for name, v in bundles.items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        raise BadInput(f"{shown}: not the state hooks sync writes; restore it from git (git checkout -- {shown}), "
                       "or delete it and run hooks sync (bundles removed from the project file since stay installed)"
                       ) from None


def dumps(state: dict[str, Synced]) -> str | None:
    """The file's text (``None``: no bundle synced, no file); sorted, so a second sync writes the
    same bytes and a review reads a small diff."""
    if not state:
        return None
    out: dict[str, Any] = {"version": VERSION, "bundles": {}}
    for name in sorted(state):
        item = state[name]
        entry: dict[str, Any] = {"hosts": list(item.hosts), "scope": item.scope}
        if item.rev is not None:
            entry["rev"] = item.rev
        if item.files:
            entry["files"] = dict(sorted(item.files.items()))
        out["bundles"][name] = entry
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def edited(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    """The paths whose bytes or mode differ from what sync vendored, added or removed."""
    return sorted(p for p in set(recorded) | set(now) if recorded.get(p) != now.get(p))

"""The record: what hookweave wrote into one settings file (pure conversion to and from JSON).

It lives beside the settings file as ``<stem>.hookweave.json`` (see the README). It holds hashes,
not commands, so a project-scope record carries no absolute path of anyone's machine.

A record is input like any other: an operator (or a merge) can edit it, so every value is
checked before any is used (``recordcheck``), and a bad one is refused naming its place.
"""

# No postponed annotations: NamedTuple would compile each string annotation (see model.py).

import json
from typing import NamedTuple
from pathlib import Path

from hookweave.core.envmerge import RecordedEnv
from hookweave.core.errors import BadInput
from hookweave.core.paths import display, printable
from hookweave.core.textsafe import escape_surrogates

FORMAT = 1
FIX = "restore it from version control or delete it (hookweave then treats marked entries as unrecorded)"


class RecordedHook(NamedTuple):
    id: str
    event: str
    position: str
    sha256: str
    members: tuple[tuple[str, str], ...] = ()  # a chain's (member id, hash of its words), in run order


class RecordedBundle(NamedTuple):
    version: str
    hooks: tuple[RecordedHook, ...] = ()
    env: dict[str, RecordedEnv] = {}  # noqa: RUF012 - read only, like every field
    traces_before: tuple[str, ...] = ()  # ids whose host traces (Gemini's disabled list) predate us

    def hashes(self, event: str | None = None) -> dict[str, str]:
        return {h.id: h.sha256 for h in self.hooks if event is None or h.event == event}


class Record(NamedTuple):
    bundles: dict[str, RecordedBundle] = {}  # noqa: RUF012 - read only, like every field
    created: tuple[str, ...] = ()  # JSON Pointers of containers install created (removed when empty)
    created_file: bool = False  # the settings file did not exist before the first install
    created_folder: int = 0  # nor did its folder (e.g. .claude/): how many levels of folders, upwards

    @property
    def empty(self) -> bool:
        return not self.bundles


def from_text(text: str | None, path: str) -> Record:
    if text is None:
        return Record()
    from hookweave.core import recordcheck

    shown = display(Path(path))
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BadInput(f"{shown}: not a hookweave record we can read ({printable(str(exc))}); {FIX}") from None
    version = data.get("hookweave_record") if isinstance(data, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT:
        raise BadInput(f"{shown}: written by a newer hookweave (record format {version}); upgrade hookweave")
    try:
        return recordcheck.record(data)
    except recordcheck.Bad as bad:
        raise BadInput(f"{shown}: {bad.place}: {bad.cause}; {FIX}") from None


def to_text(record: Record, settings_name: str) -> str | None:
    """The record file's text, or ``None`` when no bundle is left (the file is then deleted)."""
    if record.empty:
        return None
    data = {
        "hookweave_record": FORMAT,
        "about": f"What hookweave installed into {settings_name}. Edit with `hooks` only.",
        "bundles": {name: _bundle_json(b) for name, b in sorted(record.bundles.items())},
        "created": list(record.created),
        "created_file": record.created_file,
        "created_folder": record.created_folder if record.created_folder > 1 else bool(record.created_folder),
    }
    return escape_surrogates(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"


def _bundle_json(b: RecordedBundle) -> dict:
    out = {
        "version": b.version,
        "hooks": [{"id": h.id, "event": h.event, "position": h.position, "sha256": h.sha256,
                   **({"chain": [{"id": i, "sha256": s} for i, s in h.members]} if h.members else {})} for h in b.hooks],
        "env": {
            n: {"value": e.value, "policy": e.policy, "prior": e.prior, "applied": e.applied,
                **({"prior_text": e.prior_text} if e.prior_text is not None else {})} for n, e in b.env.items()
        },
    }
    if b.traces_before:
        out["traces_before"] = list(b.traces_before)
    return out


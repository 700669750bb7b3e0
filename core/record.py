"""The record: what hookweave wrote into one settings file (pure conversion to and from JSON).

It lives beside the settings file as ``<stem>.hookweave.json`` (see the README). It holds hashes,
not commands, so a project-scope record carries no absolute path of anyone's machine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookweave.core.envmerge import RecordedEnv
from hookweave.core.errors import BadInput
from hookweave.core.paths import display

FORMAT = 1


@dataclass(frozen=True)
class RecordedHook:
    id: str
    event: str
    position: str
    sha256: str


@dataclass(frozen=True)
class RecordedBundle:
    version: str
    hooks: tuple[RecordedHook, ...] = ()
    env: dict[str, RecordedEnv] = field(default_factory=dict)

    def hashes(self, event: str | None = None) -> dict[str, str]:
        return {h.id: h.sha256 for h in self.hooks if event is None or h.event == event}


@dataclass(frozen=True)
class Record:
    bundles: dict[str, RecordedBundle] = field(default_factory=dict)
    created: tuple[str, ...] = ()  # JSON Pointers of containers install created (removed when empty)
    created_file: bool = False  # the settings file did not exist before the first install
    created_folder: int = 0  # nor did its folder (e.g. .claude/): how many levels of folders, upwards

    @property
    def empty(self) -> bool:
        return not self.bundles


def from_text(text: str | None, path: str) -> Record:
    if text is None:
        return Record()
    path = display(Path(path))
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not an object")
        version = data.get("hookweave_record")
        if isinstance(version, int) and version > FORMAT:
            raise BadInput(
                f"{path}: written by a newer hookweave (record format {version}); upgrade hookweave"
            )
        if version != FORMAT:
            raise ValueError(f"unknown record format {version!r}")
        bundles = {name: _bundle(raw) for name, raw in data["bundles"].items()}
        created = data.get("created", [])
        if not isinstance(created, list) or not all(isinstance(p, str) and p.startswith("/") for p in created):
            raise ValueError("created must be a list of JSON Pointers")
        return Record(
            bundles,
            tuple(created),
            bool(data.get("created_file", False)),
            _levels(data.get("created_folder", False)),
        )
    except BadInput:
        raise
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        why = f"no {exc} key" if isinstance(exc, KeyError) else str(exc)
        raise BadInput(
            f"{path}: not a hookweave record we can read ({why}); restore it from version control "
            "or delete it (hookweave then treats marked entries as unrecorded)"
        ) from None


def _levels(value: Any) -> int:
    """``created_folder``: ``false``/``true`` (as older records hold it), or how many levels of folders."""
    if isinstance(value, bool) or (isinstance(value, int) and value >= 0):
        return int(value)
    raise ValueError("created_folder must be true, false or a count of folders")


def _bundle(raw: dict[str, Any]) -> RecordedBundle:
    hooks = tuple(RecordedHook(h["id"], h["event"], h["position"], h["sha256"]) for h in raw.get("hooks", []))
    env = {
        name: RecordedEnv(str(e["value"]), e["policy"], e.get("prior"), bool(e["applied"]))
        for name, e in raw.get("env", {}).items()
    }
    return RecordedBundle(str(raw["version"]), hooks, env)


def to_text(record: Record, settings_name: str) -> str | None:
    """The record file's text, or ``None`` when no bundle is left (the file is then deleted)."""
    if record.empty:
        return None
    data = {
        "hookweave_record": FORMAT,
        "about": f"What hookweave installed into {settings_name}. Edit with `hooks` only.",
        "bundles": {
            name: {
                "version": b.version,
                "hooks": [{"id": h.id, "event": h.event, "position": h.position, "sha256": h.sha256} for h in b.hooks],
                "env": {
                    n: {"value": e.value, "policy": e.policy, "prior": e.prior, "applied": e.applied}
                    for n, e in b.env.items()
                },
            }
            for name, b in sorted(record.bundles.items())
        },
        "created": list(record.created),
        "created_file": record.created_file,
        "created_folder": record.created_folder if record.created_folder > 1 else bool(record.created_folder),
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

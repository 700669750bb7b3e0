"""OpenHands CLI: Claude's hook groups in ``.openhands/hooks.json``, the project's file or the user's.

Facts read in the source of PyPI ``openhands`` 1.16.0 (openhands-sdk 1.21.0: ``openhands/sdk/hooks``;
``openhands_cli/setup.py``) and run offline against the mock model (tests/e2e/test_openhands_real.py:
one file, file order, the first block, the variables, the answers); docs/HOST-FACTS.md has each:

- ``HookConfig.load`` takes ``<work dir>/.openhands/hooks.json`` when it exists, else
  ``~/.openhands/hooks.json``: **one** file, never both. The work dir is ``$OPENHANDS_WORK_DIR``, else
  the folder OpenHands starts in.
- ``{"hooks": {...}}`` or the events at the top level; PascalCase or snake_case events, six of them.
  An unknown event fails the whole file (pydantic, ``extra="forbid"``), and so OpenHands' start (measured
  by hand: ``--headless`` prints the ValidationError, runs no hook, asks the model nothing and exits 0).
- Matchers: ``*`` or empty match all, ``/re/`` or a matcher with a regex character is ``re.fullmatch``,
  else an exact tool name (``terminal``, ``file_editor``).
- Timeouts are seconds (default 60); past it OpenHands goes on, but only the hook's ``/bin/sh`` is
  killed: the command it started runs on (measured). An event's hooks run one after another in file
  order and the first block ends them (``execute_all``, ``stop_on_block``; measured); nothing is run once.
- A hook runs through ``/bin/sh`` (``shell=True``) in the work dir with ``OPENHANDS_PROJECT_DIR``,
  ``OPENHANDS_SESSION_ID``, ``OPENHANDS_EVENT_TYPE`` and ``OPENHANDS_TOOL_NAME`` (tool events) besides its
  own environment (no settings-level env: a bundle's ``[env]`` cannot reach a hook); exit 2,
  ``"decision": "deny"`` or ``"continue": false`` block (core/standalone/protocol_openhands.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.errors import BadInput
from hookweave.core.files import paths
from hookweave.core.model.findings import Finding

EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "SessionEnd", "Stop")
SNAKE = {"pre_tool_use", "post_tool_use", "user_prompt_submit", "session_start", "session_end", "stop"}

OPENHANDS = Description(
    name="openhands",
    title="OpenHands",
    files={"user": "~/.openhands/hooks.json", "project": "{project}/.openhands/hooks.json"},
    events={"session_start": "SessionStart", "session_end": "SessionEnd", "user_prompt_submit": "UserPromptSubmit",
            "pre_tool_use": "PreToolUse", "post_tool_use": "PostToolUse", "stop": "Stop"},
    tools={"shell": "terminal", "edit": "file_editor|apply_patch", "write": "file_editor|apply_patch"},
    project_variable="OPENHANDS_PROJECT_DIR",
    programs=("openhands",),
    order="file",
    dedup="none",
    execution="OpenHands runs an event's hooks one after another in file order and stops at the first block",
    protocol="openhands",
    source="PyPI openhands 1.16.0 (openhands-sdk 1.21.0, openhands/sdk/hooks), run offline; "
           "docs.openhands.dev/openhands/usage/customization/hooks",
)


class OpenhandsHost(host_class(OPENHANDS)):  # type: ignore[misc]  # built like a plugin's host, plus what data cannot say
    def settings_path(self, scope: str, project: Path) -> Path:
        if scope == "project":  # OPENHANDS_WORK_DIR, when set, is the folder OpenHands works in
            return Path(paths.from_env("OPENHANDS_WORK_DIR", project)) / ".openhands" / "hooks.json"
        return super().settings_path(scope, project)

    def check_document(self, doc: Any, path: str) -> None:
        super().check_document(doc, path)
        loose = [key for key in doc if key != "hooks"] if isinstance(doc, dict) else []
        if loose and "hooks" not in doc:
            raise BadInput(f"{path}: the events are at the top level ({', '.join(loose)}); OpenHands reads only "
                           '"hooks" once that key exists, so hookweave will not add it: move them under "hooks" first')

    def skipped_entries(self, doc: Any, path: str) -> list[str]:
        """What install would refuse, said by verify before anyone tries it, installed or not."""
        said = super().skipped_entries(doc, path)
        if isinstance(doc, dict) and doc and "hooks" not in doc:
            said.append('its events stand at the top level, which OpenHands runs; hookweave installs only under '
                        '"hooks", which would hide them: to install here, move the events under "hooks" first')
        return said

    def rejects(self, doc: Any, path: str) -> str | None:
        hooks = doc.get("hooks") if isinstance(doc, dict) and "hooks" in doc else doc
        if not isinstance(hooks, dict):
            return None
        unknown = [key for key in hooks if key not in EVENTS and key not in SNAKE]
        if unknown:  # the place only: verify and install put the file's name before it
            where = "/hooks/" if isinstance(doc, dict) and "hooks" in doc else "/"
            return (f"{where}{unknown[0]}: not an event OpenHands knows ({', '.join(EVENTS)}): it refuses the whole "
                    "file and starts no session (measured: it prints the error and exits 0)")
        return None

    def apply(self, text: str, ops: list[dict], path: str) -> str:
        """Nothing added to a file OpenHands refuses as a whole (docs/HOST-FACTS.md): our hooks would
        not run, and the operator would not learn why from us."""
        refused = self.rejects(self.parse(text, path), path) if text.strip() else None
        if refused and any(op["op"] != "remove" for op in ops):
            raise BadInput(f"{path}: {refused}; nothing written: rename that event to one of OpenHands' or remove "
                           "it, then run the command again")
        return super().apply(text, ops, path)

    def running_docs(self, docs: Mapping[str, Any], project: Path) -> dict[str, Any]:
        """The project's file when it exists, else the user's: OpenHands loads one."""
        if docs.get("project") is not None:
            return {"user": None, "project": docs.get("project")}
        return {"user": docs.get("user"), "project": None}

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        found = super().gates(docs, installed_scopes, project)
        if "user" in installed_scopes and docs.get("project") is not None:
            shown = paths.display(self.settings_path("project", project))
            found.append(Finding("problem", f"{shown} exists, so OpenHands loads it and not ~/.openhands/hooks.json: "
                                 "the user-scope hooks do not run in this project; install at project scope too",
                                 machine=True))
        return found


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(OpenhandsHost)

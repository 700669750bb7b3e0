"""Windsurf (Devin Desktop) Cascade hooks: a flat hooks.json with snake_case events and no matchers.

Documented facts only: no Windsurf binary runs here [DOC docs.windsurf.com/windsurf/cascade/hooks,
docs.devin.ai/desktop/cascade/hooks]. Files: system (``/etc/windsurf/hooks.json``, macOS
``/Library/Application Support/Windsurf``, Windows ``C:\\ProgramData\\Windsurf``), user
``~/.codeium/windsurf/hooks.json`` (the JetBrains plugin reads ``~/.codeium/hooks.json``) and
workspace ``.windsurf/hooks.json``. Shape ``{"hooks": {"<event>": [{"command", "show_output"?,
"working_directory"?}]}}``. "If the same hook event is configured in multiple locations, all hooks
execute in order: system → user → workspace"; exit 2 blocks a pre-hook. The documentation names no
timeout key, so none is written; hookweave writes ``command`` only.

There are no matchers: the tool is in the event's name (``pre_run_command``, ``pre_write_code``,
``pre_read_code``, ``pre_mcp_tool_use`` and their ``post_`` twins). A neutral tool hook goes
under the one event its matcher's tools name; a hook for every tool, or for tools of several
events, is skipped with a warning (refused when its ``hosts`` name windsurf), as installing it
under each event would give one hook several places the record cannot tell apart.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.contract.shapes import every_entry
from hookweave.core.files import paths
from hookweave.core.model import names
from hookweave.core.model.findings import Finding

if TYPE_CHECKING:
    from hookweave.core.model.bundle import Bundle, HookForHost

SYSTEM_DIR_ENV = "HOOKWEAVE_WINDSURF_SYSTEM_DIR"  # where the system hooks.json is looked for
TOOL_STEMS = ("run_command", "write_code", "read_code", "mcp_tool_use")
SHELLS = ("command", "powershell")  # a hook runs one of these [3P rulesync: either may stand alone]


def _system_dir() -> Path:
    default = paths.by_platform("/etc/windsurf", "/Library/Application Support/Windsurf", "C:/ProgramData/Windsurf")
    return paths.from_env(SYSTEM_DIR_ENV, default)


WINDSURF = Description(
    name="windsurf",
    title="Windsurf",
    files={"user": "~/.codeium/windsurf/hooks.json", "project": "{project}/.windsurf/hooks.json"},
    shape="flat",
    events=names.column("windsurf", names.EVENTS),
    tools=names.column("windsurf", names.TOOLS),
    native_events=tuple(
        [f"{side}_{stem}" for side in ("pre", "post") for stem in TOOL_STEMS]
        + ["pre_user_prompt", "post_cascade_response", "post_cascade_response_with_transcript", "post_setup_worktree"]
    ),
    project_lookup="git",  # the workspace the editor opens: the repository, in practice, as for Cursor [not measured]
    programs=("windsurf",),
    dedup="none",  # documented: every configured hook runs, so a copy in two files runs twice
    order="file",
    execution="Windsurf runs an event's hooks one after another: the system file's, the user's, then the workspace's",
    source="docs.windsurf.com/windsurf/cascade/hooks (documentation only)",
)


class WindsurfHost(host_class(WINDSURF)):  # type: ignore[misc]  # built like a plugin's host, plus what data cannot say
    no_managed = ("Windsurf's system layer is one file, the administrator's /etc/windsurf/hooks.json, with no drop-in folder: add the hooks there by hand, or install at user scope")
    command_keys = SHELLS  # FlatHost's checks: "powershell" alone runs too
    # the system file is read for gates (context_paths), never written

    def context_paths(self, project: Path) -> dict[str, Path]:
        return {"system": _system_dir() / "hooks.json"}

    def event_for(self, native: str, hook: HookForHost) -> tuple[str | None, str]:
        side = native.split("_", 1)[0]
        if native != f"{side}_run_command":  # the column's tool events; any other is the event itself
            return native, ""
        stems = [] if not isinstance(hook.matcher, tuple) else list(dict.fromkeys(
            self.tools[t] for t in hook.matcher if self.tools.get(t)))
        if len(stems) == 1:
            return f"{side}_{stems[0]}", ""
        events = ", ".join(f"{side}_{stem}" for stem in TOOL_STEMS)
        what = "a native matcher" if isinstance(hook.matcher, str) else (
            "no matcher" if not stems else "tools of several of them")
        return None, (f"{self.title} files {hook.event} under one event per kind of tool ({events}) and this hook "
                      f"has {what}; give it tools of one kind (shell, write/edit or read), or set "
                      f"[hooks.host.windsurf] event to one of those events")

    def render(self, hook: HookForHost, native_event: str, bundle: Bundle) -> dict[str, Any]:
        return {"command": self.command(hook, bundle)}

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        """A hook of ours that the system file holds too runs twice (every file's hooks run)."""
        ours = {self.owner(e) for scope in installed_scopes for e in every_entry(docs.get(scope))} - {None}
        system = {self.owner(e) for e in every_entry(docs.get("system"))} - {None}
        shown = paths.display(_system_dir() / "hooks.json")
        return [Finding("warning", f"also in the system hooks file {shown}, which Windsurf runs first: it would "
                        "fire twice", bundle, hook_id, machine=True) for bundle, hook_id in sorted(ours & system)]


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(WindsurfHost)

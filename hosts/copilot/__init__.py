"""GitHub Copilot CLI: a hooks file of hookweave's own in the folders Copilot reads whole.

Copilot loads every ``*.json`` in ``.github/hooks/`` (project) and ``~/.copilot/hooks/`` (user,
``$COPILOT_HOME/hooks``), so hookweave owns ``hookweave.json`` there instead of merging into a
file the operator edits: the first bundle creates it, the last one's uninstall deletes it (and
the folder, when hookweave created that too), and an operator's file beside it is never opened.

The file: ``{"version": 1, "hooks": {"<camelCaseEvent>": [entry, ...]}}``, flat entries with
``type``, ``bash`` and ``powershell`` (a ``bash``-only hook does nothing on Windows),
``timeoutSec`` and a ``matcher`` that Copilot anchors (``^(?:p)$``) against lowercase tool names.
Entries of one event run in file order; for ``preToolUse`` any deny wins. Facts:
shared/HOSTS-MORE.md section 1.2 (GitHub's hooks reference); the program (1.0.102) names
``${COPILOT_PROJECT_DIR}`` and ``${CLAUDE_PROJECT_DIR}`` as the project placeholders it fills in.
Copilot also runs the hooks in Claude's project and local settings (``also_reads``: verify's
cross-agent findings, core/verify/readers.py) and the inline ``hooks`` of its own settings files
(``copilot_inline``). Measured on 1.0.102 (tests/e2e/test_copilot_real.py): project hooks run only
in a trusted folder.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.contract.reads import Reads
from hookweave.core.errors import BadInput
from hookweave.core.files import paths
from hookweave.core.formats import jsonlite
from hookweave.core.model import names
from hookweave.core.model.findings import UNREAD, Finding
from hookweave.core.model.render import marker
from hookweave.core.model.runnable import unguarded
from hookweave.hosts.copilot import policy as policy

if TYPE_CHECKING:
    from hookweave.core.model.agentplugins import PluginHook
    from hookweave.core.model.bundle import Bundle, HookForHost

FILE_NAME = "hookweave.json"
SHELLS = ("bash", "powershell", "command")  # where an entry's command can be; command is the fallback


def _user_dir() -> Path:
    return paths.from_env("COPILOT_HOME", paths.home() / ".copilot")


COPILOT = Description(
    name="copilot",
    title="Copilot CLI",
    files={"user": f"${{COPILOT_HOME:-~/.copilot}}/hooks/{FILE_NAME}", "project": f"{{project}}/.github/hooks/{FILE_NAME}",
           # hookweave's own drop-in in the policy folder (hosts/copilot/policy.py): loaded first, root's only
           "managed": {system: f"{folder}/{policy.DROP_IN}" for system, folder in policy.FOLDERS.items()}},
    shape="flat",
    events=names.column("copilot", names.EVENTS),
    tools=names.column("copilot", names.TOOLS),
    native_events=tuple("sessionStart sessionEnd userPromptSubmitted preToolUse postToolUse postToolUseFailure agentStop "
                        "subagentStart subagentStop errorOccurred preCompact permissionRequest notification".split()),
    project_variable="${COPILOT_PROJECT_DIR}",
    required={"version": 1},
    # Measured on 1.0.102 (tests/e2e/test_copilot_real.py, test_standin_real.py): a hook in Claude's
    # project or local settings fires in Copilot too (not one in ~/.claude/settings.json), with
    # Claude's payload (hook_event_name, tool_name) and tool names: bash, create, edit and view reach
    # it as Bash, Write, Edit and Read, which Claude's matchers match; exit 2 and a permissionDecision
    # deny block. SubagentStop, PreCompact and Notification did not occur there: not covered.
    also_reads=(Reads("claude", ("project", "local"), "honoured", "", True,
                      ("SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")),),
    programs=("copilot",),
    dedup="none",
    order="file",
    execution="Copilot runs an event's hooks one after another, in file order",
    source="GitHub's hooks reference (shared/HOSTS-MORE.md section 1.2); Copilot CLI 1.0.102, measured (tests/e2e)",
)


class CopilotHost(host_class(COPILOT)):  # type: ignore[misc]  # built like a plugin's host, plus what data cannot say
    created_only = ("managed",)  # the policy folder is the administrator's: only a drop-in hookweave created is ours
    root_only = {"managed": policy.NEEDS_ROOT}  # created 0644, root's: Copilot skips any other
    owns_file = True  # hookweave's own file; the operator's hooks are in other files it never edits
    command_keys = SHELLS
    project_root_ref = None  # a bundle inside the project: absolute paths (Copilot's variable there is not measured)

    def record_path(self, settings: Path) -> Path:
        """Beside the hooks or policy folder, not in it: Copilot would load a ``.json`` record as hooks."""
        return settings.parent.with_name(settings.parent.name + ".hookweave.json")

    def context_paths(self, project: Path) -> dict[str, Path]:
        return {"config": _user_dir() / "config.json"}

    def verify_extra(self, project: Path, scopes: list[str]) -> list[Finding]:
        """The inline hooks of Copilot's settings files (read here, not in ``gates``: whether a
        project file holds a comment decides whether Copilot runs them, and parsed data cannot say)."""
        from hookweave.core.reading.scopes import read_scope
        from hookweave.hosts.copilot.inline import inline_findings, inline_paths, read_inline

        ours = {scope: read_scope(self, scope, project)[0] for scope in self.verify_scopes}
        found = inline_findings(self, read_inline(inline_paths(project, _user_dir())), ours)
        drop_in = self.settings_path("managed", project)
        if "managed" in scopes and drop_in.exists():
            found += policy.findings(drop_in, paths.display(drop_in))
        return found

    def detect(self) -> bool:
        return _user_dir().is_dir() or super().detect()  # its own hooks folder may not exist yet

    def render(self, hook: HookForHost, native_event: str, bundle: Bundle) -> dict[str, Any]:
        command = self.command(hook, bundle)
        entry: dict[str, Any] = {"type": "command", "bash": command,
                                 "powershell": powershell_command(hook, bundle)}
        matcher = self.native_matcher(hook.matcher)
        if matcher:
            entry["matcher"] = matcher
        if hook.timeout is not None:
            entry["timeoutSec"] = hook.timeout
        return entry

    def check_document(self, doc: Any, path: str) -> None:
        if isinstance(doc, dict) and "version" in doc and doc["version"] != 1:
            raise BadInput(f"{path}: /version is {jsonlite.dumps(doc['version'])}, and Copilot reads only version 1; "
                           "fix the file by hand")
        super().check_document(doc, path)

    def plugin_hooks(self, docs: Mapping[str, Any], project: Path) -> list[PluginHook]:
        """The hooks of the enabled plugins (1.0.102, measured: tests/e2e/test_plugins_real.py)."""
        from hookweave.hosts.copilot import plugins as copilot_plugins  # read only by verify

        return copilot_plugins.plugin_hooks(_user_dir())

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        found: list[Finding] = []
        for scope in sorted(installed_scopes):
            doc = docs.get(scope)
            if isinstance(doc, dict) and doc.get("disableAllHooks") is True:
                found.append(Finding("problem", f"{scope} hooks file sets disableAllHooks: Copilot runs none of its "
                                     "hooks; remove the key", machine=not paths.within(self.settings_path(scope, project),
                                                                                       project)))
        if "project" in installed_scopes and not _trusted(docs.get("config"), project):
            # measured on 1.0.102: Claude's project settings are skipped too (tests/e2e/test_standin_real.py)
            unread = f", not read: {UNREAD}" if "config" not in docs else ""  # verify --repo
            found.append(Finding("warning" if unread else "problem", f"the project folder is not trusted by Copilot "
                                 f"(trustedFolders in ~/.copilot/config.json{unread}): it skips the project's hooks, in "
                                 ".github/hooks and in Claude's project settings; trust the folder when Copilot asks, "
                                 "or add it to trustedFolders", machine=True))
        return found


def powershell_command(hook: HookForHost, bundle: Bundle) -> str:
    """The command for PowerShell, which Copilot runs on Windows: argv words as literal strings
    (single quotes, a quote doubled) run with ``&``, a word holding the project folder as a
    double-quoted string reading ``$env:COPILOT_PROJECT_DIR``; a string command as written. The same
    marker ends it, as ``#`` starts a comment in PowerShell too."""
    if isinstance(hook.command, tuple):
        words = [_ps_word(arg.replace("{bundle_dir}", str(bundle.directory))) for arg in hook.command]
        body = "& " + " ".join(words)
    else:
        # A chain's guard is POSIX sh (``[ -f ...]``), no PowerShell: its words run there as before
        body = unguarded(hook.command).replace("{bundle_dir}", _ps_word(str(bundle.directory)))
        body = body.replace("{project_dir}", '"$env:COPILOT_PROJECT_DIR"')
    return body + ("\n" if "\n" in body else " ") + marker(bundle.name, hook.id)


def _ps_word(arg: str) -> str:
    if "{project_dir}" not in arg:
        return "'" + arg.replace("'", "''") + "'"
    escape = str.maketrans({"`": "``", "$": "`$", '"': '`"'})  # special inside PowerShell's double quotes
    return '"' + "${env:COPILOT_PROJECT_DIR}".join(p.translate(escape) for p in arg.split("{project_dir}")) + '"'


def _trusted(config: Any, project: Path) -> bool:
    """Whether Copilot 1.0.102 loads the project's hooks: measured, it skips ``.github/hooks`` until
    the folder or one of its parents is in ``trustedFolders`` (a sibling whose name starts the same
    is not), or ``COPILOT_ALLOW_ALL=true`` is exported."""
    if os.environ.get("COPILOT_ALLOW_ALL") == "true":
        return True
    folders = config.get("trustedFolders") if isinstance(config, dict) else None
    here = Path(os.path.realpath(project))
    return isinstance(folders, list) and any(
        isinstance(f, str) and f and (here == Path(os.path.realpath(f)) or Path(os.path.realpath(f)) in here.parents)
        for f in folders)


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(CopilotHost)

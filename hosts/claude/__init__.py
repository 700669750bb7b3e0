"""Claude Code: strict-JSON settings.json at user, project and local scope, with an env key.

Facts: shared/HOSTS.md section 2. A comment makes Claude ignore the whole file, so we never write
one and refuse to edit a file that has one.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.files import layerfiles
from hookweave.core.formats import jsonlite
from hookweave.core.model import names
from hookweave.core.model.findings import Finding

if TYPE_CHECKING:  # read only by verify
    from hookweave.core.model.agentplugins import PluginHook

MANAGED_DIR_ENV = "HOOKWEAVE_CLAUDE_MANAGED_DIR"  # where managed-settings.json is looked for (Claude reads no variable)
DROP_INS = "managed-settings.d"
# hookweave's own drop-in, one for all its bundles. Claude merges managed-settings.json first, then
# the drop-ins by name (a later file's scalars, env included, win): 50 leaves room on both sides.
DROP_IN = "50-hookweave.json"
_MANAGED = {"linux": "${HOOKWEAVE_CLAUDE_MANAGED_DIR:-/etc/claude-code}",
            "macos": "${HOOKWEAVE_CLAUDE_MANAGED_DIR:-/Library/Application Support/ClaudeCode}",
            "windows": "${HOOKWEAVE_CLAUDE_MANAGED_DIR:-C:/Program Files/ClaudeCode}"}

CLAUDE = Description(
    name="claude",
    title="Claude Code",
    files={  # Claude's precedence, lowest first
        "user": "${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json",
        "project": "{project}/.claude/settings.json",
        "local": "{project}/.claude/settings.local.json",
        # The managed layer as hookweave writes it: its own drop-in. Verify reads the whole layer
        # (managed-settings.json and every drop-in, merged as Claude does: ``extra_paths``).
        "managed": {system: f"{folder}/{DROP_INS}/{DROP_IN}" for system, folder in _MANAGED.items()},
    },
    events=names.column("claude", names.EVENTS),
    tools=names.column("claude", names.TOOLS),
    native_events=tuple(
        "PreToolUse PostToolUse PostToolUseFailure PostToolBatch Notification UserPromptSubmit "
        "UserPromptExpansion SessionStart SessionEnd Stop StopFailure SubagentStart SubagentStop "
        "PreCompact PostCompact PermissionRequest PermissionDenied Setup TeammateIdle TaskCreated "
        "TaskCompleted Elicitation ElicitationResult ConfigChange WorktreeCreate WorktreeRemove "
        "InstructionsLoaded CwdChanged FileChanged MessageDisplay "
        # new in 2.1.332 (its list of events, 34 in all): no neutral name, as no other host has them
        "PreModelSwitch PostModelSwitch DirectoryAdded PreSkillShellCommand".split()
    ),
    env_key="env",
    comment_fix="Claude ignores the whole file when it has a comment: remove it",
    project_variable="CLAUDE_PROJECT_DIR",
    programs=("claude",),
    dedup="last",  # keyed by type, shell, command, args and if (run_key): a Map, the last copy's handler (tests/e2e: its timeout)
    order="parallel",  # measured on 2.1.197 and 2.1.332: the hooks of one event overlap, whatever the file order
    execution="Claude starts all of an event's matching hooks at once and does not wait for one before "
              "the next, so file order is not execution order",
    loose_entries="refused",  # 2.1.197, measured: none of the file's hooks run, nor its env (tests/e2e)
    untyped_handlers="refused",  # tests/e2e/test_flat_entries_real.py, measured: none of the file's hooks run
    source="shared/HOSTS.md section 2; Claude Code 2.1.332 (and 2.1.197 before it), measured (tests/e2e)",
)


class ClaudeCodeHost(host_class(CLAUDE)):  # type: ignore[misc]  # built like a plugin's host, plus what data cannot say
    created_only = ("managed",)  # the folder is the administrator's: only a drop-in hookweave created is ours
    managed_first = True  # an event's managed hooks run first, the others after the last ends (measured: managed_first)
    # 2.1.332, measured: "none of its settings are in effect. Fix or remove it", and exit 1
    unreadable = {"managed": "Claude Code refuses to start while a managed settings file does not parse, and runs no hooks"}
    merge_layer = staticmethod(lambda lower, upper: claude_merge(lower, upper))  # the managed files, as Claude merges sources

    def run_key(self, event: str, entry: Any) -> tuple | None:
        """Claude 2.1.197 and 2.1.332 collect an event's matching handlers from every scope and keep one per
        ``shell + command + JSON(args) + if`` (a ``Map``; settings hooks have no plugin or skill
        root), whatever the timeout, matcher or scope: read in its bundled code, measured in
        tests/e2e/test_duplicates_real.py."""
        handler = self.handler_of(entry)
        if handler is None:
            return None
        kind = handler.get("type")
        if kind != "command":  # other types have keys of their own; never the same as a command's
            return (event, kind, jsonlite.dumps(handler, sort_keys=True, default=str))
        shell = handler.get("shell")  # JavaScript's ??: only a missing or null value takes the default
        shell = ("powershell" if os.name == "nt" and not shutil.which("bash") else "bash") if shell is None else shell
        args = jsonlite.dumps(handler.get("args"), separators=(",", ":"), ensure_ascii=False, default=str)
        condition = "" if handler.get("if") is None else handler.get("if")
        return (event, "command", _hashable(shell), handler.get("command"), args, _hashable(condition))

    def extra_paths(self, scope: str) -> list[Path]:
        """The managed layer in Claude's order (2.1.332, read in its bundled code and measured in
        tests/e2e/test_managed_real.py): managed-settings.json, then every ``*.json`` of
        managed-settings.d that is not a dot-file, by name; ours is among them, written or not."""
        if scope != "managed":
            return []
        ours = self.settings_path("managed", Path("/"))
        folder = ours.parent
        found = set(layerfiles.listed(folder, lambda name: name.endswith(".json") and not name.startswith(".")))
        return [folder.with_name("managed-settings.json"), *sorted(found | {ours}, key=lambda p: p.name)]

    def verify_extra(self, project: Path, scopes: list[str]) -> list[Finding]:
        """Our managed drop-in as a user's Claude finds it: a user must read it and its two folders."""
        drop_in = self.settings_path("managed", project)
        why = layerfiles.user_cannot_read(drop_in, 2, self.title) if "managed" in scopes else None
        return [Finding("problem", why)] if why else []

    def record_path(self, settings: Path) -> Path:
        """The managed drop-in's record beside the folder, not in it: Claude would load it as settings."""
        if settings.parent.name == DROP_INS:
            return settings.parent.with_name(f"{DROP_INS}.hookweave.json")
        return super().record_path(settings)

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        return claude_gates(docs, os.environ, installed_scopes) + managed_first(docs)

    def plugin_hooks(self, docs: Mapping[str, Any], project: Path) -> list[PluginHook]:
        """The hooks of the enabled plugins (measured on 2.1.332: tests/e2e/test_plugins_real.py)."""
        if not any(isinstance(doc, dict) and isinstance(doc.get("enabledPlugins"), dict) and doc["enabledPlugins"]
                   for doc in docs.values()):
            return []  # most settings turn no plugin on: the reader and its rules are not loaded
        from hookweave.hosts.claude import plugins as claude_plugins  # read only by verify

        return claude_plugins.plugin_hooks(self.settings_path("user", project).parent / "plugins", docs, project)


GATE_KEYS = ("disableAllHooks", "allowManagedHooksOnly")
PRECEDENCE = ("user", "project", "local", "managed")  # Claude's merge order, lowest first (flag settings unseen)
MACHINE = frozenset({"user", "managed"})  # this machine's settings, not the repository's (Finding.machine)
ONLY_MANAGED = "Claude runs only managed hooks, none of hookweave's"


def claude_gates(docs: Mapping[str, Any], environ: Mapping[str, str],
                 installed_scopes: set[str] | frozenset[str] = frozenset()) -> list[Finding]:
    """Claude's kill switches as it applies them (2.1.197, functions ``K7r``/``Xce``; the same on
    2.1.332, tests/e2e/test_gates_real.py): policy ``disableAllHooks`` stops every hook; policy
    ``allowManagedHooksOnly`` or ``strictPluginOnlyCustomization`` covering hooks keeps managed
    hooks only; otherwise the *merged* ``disableAllHooks`` (user < project < local < managed, the
    later scalar wins) does. ``allowManagedHooksOnly`` outside managed settings is never read.
    2.1.332 with ``CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG`` set: a merged ``true`` that the user
    settings do not set themselves leaves the user settings' hooks running (measured)."""
    found = [Finding("warning", f"{scope} settings: {key} should be true or false; hookweave reads it as unset, and "
                     "Claude may reject the file: fix it", machine=scope in MACHINE)
             for scope in PRECEDENCE for key in GATE_KEYS
             if isinstance(docs.get(scope), dict) and docs[scope].get(key) is not None
             and not isinstance(docs[scope][key], bool)]
    managed = docs.get("managed") if isinstance(docs.get("managed"), dict) else {}
    strict = managed.get("strictPluginOnlyCustomization")
    value, winner, overridden = _merged(docs, "disableAllHooks")
    if managed.get("disableAllHooks") is True:
        return found + [Finding("problem", "managed settings set disableAllHooks: Claude runs no hooks at all",
                                machine=True)]
    if managed.get("allowManagedHooksOnly") is True:
        found.append(_managed_only("managed settings set allowManagedHooksOnly", installed_scopes, True,
                                   "Claude runs only managed hooks"))
    elif strict is True or (isinstance(strict, list) and "hooks" in strict):
        found.append(_managed_only("managed settings set strictPluginOnlyCustomization for hooks", installed_scopes,
                                   True))
    elif value is True and _personal_kept(docs, environ):
        level = "note" if installed_scopes and installed_scopes <= {"user"} else "problem"
        found.append(Finding(level, f"{winner} settings set disableAllHooks, but CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG "
                             "is set in this shell: a Claude started from it runs only the user and managed settings' hooks",
                             machine=True))
    elif value is True:
        found.append(_managed_only(f"{winner} settings set disableAllHooks", installed_scopes, winner in MACHINE,
                                   fix="; remove the key or set it to false"
                                   + (f" (it overrides {' and '.join(overridden)})" if overridden else "")))
    for scope in overridden if value is False else ():
        found.append(Finding("note", f"{scope} settings set disableAllHooks, but {winner} settings set it to false, "
                             "which Claude uses: hooks run", machine=winner in MACHINE))
    for scope in ("user", "project", "local"):
        if isinstance(docs.get(scope), dict) and docs[scope].get("allowManagedHooksOnly") is True:
            found.append(Finding("note", f"{scope} settings set allowManagedHooksOnly, which Claude reads only in "
                                 "managed settings: it changes nothing here", machine=scope in MACHINE))
    found += _environment_gates(environ)
    return found


# The events where a managed hook's block keeps the other layers' hooks of that call from starting,
# and what they block (2.1.332, measured: tests/e2e/test_managed_block_real.py).
BLOCK_ENDS = {"PreToolUse": "tool call", "UserPromptSubmit": "prompt"}


def managed_first(docs: Mapping[str, Any]) -> list[Finding]:
    """Where the managed layer holds hooks, the order across layers (2.1.332, measured:
    tests/e2e/test_managed_real.py): managed hooks first, the others after the last one ends. Where
    the managed layer and another share PreToolUse or UserPromptSubmit, also that a managed block
    ends the call or prompt there (measured: tests/e2e/test_managed_block_real.py; other events'
    blocks are unmeasured, so unsaid)."""
    if not _has_hooks(docs, "managed"):
        return []
    shared = [event for event in BLOCK_ENDS if _has_hooks(docs, "managed", event) and any(
        _has_hooks(docs, scope, event) for scope in ("user", "project", "local"))]
    blocked = (f"; on {' and '.join(shared)}, not at all for a {' or '.join(BLOCK_ENDS[e] for e in shared)} a "
               'managed hook blocks (exit 2, permissionDecision "deny" or decision "block"; "ask" does not stop '
               'them)') if shared else ""
    return [Finding("note", "Claude runs an event's managed hooks first, all at once, and starts the user, project and "
                    f"local ones only after the last managed one has ended{blocked}", machine=True)]


def _has_hooks(docs: Mapping[str, Any], scope: str, event: str | None = None) -> bool:
    """Whether ``scope``'s settings hold a hook group (on ``event``, or on any event)."""
    hooks = docs[scope].get("hooks") if isinstance(docs.get(scope), dict) else None
    if not isinstance(hooks, dict):
        return False
    lists = [hooks.get(event)] if event else list(hooks.values())
    return any(isinstance(groups, list) and groups for groups in lists)


def _managed_only(cause: str, installed: set[str] | frozenset[str], machine: bool, said: str = ONLY_MANAGED,
                  fix: str = "") -> Finding:
    """A switch that leaves Claude running managed hooks only (measured on 2.1.332, issue 34:
    hookweave's at managed scope ran under a project ``disableAllHooks`` and a managed
    ``allowManagedHooksOnly``): a note when every scope hookweave installed in is managed, else a
    problem naming the scopes whose hooks stop."""
    stopped = [scope for scope in PRECEDENCE if scope in installed and scope != "managed"]
    if installed and not stopped:
        return Finding("note", f"{cause}: Claude runs only managed hooks, and hookweave's are all at managed scope, "
                       "so they run", machine=machine)
    if "managed" in installed:
        return Finding("problem", f"{cause}: Claude runs only managed hooks: hookweave's at {' and '.join(stopped)} "
                       f"scope do not run, those at managed scope do{fix}", machine=machine)
    return Finding("problem", f"{cause}: {said}{fix}", machine=machine)


def _merged(docs: Mapping[str, Any], key: str) -> tuple[bool | None, str, list[str]]:
    """The boolean Claude ends up with for ``key``, the scope it comes from, and the scopes below
    it that set ``key`` to the other value (their setting is overridden)."""
    value, winner, setters = None, "", []
    for scope in PRECEDENCE:
        doc = docs.get(scope)
        found = doc.get(key) if isinstance(doc, dict) else None
        if isinstance(found, bool):
            value, winner = found, scope
            setters.append((scope, found))
    return value, winner, [scope for scope, v in setters if v is not value and scope != winner]


def _personal_kept(docs: Mapping[str, Any], environ: Mapping[str, str]) -> bool:
    """Whether 2.1.332 keeps the user settings' hooks under a merged ``disableAllHooks: true``:
    with CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG set, unless the user settings set it true themselves."""
    user = docs.get("user") if isinstance(docs.get("user"), dict) else {}
    return _truthy(environ.get("CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG")) and user.get("disableAllHooks") is not True


# Variables that switch hooks off in a Claude started from this shell (--bare, --safe-mode and
# --restricted set the same on the command line, which verify cannot see). Measured on 2.1.332
# (tests/e2e/test_gates_real.py); 2.1.197 ran no hook at all in bare mode and knew no RESTRICTED.
SWITCHES = {
    "CLAUDE_CODE_SIMPLE": "(bare mode) runs only managed hooks, and none on SessionStart",
    "CLAUDE_CODE_SAFE_MODE": "(safe mode) runs only managed hooks",
    "CLAUDE_CODE_RESTRICTED": "(restricted mode) runs only managed hooks",
}


def _environment_gates(environ: Mapping[str, str]) -> list[Finding]:
    """The switches above, and the 2.1.332 variables that look like switches and are not:
    ``CLAUDE_CODE_PERSONAL_HOOKS_OFF`` words a notice (read only with
    CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG, then unset before any hook runs), and every hook ran with
    it set; ``CLAUDE_CODE_HOOKS_SAME_THREAD`` picks where plugin function hooks run."""
    out = [Finding("warning", f"{name} is set in this shell: a Claude started from it {does}", machine=True)
           for name, does in SWITCHES.items() if _truthy(environ.get(name))]
    notice = (environ.get("CLAUDE_CODE_PERSONAL_HOOKS_OFF") or "").strip().lower()
    if notice not in ("", "none", "0", "false", "no", "off"):  # Claude's own reading
        out.append(Finding("note", "CLAUDE_CODE_PERSONAL_HOOKS_OFF is set in this shell: Claude only words a notice "
                           "with it and still runs every hook", machine=True))
    return out


def _truthy(value: str | None) -> bool:
    return value is not None and value.strip().lower() in ("1", "true", "yes", "on")  # Claude's own test


def claude_merge(lower: Any, upper: Any) -> Any:
    """Claude's merge of two settings sources (lodash ``mergeWith``): objects key by key, arrays
    joined with duplicates dropped (hook groups are distinct objects, so none is), scalars the upper."""
    if isinstance(lower, dict) and isinstance(upper, dict):
        out = dict(lower)
        for key, value in upper.items():
            out[key] = claude_merge(lower[key], value) if key in lower else value
        return out
    if isinstance(lower, list) and isinstance(upper, list):
        joined: list = []
        for item in [*lower, *upper]:
            if isinstance(item, (dict, list)) or not any(type(x) is type(item) and x == item for x in joined):
                joined.append(item)
        return joined
    return upper


def _hashable(value: Any) -> Any:
    """A JSON value as part of a key (a list or object, which Claude would reject anyway, as its text)."""
    return jsonlite.dumps(value, sort_keys=True, default=str) if isinstance(value, (list, dict)) else value


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(ClaudeCodeHost)

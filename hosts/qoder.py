"""Qoder CLI (``qodercli``): Claude's hook groups in a commented settings.json at user, project and
local scope. A description only: every fact below is data the described host already reads.

Facts from its documentation (docs.qoder.com/en/cli/hooks) and its npm package
``@qoder-ai/qodercli`` 1.1.52 read offline; none is measured, as Qoder runs only after a login to
its servers. docs/HOST-FACTS.md has each with its source:

- ``${QODER_CONFIG_DIR:-~/.qoder}/settings.json``, ``.qoder/settings.json`` and
  ``.qoder/settings.local.json``, all three merged; JSON with comments (``stripJsonComments`` then
  ``JSON.parse``: a trailing comma stops the CLI, so jsonc, not json5).
- Claude's event names, tools ``Bash``, ``Read``, ``Write``, ``Edit``; the matcher is a regex.
- Commands run through ``bash -c``; timeouts are seconds, 600 by default; ``$QODER_PROJECT_DIR``
  (and ``$CLAUDE_PROJECT_DIR``) hold the project.
- Exit 2 blocks, stdout is read as JSON on exit 0 (Claude's answer protocol; on PreToolUse a stdout
  that starts with ``{`` but is not hook JSON denies the call, where Claude would go on).
- An event's hooks run at once unless a group sets ``"sequential": true``; identical hooks run once.
- ``disableAllHooks: true`` or ``hooksConfig.enabled: false`` switches every hook off.
- Settings are watched and reloaded: a running session picks up an install.
"""

from __future__ import annotations

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.model import names

QODER = Description(
    name="qoder",
    title="Qoder CLI",
    files={"user": "${QODER_CONFIG_DIR:-~/.qoder}/settings.json", "project": "{project}/.qoder/settings.json",
           "local": "{project}/.qoder/settings.local.json"},
    format="jsonc",
    events=names.column("claude", names.EVENTS),
    tools=names.column("claude", names.TOOLS) | {"edit": "Edit"},  # no MultiEdit tool in Qoder's list
    native_events=tuple(
        "PreToolUse PostToolUse PostToolUseFailure Notification UserPromptSubmit SessionStart SessionEnd Stop "
        "StopFailure SubagentStart SubagentStop PreCompact PostCompact PermissionRequest PermissionDenied "
        "TeammateIdle ConfigChange InstructionsLoaded CwdChanged FileChanged WorktreeCreate WorktreeRemove "
        "TaskCreated TaskCompleted Elicitation ElicitationResult Setup".split()
    ),
    project_variable="QODER_PROJECT_DIR",
    programs=("qodercli",),
    # identical hooks of one event run once, the project copy first, then the local one, then the user's:
    # the last file's copy but for a project and local pair (there the project's, hookweave's "first")
    dedup="last",
    order="sequential-flag",
    execution="Qoder CLI runs an event's hooks in parallel unless a group of the event sets \"sequential\": true "
              "(its documentation; not measured)",
    switches={"disableAllHooks": True, "hooksConfig.enabled": False},
    restart="",  # Qoder watches its settings files and reloads them
    protocol="claude",
    notes=("Qoder CLI facts come from its documentation, never from a run (it needs a Qoder login): unmeasured",
           "Qoder CLI loads project and local hooks in an interactive session only in a trusted folder "
           "(permissions.trustDirectories, or security.folderTrust.enabled: false); -p runs are trusted"),
    source="docs.qoder.com/en/cli/hooks and npm @qoder-ai/qodercli 1.1.52, documents only (unmeasured)",
)


class QoderHost(host_class(QODER)):  # type: ignore[misc]  # the described host, as a module of hookweave.hosts
    """Nothing but the description: Qoder's facts are all data."""


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(QoderHost)

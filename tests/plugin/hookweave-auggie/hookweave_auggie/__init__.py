"""Augment's Auggie CLI as a hookweave host: a description, no code (hookweave docs/PLUGINS.md).

Facts measured on @augmentcode/auggie 0.36.0 offline (hooks run only when Augment's server sends
enable_hooks); matchers are unanchored regexes on Auggie's own tool names, hence the anchors.
"""

from hookweave.core.contract.description import Description

AUGGIE = Description(
    name="auggie",
    title="Auggie CLI",
    files={  # precedence, lowest first; every file's hooks run, added together event by event
        "user": "~/.augment/settings.json",
        "project": "{project}/.augment/settings.json",
        "local": "{project}/.augment/settings.local.json",
        "system": "${HOOKWEAVE_AUGMENT_SYSTEM_DIR:-/etc/augment}/settings.json",
    },
    read_only=("system",),
    format="json5",  # comments and trailing commas load
    events={"session_start": "SessionStart", "session_end": "SessionEnd", "user_prompt_submit": "PromptSubmit",
            "pre_tool_use": "PreToolUse", "post_tool_use": "PostToolUse", "stop": "Stop",
            "notification": "Notification"},
    tools={"shell": "^launch-process$", "read": "^view$", "write": "^save-file$",
           "edit": "^str-replace-editor$|^apply_patch$"},
    timeout_unit="ms",
    project_variable="AUGMENT_PROJECT_DIR",
    runs="argv",
    order="parallel",
    dedup="first",
    project_lookup="git",  # the git root above the folder it starts in (not when that holds HOME)
    protocol="auggie",
    loose_entries="event",  # 0.36.0, measured: a handler outside a group drops that event's list in the file
    bad_matchers="event",  # 0.36.0, measured: so does a matcher new RegExp() refuses ("*")
    notes=("Auggie runs hooks only when Augment's server turns them on for your account (enable_hooks), "
           "which hookweave cannot see; Auggie reads settings at start only",),
    source="@augmentcode/auggie 0.36.0, measured offline; docs.augmentcode.com/cli/hooks",
)

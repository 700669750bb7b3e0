"""Where each built-in host keeps its records (the ``.hookweave.json`` beside a settings file), per
scope, as the hosts' own path templates: the cross-agent check (``crossreads``) looks whether any
exists before it imports a host's module, since a host without a record holds none of our hooks.
Importing the thirteen other hosts and reading their files was a fifth of a ``verify --host claude``.

``tests/test_crossreads_lazy.py`` holds this table equal to each host's ``record_path`` of its
``settings_path``, with the environment variables set and unset. A built-in host missing here
(its settings path is chosen at run time: Codex, Factory, OpenHands; Gemini's variables name
whole files) is always loaded, as every plugin host is.
"""

RECORDS = {
    "claude": {
        "user": "${CLAUDE_CONFIG_DIR:-~/.claude}/settings.hookweave.json",
        "project": "{project}/.claude/settings.hookweave.json",
        "local": "{project}/.claude/settings.local.hookweave.json",
        "managed": {"linux": "${HOOKWEAVE_CLAUDE_MANAGED_DIR:-/etc/claude-code}/managed-settings.d.hookweave.json", "macos": "${HOOKWEAVE_CLAUDE_MANAGED_DIR:-/Library/Application Support/ClaudeCode}/managed-settings.d.hookweave.json", "windows": "${HOOKWEAVE_CLAUDE_MANAGED_DIR:-C:/Program Files/ClaudeCode}/managed-settings.d.hookweave.json"},
    },
    "cursor": {
        "user": "~/.cursor/hooks.hookweave.json",
        "project": "{project}/.cursor/hooks.hookweave.json",
        "managed": {"linux": "${HOOKWEAVE_CURSOR_MANAGED_DIR:-/etc/cursor}/hooks.hookweave.json", "macos": "${HOOKWEAVE_CURSOR_MANAGED_DIR:-/Library/Application Support/Cursor}/hooks.hookweave.json", "windows": "${HOOKWEAVE_CURSOR_MANAGED_DIR:-C:/ProgramData/Cursor}/hooks.hookweave.json"},
    },
    "copilot": {
        "user": "${COPILOT_HOME:-~/.copilot}/hooks.hookweave.json",
        "project": "{project}/.github/hooks.hookweave.json",
        "managed": {"linux": "${HOOKWEAVE_COPILOT_POLICY_DIR:-/etc/github-copilot/policy.d}.hookweave.json", "macos": "${HOOKWEAVE_COPILOT_POLICY_DIR:-/etc/github-copilot/policy.d}.hookweave.json", "windows": "${HOOKWEAVE_COPILOT_POLICY_DIR:-C:/ProgramData/GitHub/Copilot/policy.d}.hookweave.json"},
    },
    "qwen": {
        "user": "${QWEN_HOME:-~/.qwen}/settings.hookweave.json",
        "project": "{project}/.qwen/settings.hookweave.json",
    },
    "windsurf": {
        "user": "~/.codeium/windsurf/hooks.hookweave.json",
        "project": "{project}/.windsurf/hooks.hookweave.json",
    },
    "antigravity": {
        "user": "~/.gemini/antigravity-cli/hooks.hookweave.json",
        "project": "{project}/.agents/hooks.hookweave.json",
    },
    "cline": {
        "user": "${CLINE_DIR:-~/.cline}/hookweave-hooks.hookweave.json",
        "project": "{project}/.cline/hookweave-hooks.hookweave.json",
    },
    "letta": {
        "user": "~/.letta/settings.hookweave.json",
        "project": "{project}/.letta/settings.hookweave.json",
        "local": "{project}/.letta/settings.local.hookweave.json",
    },
    "kimi": {
        "user": "${KIMI_CODE_HOME:-~/.kimi-code}/config.hookweave.json",
    },
    "openharness": {
        "user": "${OPENHARNESS_CONFIG_DIR:-~/.openharness}/settings.hookweave.json",
    },
    "hermes": {
        "user": "${HERMES_HOME:-~/.hermes}/config.hookweave.json",
    },
    "qoder": {
        "user": "${QODER_CONFIG_DIR:-~/.qoder}/settings.hookweave.json",
        "project": "{project}/.qoder/settings.hookweave.json",
        "local": "{project}/.qoder/settings.local.hookweave.json",
    },
}

# The built-in hosts whose agent runs hooks from another host's files (their ``also_reads``).
READS = {
    "cursor": ("claude",),
    "copilot": ("claude",),
}

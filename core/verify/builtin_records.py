"""Where each built-in host keeps its records (the ``.hookweave.json`` beside a settings file), per
scope, as the hosts' own path templates: the cross-agent check (``crossreads``) looks whether any
exists before it imports a host's module, since a host without a record holds none of our hooks.
Importing the thirteen other hosts and reading their files was a fifth of a ``verify --host claude``.

A scope whose file the host picks at run time has every candidate's record (Codex: ``hooks.json``
or ``config.toml``; Factory: ``hooks.json`` or ``settings.json``): one existing counts. A variable
that names a whole settings file, or moves a folder no template can follow (``MOVED_BY``), set,
loads the host, which is asked as before.

``tests/test_crossreads_lazy.py`` holds this table equal to each host's ``record_path`` of its
``settings_path``, with the environment variables set and unset, and each candidate present.

``holding`` answers from it for the cross-agent check and for ``hooks status``, which lists only
what records hold: a host it passes over would have shown no row (tests/test_status_lazy.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

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
    "codex": {
        "user": ("${CODEX_HOME:-~/.codex}/hooks.hookweave.json", "${CODEX_HOME:-~/.codex}/config.hookweave.json"),
        "project": ("{project}/.codex/hooks.hookweave.json", "{project}/.codex/config.hookweave.json"),
    },
    "factory": {
        "user": ("~/.factory/hooks.hookweave.json", "~/.factory/settings.hookweave.json"),
        "project": ("{project}/.factory/hooks.hookweave.json", "{project}/.factory/settings.hookweave.json"),
    },
    "openhands": {
        "user": "~/.openhands/hooks.hookweave.json",
        "project": "{project}/.openhands/hooks.hookweave.json",
    },
    "gemini": {
        "system-defaults": {"linux": "/etc/gemini-cli/system-defaults.hookweave.json", "macos": "/Library/Application Support/GeminiCli/system-defaults.hookweave.json", "windows": "C:/ProgramData/gemini-cli/system-defaults.hookweave.json"},
        "user": "${GEMINI_CLI_HOME:-~}/.gemini/settings.hookweave.json",
        "project": "{project}/.gemini/settings.hookweave.json",
        "system": {"linux": "/etc/gemini-cli/settings.hookweave.json", "macos": "/Library/Application Support/GeminiCli/settings.hookweave.json", "windows": "C:/ProgramData/gemini-cli/settings.hookweave.json"},
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

# What says a reader (``READS``) is in use here, as ``crossreads.in_use`` asks it: the folders of
# its settings files at every scope, the folder its ``detect`` looks at, and the programs ``detect``
# looks for on PATH (its description's ``programs``).
IN_USE_FOLDERS = {
    "cursor": ("~/.cursor", "{project}/.cursor",
               {"linux": "${HOOKWEAVE_CURSOR_MANAGED_DIR:-/etc/cursor}",
                "macos": "${HOOKWEAVE_CURSOR_MANAGED_DIR:-/Library/Application Support/Cursor}",
                "windows": "${HOOKWEAVE_CURSOR_MANAGED_DIR:-C:/ProgramData/Cursor}"}),
    "copilot": ("${COPILOT_HOME:-~/.copilot}", "${COPILOT_HOME:-~/.copilot}/hooks", "{project}/.github/hooks",
                {"linux": "${HOOKWEAVE_COPILOT_POLICY_DIR:-/etc/github-copilot/policy.d}",
                 "macos": "${HOOKWEAVE_COPILOT_POLICY_DIR:-/etc/github-copilot/policy.d}",
                 "windows": "${HOOKWEAVE_COPILOT_POLICY_DIR:-C:/ProgramData/GitHub/Copilot/policy.d}"}),
}
PROGRAMS = {
    "cursor": ("cursor-agent",),
    "copilot": ("copilot",),
}

# Set, these move a host's files where the templates above cannot follow: the host is loaded and
# asked (Gemini's name its system files themselves, records beside them; OpenHands' is its project).
MOVED_BY = {
    "gemini": ("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "GEMINI_CLI_SYSTEM_SETTINGS_PATH"),
    "openhands": ("OPENHANDS_WORK_DIR",),
}

# Files a host reads to choose its settings file (``settings_path``), which may fail on them
# (Factory's settings.json that is not UTF-8 stopped ``hooks status`` before any record was read):
# one there loads the host, which then fails as it did.
CHOSEN_BY = {
    "factory": ("~/.factory/settings.json", "{project}/.factory/settings.json"),
}


# Every environment variable the tables above read (their ``${NAME:-...}`` and ``MOVED_BY``) and
# HOME: ``holding`` copies these, not the whole environment (a hundred variables in many shells;
# ``tests/test_crossreads_lazy.py`` holds this to the tables).
READ_FROM_ENVIRONMENT = (
    "HOME", "CLAUDE_CONFIG_DIR", "CLINE_DIR", "CODEX_HOME", "COPILOT_HOME", "GEMINI_CLI_HOME",
    "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "HERMES_HOME", "HOOKWEAVE_CLAUDE_MANAGED_DIR",
    "HOOKWEAVE_COPILOT_POLICY_DIR", "HOOKWEAVE_CURSOR_MANAGED_DIR", "KIMI_CODE_HOME", "OPENHANDS_WORK_DIR",
    "OPENHARNESS_CONFIG_DIR", "QODER_CONFIG_DIR", "QWEN_HOME",
)


def holding(names: list[str], project: Path, own: str | None = None, planned: dict | None = None, *,
            in_use: bool = False) -> list[str]:
    """``names`` less the built-in hosts that have no record of ours at any scope (``own`` is
    kept) and read no file of a host that has one (``READS``). ``planned``: texts about to be
    written (``None``: deleted), as for ``scopes.read_scope``. A place that cannot be looked at (a
    link, a file for a folder, no permission) counts as a record: the host is loaded and says what
    is wrong, as it always did; an unset HOME is said here, as the first host asked would say it.

    ``in_use`` (the cross-agent check): a host kept only because it reads a held host's files is
    kept only when it may be in use here (``may_be_in_use``), since the check names no agent that
    is not (``crossreads.in_use``): Cursor and Copilot cost a Claude-only ``verify`` 4 million
    instructions to find that."""
    from hookweave.core.contract.describe import expand_text
    from hookweave.core.contract.description import this_system

    # Text, not ``Path``s, and the environment read once: about fifty places on every verify.
    planned = {str(path): text for path, text in (planned or {}).items()}
    environ = {name: os.environ[name] for name in READ_FROM_ENVIRONMENT if name in os.environ}
    where = str(project)

    def there(template: str | dict) -> bool:
        return exists(expand_text(this_system(template), where, environ))

    def exists(path: str) -> bool:
        if path in planned:
            return planned[path] is not None
        try:
            os.lstat(path)
        except FileNotFoundError:
            return False
        except (OSError, ValueError):
            pass
        return True

    def has_records(name: str) -> bool:
        if name not in RECORDS or any(environ.get(v) for v in MOVED_BY.get(name, ())):
            return True  # its place is chosen at run time: load it and ask
        return any(there(template) for template in [*templates(name), *CHOSEN_BY.get(name, ())])

    read: dict[str, list] = {}

    def texts(name: str) -> list:  # each record's text; "" for none, None for one that cannot be read
        if name not in read:
            found = [expand_text(this_system(template), where, environ) for template in templates(name)]
            read[name] = [planned[path] if path in planned else _read(path) for path in found
                          if exists(path)]
        return read[name]

    def may_be_in_use(reader: str) -> bool:
        """As ``crossreads.in_use`` judges a reader with no record of its own: a folder of its there
        (``IN_USE_FOLDERS``), a program of its on PATH (``detect``), or a copy installed for it in
        the file of a host it reads (the record's ``runs_for``, which ``standins.borrowed`` reads)."""
        if any(os.path.isdir(expand_text(this_system(folder), where, environ)) for folder in IN_USE_FOLDERS[reader]):
            return True
        if any(text is None or f'"{reader}"' in text for source in READS[reader] for text in texts(source)):
            return True
        return any(_on_path(program) for program in PROGRAMS[reader])  # last: a look in every PATH folder

    held = {name for name in names if name == own or has_records(name)}
    return [n for n in names if n in held or set(READS.get(n, ())) & held and (not in_use or may_be_in_use(n))]


def _on_path(program: str) -> bool:
    """``shutil.which(program)`` finds it (``detect``'s test). A folder where ``program`` is not an
    executable is passed over with one ``access`` (``which`` makes a few calls more of each of the
    ten-odd), and ``which`` itself answers from the first folder that may hold it."""
    folders = os.environ.get("PATH")
    if os.name == "posix" and folders is not None and not any(
            os.access(f"{folder}/{program}" if folder else program, os.X_OK) for folder in folders.split(os.pathsep)):
        return False
    return shutil.which(program) is not None


def templates(name: str) -> list:
    """Every record place of a built-in host, each candidate of a scope that has several."""
    return [t for place in RECORDS[name].values() for t in (place if isinstance(place, tuple) else (place,))]


def _read(path: str) -> str | None:
    """A record's text through ``fileio`` (read once per command, as ``scopes`` reads it after);
    ``""`` when it is missing, ``None`` when it cannot be read (the host is loaded and says why)."""
    from hookweave.core.errors import BadInput
    from hookweave.core.files import fileio

    try:
        text = fileio.read_text(Path(path))
    except (BadInput, OSError, ValueError):
        return None
    return "" if text is None else text

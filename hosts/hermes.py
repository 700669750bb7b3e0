"""Hermes Agent (``hermes``): flat handlers under snake_case events in the ``hooks:`` block of
``~/.hermes/config.yaml``, a YAML file the operator writes by hand.

Facts read in PyPI ``hermes-agent`` 0.19.0 (``agent/shell_hooks.py``, ``hermes_cli/plugins.py``,
``hermes_constants.py``) and run offline against the mock model (tests/e2e/test_hermes_real.py);
docs/HOST-FACTS.md has each with its source:

- One file: ``$HERMES_HOME/config.yaml``, else ``~/.hermes/config.yaml`` (``get_hermes_home``); no
  project file, so user scope only. Read with ``yaml.safe_load`` at start.
- ``hooks``: event → list of ``{command, matcher?, timeout?}`` (``_parse_hooks_block``). An unknown
  event or a malformed entry is skipped with a log line; ``hooks.output_spill`` is not an event.
- A matcher is a regex the tool name must match whole (``re.fullmatch``), heeded on
  pre_tool_call and post_tool_call only. A timeout is whole seconds, 60 by default, below 1 the
  default and above 300 cut to 300.
- A command is split with ``shlex.split`` after ``os.path.expanduser`` and run with no shell
  (``shell=False``): no pipes, no variables, and a ``#`` word is an argument. hookweave writes
  ``sh -c '<command>' hookweave # hookweave:<bundle>/<id>`` (``runs = "exec"``).
- The payload is JSON on stdin; the exit code is only logged. Stdout JSON ``{"decision": "block"}``
  or ``{"action": "block"}`` blocks a pre_tool_call; ``{"context": ...}`` adds context on
  pre_llm_call. Every hook of an event runs, in file order, after a block too (``invoke_hook``).
- A hook runs only once its (event, command) pair is in ``shell-hooks-allowlist.json`` beside the
  config, which Hermes fills when the operator says yes at its prompt, or by itself under
  ``--accept-hooks``, ``HERMES_ACCEPT_HOOKS=1`` or ``hooks_auto_accept: true``; otherwise the hook
  is skipped with a log line. Verify reads that list as a gate.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from hookweave.core.contract.describe import expand, host_class
from hookweave.core.contract.description import Description
from hookweave.core.files import paths
from hookweave.core.model.findings import Finding
from hookweave.core.model.render import marker_in

HERMES = Description(
    name="hermes",
    title="Hermes Agent",
    files={"user": "${HERMES_HOME:-~/.hermes}/config.yaml"},
    format="yaml",
    shape="flat",
    runs="exec",
    # on_session_end fires at the end of every turn (turn_finalizer: once per run_conversation), so it is
    # Claude's Stop, though it cannot block; on_session_finalize is the session's end (exit, /reset)
    events={"session_start": "on_session_start", "session_end": "on_session_finalize", "stop": "on_session_end",
            "user_prompt_submit": "pre_llm_call", "pre_tool_use": "pre_tool_call", "post_tool_use": "post_tool_call",
            "subagent_stop": "subagent_stop"},
    native_events=("post_llm_call", "pre_verify", "on_session_reset", "subagent_start",
                   "pre_api_request", "post_api_request", "api_request_error"),
    tools={"shell": "terminal", "read": "read_file", "write": "write_file", "edit": "patch"},
    programs=("hermes",),
    order="file",
    dedup="first",
    execution="Hermes Agent runs an event's hooks one after another in file order, and every one of them: a block "
              "does not stop the later hooks (the first block's message is the one the model reads)",
    protocol="hermes",
    exit_codes="ignored",  # _make_callback logs a non-zero exit and reads stdout all the same
    blocking_events=("pre_tool_call", "pre_verify"),
    notes=("Hermes Agent ignores a hook's exit code: a hook blocks a tool only by printing "
           '{"decision": "block", "reason": "..."} on stdout (pre_tool_call)',),
    source="PyPI hermes-agent 0.19.0 (agent/shell_hooks.py, hermes_cli/plugins.py), run offline; "
           "github.com/NousResearch/hermes-agent",
)

ALLOWLIST = "shell-hooks-allowlist.json"  # agent/shell_hooks.ALLOWLIST_FILENAME, beside config.yaml


class HermesHost(host_class(HERMES)):  # type: ignore[misc]  # a described host, plus its consent list
    timeout_max = 300
    timeout_max_why = "Hermes Agent cuts a hook's timeout above 300 s to 300 s (MAX_TIMEOUT_SECONDS)"

    def context_paths(self, project: Path) -> dict[str, Path]:
        return {"allowlist": expand(HERMES.files["user"], project).with_name(ALLOWLIST)}

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        """Each of our hooks that Hermes has not been allowed to run: it skips it, saying so in its log only."""
        config = docs.get("user")
        if not installed_scopes or not isinstance(config, dict) or _auto_accept(config.get("hooks_auto_accept")) \
                or _auto_accept(os.environ.get("HERMES_ACCEPT_HOOKS", "").strip() or None):
            return []  # Hermes allows every hook itself (the variable: when it starts from this environment)
        allowed = _approved(docs.get("allowlist"))
        waiting = [(event, entry["command"]) for event, entries in _events(config) for entry in entries
                   if isinstance(entry, dict) and marker_in(entry.get("command")) and (event, entry["command"]) not in allowed]
        if not waiting:
            return []
        shown = paths.display(self.context_paths(project)["allowlist"])
        hooks = ", ".join(f"{'/'.join(marker_in(command) or ('', ''))} ({event})" for event, command in waiting)
        return [Finding("problem", f"Hermes Agent runs a hook only once it is allowed ({shown}), and has not been "
                        f"allowed {hooks}: it skips them; start hermes once at a terminal and answer yes, or run it "
                        "with --accept-hooks (or HERMES_ACCEPT_HOOKS=1, or hooks_auto_accept: true in config.yaml)",
                        machine=True)]


def _events(config: dict) -> list[tuple[str, list]]:
    hooks = config.get("hooks")
    if not isinstance(hooks, dict):
        return []
    return [(event, entries) for event, entries in hooks.items() if isinstance(entries, list)]


def _approved(allowlist: Any) -> set[tuple[str, str]]:
    approvals = allowlist.get("approvals") if isinstance(allowlist, dict) else None
    return {(a.get("event"), a.get("command")) for a in approvals or [] if isinstance(a, dict)}


def _auto_accept(value: Any) -> bool:
    """``hooks_auto_accept`` as ``_resolve_effective_accept`` reads it: true, or a string that says yes."""
    if isinstance(value, bool):
        return value
    return isinstance(value, str) and value.strip().lower() in {"1", "true", "yes", "on"}


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(HermesHost)


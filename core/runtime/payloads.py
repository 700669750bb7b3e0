"""The stdin payloads ``hooks check`` feeds a hook: each host's own shape, per event.

The shapes are the ones the pinned hosts sent to a hook in tests/e2e (Claude Code 2.1.197, Codex
0.169.0, Gemini CLI 0.61.0; tests/e2e/test_check_real.py compares the keys on every run); Cursor's
come from its documentation. Each event gets ordinary payloads and hostile ones that must still
pass (a heredoc whose body says ``rm -rf``, the pattern in another field, non-ASCII text); a
block on one of those is a pitfall.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

SESSION = "5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f"
TURN = "01a2064a-cad2-76e0-a9ad-d09e91bd33c5"
STAMP = "2026-11-23T02:45:06.630Z"


class Payload(NamedTuple):
    name: str  # what the payload is, as the report names it
    event: str  # the host's event name
    data: dict
    should_pass: bool  # a block on it is a false positive
    tool: str | None = None  # the tool name a matcher sees, None on events without tools


# Shell commands and prompts, in neutral form: (name, command, description, should pass).
SHELL = (
    ("an ordinary shell command", "git status --short", "Show the working tree status", True),
    ("a heredoc whose body says rm -rf", "cat > notes.md <<'EOF'\nNever run rm -rf / on a shared host.\nEOF",
     "Write a note about rm -rf", True),
    ("rm -rf named in another field", "ls -la", "List files before the rm -rf / cleanup", True),
    ("non-ASCII text", "echo 'Größe: 5 µm — 日本語 ✓'", "Print a non-ASCII line", True),
    ("a destructive command", "rm -rf ~/", "Delete the home folder", False),
)
PROMPTS = (("an ordinary prompt", "Summarise README.md in three lines"),
           ("a non-ASCII prompt", "Résume le fichier — 日本語 ✓ (rm -rf is only a word here)"))
SHELL_TOOL = {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command", "cursor": "Shell"}
STOP_EVENTS = {"claude": ("Stop", "SubagentStop"), "codex": ("Stop", "SubagentStop"), "gemini": ("AfterAgent",),
               "cursor": ("stop", "subagentStop")}


def _common(host: str, event: str, cwd: str, transcript: str) -> dict:
    if host == "claude":
        turn = {} if event == "SessionStart" else {"prompt_id": TURN, "permission_mode": "default"}
        return {"session_id": SESSION, "transcript_path": transcript, "cwd": cwd, **turn, "hook_event_name": event}
    if host == "codex":
        turn = {} if event == "SessionStart" else {"turn_id": TURN}
        return {"session_id": SESSION, **turn, "transcript_path": transcript, "cwd": cwd, "hook_event_name": event,
                "model": "gpt-5-codex", "permission_mode": "default"}
    if host == "gemini":
        return {"session_id": SESSION, "transcript_path": transcript, "cwd": cwd, "hook_event_name": event,
                "timestamp": STAMP}
    return {"conversation_id": SESSION, "generation_id": TURN, "hook_event_name": event, "workspace_roots": [cwd]}


def _tool_input(host: str, command: str, description: str) -> dict:
    """Codex and Cursor send the command alone; Claude's and Gemini's shell tools carry a description."""
    return {"command": command} if host in ("codex", "cursor") else {"command": command, "description": description}


def _tool_response(host: str, command: str):
    if host == "claude":
        return {"stdout": "ok", "stderr": "", "interrupted": False, "isImage": False, "noOutputExpected": False}
    if host == "gemini":
        return {"llmContent": "<untrusted_context>\nOutput: ok\n</untrusted_context>", "returnDisplay": "ok"}
    return "ok\n"


def for_event(host: str, event: str, cwd: str, transcript: str) -> list[Payload]:
    """The shipped payloads for one host-native event (a generic one for events not listed here)."""
    base = _common(host, event, cwd, transcript)
    tool = SHELL_TOOL[host]
    if event in ("PreToolUse", "BeforeTool", "preToolUse", "PostToolUse", "AfterTool", "postToolUse"):
        after = event in ("PostToolUse", "AfterTool", "postToolUse")
        shell = SHELL[:1] if after else SHELL
        out = []
        for i, (name, command, description, passes) in enumerate(shell):
            if name.startswith("rm -rf named") and host in ("codex", "cursor"):
                continue  # no other field of their shell input to hide it in
            data = {**base, "tool_name": tool, "tool_input": _tool_input(host, command, description)}
            if host == "claude":
                data["effort"] = {"level": "high"}
            if after:
                data["tool_response"] = _tool_response(host, command)
                if host == "claude":
                    data["duration_ms"] = 431
            if host in ("claude", "codex"):
                data["tool_use_id"] = f"toolu_check{i}" if host == "claude" else f"call_check{i}"
            out.append(Payload(name, event, data, passes, tool))
        return out
    if event == "beforeShellExecution":
        return [Payload(n, event, {**base, "command": c, "cwd": cwd}, p, tool) for n, c, _, p in SHELL]
    if event in ("UserPromptSubmit", "BeforeAgent", "beforeSubmitPrompt"):
        return [Payload(n, event, {**base, "prompt": text}, True) for n, text in PROMPTS]
    if event in STOP_EVENTS[host]:
        extra = {"stop_hook_active": False, "last_assistant_message": "All done."}
        if host == "claude":
            extra.update(effort={"level": "high"}, background_tasks=[], session_crons=[])
        elif host == "gemini":
            extra = {"prompt": PROMPTS[0][1], "prompt_response": "All done.", "stop_hook_active": False}
        elif host == "cursor":
            extra = {"status": "completed", "loop_count": 0}
        return [Payload("the agent ending its turn", event, {**base, **extra}, False)]  # a block is its job
    if event in ("SessionStart", "sessionStart"):
        return [Payload("a new session", event, {**base, "source": "startup"}, True)]
    return [Payload(f"a {event} event", event, base, True)]


def load(path: Path, text: str) -> Payload:
    """An author's own payload (``--payload FILE``): a JSON object naming its ``hook_event_name``."""
    from hookweave.core.errors import BadInput
    from hookweave.core.files.paths import printable

    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BadInput(f"{printable(str(path))}: line {getattr(exc, 'lineno', 1)}: not JSON ({str(exc).split(':')[0]}); "
                       "pass the JSON object a host sends on stdin") from None
    if not isinstance(data, dict) or not isinstance(data.get("hook_event_name"), str):
        raise BadInput(f"{printable(str(path))}: hook_event_name: missing; add the host's event name, "
                       'e.g. "hook_event_name": "PreToolUse"')
    tool = data.get("tool_name") if isinstance(data.get("tool_name"), str) else None
    return Payload(f"your payload {path.name}", data["hook_event_name"], data, False, tool)

"""The stdin payloads ``hooks check`` feeds a hook: each host's own shape, per event.

The shapes are the ones the pinned hosts sent to a hook in tests/e2e (Claude Code 2.1.197, Codex
0.171.0, Gemini CLI 0.61.0, Copilot CLI 1.0.102, Qwen Code 0.24.4, Factory Droid 0.225.2, Cline
3.0.65; tests/e2e/test_check_real.py compares the keys on every run); Cursor's and Windsurf's come
from their documentation, Antigravity's from third parties who ran agy. Copilot's own hook files
get camelCase payloads without an event name; Cline names the event ``hookName`` (``tool_call``)
and sends each tool parameter as a JSON string. Each event gets ordinary payloads and hostile ones
that must still pass (a heredoc whose body says ``rm -rf``, a quoted commit message that says it,
the pattern in another field, non-ASCII text); a block on one of those is a pitfall.
"""

from __future__ import annotations

import json
from pathlib import Path

from hookweave.core.runtime.payloadbase import (  # noqa: F401 - read as payloads.X
    MILLIS,
    PROMPTS,
    SESSION,
    SHELL,
    STAMP,
    TURN,
    Payload,
)
from hookweave.core.runtime.payloadshapes import CLINE_HOOK_NAMES, OWN_SHAPES  # noqa: F401

SHELL_TOOL = {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command", "cursor": "Shell", "copilot": "bash",
              "qwen": "run_shell_command", "factory": "Execute", "cline": "run_commands", "windsurf": "run_command",
              "antigravity": "run_command"}
STOP_EVENTS = {"claude": ("Stop", "SubagentStop"), "codex": ("Stop", "SubagentStop"), "gemini": ("AfterAgent",),
               "cursor": ("stop", "subagentStop")}
# Where each host's shell payload holds the command (jq paths), for the fixes check suggests.
COMMAND_FIELD = {"claude": ".tool_input.command", "codex": ".tool_input.command", "gemini": ".tool_input.command",
                 "cursor": ".tool_input.command (.command on beforeShellExecution)", "copilot": ".toolArgs.command",
                 "qwen": ".tool_input.command", "factory": ".tool_input.command",
                 "cline": ".preToolUse.parameters.commands (a JSON string of a list)",
                 "windsurf": ".tool_info.command_line", "antigravity": ".toolCall.args.CommandLine",
                 "openharness": ".tool_input.command (of $OPENHARNESS_HOOK_PAYLOAD: its hooks get no stdin)",
                 "hermes": ".tool_input.command"}


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
    if host in OWN_SHAPES:
        return OWN_SHAPES[host](event, cwd, transcript)
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


def tool_of(data: dict) -> str | None:
    """The tool name a matcher sees in a payload, whichever host's shape it has."""
    for found in (data.get("tool_name"), data.get("toolName"), (data.get("preToolUse") or {}).get("toolName")
                  if isinstance(data.get("preToolUse"), dict) else None,
                  (data.get("toolCall") or {}).get("name") if isinstance(data.get("toolCall"), dict) else None):
        if isinstance(found, str):
            return found
    return None


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def load(path: Path | str, text: str, name: str | None = None) -> Payload:
    """An author's own payload (``--payload``): a JSON object naming its ``hook_event_name`` (Cline's
    ``hookName``; Letta Code's and OpenHands' ``event_type``; OpenHarness' ``event``). ``path``: its file, or what errors call
    it (``--payload (inline JSON)``); ``name``: what the report calls it (default: the file's name)."""
    from hookweave.core.errors import BadInput
    from hookweave.core.files.paths import printable

    name = name or f"your payload {Path(path).name}"

    try:
        data = json.loads(text, parse_constant=_no_constant)
    except ValueError as exc:
        raise BadInput(f"{printable(str(path))}: line {getattr(exc, 'lineno', 1)}: not JSON ({str(exc).split(':')[0]}); "
                       "pass the JSON object a host sends on stdin") from None
    except RecursionError:
        raise BadInput(f"{printable(str(path))}: nested too deep to read as JSON; pass the JSON object a host "
                       "sends on stdin") from None
    event = data.get("hook_event_name") if isinstance(data, dict) else None
    if isinstance(data, dict) and event is None and isinstance(data.get("hookName"), str):  # Cline's own name
        event = {name: native for native, name in CLINE_HOOK_NAMES.items()}.get(data["hookName"])
    if isinstance(data, dict) and event is None and isinstance(data.get("event_type"), str):
        event = data["event_type"]  # Letta Code's and OpenHands' own key: what they send, as sent, is a payload
    if isinstance(data, dict) and event is None and isinstance(data.get("event"), str):
        event = data["event"]  # OpenHarness 0.1.9 sends {tool_name, tool_input, event: "pre_tool_use"}
    if not isinstance(event, str):
        raise BadInput(f"{printable(str(path))}: hook_event_name: missing; add the host's event name, "
                       'e.g. "hook_event_name": "PreToolUse"')
    return Payload(name, event, data, False, tool_of(data))

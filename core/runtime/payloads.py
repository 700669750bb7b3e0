"""The stdin payloads ``hooks check`` feeds a hook: each host's own shape, per event.

The shapes are the ones the pinned hosts sent to a hook in tests/e2e (Claude Code 2.1.197, Codex
0.169.0, Gemini CLI 0.61.0, Copilot CLI 1.0.102, Qwen Code 0.24.4, Factory Droid 0.225.2, Cline
3.0.65; tests/e2e/test_check_real.py compares the keys on every run); Cursor's and Windsurf's come
from their documentation, Antigravity's from third parties who ran agy. Copilot's own hook files
get camelCase payloads without an event name; Cline names the event ``hookName`` (``tool_call``)
and sends each tool parameter as a JSON string. Each event gets ordinary payloads and hostile ones
that must still pass (a heredoc whose body says ``rm -rf``, the pattern in another field,
non-ASCII text); a block on one of those is a pitfall.
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
SHELL_TOOL = {"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command", "cursor": "Shell", "copilot": "bash",
              "qwen": "run_shell_command", "factory": "Execute", "cline": "run_commands", "windsurf": "run_command",
              "antigravity": "run_command"}
STOP_EVENTS = {"claude": ("Stop", "SubagentStop"), "codex": ("Stop", "SubagentStop"), "gemini": ("AfterAgent",),
               "cursor": ("stop", "subagentStop")}
MILLIS = 1795643144510  # a Copilot timestamp (milliseconds)
# Where each host's shell payload holds the command (jq paths), for the fixes check suggests.
COMMAND_FIELD = {"claude": ".tool_input.command", "codex": ".tool_input.command", "gemini": ".tool_input.command",
                 "cursor": ".tool_input.command (.command on beforeShellExecution)", "copilot": ".toolArgs.command",
                 "qwen": ".tool_input.command", "factory": ".tool_input.command",
                 "cline": ".preToolUse.parameters.commands (a JSON string of a list)",
                 "windsurf": ".tool_info.command_line", "antigravity": ".toolCall.args.CommandLine"}


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


def _shell_payloads(event: str, after: bool, make, skip_other_field: bool = False) -> list[Payload]:
    """One payload per shell case of ``SHELL`` (only the first after the call), built by ``make``."""
    out = []
    for i, (name, command, description, passes) in enumerate(SHELL[:1] if after else SHELL):
        if skip_other_field and name.startswith("rm -rf named"):
            continue  # no other field of their shell input to hide it in
        data, tool = make(i, command, description)
        out.append(Payload(name, event, data, passes, tool))
    return out


def _copilot(event: str, cwd: str, transcript: str) -> list[Payload]:
    """Copilot's own files (measured, 1.0.102): camelCase, no event name, ``toolArgs`` an object."""
    base = {"sessionId": SESSION, "timestamp": MILLIS, "cwd": cwd}
    if event in ("preToolUse", "postToolUse"):
        def make(i, command, _description):
            data = {**base, "toolName": "bash", "toolArgs": {"command": command}}
            if event == "postToolUse":
                data["toolResult"] = {"resultType": "success",
                                      "textResultForLlm": f"ok\n<shellId: {i} completed with exit code 0>"}
            return data, "bash"
        return _shell_payloads(event, event == "postToolUse", make, skip_other_field=True)
    if event == "userPromptSubmitted":
        return [Payload(n, event, {**base, "prompt": text}, True) for n, text in PROMPTS]
    if event in ("agentStop", "subagentStop"):
        data = {**base, "transcriptPath": transcript, "stopReason": "end_turn", "stop_hook_active": False}
        return [Payload("the agent ending its turn", event, data, False)]
    if event == "sessionStart":
        return [Payload("a new session", event, {**base, "source": "new", "initialPrompt": PROMPTS[0][1]}, True)]
    return [Payload(f"a {event} event", event, base, True)]


def _qwen(event: str, cwd: str, transcript: str) -> list[Payload]:
    """Qwen Code 0.24.4 (measured): Claude's keys plus a timestamp, the prompt id and both tool ids."""
    base = {"session_id": SESSION, "transcript_path": transcript, "cwd": cwd, "hook_event_name": event,
            "timestamp": STAMP, "permission_mode": "default"}
    turn = {"prompt_id": f"{SESSION}########0"}
    if event in ("PreToolUse", "PostToolUse"):
        def make(i, command, description):
            data = {**base, **turn, "tool_name": "run_shell_command",
                    "tool_input": {"command": command, "description": description}}
            if event == "PostToolUse":
                data["tool_response"] = {"llmContent": f"Command: {command}\nDirectory: (root)\nOutput: ok\nError: "
                                                      "(none)\nExit Code: 0", "returnDisplay": "ok"}
            data.update(tool_use_id=f"toolu_check{i}", tool_call_id=f"call_check{i}")
            if event == "PostToolUse":
                data["duration_ms"] = 110
            return data, "run_shell_command"
        return _shell_payloads(event, event == "PostToolUse", make)
    if event == "UserPromptSubmit":
        return [Payload(n, event, {**base, **turn, "prompt": text, "submitted_prompt": text}, True) for n, text in PROMPTS]
    if event in ("Stop", "SubagentStop"):
        data = {**base, **turn, "stop_hook_active": False, "last_assistant_message": "All done.", "background_tasks": [],
                "crons": [], "context_usage": 5e-05, "context_limit": 200000, "input_tokens": 10}
        return [Payload("the agent ending its turn", event, data, False)]
    if event == "SessionStart":
        return [Payload("a new session", event, {**base, "source": "startup", "model": "qwen3-coder-plus"}, True)]
    return [Payload(f"a {event} event", event, base, True)]


def _factory(event: str, cwd: str, transcript: str) -> list[Payload]:
    """Factory Droid 0.225.2 (measured): Claude's keys; its shell tool ``Execute`` also carries a risk
    level and the model's reason for it."""
    base = {"session_id": SESSION, "transcript_path": transcript, "cwd": cwd, "permission_mode": "auto-high",
            "hook_event_name": event}
    if event in ("PreToolUse", "PostToolUse"):
        def make(_i, command, description):
            data = {**base, "tool_name": "Execute",
                    "tool_input": {"command": command, "riskLevelReason": description, "riskLevel": "low"}}
            if event == "PostToolUse":
                data["tool_response"] = "ok\n\n\n[Process exited with code 0]"
            return data, "Execute"
        return _shell_payloads(event, event == "PostToolUse", make)
    if event == "UserPromptSubmit":
        return [Payload(n, event, {**base, "message_id": TURN, "prompt": text, "has_images": False}, True)
                for n, text in PROMPTS]
    if event in ("Stop", "SubagentStop"):
        data = {**base, "message_id": TURN, "stop_hook_active": False, "tool_execution_count": 1, "elapsed_time": 2661}
        return [Payload("the agent ending its turn", event, data, False)]
    if event == "SessionStart":
        return [Payload("a new session", event, {**base, "permission_mode": "off", "source": "startup"}, True)]
    return [Payload(f"a {event} event", event, base, True)]


CLINE_HOOK_NAMES = {"TaskStart": "agent_start", "TaskResume": "agent_resume", "TaskCancel": "agent_abort",
                    "TaskComplete": "agent_end", "TaskError": "agent_error", "PreToolUse": "tool_call",
                    "PostToolUse": "tool_result", "UserPromptSubmit": "prompt_submit",
                    "SessionShutdown": "session_shutdown"}


def _cline(event: str, cwd: str, transcript: str) -> list[Payload]:
    """Cline 3.0.65 (measured): ``hookName`` names the event, ``preToolUse.parameters`` holds each tool
    parameter as a JSON string, ``clineVersion`` is empty."""
    name = CLINE_HOOK_NAMES.get(event, event)
    base = {"clineVersion": "", "timestamp": STAMP, "taskId": "conv_1795643644584_1zoq1hy",
            "sessionContext": {"rootSessionId": "1795643644309_ernsi"}, "workspaceRoots": [cwd],
            "workspaceInfo": {"rootPath": cwd, "hint": "project"}, "userId": "unknown",
            "agent_id": "agent_1795643644538_lt0cis", "parent_agent_id": None, "hookName": name}
    if event in ("PreToolUse", "PostToolUse"):
        def make(i, command, _description):
            call = {"id": f"call_check{i}", "name": "run_commands", "input": {"commands": [command]}}
            parameters = {"commands": json.dumps([command])}
            if event == "PreToolUse":
                data = {**base, "iteration": 1, "tool_call": call,
                        "preToolUse": {"toolName": "run_commands", "parameters": parameters}}
            else:
                data = {**base, "iteration": 1, "tool_result": {**call, "output": "ok\n", "durationMs": 12},
                        "postToolUse": {"toolName": "run_commands", "parameters": parameters, "result": "ok\n",
                                        "success": True, "executionTimeMs": 12}}
            return data, "run_commands"
        return _shell_payloads(event, event == "PostToolUse", make, skip_other_field=True)
    if event == "UserPromptSubmit":
        return [Payload(n, event, {**base, "userPromptSubmit": {"prompt": text, "attachments": []}}, True)
                for n, text in PROMPTS]
    if event == "TaskComplete":
        data = {**base, "iteration": 2, "turn": {"outputText": "All done.", "status": "completed"},
                "taskComplete": {"taskMetadata": {}}}
        return [Payload("the agent ending its task", event, data, False)]
    if event == "TaskStart":
        return [Payload("a new task", event, {**base, "taskStart": {"taskMetadata": {}}}, True)]
    return [Payload(f"a {event} event", event, base, True)]


WINDSURF_STEMS = {"run_command": "run_command", "write_code": "write_code", "read_code": "read_code",
                  "mcp_tool_use": "mcp_tool_use"}


def _windsurf(event: str, cwd: str, transcript: str) -> list[Payload]:
    """Windsurf's documented envelope: the action's name and a ``tool_info`` object [DOC]."""
    base = {"agent_action_name": event, "trajectory_id": SESSION, "execution_id": TURN, "timestamp": STAMP}
    if event in ("pre_run_command", "post_run_command"):
        def make(_i, command, _description):
            return {**base, "tool_info": {"command_line": command, "cwd": cwd}}, None
        return _shell_payloads(event, event == "post_run_command", make, skip_other_field=True)
    if event == "pre_user_prompt":
        return [Payload(n, event, {**base, "tool_info": {"user_prompt": text}}, True) for n, text in PROMPTS]
    if event == "post_cascade_response":
        return [Payload("the agent ending its turn", event, {**base, "tool_info": {"response": "All done."}}, False)]
    if event in ("pre_write_code", "post_write_code"):
        info = {"file_path": f"{cwd}/notes.md", "edits": [{"old_string": "", "new_string": "Never run rm -rf /.\n"}]}
        return [Payload("writing a note that says rm -rf", event, {**base, "tool_info": info}, True)]
    if event in ("pre_read_code", "post_read_code"):
        return [Payload("reading a file", event, {**base, "tool_info": {"file_path": f"{cwd}/README.md"}}, True)]
    return [Payload(f"a {event} event", event, {**base, "tool_info": {}}, True)]


def _antigravity(event: str, cwd: str, transcript: str) -> list[Payload]:
    """agy's camelCase payload as third parties recorded it (1.0.5): the tool call under ``toolCall``,
    its arguments with PascalCase keys [3P websentry-ai/setup#104]."""
    base = {"conversationId": SESSION, "stepIdx": 3, "transcriptPath": transcript, "workspacePaths": [cwd],
            "artifactDirectoryPath": f"{cwd}/.agents/artifacts"}
    if event in ("PreToolUse", "PostToolUse"):
        def make(_i, command, _description):
            data = {**base, "toolCall": {"name": "run_command", "args": {"CommandLine": command, "Cwd": cwd}}}
            if event == "PostToolUse":
                data["error"] = ""
            return data, "run_command"
        return _shell_payloads(event, event == "PostToolUse", make, skip_other_field=True)
    if event == "Stop":
        return [Payload("the agent ending its turn", event, base, False)]
    return [Payload(f"a {event} event", event, base, True)]


OWN_SHAPES = {"copilot": _copilot, "qwen": _qwen, "factory": _factory, "cline": _cline, "windsurf": _windsurf,
              "antigravity": _antigravity}


def tool_of(data: dict) -> str | None:
    """The tool name a matcher sees in a payload, whichever host's shape it has."""
    for found in (data.get("tool_name"), data.get("toolName"), (data.get("preToolUse") or {}).get("toolName")
                  if isinstance(data.get("preToolUse"), dict) else None,
                  (data.get("toolCall") or {}).get("name") if isinstance(data.get("toolCall"), dict) else None):
        if isinstance(found, str):
            return found
    return None


def load(path: Path, text: str) -> Payload:
    """An author's own payload (``--payload FILE``): a JSON object naming its ``hook_event_name``."""
    from hookweave.core.errors import BadInput
    from hookweave.core.files.paths import printable

    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BadInput(f"{printable(str(path))}: line {getattr(exc, 'lineno', 1)}: not JSON ({str(exc).split(':')[0]}); "
                       "pass the JSON object a host sends on stdin") from None
    event = data.get("hook_event_name") if isinstance(data, dict) else None
    if isinstance(data, dict) and event is None and isinstance(data.get("hookName"), str):  # Cline's own name
        event = {name: native for native, name in CLINE_HOOK_NAMES.items()}.get(data["hookName"])
    if not isinstance(event, str):
        raise BadInput(f"{printable(str(path))}: hook_event_name: missing; add the host's event name, "
                       'e.g. "hook_event_name": "PreToolUse"')
    return Payload(f"your payload {path.name}", event, data, False, tool_of(data))

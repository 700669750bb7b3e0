"""The ``hooks check`` payloads of the hosts whose shapes are not Claude's: Copilot's own files
(camelCase, no event name), Qwen and Factory (Claude's keys and their own), Cline (``hookName``
and JSON-string parameters), Windsurf (an action name and ``tool_info``) and Antigravity (a
``toolCall``); measured on the programs where they run here (tests/e2e/test_check_real.py)."""

from __future__ import annotations

import json
from pathlib import Path

from hookweave.core.runtime.payloadbase import (
    MILLIS,
    PROMPTS,
    SESSION,
    STAMP,
    TURN,
    Payload,
    shell_payloads,
)
from hookweave.core.runtime.payloadshapes_more import hermes, kimi, letta, openhands, openharness


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
        return shell_payloads(event, event == "postToolUse", make, skip_other_field=True)
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
        return shell_payloads(event, event == "PostToolUse", make)
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
        return shell_payloads(event, event == "PostToolUse", make)
    if event == "UserPromptSubmit":
        return [Payload(n, event, {**base, "message_id": TURN, "prompt": text, "has_images": False}, True)
                for n, text in PROMPTS]
    if event in ("Stop", "SubagentStop"):
        data = {**base, "message_id": TURN, "stop_hook_active": False, "tool_execution_count": 1, "elapsed_time": 2661}
        return [Payload("the agent ending its turn", event, data, False)]
    if event == "SessionStart":
        env_file = f"{Path.home()}/.factory/temp/env/droid-env-{SESSION}.sh"  # Droid names one, as Claude does
        return [Payload("a new session", event, {**base, "permission_mode": "off", "source": "startup",
                                                 "CLAUDE_ENV_FILE": env_file}, True)]
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
        return shell_payloads(event, event == "PostToolUse", make, skip_other_field=True)
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


def _windsurf(event: str, cwd: str, transcript: str) -> list[Payload]:
    """Windsurf's documented envelope: the action's name and a ``tool_info`` object [DOC]."""
    base = {"agent_action_name": event, "trajectory_id": SESSION, "execution_id": TURN, "timestamp": STAMP}
    if event in ("pre_run_command", "post_run_command"):
        def make(_i, command, _description):
            return {**base, "tool_info": {"command_line": command, "cwd": cwd}}, None
        return shell_payloads(event, event == "post_run_command", make, skip_other_field=True)
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
        return shell_payloads(event, event == "PostToolUse", make, skip_other_field=True)
    if event == "Stop":
        return [Payload("the agent ending its turn", event, base, False)]
    return [Payload(f"a {event} event", event, base, True)]


def _auggie(event: str, cwd: str, transcript: str) -> list[Payload]:
    """Auggie CLI 0.36.0 (measured, docs/HOST-FACTS.md): snake_case, ``conversation_id`` and
    ``workspace_roots`` (no ``session_id`` nor ``cwd``); its shell tool ``launch-process``;
    ``tool_output`` is the string ``"[undefined]"`` before the tool runs."""
    base = {"hook_event_name": event, "conversation_id": SESSION, "workspace_roots": [cwd]}
    if event in ("PreToolUse", "PostToolUse"):
        def make(_i, command, description):
            data = {**base, "tool_name": "launch-process",
                    "tool_input": {"command": command, "wait": True, "max_wait_seconds": 10, "cwd": cwd},
                    "tool_output": "[undefined]" if event == "PreToolUse" else "<return-code>\n0\n</return-code>",
                    "tool_error": None, "is_mcp_tool": False}
            return data, "launch-process"
        return shell_payloads(event, event == "PostToolUse", make)
    if event == "PromptSubmit":
        return [Payload(n, event, {**base, "user_prompt": text}, True) for n, text in PROMPTS]
    if event == "Stop":
        return [Payload("the agent ending its turn", event, {**base, "agent_stop_cause": "end_turn"}, False)]
    return [Payload(f"a {event} event", event, base, True)]


OWN_SHAPES = {"auggie": _auggie, "letta": letta, "openhands": openhands, "kimi": kimi, "openharness": openharness, "hermes": hermes, "copilot": _copilot, "qwen": _qwen, "factory": _factory, "cline": _cline, "windsurf": _windsurf,
              "antigravity": _antigravity}

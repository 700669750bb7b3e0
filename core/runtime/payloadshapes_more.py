"""The shipped payloads of Letta Code and OpenHands, whose hooks read ``event_type`` where Claude's
read ``hook_event_name`` (the keys as measured, docs/HOST-FACTS.md), and Kimi Code's (read in its source)."""

from __future__ import annotations

from hookweave.core.runtime.payloadbase import PROMPTS, SESSION, Payload, shell_payloads

LETTA_AGENT = "agent-local-5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f"


def letta(event: str, cwd: str, transcript: str) -> list[Payload]:
    """Letta Code 0.32.18 (src/hooks/index.ts; PreToolUse and PostToolUse measured): snake_case
    with ``event_type``, ``working_directory`` and ``agent_id``; its shell tool ``Bash``."""
    base = {"event_type": event, "working_directory": cwd}
    if event in ("PreToolUse", "PostToolUse", "PermissionRequest"):
        def make(i, command, description):
            data = {**base, "tool_name": "Bash", "tool_input": {"command": command, "description": description},
                    "tool_call_id": f"call_{i}", "agent_id": LETTA_AGENT}
            if event == "PostToolUse":
                data["tool_result"] = {"status": "success", "output": ""}
            return data, "Bash"
        return shell_payloads(event, event == "PostToolUse", make)
    if event == "UserPromptSubmit":
        return [Payload(n, event, {**base, "prompt": text, "is_command": False, "agent_id": LETTA_AGENT,
                                   "conversation_id": SESSION}, True) for n, text in PROMPTS]
    if event == "Stop":
        return [Payload("the agent ending its turn", event, {**base, "stop_reason": "end_turn", "message_count": 2,
                                                             "tool_call_count": 1}, False)]
    return [Payload(f"a {event} event", event, {**base, "agent_id": LETTA_AGENT, "conversation_id": SESSION}, True)]


def openhands(event: str, cwd: str, transcript: str) -> list[Payload]:
    """OpenHands 1.16.0 (openhands.sdk.hooks.types.HookEvent; every event measured in
    tests/e2e/test_openhands_real.py): every key on every event, null where it has no value; its shell
    tool ``terminal``, whose input and output carry their pydantic ``kind``; Stop's ``metadata`` the reason."""
    base = {"event_type": event, "tool_name": None, "tool_input": None, "tool_response": None, "message": None,
            "session_id": SESSION, "working_dir": cwd, "metadata": {}}
    if event in ("PreToolUse", "PostToolUse"):
        def make(_i, command, _description):
            data = {**base, "tool_name": "terminal", "tool_input": {"command": command, "is_input": False,
                                                                     "timeout": None, "reset": False,
                                                                     "kind": "TerminalAction"}}
            if event == "PostToolUse":
                data["tool_response"] = {
                    "content": [{"cache_prompt": False, "type": "text", "text": ""}], "is_error": False,
                    "command": command, "exit_code": 0, "timeout": False,
                    "metadata": {"exit_code": 0, "pid": -1, "username": "dev", "hostname": "dev", "working_dir": cwd,
                                 "py_interpreter_path": "/usr/bin/python3", "prefix": "",
                                 "suffix": "\n[The command completed with exit code 0.]"},
                    "full_output_save_dir": f"{transcript}.observations", "kind": "TerminalObservation"}
            return data, "terminal"
        return shell_payloads(event, event == "PostToolUse", make)
    if event == "UserPromptSubmit":
        return [Payload(n, event, {**base, "message": text}, True) for n, text in PROMPTS]
    if event == "Stop":
        return [Payload("the agent ending its turn", event, {**base, "metadata": {"reason": "agent_finished"}}, False)]
    return [Payload(f"a {event} event", event, base, True)]


def kimi(event: str, cwd: str, transcript: str) -> list[Payload]:
    """Kimi Code 0.38.0 (agent-core-v2 ``externalHooks``, read, never run): snake_case, with
    ``hook_event_name``, ``session_id`` and ``cwd`` first; its shell tool ``Bash``."""
    base = {"hook_event_name": event, "session_id": SESSION, "cwd": cwd, "client_type": "kimi_code_cli",
            "session_title": "Fix the login page"}
    if event in ("PreToolUse", "PostToolUse"):
        def make(i, command, description):
            data = {**base, "tool_name": "Bash", "tool_input": {"command": command, "description": description},
                    "tool_call_id": f"call_{i}"}
            if event == "PostToolUse":
                data["tool_output"] = ""
            return data, "Bash"
        return shell_payloads(event, event == "PostToolUse", make)
    if event == "UserPromptSubmit":
        return [Payload(n, event, {**base, "prompt": text, "is_steer": False}, True) for n, text in PROMPTS]
    if event == "Stop":
        return [Payload("the agent ending its turn", event, {**base, "stop_hook_active": False}, False)]
    if event == "SessionStart":
        return [Payload("a new session", event, {**base, "source": "startup"}, True)]
    return [Payload(f"a {event} event", event, base, True)]


def openharness(event: str, cwd: str, transcript: str) -> list[Payload]:
    """OpenHarness 0.1.9 (engine/query.py, ui/runtime.py; measured): a few keys, ``event`` among
    them, in $OPENHARNESS_HOOK_PAYLOAD (stdin is empty); the tool's input as the model sent it."""
    base = {"event": event}
    if event in ("pre_tool_use", "post_tool_use"):
        def make(_i, command, _description):
            data = {"tool_name": "bash", "tool_input": {"command": command}, **base}
            if event == "post_tool_use":
                data = {**data, "tool_output": "", "tool_is_error": False}
            return data, "bash"
        return shell_payloads(event, event == "post_tool_use", make, skip_other_field=True)
    if event == "user_prompt_submit":
        return [Payload(n, event, {**base, "prompt": text}, True) for n, text in PROMPTS]
    if event in ("session_start", "session_end"):
        return [Payload(f"a {event} event", event, {"cwd": cwd, **base}, True)]
    if event == "stop":
        return [Payload("the agent ending its turn", event, {**base, "stop_reason": "tool_uses_empty"}, False)]
    return [Payload(f"a {event} event", event, base, True)]


def hermes(event: str, cwd: str, transcript: str) -> list[Payload]:
    """Hermes Agent 0.19.0 (``agent/shell_hooks.py:_serialize_payload``): six keys on stdin, the
    call's own keyword arguments under ``extra``; its shell tool ``terminal``."""
    def base(tool: str | None = None, tool_input: dict | None = None, **extra: object) -> dict:
        return {"hook_event_name": event, "tool_name": tool, "tool_input": tool_input, "session_id": SESSION,
                "cwd": cwd, "extra": {"telemetry_schema_version": 1, **extra}}
    if event in ("pre_tool_call", "post_tool_call"):
        def make(i, command, _description):
            more = {"result": "", "status": "ok", "error_type": None, "error_message": None, "duration_ms": 12} \
                if event == "post_tool_call" else {}
            return base("terminal", {"command": command}, task_id="", tool_call_id=f"call_{i}", turn_id="turn_1",
                        **more), "terminal"
        return shell_payloads(event, event == "post_tool_call", make)
    if event == "pre_llm_call":
        return [Payload(n, event, base(None, None, user_message=text, is_first_turn=True, model="mock"), True)
                for n, text in PROMPTS]
    if event == "on_session_end":
        return [Payload("the agent ending its turn", event, base(None, None, completed=True, interrupted=False), True)]
    return [Payload(f"a {event} event", event, base(), True)]

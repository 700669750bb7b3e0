"""Pre-tool-use hook: refuse shell commands that destroy data beyond an easy undo.

Reads the hook payload on stdin, in whichever agent's shape it comes; exits 2 with the reason on
stderr to block (Claude, Codex, Cursor, Gemini, Qwen, Factory, Windsurf and Antigravity read exit 2
as "block"; Copilot too, and it also gets its own deny as JSON), 0 to allow. Cline ignores exit
codes: there the guard prints Cline's cancel, which stops the command and ends the agent's run.
OpenHarness gives no stdin: the payload is in $OPENHARNESS_HOOK_PAYLOAD, and exit 2 blocks there
because hookweave writes ``block_on_failure: true`` on its pre_tool_use hooks. Hermes Agent ignores exit
codes: there the guard prints ``{"decision": "block", ...}``, the one answer it reads as a block.
"""

import json
import os
import re
import sys

DESTRUCTIVE = [
    (r"\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+-?[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*\s+-?[a-zA-Z]*[rR]|-[a-zA-Z]*(rf|fr)[a-zA-Z]*)\s+(/|~|\$HOME)/?(\*|\s|$|[;&|)'\"])",
     "recursive forced delete of / or the home folder"),
    (r"\bgit\s+push\b(?=.*\s(--force|-f)(\s|$))(?!.*--force-with-lease)", "force push without --force-with-lease"),
    (r"\bgit\s+reset\s+--hard\b", "git reset --hard discards uncommitted work"),
    (r"\bgit\s+clean\s+-[a-zA-Z]*f", "git clean -f deletes untracked files"),
    (r"\bmkfs(\.\w+)?\s", "formatting a filesystem"),
    (r"\bdd\s+.*\bof=/dev/(sd|nvme|hd|vd|disk)", "dd onto a disk device"),
    (r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:", "fork bomb"),
]


HEREDOC = re.compile(r"(?<!<)<<(?!<)-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")


def without_heredoc_bodies(command: str) -> str:
    """The command with each here-document's body left out: that text is data (a file being
    written, a message), not commands, and ``rm -rf /`` in a note must not block writing it."""
    kept, open_ends = [], []
    for line in command.split("\n"):
        if open_ends:
            if line.lstrip("\t").rstrip() == open_ends[0]:
                open_ends.pop(0)
            continue
        kept.append(line)
        open_ends += [m.group(2) for m in HEREDOC.finditer(line)]
    return "\n".join(kept)


QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")
# What runs a quoted string as commands: a shell's -c, eval, ssh's remote command, xargs, a here-string.
RUNS_IT = re.compile(r"(?:\s-[a-zA-Z]*c|\beval|\bssh(?:\s+-\S+)*\s+\S+|\bxargs(?:\s+-\S+)*|<<<)\s*$")
PIPED_TO_A_SHELL = re.compile(r"\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\bsource\b|(?:^|[;&|]\s*)\.\s")


def without_quoted_messages(command: str) -> str:
    """The command with each quoted string that holds a space left out: a commit message or an
    echo's text is one argument, not a command, and ``git commit -m "why rm -rf / is refused"``
    must not block. Kept where a shell runs it (``bash -c '...'``, ``eval``, ``ssh host '...'``,
    anything piped to ``sh``), and a quoted path holds no space, so it stays too."""
    if PIPED_TO_A_SHELL.search(command):
        return command

    def kept(match: re.Match) -> str:
        if not re.search(r"\s", match.group(0)) or RUNS_IT.search(command[:match.start()]):
            return match.group(0)
        return '""'

    return QUOTED.sub(kept, command)


def command_of(payload: dict) -> str:
    """The shell command, wherever the agent puts it: ``tool_input.command`` (Claude, Codex, Gemini,
    Qwen, Factory, Cursor), ``command`` (Cursor's beforeShellExecution), ``toolArgs.command``
    (Copilot), ``preToolUse.parameters.commands`` (Cline: a JSON string of a list),
    ``tool_info.command_line`` (Windsurf), ``toolCall.args.CommandLine`` (Antigravity)."""
    tool_input = payload.get("tool_input") or payload.get("toolArgs") or {}
    if isinstance(tool_input, str):  # Copilot documents toolArgs as a JSON string
        try:
            tool_input = json.loads(tool_input)
        except ValueError:
            tool_input = {}
    if isinstance(tool_input, dict) and tool_input.get("command"):
        return str(tool_input["command"])
    cline = (payload.get("preToolUse") or {}).get("parameters") if isinstance(payload.get("preToolUse"), dict) else None
    if isinstance(cline, dict) and isinstance(cline.get("commands"), str):
        try:
            commands = json.loads(cline["commands"])
        except ValueError:
            commands = cline["commands"]
        return "\n".join(map(str, commands)) if isinstance(commands, list) else str(commands)
    info = payload.get("tool_info")
    if isinstance(info, dict) and info.get("command_line"):
        return str(info["command_line"])
    call = payload.get("toolCall")
    if isinstance(call, dict) and isinstance(call.get("args"), dict) and call["args"].get("CommandLine"):
        return str(call["args"]["CommandLine"])
    return str(payload.get("command") or "")


def block(payload: dict, reason: str) -> int:
    """Block the call the way the agent reads a block (see the module's docstring)."""
    if "hookName" in payload and "preToolUse" in payload:  # Cline
        print(json.dumps({"cancel": True, "errorMessage": reason}))
        return 0
    if "toolArgs" in payload and "hook_event_name" not in payload:  # Copilot's own hook files
        print(json.dumps({"permissionDecision": "deny", "permissionDecisionReason": reason}))
    if payload.get("hook_event_name") == "pre_tool_call":  # Hermes Agent: exit codes mean nothing there
        print(json.dumps({"decision": "block", "reason": reason}))
    print(reason, file=sys.stderr)
    return 2


def main() -> int:
    try:
        payload = json.loads(sys.stdin.read() or os.environ.get("OPENHARNESS_HOOK_PAYLOAD", ""))
    except ValueError:
        return 0  # not our business to break the agent on a payload we do not understand
    command = without_quoted_messages(without_heredoc_bodies(command_of(payload)))
    for pattern, why in DESTRUCTIVE:
        if re.search(pattern, command):
            return block(payload, f"Blocked by example-guard: {why}. Run it yourself if you mean it.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``hooks check`` shows its evidence (issue 36 item 2): every finding on a payload names that
payload's command (the prompt, the file path on other events) on one line, in the text and in
``--json``; a false block gets the fix for what the payload holds (a heredoc: the guard matched its
body, not the generic "parse the payload"); a guard that lets a destructive command through is told."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.hostnames import NAMES

# A guard that reads .tool_input.command, as the newcomer wrote it: it matches the text anywhere
# in the command, heredoc bodies included.
NAIVE = '''import json, sys
command = json.load(sys.stdin).get("tool_input", {}).get("command", "")
if "rm -rf" in command:
    print("Blocked: rm -rf", file=sys.stderr)
    sys.exit(2)
'''
HEREDOC = r"cat > notes.md <<'EOF'\nNever run rm -rf / on a shared host.\nEOF"
HEREDOC_FIX = ("    fix: the guard matched text inside a heredoc: the lines between <<'EOF' and EOF are data the command "
               "writes (a note, a file), not commands it runs; match the command word instead: drop each heredoc body "
               "(the lines after a <<WORD up to the line WORD) before you look for rm, as example-guard's guard.py does "
               "(hooks init --from example-guard)")
QUOTED = ("  problem: Claude Code blocks a payload that should pass: Blocked: rm -rf (on a quoted message that says rm -rf)\n"
          '    command: git commit -m "Explain why rm -rf / is refused"\n'
          "    fix: the guard matched text inside quotes: a quoted string is one argument (a commit message here), not a "
          "command; match the command word instead: leave quoted strings out before you look for rm, except where a "
          "shell runs them (bash -c, sh -c, eval, ssh HOST, a pipe into sh), as example-guard's guard.py does (hooks init "
          "--from example-guard)")


def _findings(stdout: str) -> str:
    """The report without its run rows and time lines (they hold timings)."""
    return "".join(line for line in stdout.splitlines(keepends=True)
                   if not re.match(r"  \S.* (exit -?\d+|timeout) +\d+\.\d\ds/", line)
                   and not line.startswith(("  time: fastest ", "wait on ")))


def _guard(write_bundle, script: str, event: str = "pre_tool_use") -> Path:
    matcher = 'matcher = ["shell"]\n' if event == "pre_tool_use" else ""
    return write_bundle(f'[bundle]\nname = "mine"\nversion = "1"\n\n[[hooks]]\nid = "guard"\nevent = "{event}"\n'
                        f'{matcher}command = ["python3", "{{bundle_dir}}/guard.py"]\n', **{"guard.py": script})


def test_a_heredoc_false_block_names_the_command_and_the_fix_that_fits(run, write_bundle) -> None:
    folder = _guard(write_bundle, NAIVE)
    result = run("check", str(folder), "--host", "claude")
    assert result.exit_code == 1
    assert _findings(result.stdout) == f"""mine/guard  Claude Code PreToolUse [Bash]
  problem: Claude Code blocks a payload that should pass: Blocked: rm -rf (on a heredoc whose body says rm -rf)
    command: {HEREDOC}
{HEREDOC_FIX}
{QUOTED}
2 problems
"""
    doc = json.loads(run("check", str(folder), "--host", "claude", "--json").stdout)
    [hook] = doc["hooks"]
    assert [f["on"] for f in hook["pitfalls"]] == [
        [{"payload": "a heredoc whose body says rm -rf", "input": {"field": "command", "text": HEREDOC}}],
        [{"payload": "a quoted message that says rm -rf",
          "input": {"field": "command", "text": 'git commit -m "Explain why rm -rf / is refused"'}}]]
    assert [(r["payload"], r["input"]["text"], r["should_block"]) for r in hook["runs"]] == [
        ("an ordinary shell command", "git status --short", False), ("a heredoc whose body says rm -rf", HEREDOC, False),
        ("a quoted message that says rm -rf", 'git commit -m "Explain why rm -rf / is refused"', False),
        ("rm -rf named in another field", "ls -la", False), ("non-ASCII text", "echo 'Größe: 5 µm — 日本語 ✓'", False),
        ("a destructive command", "rm -rf ~/", True)]


def test_the_other_field_case_gets_its_own_fix_and_each_payload_its_command(run, write_bundle) -> None:
    raw = 'import sys\nif "rm -rf" in sys.stdin.read():\n    print("Blocked: rm -rf", file=sys.stderr)\n    sys.exit(2)\n'
    result = run("check", str(_guard(write_bundle, raw)), "--host", "claude")
    assert _findings(result.stdout) == f"""mine/guard  Claude Code PreToolUse [Bash]
  problem: Claude Code blocks a payload that should pass: Blocked: rm -rf (on a heredoc whose body says rm -rf)
    command: {HEREDOC}
{HEREDOC_FIX}
{QUOTED}
  problem: Claude Code blocks a payload that should pass: Blocked: rm -rf (on rm -rf named in another field)
    command: ls -la
    fix: the guard matched text outside the command (the tool's description names rm -rf; the command is ls -la): read .tool_input.command alone and match on it, not on the whole payload
3 problems
"""


def test_a_guard_that_lets_rm_rf_through_is_told(run, project: Path) -> None:
    """The bundle ``hooks init`` writes blocks --no-verify only: rm -rf ~/ passes, and check says so,
    as a warning (stopping rm -rf may not be that guard's job)."""
    assert run("init").exit_code == 0
    result = run("check", "--host", "claude")
    assert result.exit_code == 0, result.stdout
    assert _findings(result.stdout) == """project/check-shell  Claude Code PreToolUse [Bash]
  warning: Claude Code: rm -rf ~/ was allowed: the guard lets a destructive command through (on a destructive command)
    command: rm -rf ~/
    fix: if stopping such commands is its job, match rm with -r and -f on / or ~ in .tool_input.command (example-guard's guard.py has the patterns: hooks init --from example-guard); if its job is another, leave it
no problems
"""
    doc = json.loads(run("check", "--host", "claude", "--json").stdout)
    [finding] = doc["hooks"][0]["pitfalls"]
    assert (finding["name"], finding["on"]) == ("let-through", [{"payload": "a destructive command",
                                                                 "input": {"field": "command", "text": "rm -rf ~/"}}])


def test_a_hook_with_another_job_is_not_called_a_guard(run) -> None:
    result = run("check", "--hand-written", "cat > /dev/null", "--event", "pre_tool_use", "--host", "claude", "--runs", "1")
    assert result.exit_code == 0 and "let-through" not in result.stdout and "was allowed" not in result.stdout


def test_a_prompt_false_block_shows_the_prompt_and_a_file_payload_its_path(run, write_bundle, tmp_path: Path) -> None:
    prompt = 'import json, sys\nif "rm -rf" in json.load(sys.stdin)["prompt"]:\n    print("no", file=sys.stderr)\n    sys.exit(2)\n'
    result = run("check", str(_guard(write_bundle, prompt, "user_prompt_submit")), "--host", "claude")
    assert _findings(result.stdout) == """mine/guard  Claude Code UserPromptSubmit
  problem: Claude Code blocks a payload that should pass: no (on a non-ASCII prompt)
    prompt: Résume le fichier — 日本語 ✓ (rm -rf is only a word here)
    fix: the guard matched rm -rf in the prompt, where it is a word the user wrote, not a command that runs: block prompts only on what must never reach the model (a secret), and leave commands to a pre_tool_use hook, which sees each before it runs
1 problem
"""
    edit = tmp_path / "edit.json"
    edit.write_text(json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Write",
                                "tool_input": {"file_path": "/etc/passwd", "content": "x\n" * 400}}))
    doc = json.loads(run("check", "--hand-written", "exit 1", "--event", "pre_tool_use", "--host", "claude",
                         "--payload", str(edit), "--json").stdout)
    [hook] = doc["hooks"]
    assert hook["runs"][0]["input"] == {"field": "file", "text": "/etc/passwd"}
    assert [f["on"] for f in hook["pitfalls"]] == [[{"payload": "your payload edit.json",
                                                     "input": {"field": "file", "text": "/etc/passwd"}}]]


def test_a_long_or_multi_line_command_is_one_line_of_at_most_120_characters() -> None:
    from hookweave.core.runtime import evidence

    long = "echo " + "x" * 300 + "\nrm -rf /"
    assert evidence.shown({"tool_input": {"command": long}}) == ("command", "echo " + "x" * 112 + "...")
    cline = {"hookName": "PreToolUse", "preToolUse": {"parameters": {"commands": json.dumps(["ls", "rm -rf ~/"])}}}
    assert evidence.shown(cline) == ("command", r"ls\nrm -rf ~/")
    assert evidence.shown({"hook_event_name": "Stop"}) is None


def test_payload_takes_inline_json_a_file_or_stdin(run, write_bundle, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from hookweave.core.cli.app import app

    folder = str(_guard(write_bundle, NAIVE))
    sent = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}
    inline = run("check", folder, "--host", "claude", "--runs", "1", "--payload", json.dumps(sent), "--json")
    assert inline.exit_code == 0, inline.stdout + inline.stderr
    [hook] = json.loads(inline.stdout)["hooks"]
    assert [(r["payload"], r["action"], r["input"]["text"]) for r in hook["runs"]] == [
        ("your inline payload", "block", "rm -rf /")]
    (tmp_path / "sent.json").write_text(json.dumps(sent))
    stdin = CliRunner().invoke(app, ["check", folder, "--host", "claude", "--runs", "1", "--payload", "-",
                                     "--payload", str(tmp_path / "sent.json"), "--json"],
                               input=json.dumps({**sent, "tool_input": {"command": "ls"}}), catch_exceptions=False)
    [hook] = json.loads(stdin.stdout)["hooks"]
    assert [(r["payload"], r["action"]) for r in hook["runs"]] == [("your payload from stdin 1", "allow"),
                                                                    ("your payload sent.json", "block")]
    bad = run("check", folder, "--host", "claude", "--payload", '{"hook_event_name": ')
    assert (bad.exit_code, bad.stdout) == (2, "")
    assert bad.stderr == ("hooks: --payload (inline JSON): line 1: not JSON (Expecting value); pass the JSON object a "
                          "host sends on stdin\n")
    twice = run("check", folder, "--host", "claude", "--payload", "-", "--payload", "-")
    assert (twice.exit_code, twice.stderr) == (2, "hooks: --payload -: stdin can be read once; pass the other payloads "
                                                  "as files or inline JSON\n")
    missing = run("check", folder, "--host", "claude", "--payload", "nosuch.json")
    assert missing.stderr == ("hooks: --payload nosuch.json: no such file; pass a JSON file the host would send, the "
                              "JSON itself ('{...}'), or - to read it from stdin\n")
    helped = " ".join(run("check", "--help").stdout.split())
    assert "--payload JSON|FILE|- Your own stdin payload instead of the shipped ones: inline JSON" in helped
    assert "a JSON file, or - for stdin" in helped


def test_without_host_check_runs_on_the_agents_used_here_and_says_so(run, write_bundle, project: Path, home: Path) -> None:
    """Issue 36: all 14 agents took 148 lines and 17 s to answer about the one in use. The test
    machine has no agent on PATH (tests/test_cli.py: none detected); a project file and a user folder are."""
    folder = str(write_bundle('[bundle]\nname = "tiny"\nversion = "1"\n\n[[hooks]]\nid = "g"\nevent = "pre_tool_use"\n'
                              'matcher = ["shell"]\ncommand = "cat > /dev/null"\n'))
    nothing = json.loads(run("check", folder, "--runs", "1", "--json").stdout)
    assert nothing["hosts"] == {"checked": NAMES, "from": "all: none used here"}
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text('{"model": "sonnet"}\n')
    (home / ".gemini").mkdir()
    result = run("check", folder, "--runs", "1")
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines()[0] == "checking the agents used here: Claude Code, Gemini CLI (--host all checks all 16)"
    assert [line for line in result.stdout.splitlines() if not line.startswith(" ")][1:3] == [
        "tiny/g  Claude Code PreToolUse [Bash]", "tiny/g  Gemini CLI BeforeTool [run_shell_command]"]
    doc = json.loads(run("check", folder, "--runs", "1", "--json").stdout)
    assert doc["hosts"] == {"checked": ["claude", "gemini"], "from": "used here"}
    assert [h["host"] for h in doc["hooks"]] == ["claude", "gemini"]
    named = json.loads(run("check", folder, "--runs", "1", "--host", "detected", "--json").stdout)
    assert named["hosts"] == {"checked": ["claude", "gemini"], "from": "--host"}
    every = json.loads(run("check", folder, "--runs", "1", "--host", "all", "--json").stdout)
    assert every["hosts"] == {"checked": NAMES, "from": "--host"} and len({h["host"] for h in every["hooks"]}) == 16
    text = run("check", folder, "--runs", "1", "--host", "codex").stdout
    assert text.startswith("tiny/g  Codex PreToolUse")  # asked: no line about the choice
    helped = " ".join(run("check", "--help").stdout.split())
    assert "Host name or 'all'; repeat for several (default: the agents used here, all where none is)." in helped

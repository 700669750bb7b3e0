"""``hooks check`` (issue 12): each pitfall's script is caught with its fix, the fixed scripts and
the shipped template pass, and every target kind (bundle, installed, hand-written, own payload)
runs through the CLI the way an author meets it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.hostnames import NAMES

PITFALLS = Path(__file__).parent.parent / "data" / "pitfalls"
TEMPLATE = Path(__file__).parent.parent.parent / "templates" / "example-guard"
HOOKS = (  # id, event, script: one hook per pitfall of the issue
    ("set-e", "pre_tool_use", "set_e_no_exit.sh"), ("arithmetic", "pre_tool_use", "arithmetic.sh"),
    ("empty-array", "pre_tool_use", "empty_array.sh"), ("grep-raw", "pre_tool_use", "grep_raw.sh"),
    ("heredoc", "pre_tool_use", "heredoc_guard.sh"), ("reason-on-allow", "pre_tool_use", "reason_on_allow.sh"),
    ("prompt-stdout", "user_prompt_submit", "prompt_stdout.sh"), ("noise", "post_tool_use", "stderr_noise.sh"),
    ("noise-too", "post_tool_use", "stderr_noise_too.sh"), ("tmux", "session_start", "unguarded_tmux.sh"),
)
FIXED = {"set_e_no_exit.sh": "set_e_no_exit_fixed.sh", "arithmetic.sh": "arithmetic_fixed.sh",
         "empty_array.sh": "empty_array_fixed.sh", "grep_raw.sh": "guard_fixed.sh", "heredoc_guard.sh": "guard_fixed.sh",
         "prompt_stdout.sh": "prompt_stdout_fixed.sh", "unguarded_tmux.sh": "unguarded_tmux_fixed.sh",
         "stderr_noise.sh": "stderr_noise_fixed.sh", "stderr_noise_too.sh": "stderr_noise_fixed.sh"}


def _bundle(tmp_path: Path, hooks, name: str = "pitfalls", skip: tuple[str, ...] = ()) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    text = f'[bundle]\nname = "{name}"\nversion = "1"\n'
    for hook_id, event, script in hooks:
        if hook_id in skip:
            continue
        shutil.copy(PITFALLS / script, folder / script)
        matcher = 'matcher = ["shell"]\n' if event in ("pre_tool_use", "post_tool_use") else ""
        text += f'\n[[hooks]]\nid = "{hook_id}"\nevent = "{event}"\n{matcher}command = ["bash", "{{bundle_dir}}/{script}"]\n'
    (folder / "hookweave.toml").write_text(text)
    return folder


def _findings(stdout: str) -> list[str]:
    """The report without its run rows and latency lines (they hold timings): hook headers, findings and fixes."""
    return [line for line in stdout.splitlines() if not re.match(r"  \S.* (exit -?\d+|timeout) +\d+\.\d\ds/", line)
            and not line.startswith(("  time: fastest ", "wait on "))]


def test_each_pitfall_is_named_with_its_fix_and_check_exits_1(run, tmp_path) -> None:
    result = run("check", str(_bundle(tmp_path, HOOKS)), "--host", "claude")
    assert result.exit_code == 1, result.stdout
    error = ("  problem: Claude Code shows a hook error: Failed with non-blocking status code: No stderr output "
             "(non-zero exit other than 2: a hook error, the call goes ahead) (on every payload)\n"
             "    fix: exit 0 to let the call through, or exit 2 with the reason on stderr to block it")
    heredoc = (r"    command: cat > notes.md <<'EOF'\nNever run rm -rf / on a shared host.\nEOF" "\n"
               "    fix: the guard matched text inside a heredoc: the lines between <<'EOF' and EOF are data the command "
               "writes (a note, a file), not commands it runs; match the command word instead: drop each heredoc body "
               "(the lines after a <<WORD up to the line WORD) before you look for rm, as example-guard's guard.py does "
               "(hooks init --from example-guard)")
    quoted = ("    command: git commit -m \"Explain why rm -rf / is refused\"\n"
              "    fix: the guard matched text inside quotes: a quoted string is one argument (a commit message here), "
              "not a command; match the command word instead: leave quoted strings out before you look for rm, except "
              "where a shell runs them (bash -c, sh -c, eval, ssh HOST, a pipe into sh), as example-guard's guard.py "
              "does (hooks init --from example-guard)")
    noise = ("  note: 2 hooks on PostToolUse write to stderr on success (pitfalls/noise, pitfalls/noise-too); Claude Code "
             "does not show stderr on exit 0 (read in its code), older versions showed a hook error line per hook\n"
             "    fix: keep stderr empty on success, or log to a file")
    expected = f"""pitfalls/set-e  Claude Code PreToolUse [Bash]
  problem: set_e_no_exit.sh: ends with `[ -f "${{HOME}}/.hook-verbose" ] && echo "`, whose status is 1 when the test is false; with no exit after it, the hook then exits 1 and the agent shows a hook error
    fix: end the script with `exit 0` (and exit 2 with a reason on stderr where it means to block), or write `if ...; then ...; fi`
{error}
pitfalls/arithmetic  Claude Code PreToolUse [Bash]
  problem: arithmetic.sh: `((count++))` returns status 1 when its value is 0 (x++ is 0 when x was 0), which ends a set -e script
    fix: write `x=$((x + 1))`, or append `|| true`
{error}
pitfalls/empty-array  Claude Code PreToolUse [Bash]
  warning: empty_array.sh: "${{extra[@]}}" under set -u fails with "unbound variable" when extra is empty on bash before 4.4 (macOS /bin/bash is 3.2)
    fix: write ${{extra[@]+"${{extra[@]}}"}}
pitfalls/grep-raw  Claude Code PreToolUse [Bash]
  problem: grep_raw.sh: greps the raw stdin JSON: field order is not guaranteed and any field (a description, a file's content) can hold the pattern, so it blocks calls it should let through
    fix: parse the payload first: cmd=$(jq -r '.tool_input.command // empty'), then match on "$cmd"
  problem: Claude Code blocks a payload that should pass: Blocked: rm -rf (on a heredoc whose body says rm -rf)
{heredoc}
  problem: Claude Code blocks a payload that should pass: Blocked: rm -rf (on a quoted message that says rm -rf)
{quoted}
  problem: Claude Code blocks a payload that should pass: Blocked: rm -rf (on rm -rf named in another field)
    command: ls -la
    fix: the guard matched text outside the command (the tool's description names rm -rf; the command is ls -la): read .tool_input.command alone and match on it, not on the whole payload
pitfalls/heredoc  Claude Code PreToolUse [Bash]
  problem: Claude Code blocks a payload that should pass: Blocked: rm -rf of / or ~ (on a heredoc whose body says rm -rf)
{heredoc}
  problem: Claude Code blocks a payload that should pass: Blocked: rm -rf of / or ~ (on a quoted message that says rm -rf)
{quoted}
pitfalls/reason-on-allow  Claude Code PreToolUse [Bash]
  warning: Claude Code: permissionDecisionReason on allow is shown to the user, never to the model (on every payload)
    fix: drop permissionDecisionReason on allow; use systemMessage to tell the user
pitfalls/prompt-stdout  Claude Code UserPromptSubmit
  note: Claude Code: plain stdout is added to the model's context (measured; older Claude Code versions showed a hook error) (on every payload)
    fix: hookSpecificOutput.additionalContext says the same in JSON
pitfalls/noise  Claude Code PostToolUse [Bash]
{noise}
pitfalls/noise-too  Claude Code PostToolUse [Bash]
{noise}
pitfalls/tmux  Claude Code SessionStart
  warning: unguarded_tmux.sh: calls tmux without checking it is there: where it is missing, the call fails with 127 and the script goes on without its result
    fix: guard it: `command -v tmux >/dev/null 2>&1 || exit 0` before the first call
together on claude PreToolUse, an ordinary shell command: HOOK ERROR (decided by pitfalls/set-e)
together on claude PreToolUse, a heredoc whose body says rm -rf: BLOCKS (decided by pitfalls/grep-raw)
together on claude PreToolUse, a quoted message that says rm -rf: BLOCKS (decided by pitfalls/grep-raw)
together on claude PreToolUse, rm -rf named in another field: BLOCKS (decided by pitfalls/grep-raw)
together on claude PreToolUse, non-ASCII text: HOOK ERROR (decided by pitfalls/set-e)
together on claude PreToolUse, a destructive command: BLOCKS (decided by pitfalls/grep-raw)
together on claude PostToolUse, an ordinary shell command: allows
10 problems"""
    assert _findings(result.stdout) == expected.splitlines()


def _pitfall_names(doc: dict) -> dict[str, list[tuple[str, str]]]:
    return {h["hook"]: [(p["level"], p["name"]) for p in h["pitfalls"]] for h in doc["hooks"]}


def test_the_same_pitfalls_on_codex_and_gemini_follow_what_each_host_does(run, tmp_path) -> None:
    bundle = str(_bundle(tmp_path, HOOKS))
    codex = run("check", bundle, "--host", "codex", "--json")
    assert codex.exit_code == 1
    found = _pitfall_names(json.loads(codex.stdout))
    assert found["pitfalls/reason-on-allow"] == [("problem", "hook-error")]  # Codex refuses a bare allow
    allow = json.loads(codex.stdout)["hooks"][5]["runs"][0]
    assert (allow["action"], allow["reason"]) == ("error", "PreToolUse hook returned unsupported permissionDecision:allow")
    assert found["pitfalls/prompt-stdout"] == [("note", "prompt-stdout")]  # context for the model, as on Claude
    gemini = json.loads(run("check", bundle, "--host", "gemini", "--json").stdout)
    found = _pitfall_names(gemini)
    assert found["pitfalls/prompt-stdout"] == [("warning", "prompt-stdout")]  # shown to the user only
    assert ("warning", "stderr-noise") in found["pitfalls/noise"]  # empty stdout: stderr becomes the message
    assert found["pitfalls/set-e"][-1] == ("problem", "hook-error")
    assert gemini["problems"] == 10  # grep-raw's three false blocks (a heredoc, quotes, another field), heredoc's two


def test_the_fixed_scripts_pass(run, tmp_path) -> None:
    fixed = tuple((i, e, FIXED.get(s, s)) for i, e, s in HOOKS)
    result = run("check", str(_bundle(tmp_path, fixed, skip=("noise-too", "reason-on-allow"))), "--host", "claude",
                 "--host", "codex", "--host", "gemini")
    assert result.exit_code == 0, result.stdout
    assert not [line for line in result.stdout.splitlines() if re.match(r"  (problem|warning|note):", line)], result.stdout
    assert result.stdout.endswith("no problems\n")


def test_the_shipped_template_passes_everywhere_and_blocks_what_it_should(run) -> None:
    result = run("check", "example-guard", "--json", "--runs", "1")  # the judged run: times are test_check_latency's
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    assert doc["problems"] == 0
    guards = [h for h in doc["hooks"] if h["hook"] == "example-guard/destructive-guard"]
    assert [h["host"] for h in guards] == NAMES
    for hook in guards:
        actions = {r["payload"]: r["action"] for r in hook["runs"]}
        # Cline reads no exit code: the guard prints its cancel, which also ends the agent's run
        assert actions.pop("a destructive command") == ("stop" if hook["host"] == "cline" else "block"), hook
        assert set(actions.values()) == {"allow"}, hook
    text = run("check", "example-guard", "--host", "claude", "--runs", "1")
    assert text.exit_code == 0 and text.stdout.endswith("no problems\n")


HEREDOCS = [
    ("cat > notes.md <<'EOF'\nNever run rm -rf / here.\nEOF", 0),
    ('cat <<-"END" > x\n\trm -rf ~/\n\tEND', 0),
    ("cat <<A <<B\nrm -rf /\nA\ngit reset --hard\nB", 0),
    ("cat > n <<EOF\nx\nEOF\nrm -rf /", 2),  # the command after the body is a command
    ("cat <<< EOF; rm -rf /\nEOF", 2),  # a here-string opens no body: the next line is a command too
    ('git commit -m "Explain why rm -rf / is refused"', 0),  # a quoted message is one argument (issue 36)
    ('git commit -m "say \\"rm -rf / x\\" here"', 0),
    ("bash -c 'rm -rf ~/'", 2),  # a quoted string a shell runs is commands
    ("echo 'rm -rf /' | sh", 2),
    ("ssh box 'rm -rf ~/ x'", 2),
    ("rm -rf ~/ && echo done", 2),  # ~/ then an operator, and /*: the pattern let both through before
    ("rm -rf /*", 2),
    ("rm -rf /tmp/x", 0),
]


@pytest.mark.parametrize(("command", "code"), HEREDOCS)
def test_the_guard_leaves_heredoc_bodies_alone(command: str, code: int) -> None:
    payload = json.dumps({"hook_event_name": "PreToolUse", "tool_input": {"command": command}})
    result = subprocess.run(["python3", str(TEMPLATE / "guard.py")], input=payload, capture_output=True, text=True)
    assert result.returncode == code, result.stderr


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_clean_tree_names_the_first_changed_path_whole(project: Path) -> None:
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=project, check=True)
    (project / "tracked.txt").write_text("one\n")
    subprocess.run([*git, "add", "tracked.txt"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-qm", "one"], cwd=project, check=True)
    (project / "tracked.txt").write_text("two\n")  # porcelain: " M tracked.txt", a leading space
    stop = json.dumps({"hook_event_name": "Stop", "cwd": str(project), "stop_hook_active": False})
    result = subprocess.run(["python3", str(TEMPLATE / "clean_tree.py")], input=stop, capture_output=True, text=True)
    assert json.loads(result.stdout) == {"decision": "block", "reason": "Uncommitted changes (tracked.txt): commit or "
                                         "stash them before ending the turn."}


def test_own_payload_and_a_bad_one(run, tmp_path) -> None:
    bundle = _bundle(tmp_path, (("grep-raw", "pre_tool_use", "grep_raw.sh"),))
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                                "tool_input": {"command": "echo ok", "description": "not rm -rf, promise"}}))
    result = run("check", str(bundle), "--host", "claude", "--payload", str(mine), "--json")
    [hook] = json.loads(result.stdout)["hooks"]
    assert [(r["payload"], r["action"], r["exit_code"]) for r in hook["runs"]] == [("your payload mine.json", "block", 2)]
    other = run("check", str(bundle), "--host", "gemini", "--payload", str(mine))
    assert other.stdout == ("pitfalls/grep-raw  Gemini CLI BeforeTool [run_shell_command]\n  not run: none of your "
                            "payloads is for BeforeTool (their hook_event_name)\n  problem: grep_raw.sh: greps the raw stdin "
                            "JSON: field order is not guaranteed and any field (a description, a file's content) can "
                            "hold the pattern, so it blocks calls it should let through\n    fix: parse the payload "
                            "first: cmd=$(jq -r '.tool_input.command // empty'), then match on \"$cmd\"\n1 problem\n")
    bad = tmp_path / "bad\nname.json"
    bad.write_text('{"tool_name": "Bash"}')
    refused = run("check", str(bundle), "--host", "claude", "--payload", str(bad))
    assert refused.exit_code == 2
    assert refused.stderr == (f"hooks: {tmp_path}/bad\\nname.json: hook_event_name: missing; add the host's event name, "
                              'e.g. "hook_event_name": "PreToolUse"\n')
    (tmp_path / "broken.json").write_text("{oops")
    broken = run("check", str(bundle), "--host", "claude", "--payload", str(tmp_path / "broken.json"))
    assert broken.exit_code == 2 and broken.stderr.count("\n") == 1 and "not JSON" in broken.stderr


def test_a_payload_as_openhands_and_letta_send_it_names_its_event_by_event_type(run, project: Path, tmp_path: Path) -> None:
    """OpenHands and Letta Code send ``event_type``, no ``hook_event_name``: a payload saved from either,
    as sent (tests/e2e/test_openhands_real.py feeds check OpenHands' own), is read without an edit."""
    sent = tmp_path / "sent.json"
    sent.write_text(json.dumps({"event_type": "PreToolUse", "tool_name": "terminal", "tool_input": {
        "command": "echo hi", "is_input": False, "timeout": None, "reset": False, "kind": "TerminalAction"},
        "tool_response": None, "message": None, "session_id": "s", "working_dir": str(project), "metadata": {}}))
    result = run("check", "--hand-written", "exit 2", "--event", "pre_tool_use", "--host", "openhands",
                 "--payload", str(sent), "--json")
    [hook] = json.loads(result.stdout)["hooks"]
    assert [(r["payload"], r["action"]) for r in hook["runs"]] == [("your payload sent.json", "block")]


def test_hand_written_hook_says_it_runs_for_real(run, project: Path) -> None:
    result = run("check", "--hand-written", "echo ran >> side-effect.log; echo oops >&2; exit 1",
                 "--event", "pre_tool_use", "--host", "claude", "--runs", "1")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == ("note: checking a hand-written hook runs it for real, 1 time with every payload: it may have "
                        "side effects")
    assert lines[1] == "hand-written  Claude Code PreToolUse"
    assert "  problem: Claude Code shows a hook error: Failed with non-blocking status code: oops " in result.stdout
    assert (project / "side-effect.log").read_text() == "ran\n" * 6  # one run per shipped payload
    again = run("check", "--hand-written", "echo ran >> side-effect.log", "--event", "pre_tool_use", "--host", "claude")
    assert again.stdout.startswith("note: checking a hand-written hook runs it for real, up to 5 times with every "
                                   "payload (--runs 1: once): it may have side effects\n")
    missing = run("check", "--hand-written", "true", "--host", "claude")
    assert (missing.exit_code, missing.stderr) == (2, "hooks: --hand-written needs --event, e.g. --event pre_tool_use\n")


def test_installed_bundles_are_checked_from_the_settings_file(run, project: Path) -> None:
    assert run("install", "example-guard", "--host", "claude").exit_code == 0
    result = run("check", "--installed", "--host", "claude", "--json", "--runs", "1")
    assert result.exit_code == 0, result.stdout
    hooks = json.loads(result.stdout)["hooks"]
    assert [(h["hook"], h["event"]) for h in hooks] == [("example-guard/destructive-guard (project)", "PreToolUse"),
                                                        ("example-guard/clean-tree (project)", "Stop")]
    assert hooks[0]["runs"][-1]["action"] == "block"
    nothing = run("check", "--installed", "--host", "gemini")
    assert nothing.exit_code == 0 and nothing.stdout == "skipped: nothing installed here for gemini\nno problems\n"


def test_a_hook_past_its_timeout_is_killed_with_its_children(run, tmp_path) -> None:
    marker = tmp_path / "still-running"
    folder = tmp_path / "slow"
    folder.mkdir()
    (folder / "hookweave.toml").write_text(
        '[bundle]\nname = "slow"\nversion = "1"\n[[hooks]]\nid = "sleepy"\nevent = "session_start"\ntimeout = 1\n'
        f'command = "(sleep 5; touch {marker}) & sleep 30"\n')
    start = time.monotonic()
    result = run("check", str(folder), "--host", "claude")
    assert time.monotonic() - start < 10
    assert result.exit_code == 1
    assert "  problem: Claude Code: timed out after 1s (on a new session)" in result.stdout
    time.sleep(5.5)
    assert not marker.exists()  # the background child died with the hook's process group


def test_a_matcher_no_payload_matches_is_said(run, tmp_path) -> None:
    folder = tmp_path / "writer"
    folder.mkdir()
    (folder / "hookweave.toml").write_text('[bundle]\nname = "writer"\nversion = "1"\n[[hooks]]\nid = "w"\n'
                                           'event = "pre_tool_use"\nmatcher = ["write"]\ncommand = "exit 1"\n')
    result = run("check", str(folder), "--host", "claude")
    assert result.exit_code == 0
    assert result.stdout == ("writer/w  Claude Code PreToolUse [Write]\n  not run: no payload of PreToolUse matches its "
                             "matcher 'Write'; pass one with --payload\nno problems\n")


def test_check_runs_the_hook_in_the_project_with_the_hosts_env(run, tmp_path, project: Path) -> None:
    folder = tmp_path / "env"
    folder.mkdir()
    (folder / "hookweave.toml").write_text(
        '[bundle]\nname = "env"\nversion = "1"\n[[hooks]]\nid = "e"\nevent = "session_start"\n'
        'command = "pwd > seen.txt; env | grep -E \'^(CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|FROM_BUNDLE)=\' | sort >> seen.txt"\n'
        '[env.FROM_BUNDLE]\nvalue = "yes"\n')
    for host, expected in (("claude", ["CLAUDE_PROJECT_DIR", "FROM_BUNDLE=yes"]),
                           ("gemini", ["CLAUDE_PROJECT_DIR", "FROM_BUNDLE=yes", "GEMINI_PROJECT_DIR"])):
        assert run("check", str(folder), "--host", host).exit_code == 0
        lines = (project / "seen.txt").read_text().splitlines()
        assert lines[0] == str(project)
        assert [line.split("=")[0] if line.endswith(str(project)) else line for line in lines[1:]] == expected
    assert os.environ.get("FROM_BUNDLE") is None


CHECK_PAGE = Path(__file__).parent.parent.parent / "docs" / "check.md"


def test_the_check_page_shows_the_protocol_and_its_example_is_a_real_run(run) -> None:
    from hookweave.core.runtime import protocoltable
    from tests.doctables import render

    text = CHECK_PAGE.read_text(encoding="utf-8")
    assert "\n<!-- generated: protocol -->\n" in text  # the table is made from protocol.py when the site is built
    assert protocoltable.markdown().rstrip("\n") in render(text)
    example = text.split("$ hooks check example-guard --host claude\n", 1)[1].split("```", 1)[0]
    result = run("check", "example-guard", "--host", "claude")
    assert _figureless(result.stdout) == _figureless(example)


def _figureless(report: str) -> str:
    """A report with its times as N and without budget warnings: they hang on the machine's speed
    (the README's run and this one differ), not on what the hook answers."""
    kept, lines = [], report.splitlines(keepends=True)
    for n, line in enumerate(lines):
        over = line.startswith("  warning: ") and " budget of " in line
        if not over and not (n and lines[n - 1].startswith("  warning: ") and " budget of " in lines[n - 1]):
            kept.append(line)
    text = re.sub(r"; over the \S+ m?s budget\)", ")", "".join(kept))
    text = re.sub(r"\d+\.\d\ds/", "0.12s/", text)
    return re.sub(r"\d+(?:\.\d+)? (?:ms|s)\b|over \d+ runs|\d+% of", "N", text)


def test_cursor_findings_are_warnings_since_cursor_was_never_run(run) -> None:
    result = run("check", "--hand-written", "cat > /dev/null; echo plain words", "--event", "pre_tool_use",
                 "--host", "cursor", "--host", "claude", "--json")
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    by_host = {h["host"]: [(p["level"], p["name"]) for p in h["pitfalls"]] for h in doc["hooks"]}
    assert by_host == {"cursor": [("warning", "hook-error")], "claude": [("note", "ignored-output")]}
    [cursor] = [h for h in doc["hooks"] if h["host"] == "cursor"]
    assert cursor["pitfalls"][0]["message"].endswith("(from Cursor's documentation, unmeasured) (on every payload)")


def test_a_slow_hook_is_flagged(run, tmp_path) -> None:
    folder = tmp_path / "slowish"
    folder.mkdir()
    (folder / "hookweave.toml").write_text('[bundle]\nname = "slowish"\nversion = "1"\n[[hooks]]\nid = "s"\n'
                                           'event = "session_start"\ntimeout = 4\ncommand = "sleep 2.3"\n')
    result = run("check", str(folder), "--host", "claude")
    assert result.exit_code == 0
    assert _findings(result.stdout) == [
        "slowish/s  Claude Code SessionStart",
        "  warning: Claude Code: takes more than half of its 4s timeout (on a new session)",
        "    fix: make it faster, or raise its timeout", "no problems"]


def test_every_built_in_host_is_checked_and_a_plugin_host_is_named_with_the_reason(run, monkeypatch) -> None:
    """Every built-in host has a judge: ``--host all`` checks all ten. A plugin host has none, so
    ``--host all`` names it with the reason, ``--installed`` too, and naming it is a usage error."""
    from hookweave.core.cli import check
    from hookweave.core.contract.hookspecs import hookimpl
    from hookweave.core.contract.registry import HostRegistry, get_plugin_manager
    from hookweave.hosts.claude import ClaudeCodeHost

    class Echo(ClaudeCodeHost):
        name = "echo-agent"
        title = "Echo"

        def settings_path(self, scope: str, project_dir: Path) -> Path:  # its own: Claude's would be refused
            return project_dir / ".echo" / "settings.json"

    class Plugin:
        @hookimpl
        def hookweave_register_hosts(self, register):
            register(Echo)

    def registry():
        pm = get_plugin_manager(load_entrypoints=False)
        pm.register(Plugin(), name="echo")
        return HostRegistry(pm)

    monkeypatch.setattr(check, "_registry", registry)
    reason = ("a plugin host: what it does with a hook's exit code and output is not in hookweave's protocol table "
              "(core/standalone/protocol.py), so check cannot say what the agent will do")
    result = run("check", "example-guard", "--host", "all", "--json", "--runs", "1")
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    from hookweave.core.contract.builtin import BUILT_IN

    assert sorted({h["host"] for h in doc["hooks"]}) == sorted(BUILT_IN)
    assert f"echo-agent: not checked: {reason}" in doc["skipped"]
    installed = run("check", "--installed", "--host", "all", "--runs", "1")
    assert installed.exit_code == 0
    assert installed.stdout == (f"skipped: nothing installed here for {', '.join(sorted(BUILT_IN))}\n"
                                f"skipped: echo-agent: not checked: {reason}\nno problems\n")
    named = run("check", "example-guard", "--host", "echo-agent", "--host", "claude")
    assert named.exit_code == 2
    assert named.stderr == (f"hooks: check: echo-agent: {reason}; check on claude, codex, gemini, cursor, copilot, qwen, "
                            "factory, cline, windsurf, antigravity\n")


def test_installed_names_each_host_with_nothing_installed(run, project: Path) -> None:
    """``--installed --host all`` never skips a host silently: the ones with nothing installed here
    are named, the others checked."""
    assert run("install", "example-guard", "--host", "qwen", "--host", "cline").exit_code == 0
    result = run("check", "--installed", "--host", "all", "--json", "--runs", "1")
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    assert [(h["host"], h["hook"]) for h in doc["hooks"]] == [
        ("cline", "example-guard/destructive-guard (project)"), ("cline", "example-guard/clean-tree (project)"),
        ("qwen", "example-guard/destructive-guard (project)"), ("qwen", "example-guard/clean-tree (project)")]
    from hookweave.core.contract.builtin import BUILT_IN

    assert doc["skipped"] == [f"nothing installed here for {', '.join(sorted(set(BUILT_IN) - {'qwen', 'cline'}))}"]
    assert [r["action"] for r in doc["hooks"][0]["runs"]] == ["allow", "allow", "allow", "allow", "stop"]
    assert [r["action"] for r in doc["hooks"][2]["runs"]] == ["allow", "allow", "allow", "allow", "allow", "block"]
    used = json.loads(run("check", "--installed", "--json", "--runs", "1").stdout)  # no --host: the agents used here, installed ones
    assert (used["hosts"], used["skipped"]) == ({"checked": ["cline", "qwen"], "from": "used here"}, [])


STYLES = """[bundle]
name = "styles"
version = "1"

[[hooks]]
id = "claude-deny"
event = "pre_tool_use"
matcher = ["shell"]
command = ["python3", "{bundle_dir}/claude_deny.py"]

[[hooks]]
id = "prompt-note"
event = "user_prompt_submit"
command = "echo 'Follow docs/STYLE.md.'"
"""
CLAUDE_DENY = """import json
import sys

payload = json.load(sys.stdin)
call = payload.get("tool_input") or payload.get("toolArgs") or payload.get("preToolUse") or payload.get("tool_info") or {}
if "rm -rf ~" in json.dumps(call) or "rm -rf ~" in json.dumps(payload.get("toolCall") or {}):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                             "permissionDecisionReason": "no rm -rf"}}))
"""


def _timed(stdout: str) -> str:
    """The report with its run times as 0.12s and without its latency lines."""
    kept = [line for line in stdout.splitlines(keepends=True) if not line.startswith(("  time: fastest ", "wait on "))]
    return re.sub(r"\d+\.\d\ds/", "0.12s/", "".join(kept))


def test_a_claude_style_deny_on_each_newer_host(run, tmp_path) -> None:
    """One hook that denies the way Claude Code reads a deny, and a prompt hook printing plain text,
    checked on the six newer hosts: Qwen and Droid block and give the prompt text to the model;
    Copilot and Cline ignore the deny (each reads its own answer, and the fix says which);
    Windsurf reads no JSON and Antigravity reads ``decision``, from their documents only, so
    warnings; Antigravity has no prompt event."""
    folder = tmp_path / "styles"
    folder.mkdir()
    (folder / "hookweave.toml").write_text(STYLES)
    (folder / "claude_deny.py").write_text(CLAUDE_DENY)
    hosts = [w for h in ("copilot", "qwen", "factory", "cline", "windsurf", "antigravity") for w in ("--host", h)]
    result = run("check", str(folder), *hosts)
    assert result.exit_code == 1
    ignored = "ignores the output exit 0    0.12s/{}: {{\"hookSpecificOutput\": {{\"hookEventName\": \"PreToolUse\", ..."
    expected = f"""skipped: antigravity: styles/prompt-note: Antigravity CLI has no user_prompt_submit event
styles/claude-deny  Copilot CLI preToolUse [bash]
  an ordinary shell command            allows             exit 0    0.12s/30s
  a heredoc whose body says rm -rf     allows             exit 0    0.12s/30s
  a quoted message that says rm -rf    allows             exit 0    0.12s/30s
  non-ASCII text                       allows             exit 0    0.12s/30s
  a destructive command                {ignored.format("30s")}
  problem: Copilot CLI does not block on this answer: Copilot reads a top-level permissionDecision on preToolUse, not decision or hookSpecificOutput: the call goes ahead (on a destructive command)
    command: rm -rf ~/
    fix: to block on Copilot CLI: print {{"permissionDecision": "deny", "permissionDecisionReason": "..."}} (preToolUse) or {{"decision": "block", "reason": "..."}} (userPromptSubmitted); Claude's hookSpecificOutput means nothing here
  warning: Copilot CLI ignores the field hookSpecificOutput in the output (unknown to it) (on a destructive command)
    command: rm -rf ~/
    fix: drop it, or spell it as the host documents it
styles/prompt-note  Copilot CLI userPromptSubmitted
  an ordinary prompt                   ignores the output exit 0    0.12s/30s: Follow docs/STYLE.md.
  a non-ASCII prompt                   ignores the output exit 0    0.12s/30s: Follow docs/STYLE.md.
  note: Copilot CLI does not read this output on userPromptSubmitted: Follow docs/STYLE.md. (on every payload)
    fix: print nothing, or the JSON fields Copilot CLI reads on userPromptSubmitted
styles/claude-deny  Qwen Code PreToolUse [run_shell_command]
  an ordinary shell command            allows             exit 0    0.12s/60s
  a heredoc whose body says rm -rf     allows             exit 0    0.12s/60s
  a quoted message that says rm -rf    allows             exit 0    0.12s/60s
  rm -rf named in another field        allows             exit 0    0.12s/60s
  non-ASCII text                       allows             exit 0    0.12s/60s
  a destructive command                BLOCKS             exit 0    0.12s/60s: no rm -rf
styles/prompt-note  Qwen Code UserPromptSubmit
  an ordinary prompt                   allows             exit 0    0.12s/60s: Follow docs/STYLE.md.
  a non-ASCII prompt                   allows             exit 0    0.12s/60s: Follow docs/STYLE.md.
  note: Qwen Code: plain stdout is added to the model's context (measured) (on every payload)
    fix: hookSpecificOutput.additionalContext says the same in JSON
styles/claude-deny  Factory Droid PreToolUse [Execute]
  an ordinary shell command            allows             exit 0    0.12s/60s
  a heredoc whose body says rm -rf     allows             exit 0    0.12s/60s
  a quoted message that says rm -rf    allows             exit 0    0.12s/60s
  rm -rf named in another field        allows             exit 0    0.12s/60s
  non-ASCII text                       allows             exit 0    0.12s/60s
  a destructive command                BLOCKS             exit 0    0.12s/60s: no rm -rf
styles/prompt-note  Factory Droid UserPromptSubmit
  an ordinary prompt                   allows             exit 0    0.12s/60s: Follow docs/STYLE.md.
  a non-ASCII prompt                   allows             exit 0    0.12s/60s: Follow docs/STYLE.md.
  note: Factory Droid: plain stdout is added to the model's context (read in its code) (on every payload)
    fix: hookSpecificOutput.additionalContext says the same in JSON
styles/claude-deny  Cline PreToolUse [run_commands|execute_command]
  an ordinary shell command            allows             exit 0    0.12s/120s
  a heredoc whose body says rm -rf     allows             exit 0    0.12s/120s
  a quoted message that says rm -rf    allows             exit 0    0.12s/120s
  non-ASCII text                       allows             exit 0    0.12s/120s
  a destructive command                {ignored.format("120s")}
  problem: Cline does not block on this answer: no field Cline reads (cancel, context, contextModification, errorMessage, overrideInput): the tool runs (on a destructive command)
    command: rm -rf ~/
    fix: to block on Cline: print {{"cancel": true, "errorMessage": "..."}} (Cline ignores exit codes; a cancel ends the whole run)
  warning: Cline ignores the field hookSpecificOutput in the output (unknown to it) (on a destructive command)
    command: rm -rf ~/
    fix: drop it, or spell it as the host documents it
styles/prompt-note  Cline UserPromptSubmit
  an ordinary prompt                   ignores the output exit 0    0.12s/120s: Follow docs/STYLE.md.
  a non-ASCII prompt                   ignores the output exit 0    0.12s/120s: Follow docs/STYLE.md.
  note: Cline does not read this output on UserPromptSubmit: Follow docs/STYLE.md. (on every payload)
    fix: print nothing, or the JSON fields Cline reads on UserPromptSubmit
styles/claude-deny  Windsurf pre_run_command
  an ordinary shell command            allows             exit 0    0.12s/60s
  a heredoc whose body says rm -rf     allows             exit 0    0.12s/60s
  a quoted message that says rm -rf    allows             exit 0    0.12s/60s
  non-ASCII text                       allows             exit 0    0.12s/60s
  a destructive command                {ignored.format("60s")}
  warning: Windsurf does not block on this answer: stdout is shown to the user with show_output, never to the model; only exit 2 blocks (from Windsurf's documentation, unmeasured) (on a destructive command)
    command: rm -rf ~/
    fix: to block on Windsurf: exit 2 (the only block Windsurf documents)
styles/prompt-note  Windsurf pre_user_prompt
  an ordinary prompt                   ignores the output exit 0    0.12s/60s: Follow docs/STYLE.md.
  a non-ASCII prompt                   ignores the output exit 0    0.12s/60s: Follow docs/STYLE.md.
  note: Windsurf does not read this output on pre_user_prompt: Follow docs/STYLE.md. (on every payload)
    fix: print nothing, or the JSON fields Windsurf reads on pre_user_prompt
styles/claude-deny  Antigravity CLI PreToolUse [run_command]
  an ordinary shell command            allows             exit 0    0.12s/60s
  a heredoc whose body says rm -rf     allows             exit 0    0.12s/60s
  a quoted message that says rm -rf    allows             exit 0    0.12s/60s
  non-ASCII text                       allows             exit 0    0.12s/60s
  a destructive command                {ignored.format("60s")}
  warning: Antigravity CLI does not block on this answer: agy reads decision and reason only: the call goes ahead (from Antigravity CLI's third-party write-ups, unmeasured) (on a destructive command)
    command: rm -rf ~/
    fix: to block on Antigravity CLI: print {{"decision": "deny", "reason": "..."}}
  warning: Antigravity CLI ignores the field hookSpecificOutput in the output (unknown to it) (on a destructive command)
    command: rm -rf ~/
    fix: drop it, or spell it as the host documents it
2 problems
"""
    assert _timed(result.stdout) == expected


def test_copilot_denies_on_any_failure_and_cline_reads_no_exit_code(run, tmp_path) -> None:
    """The same crashing guard (exit 1): a hook error Claude goes past, a denied call on Copilot
    (fail-closed, measured), nothing at all on Cline (exit codes mean nothing there)."""
    folder = tmp_path / "crash"
    folder.mkdir()
    (folder / "hookweave.toml").write_text('[bundle]\nname = "crash"\nversion = "1"\n[[hooks]]\nid = "c"\n'
                                           'event = "pre_tool_use"\ncommand = "cat >/dev/null; exit 1"\n')
    result = run("check", str(folder), "--host", "copilot", "--host", "cline", "--json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    by_host = {h["host"]: h for h in doc["hooks"]}
    assert {r["action"] for r in by_host["copilot"]["runs"]} == {"block"}
    assert {r["action"] for r in by_host["cline"]["runs"]} == {"allow"}
    assert [(p["level"], p["name"]) for p in by_host["copilot"]["pitfalls"]] == [("problem", "false-block")]
    assert by_host["copilot"]["runs"][0]["reason"] == "Denied by preToolUse hook (hook errored)"
    assert by_host["cline"]["runs"][0]["notes"] == ["exit code 1 means nothing to Cline: only stdout is read"]


def test_own_payloads_in_the_newer_hosts_shapes(run, tmp_path) -> None:
    """``--payload`` takes Cline's own payload (``hookName`` names the event) and Copilot's with the
    event added; the matcher sees each shape's tool name."""
    folder = tmp_path / "own"
    folder.mkdir()
    (folder / "hookweave.toml").write_text('[bundle]\nname = "own"\nversion = "1"\n[[hooks]]\nid = "g"\n'
                                           'event = "pre_tool_use"\nmatcher = ["shell"]\ncommand = "cat >/dev/null"\n')
    cline = tmp_path / "cline.json"
    cline.write_text(json.dumps({"hookName": "tool_call", "preToolUse": {"toolName": "run_commands",
                                                                         "parameters": {"commands": '["ls"]'}}}))
    copilot = tmp_path / "copilot.json"
    copilot.write_text(json.dumps({"hook_event_name": "preToolUse", "toolName": "bash", "toolArgs": {"command": "ls"}}))
    result = run("check", str(folder), "--host", "cline", "--host", "copilot", "--payload", str(cline),
                 "--payload", str(copilot), "--json")
    assert result.exit_code == 0, result.stdout
    runs = {h["host"]: [r["payload"] for r in h["runs"]] for h in json.loads(result.stdout)["hooks"]}
    assert runs == {"cline": ["your payload cline.json"], "copilot": ["your payload copilot.json"]}


def test_a_chained_bundle_is_checked_before_install_with_the_runner_install_would_write(run, write_bundle) -> None:
    """Before install there is no runner beside the settings file: check writes the same runner
    files into a folder of its own, so a chain is checked as it will run (the sh path, the Python one)."""
    bundle = write_bundle('[bundle]\nname = "ch"\nversion = "1.0.0"\norder = "chain"\n'
                          '[[hooks]]\nid = "one"\nevent = "pre_tool_use"\nmatcher = ["shell"]\ncommand = "cat >/dev/null; exit 0"\n'
                          '[[hooks]]\nid = "two"\nevent = "pre_tool_use"\nmatcher = ["shell"]\n'
                          'command = "cat >/dev/null; echo stopped by two >&2; exit 2"\n')
    result = run("check", str(bundle), "--host", "claude", "--host", "copilot", "--runs", "1", "--json")
    doc = json.loads(result.stdout)
    chains = [h for h in doc["hooks"] if h["hook"] == "ch/chain-pretooluse"]
    assert [h["host"] for h in chains] == ["claude", "copilot"]
    for hook in chains:  # the second member blocks every call, through the runner install writes
        assert {r["action"] for r in hook["runs"]} == {"block"}, hook
        assert "does not exist" not in json.dumps(hook)

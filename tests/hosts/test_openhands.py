"""OpenHands specifics, file-level: a file OpenHands refuses as a whole (an event it does not know;
pydantic ``extra="forbid"``, docs/HOST-FACTS.md) gets nothing added, and verify says why."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent.parent / "data"
BUNDLE = str(DATA / "claude" / "bundle")
OPERATOR = ('{\n  // the operator\'s own, with an event OpenHands does not have\n  "hooks": {\n'
            '    "PreToolUse": [{"matcher": "terminal", "hooks": [{"type": "command", "command": "audit.sh"}]}],\n'
            '    "OnFoo": [{"hooks": [{"type": "command", "command": "x"}]}]\n  },\n  "other": 1\n}\n')


def _file(project: Path, text: str) -> Path:
    path = project / ".openhands" / "hooks.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_install_refuses_a_file_with_an_unknown_event_and_verify_says_so(run, project: Path) -> None:
    path = _file(project, OPERATOR.replace("  // the operator's own, with an event OpenHands does not have\n", ""))
    before = path.read_bytes()
    result = run("install", BUNDLE, "--host", "openhands", "--scope", "project")
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        "hooks: .openhands/hooks.json: /hooks/OnFoo: not an event OpenHands knows (PreToolUse, PostToolUse, "
        "UserPromptSubmit, SessionStart, SessionEnd, Stop): it refuses the whole file and starts no session "
        "(measured: it prints the error and exits 0); nothing written: rename that event to one of OpenHands' "
        "or remove it, then run the command again\n")
    assert path.read_bytes() == before and sorted(p.name for p in path.parent.iterdir()) == ["hooks.json"]
    verify = run("verify", "--host", "openhands")
    assert "  warning: .openhands/hooks.json: /hooks/OnFoo: not an event OpenHands knows (" in verify.stdout


def test_ours_come_out_of_such_a_file_and_verify_calls_it_a_problem(run, project: Path) -> None:
    """Installed first, the operator's unknown event added later: verify says a problem (our hooks do
    not run), and uninstall still takes ours out, giving the operator's bytes back."""
    text = '{\n  "hooks": {\n    "PreToolUse": []\n  }\n}\n'
    path = _file(project, text)
    assert run("install", BUNDLE, "--host", "openhands", "--scope", "project").exit_code == 0
    installed = path.read_text(encoding="utf-8")
    broken = installed.replace('  "hooks": {\n', '  "hooks": {\n    "on_foo": [],\n', 1)
    path.write_text(broken, encoding="utf-8")
    verify = run("verify", "--host", "openhands")
    assert verify.exit_code == 1 and "  problem: .openhands/hooks.json: /hooks/on_foo: not an event" in verify.stdout
    again = run("install", BUNDLE, "--host", "openhands", "--scope", "project")
    assert again.exit_code in (0, 2) and path.read_text(encoding="utf-8") == broken, again.output
    assert run("uninstall", "guard", "--host", "openhands").exit_code == 0
    assert path.read_text(encoding="utf-8") == text.replace('  "hooks": {\n', '  "hooks": {\n    "on_foo": [],\n', 1)

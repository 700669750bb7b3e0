"""Issue 34: verify true to what each agent really runs (items 2 to 5), through the ``hooks`` CLI.
The real agents' side of each is in tests/e2e (test_letta_real, test_auggie_real, test_claude_real,
test_codex_real)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PROBE = ('[bundle]\nname = "probe"\nversion = "1.0.0"\n[[hooks]]\nid = "pre"\nevent = "pre_tool_use"\n'
         'matcher = ["shell"]\ncommand = "echo pre"\n')


def _problems(result) -> list[str]:
    return [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("problem:")]


# -- item 2: Letta, a value its merge cannot spread -------------------------------------------------

@pytest.mark.parametrize(("scope", "event", "value", "shown"), [
    ("local", "PostToolUse", {}, "an object"), ("project", "Notification", 3, "3"), ("user", "Stop", True, "true")])
def test_letta_a_value_its_merge_cannot_spread_is_a_problem_in_any_file(scope, event, value, shown, run,
                                                                       write_bundle, project, home) -> None:
    assert run("install", str(write_bundle(PROBE)), "--host", "letta").exit_code == 0
    path = {"local": project / ".letta" / "settings.local.json", "project": project / ".letta" / "settings.json",
            "user": home / ".letta" / "settings.json"}[scope]
    doc = json.loads(path.read_text()) if path.exists() else {}
    doc.setdefault("hooks", {})[event] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    result = run("verify", "--host", "letta")
    shown_path = {"local": ".letta/settings.local.json", "project": ".letta/settings.json",
                  "user": str(home / ".letta" / "settings.json")}[scope]
    assert result.exit_code == 1
    assert _problems(result) == [f"problem: {shown_path}: /hooks/{event} is {shown}, not a list: Letta Code fails to "
                                 "merge its settings on it and runs no hook at all, in every file; make it a list of "
                                 "hook groups or remove it"]


def test_letta_false_zero_and_null_read_as_no_hooks(run, write_bundle, home) -> None:
    assert run("install", str(write_bundle(PROBE)), "--host", "letta").exit_code == 0
    user = home / ".letta" / "settings.json"
    user.parent.mkdir()
    user.write_text(json.dumps({"hooks": {"Stop": False, "Notification": 0, "PreCompact": None, "disabled": False}}))
    assert run("verify", "--host", "letta").exit_code == 0

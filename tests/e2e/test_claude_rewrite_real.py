"""Issue 34 item 5 (anthropics/claude-code#88113): Claude Code drops the keys it does not know from
hook groups and handlers whenever it writes a settings file itself. Measured on 2.1.332 offline:
``claude plugin install --scope project|local`` (from a local marketplace folder) rewrites
.claude/settings.json or settings.local.json to add ``enabledPlugins``, and the operator's extra
keys are gone. hookweave keeps its marker out of JSON keys (a comment at the end of the command), so
its entries come through whole: verify finds every hook its own, and uninstall takes exactly them out."""

from __future__ import annotations

import json
from pathlib import Path

from realhosts import agent_binary, run_agent

OPERATOR = {"hooks": {"PreToolUse": [{"matcher": "Bash", "x-owner": "ops",
                                      "hooks": [{"type": "command", "command": "echo op", "x-note": 1}]}]}}
BUNDLE = ('[bundle]\nname = "team"\nversion = "1.0.0"\n[[hooks]]\nid = "pre"\nevent = "pre_tool_use"\n'
          'matcher = ["shell"]\ncommand = "echo pre"\n[[hooks]]\nid = "stop"\nevent = "stop"\ncommand = "echo stop"\n')
# What Claude left, less hookweave's entries: the operator's group without its extra keys, and the plugin.
LEFT = """{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "echo op"
          }
        ]
      }
    ]
  },
  "enabledPlugins": {
    "p1@local": true
  }
}"""


def _marketplace(folder: Path) -> Path:
    """A local marketplace with one plugin that has no hooks: installing it is only a reason for Claude to write."""
    (folder / ".claude-plugin").mkdir(parents=True)
    (folder / ".claude-plugin" / "marketplace.json").write_text(json.dumps(
        {"name": "local", "owner": {"name": "ops"}, "plugins": [{"name": "p1", "source": "./plugins/p1"}]}))
    (folder / "plugins" / "p1" / ".claude-plugin").mkdir(parents=True)
    (folder / "plugins" / "p1" / ".claude-plugin" / "plugin.json").write_text('{"name": "p1", "version": "1.0.0"}')
    return folder


def _ours(doc: dict) -> dict:
    """hookweave's entries of a settings document, per event (those whose command carries its marker)."""
    return {event: [g for g in groups if "# hookweave:" in json.dumps(g)] for event, groups in doc["hooks"].items()}


def test_claude_rewriting_its_settings_keeps_ours_whole(run, home, project, write_bundle, tmp_path) -> None:
    files = {"project": project / ".claude" / "settings.json", "local": project / ".claude" / "settings.local.json"}
    files["project"].parent.mkdir(parents=True)
    bundle = str(write_bundle(BUNDLE))
    before = {}
    for scope, path in files.items():
        path.write_text(json.dumps(OPERATOR, indent=1) + "\n")
        assert run("install", bundle, "--host", "claude", "--scope", scope).exit_code == 0
        before[scope] = _ours(json.loads(path.read_text()))

    claude = str(agent_binary("claude"))
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run_agent([claude, "plugin", "marketplace", "add", str(_marketplace(tmp_path / "marketplace"))], project, env)
    for scope, path in files.items():
        run_agent([claude, "plugin", "install", "p1@local", "--scope", scope], project, env)
        written = json.loads(path.read_text())
        assert written["enabledPlugins"] == {"p1@local": True}  # Claude wrote the file itself
        operator = written["hooks"]["PreToolUse"][0]
        assert operator == {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo op"}]}  # #88113
        assert _ours(written) == before[scope]  # ours: not a key lost

    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 0, verify.stdout
    assert [line.split()[1:5] for line in verify.stdout.splitlines() if line.startswith("claude  ")] == [
        ["project", "team", "1.0.0", "2"], ["local", "team", "1.0.0", "2"]]
    assert all(line.endswith(("settings.json", "settings.local.json")) and " ok " in line
               for line in verify.stdout.splitlines() if line.startswith("claude  "))
    for scope, path in files.items():
        assert run("uninstall", "team", "--host", "claude", "--scope", scope).exit_code == 0
        assert path.read_text() == LEFT + "\n"

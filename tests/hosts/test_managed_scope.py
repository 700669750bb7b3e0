"""--scope managed (issue 26 part 3): hookweave's own drop-in in Claude's managed-settings.d, the
administrator's files around it never opened for writing; agents without a drop-in folder refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookweave.hosts.claude import claude_merge

BUNDLE = """[bundle]
name = "guard"
version = "1.0.0"

[[hooks]]
id = "one-strike"
event = "pre_tool_use"
matcher = ["shell"]
command = "guard check"

[env.GUARD_MODE]
value = "strict"
"""

# The administrator's files: odd spacing, non-ASCII, key order, no trailing newline in one.
ADMIN = """{
    "permissions" : { "deny": ["Read(./.env)"] },
    "env": {"GUARD_MODE": "audit", "ÉQUIPE": "sécurité"},
    "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/admin/guard"}]}],
              "Stop": [{"hooks": [{"type": "command", "command": "/opt/admin/stop"}]}]},
    "allowManagedHooksOnly": false
}
"""
FLEET = '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"fleet-audit"}]}]}}'
LATE = '{\n  "env": {"LATE": "1"}\n}\n'

OURS = """{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "guard check # hookweave:guard/one-strike"
          }
        ]
      }
    ]
  },
  "env": {
    "GUARD_MODE": "strict"
  }
}
"""


@pytest.fixture
def managed(tmp_path: Path) -> Path:
    return tmp_path / "managed"  # HOOKWEAVE_CLAUDE_MANAGED_DIR (tests/conftest.py)


def _admin(managed: Path) -> dict[Path, str]:
    files = {managed / "managed-settings.json": ADMIN, managed / "managed-settings.d" / "10-fleet.json": FLEET,
             managed / "managed-settings.d" / "90-late.json": LATE,
             managed / "managed-settings.d" / ".50-hidden.json": "not json, and skipped as Claude skips it"}
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    return files


def test_install_writes_our_drop_in_and_leaves_every_admin_file_byte_for_byte(run, write_bundle, managed) -> None:
    admin = _admin(managed)
    bundle = str(write_bundle(BUNDLE))
    result = run("install", bundle, "--host", "claude", "--scope", "managed")
    assert result.exit_code == 0, result.output
    drop_in = managed / "managed-settings.d" / "50-hookweave.json"
    assert drop_in.read_text() == OURS
    assert {p: p.read_bytes().decode() for p in admin} == admin
    record = managed / "managed-settings.d.hookweave.json"  # beside the folder: Claude loads every *.json in it
    assert json.loads(record.read_text())["bundles"]["guard"]["version"] == "1.0.0"
    assert sorted(p.name for p in (managed / "managed-settings.d").iterdir()) == [
        ".50-hidden.json", "10-fleet.json", "50-hookweave.json", "90-late.json"]

    assert run("install", bundle, "--host", "claude", "--scope", "managed").stdout.count("already installed") == 1
    verify = run("verify", "--host", "claude", "--scope", "managed")
    assert verify.exit_code == 0, verify.output
    assert f"claude  managed  guard 1.0.0  1 hook ok  {drop_in}\n" in verify.stdout
    status = run("status", "--host", "claude")
    assert f"claude  managed  guard 1.0.0  (1 hook, 1 env)  {drop_in}\n" in status.stdout

    assert run("uninstall", "guard", "--host", "claude", "--scope", "managed").exit_code == 0
    assert not drop_in.exists() and not record.exists()
    assert {p: p.read_bytes().decode() for p in admin} == admin
    assert sorted(p.name for p in (managed / "managed-settings.d").iterdir()) == [
        ".50-hidden.json", "10-fleet.json", "90-late.json"]


def test_a_managed_folder_hookweave_created_goes_with_the_last_bundle(run, write_bundle, managed) -> None:
    assert run("install", str(write_bundle(BUNDLE)), "--host", "claude", "--scope", "managed").exit_code == 0
    assert (managed / "managed-settings.d" / "50-hookweave.json").read_text() == OURS
    assert run("uninstall", "--all", "--host", "claude", "--scope", "managed").exit_code == 0
    assert not managed.exists()


def test_a_drop_in_of_our_name_that_hookweave_did_not_create_is_refused_untouched(run, write_bundle, managed) -> None:
    theirs = managed / "managed-settings.d" / "50-hookweave.json"
    theirs.parent.mkdir(parents=True)
    theirs.write_text('{"env": {"X": "1"}}')
    result = run("install", str(write_bundle(BUNDLE)), "--host", "claude", "--scope", "managed")
    assert result.exit_code == 1
    assert result.stderr == (f"hooks: {theirs}: hookweave did not create this file, and in the managed layer it edits "
                             "only its own; nothing written. Move or rename the file if it is yours, then install again\n")
    assert theirs.read_text() == '{"env": {"X": "1"}}'
    assert not (managed / "managed-settings.d.hookweave.json").exists()


def test_verify_reads_the_whole_managed_layer_as_claude_merges_it(run, write_bundle, managed) -> None:
    """Every drop-in counts: an administrator's later drop-in turning hooks off is a problem at every scope."""
    _admin(managed)
    assert run("install", str(write_bundle(BUNDLE)), "--host", "claude", "--scope", "managed").exit_code == 0
    (managed / "managed-settings.d" / "90-late.json").write_text('{"disableAllHooks": true}\n')
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 1
    assert "  problem: managed settings set disableAllHooks: Claude runs no hooks at all\n" in verify.stdout


def test_a_managed_file_that_does_not_parse_stops_claude_and_verify_says_so(run, write_bundle, managed) -> None:
    _admin(managed)
    assert run("install", str(write_bundle(BUNDLE)), "--host", "claude", "--scope", "managed").exit_code == 0
    (managed / "managed-settings.d" / "10-fleet.json").write_text("{oops")
    verify = run("verify", "--host", "claude", "--scope", "managed")
    assert verify.exit_code == 1
    assert "(Claude Code refuses to start while a managed settings file does not parse, and runs no hooks)" in verify.stdout


def test_claude_merge_joins_hook_lists_and_lets_the_later_scalar_win() -> None:
    base = {"hooks": {"Stop": [{"hooks": [1]}]}, "env": {"A": "1", "B": "1"}, "deny": ["x", "y"], "flag": True}
    later = {"hooks": {"Stop": [{"hooks": [1]}], "PreToolUse": []}, "env": {"B": "2"}, "deny": ["y", "z"], "flag": False}
    assert claude_merge(base, later) == {
        "hooks": {"Stop": [{"hooks": [1]}, {"hooks": [1]}], "PreToolUse": []}, "env": {"A": "1", "B": "2"},
        "deny": ["x", "y", "z"], "flag": False}


@pytest.mark.parametrize(("host", "start"), [
    ("codex", "Codex's managed layer is one file per kind"),
    ("gemini", "Gemini CLI's managed layer is one file, the administrator's system settings.json"),
    ("cursor", "Cursor's managed layer is one file"),
    ("qwen", "Qwen Code has no managed layer that hookweave writes"),
])
def test_agents_without_a_drop_in_hookweave_writes_are_refused_with_the_reason(run, write_bundle, host, start,
                                                                                 tmp_path) -> None:
    bundle = str(write_bundle(BUNDLE))
    before = sorted(p for p in tmp_path.rglob("*"))
    result = run("install", bundle, "--host", host, "--scope", "managed")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"hooks: --scope managed: {start}")
    assert "; nothing written (writable scopes: " in result.stderr
    assert sorted(p for p in tmp_path.rglob("*")) == before

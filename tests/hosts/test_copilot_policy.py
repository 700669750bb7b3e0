"""--scope managed for Copilot CLI: hookweave's own drop-in in policy.d (HOOKWEAVE_COPILOT_POLICY_DIR,
tests/conftest.py), 0644 and root's as Copilot 1.0.102 requires, the administrator's files around it
never opened for writing; verify reads the layer as Copilot loads it (tests/e2e/test_managed_real.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from hookweave.hosts.copilot import policy as copilot_policy

BUNDLE = """[bundle]
name = "guard"
version = "1.0.0"

[[hooks]]
id = "one-strike"
event = "pre_tool_use"
matcher = ["shell"]
command = "guard check"
timeout = 5
"""

OURS = """{
  "hooks": {
    "preToolUse": [
      {
        "type": "command",
        "bash": "guard check # hookweave:guard/one-strike",
        "powershell": "guard check # hookweave:guard/one-strike",
        "matcher": "bash",
        "timeoutSec": 5
      }
    ]
  },
  "version": 1
}
"""

# The administrator's files: odd spacing, non-ASCII, no trailing newline in one; and the ones Copilot skips.
FLEET = '{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/opt/fleet/audit — équipe","matcher":".*"}]}}'
LATE = '{\n    "version" : 1,\n    "hooks": {"preToolUse": [{"type": "command", "bash": "/opt/late"}]}\n}\n'
DOT = '{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "/opt/dot"}]}}\n'
EXTRA_KEY = '{"version": 1, "disableAllHooks": true, "hooks": {}}\n'
BROKEN = "{oops\n"
NOTES = "not a policy file: Copilot reads *.json only\n"


@pytest.fixture
def policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The policy folder, with hookweave taken for root whoever runs the tests."""
    if os.geteuid() != 0:
        monkeypatch.setattr(copilot_policy, "ROOT", os.geteuid())
        monkeypatch.setattr(os, "geteuid", lambda: 0)
    return tmp_path / "copilot-policy.d"


def _admin(policy: Path) -> dict[Path, str]:
    files = {policy / "10-fleet.json": FLEET, policy / "90-late.json": LATE, policy / ".05-dot.json": DOT,
             policy / "20-extra.json": EXTRA_KEY, policy / "30-broken.json": BROKEN, policy / "notes.txt": NOTES,
             policy / "40-open.json": LATE}
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        path.chmod(0o644)
    (policy / "40-open.json").chmod(0o666)
    return files


def _bytes(files: dict[Path, str]) -> dict[Path, str]:
    return {p: p.read_bytes().decode() for p in files}


def test_install_writes_our_drop_in_0644_and_leaves_every_admin_file_byte_for_byte(run, write_bundle, policy) -> None:
    admin = _admin(policy)
    bundle = str(write_bundle(BUNDLE))
    result = run("install", bundle, "--host", "copilot", "--scope", "managed")
    assert result.exit_code == 0, result.output
    drop_in = policy / "50-hookweave.json"
    assert drop_in.read_text() == OURS
    assert drop_in.stat().st_mode & 0o777 == 0o644 and drop_in.stat().st_uid == copilot_policy.ROOT
    assert _bytes(admin) == admin
    record = policy.with_name("copilot-policy.d.hookweave.json")  # beside the folder: Copilot loads every *.json in it
    assert json.loads(record.read_text())["bundles"]["guard"]["version"] == "1.0.0"
    assert sorted(p.name for p in policy.iterdir()) == [
        ".05-dot.json", "10-fleet.json", "20-extra.json", "30-broken.json", "40-open.json", "50-hookweave.json",
        "90-late.json", "notes.txt"]

    assert run("install", bundle, "--host", "copilot", "--scope", "managed").stdout.count("already installed") == 1
    verify = run("verify", "--host", "copilot", "--scope", "managed")
    assert verify.exit_code == 0, verify.output
    fixed = "/etc/github-copilot/policy.d" if sys.platform != "win32" else "C:/ProgramData/GitHub/Copilot/policy.d"
    assert verify.stdout == (
        "copilot (Copilot CLI)\n"
        f"  note: {policy}/20-extra.json: Copilot CLI skips this policy file, as it holds disableAllHooks, and a "
        "policy file holds only version and hooks\n"
        f"  note: {policy}/30-broken.json: Copilot CLI skips this policy file, as it is not strict JSON\n"
        f"  note: {policy}/40-open.json: Copilot CLI skips this policy file, as it is writable by others (mode 666)\n"
        "  note: Copilot CLI runs the policy files by name, before user and project hooks: .05-dot.json, "
        "10-fleet.json before 50-hookweave.json, 90-late.json after it\n"
        f"  note: HOOKWEAVE_COPILOT_POLICY_DIR is set in this shell: hookweave reads and writes Copilot CLI's managed "
        f"scope in {policy}; Copilot CLI does not read that variable and looks only in {fixed}, so the hooks there "
        f"run only where {policy} is {fixed} to Copilot CLI (a container or a mount)\n"
        "  note: Copilot runs an event's hooks one after another, in file order\n"
        f"copilot  managed  guard 1.0.0  1 hook ok  {drop_in}\n"
        "verify: ok (6 notes)\n")
    status = run("status", "--host", "copilot")
    assert f"copilot  managed  guard 1.0.0  (1 hook, 0 env)  {drop_in}\n" in status.stdout

    assert run("uninstall", "guard", "--host", "copilot", "--scope", "managed").exit_code == 0
    assert not drop_in.exists() and not record.exists()
    assert _bytes(admin) == admin
    assert len(list(policy.iterdir())) == len(admin)


def test_the_layer_is_read_in_copilots_order_with_the_files_it_skips_left_out(write_bundle, run, policy) -> None:
    _admin(policy)
    assert run("install", str(write_bundle(BUNDLE)), "--host", "copilot", "--scope", "managed").exit_code == 0
    assert [p.name for p in copilot_policy.layer(policy / "50-hookweave.json")] == [
        ".05-dot.json", "10-fleet.json", "50-hookweave.json", "90-late.json"]  # name order, dot-files too


def test_a_folder_hookweave_created_is_0755_whatever_the_umask_and_goes_with_the_last_bundle(run, write_bundle,
                                                                                               policy) -> None:
    old = os.umask(0o077)
    try:
        assert run("install", str(write_bundle(BUNDLE)), "--host", "copilot", "--scope", "managed").exit_code == 0
    finally:
        os.umask(old)
    assert policy.stat().st_mode & 0o777 == 0o755  # Copilot runs as the user, who must read the folder
    assert (policy / "50-hookweave.json").stat().st_mode & 0o777 == 0o644
    assert (policy / "50-hookweave.json").read_text() == OURS
    assert run("uninstall", "--all", "--host", "copilot", "--scope", "managed").exit_code == 0
    assert not policy.exists() and not policy.with_name("copilot-policy.d.hookweave.json").exists()


def test_install_as_another_user_than_root_is_refused_and_writes_nothing(run, write_bundle, policy, monkeypatch,
                                                                          tmp_path) -> None:
    _admin(policy)
    bundle = str(write_bundle(BUNDLE))
    before = sorted(tmp_path.rglob("*"))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    result = run("install", bundle, "--host", "copilot", "--scope", "managed")
    assert result.exit_code == 1
    assert result.stderr == (f"hooks: {policy}/50-hookweave.json: Copilot CLI skips a policy file that root does not "
                             "own (1.0.102, measured), and hookweave runs as another user; nothing written. Run the "
                             "install as root (sudo), or through your fleet tool\n")
    assert sorted(tmp_path.rglob("*")) == before


def test_a_drop_in_of_our_name_that_hookweave_did_not_create_is_refused_untouched(run, write_bundle, policy) -> None:
    theirs = policy / "50-hookweave.json"
    policy.mkdir()
    theirs.write_text(LATE)
    result = run("install", str(write_bundle(BUNDLE)), "--host", "copilot", "--scope", "managed")
    assert result.exit_code == 1
    assert result.stderr == (f"hooks: {theirs}: hookweave did not create this file, and in the managed layer it edits "
                             "only its own; nothing written. Move or rename the file if it is yours, then install again\n")
    assert theirs.read_text() == LATE
    assert not policy.with_name("copilot-policy.d.hookweave.json").exists()


@pytest.mark.parametrize(("change", "why"), [
    (lambda p: p.chmod(0o666), "it is writable by others (mode 666)"),
    (lambda p: p.chmod(0o664), "it is writable by its group (mode 664)"),
])
def test_verify_says_when_copilot_would_skip_our_drop_in(run, write_bundle, policy, change, why) -> None:
    assert run("install", str(write_bundle(BUNDLE)), "--host", "copilot", "--scope", "managed").exit_code == 0
    drop_in = policy / "50-hookweave.json"
    change(drop_in)
    verify = run("verify", "--host", "copilot")
    assert verify.exit_code == 1
    assert (f"  problem: {drop_in}: Copilot CLI skips this policy file, as {why}, and runs none of its hooks; "
            "chmod 644 and chown root it, or uninstall and install again as root\n") in verify.stdout


def test_verify_says_when_root_does_not_own_our_drop_in(run, write_bundle, policy, monkeypatch) -> None:
    assert run("install", str(write_bundle(BUNDLE)), "--host", "copilot", "--scope", "managed").exit_code == 0
    monkeypatch.setattr(copilot_policy, "ROOT", copilot_policy.ROOT + 1)  # as if a user had written it
    verify = run("verify", "--host", "copilot")
    assert verify.exit_code == 1
    assert "Copilot CLI skips this policy file, as it is not owned by root, and runs none of its hooks" in verify.stdout


def test_the_same_bundle_at_managed_and_user_scope_fires_twice_as_verify_says(run, write_bundle, policy) -> None:
    bundle = str(write_bundle(BUNDLE))
    assert run("install", bundle, "--host", "copilot", "--scope", "managed").exit_code == 0
    assert run("install", bundle, "--host", "copilot", "--scope", "user").exit_code == 0
    verify = run("verify", "--host", "copilot")
    assert verify.exit_code == 1
    assert ("  problem: guard/one-strike: installed at user and managed scope; Copilot CLI runs the copies in user and "
            "managed each, so it fires 2 times per preToolUse: uninstall it from all but one scope\n") in verify.stdout


def test_a_claude_managed_copy_is_not_counted_as_one_copilot_runs(run, write_bundle, policy) -> None:
    """Copilot reads Claude's project and local settings, never Claude's managed layer: no double count."""
    bundle = str(write_bundle(BUNDLE))
    assert run("install", bundle, "--host", "copilot", "--scope", "managed").exit_code == 0
    assert run("install", bundle, "--host", "claude", "--scope", "managed").exit_code == 0
    verify = run("verify", "--host", "copilot", "--host", "claude")
    assert verify.exit_code == 0, verify.output
    assert "twice" not in verify.stdout and "2 times" not in verify.stdout


def test_shape_problem_reads_a_policy_file_as_copilot_does() -> None:
    assert copilot_policy.shape_problem('{"version": 1, "hooks": {"preToolUse": []}}') is None
    assert copilot_policy.shape_problem('{"version": 1}') is None
    assert copilot_policy.shape_problem('{"hooks": {}}') == 'it is not {"version": 1, "hooks": ...}'
    assert copilot_policy.shape_problem('{"version": 2, "hooks": {}}') == 'it is not {"version": 1, "hooks": ...}'
    assert copilot_policy.shape_problem('{"version": true, "hooks": {}}') == 'it is not {"version": 1, "hooks": ...}'
    assert copilot_policy.shape_problem('// x\n{"version": 1}') == "it is not strict JSON"
    assert copilot_policy.shape_problem('{"version": 1, "hooks": {"stop": {}}}') == "its hooks are not an object of lists"

"""The managed layer, the real agents (issue 26 part 3). Claude Code 2.1.332 reads its managed
settings only from /etc/claude-code (CLAUDE_CODE_MANAGED_SETTINGS_PATH is compiled out: measured, a
folder it names is not read), so the agent runs in a private mount namespace where /etc is an
overlay whose upper layer is this test's folder: hookweave installs into that folder
(HOOKWEAVE_CLAUDE_MANAGED_DIR) and the real /etc is never written. Needs root (unshare -m, overlayfs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from realhosts import HOSTS, agent_binary, run_agent

MOUNT = 'mount -t overlay overlay -o lowerdir=/etc,upperdir="$1",workdir="$2" /etc && shift 2 && exec "$@"'


def in_overlay(argv: list[str], upper: Path) -> list[str]:
    """``argv`` run where /etc shows ``upper`` over the real one (writes land in ``upper``, never in /etc)."""
    work = upper.with_name(upper.name + "-work")
    work.mkdir(exist_ok=True)
    return ["unshare", "-m", "sh", "-c", MOUNT, "sh", str(upper), str(work), *argv]


@pytest.fixture
def etc(tmp_path: Path) -> Path:
    upper = tmp_path / "etc-upper"
    upper.mkdir()
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("the managed layer lives in /etc: an overlay on it in a private mount namespace needs root")
    probe = subprocess.run(in_overlay(["true"], upper), capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"no overlay on /etc in a private mount namespace here: {probe.stderr.strip()}")
    return upper


def _probe_bundle(probe, sleep: float) -> str:
    (probe.folder / "hookweave.toml").write_text(
        '[bundle]\nname = "fleet-guard"\nversion = "1.0.0"\n\n[[hooks]]\nid = "pre"\nevent = "pre_tool_use"\n'
        f'matcher = ["shell"]\ncommand = ["python3", "{{bundle_dir}}/probe.py", "managed-pre", "{probe.log}", "{sleep}"]\n')
    return str(probe.folder)


def _pre(probe, hook_id: str, sleep: float = 0) -> dict:
    return {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": probe.command(hook_id, sleep)}]}]}}


def test_claude_runs_our_managed_drop_in_before_user_and_project_hooks(run, mock, probe, home, project, etc,
                                                                       monkeypatch) -> None:
    """Measured on 2.1.332: managed hooks (every file of the layer, at once) run first, and user and
    project hooks start only when the last managed one has ended; an administrator's drop-in beside
    ours runs too, and uninstall gives the folder back as it was."""
    managed = etc / "claude-code"
    monkeypatch.setenv("HOOKWEAVE_CLAUDE_MANAGED_DIR", str(managed))
    admin = managed / "managed-settings.d" / "10-admin.json"
    admin.parent.mkdir(parents=True)
    admin_text = json.dumps(_pre(probe, "admin-pre", 1)) + "\n"
    admin.write_text(admin_text)
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(json.dumps(_pre(probe, "user-pre")))
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(_pre(probe, "project-pre")))

    assert run("install", _probe_bundle(probe, 1), "--host", "claude", "--scope", "managed").exit_code == 0
    verify = run("verify", "--verbose", "--host", "claude")
    assert verify.exit_code == 0, verify.output
    assert ("note: Claude runs an event's managed hooks first, all at once, and starts the user, project and local ones "
            "only after the last managed one has ended") in verify.output  # issue 34: as measured below
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    claude = [str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"]
    run_agent(in_overlay(claude, etc), project, env)
    calls = {c["id"]: c for c in probe.calls()}
    assert sorted(calls) == ["admin-pre", "managed-pre", "project-pre", "user-pre"]
    last_managed = max(calls[i]["end"] for i in ("admin-pre", "managed-pre"))
    assert min(calls[i]["start"] for i in ("user-pre", "project-pre")) >= last_managed  # managed first, to the end
    assert abs(calls["admin-pre"]["start"] - calls["managed-pre"]["start"]) < 0.9  # the managed ones together

    assert run("uninstall", "fleet-guard", "--host", "claude", "--scope", "managed").exit_code == 0
    assert sorted(p.name for p in admin.parent.iterdir()) == ["10-admin.json"] and admin.read_text() == admin_text
    run_agent(in_overlay(claude, etc), project, env)
    assert sorted(c["id"] for c in probe.calls()) == ["admin-pre", "project-pre", "user-pre"]


def test_claude_does_not_read_a_managed_folder_named_by_its_variable(mock, probe, home, project) -> None:
    """CLAUDE_CODE_MANAGED_SETTINGS_PATH is in 2.1.332's list of variables, but its reader returns
    nothing: a folder it names is not read, so tests cannot point Claude elsewhere with it."""
    folder = project.parent / "named"
    (folder / "managed-settings.d").mkdir(parents=True)
    (folder / "managed-settings.json").write_text(json.dumps(_pre(probe, "named")))
    (folder / "managed-settings.d" / "50-hookweave.json").write_text(json.dumps(_pre(probe, "named-drop-in")))
    project.mkdir(exist_ok=True)
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
           "CLAUDE_CODE_MANAGED_SETTINGS_PATH": str(folder)}
    run_agent([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], project, env)
    assert probe.calls() == []


def _copilot_pre(probe, hook_id: str, sleep: float = 0) -> str:
    return json.dumps({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": probe.command(hook_id, sleep)}]}})


def test_copilot_runs_our_policy_drop_in_first_in_name_order_then_user_then_project(run, mock, probe, home, project,
                                                                                      etc, monkeypatch) -> None:
    """Measured on Copilot CLI 1.0.102: the policy files run one after another by name (an
    administrator's 10- file, then ours), then the user's hooks, then the project's; hookweave's
    drop-in is accepted as Copilot's strict policy shape (matcher, bash and powershell included),
    and uninstall gives the folder back as it was."""
    from test_copilot_real import trust

    binary = HOSTS / "copilot" / "node_modules" / ".bin" / "copilot"
    if not binary.is_file():
        pytest.skip("copilot is not installed: run scripts/install-hosts copilot (needs node and npm)")
    policy = etc / "github-copilot" / "policy.d"
    monkeypatch.setenv("HOOKWEAVE_COPILOT_POLICY_DIR", str(policy))
    policy.mkdir(parents=True)
    admin = policy / "10-admin.json"
    admin_text = _copilot_pre(probe, "admin-pre", 0.5) + "\n"
    admin.write_text(admin_text)
    admin.chmod(0o644)
    (home / ".copilot" / "hooks").mkdir(parents=True)
    (home / ".copilot" / "hooks" / "user.json").write_text(_copilot_pre(probe, "user-pre"))
    (project / ".github" / "hooks").mkdir(parents=True)
    (project / ".github" / "hooks" / "team.json").write_text(_copilot_pre(probe, "project-pre"))
    trust(home, project)

    assert run("install", _probe_bundle(probe, 0.5), "--host", "copilot", "--scope", "managed").exit_code == 0
    verify = run("verify", "--verbose", "--host", "copilot")
    assert verify.exit_code == 0, verify.output
    assert ("  note: Copilot CLI runs the policy files by name, before user and project hooks: 10-admin.json before "
            "50-hookweave.json, none after it\n") in verify.stdout
    env = {"HOME": str(home), "COPILOT_OFFLINE": "1", "COPILOT_AUTO_UPDATE": "false",
           "COPILOT_PROVIDER_BASE_URL": f"{mock.url}/v1", "COPILOT_PROVIDER_TYPE": "openai",
           "COPILOT_PROVIDER_API_KEY": "dummy", "COPILOT_MODEL": "mock"}
    copilot = [str(binary), "-p", "run the echo", "--allow-all-tools", "--disable-builtin-mcps",
               "--disable-client-telemetry"]
    run_agent(in_overlay(copilot, etc), project, env)
    calls = probe.calls()
    assert [c["id"] for c in calls] == ["admin-pre", "managed-pre", "user-pre", "project-pre"]
    assert all(a["end"] <= b["start"] for a, b in zip(calls, calls[1:]))  # one after another, none overlapping

    (policy / "50-hookweave.json").chmod(0o666)  # as someone might: Copilot skips it, and verify says so
    assert run("verify", "--verbose", "--host", "copilot").exit_code == 1
    run_agent(in_overlay(copilot, etc), project, env)
    assert [c["id"] for c in probe.calls()] == ["admin-pre", "user-pre", "project-pre"]
    (policy / "50-hookweave.json").chmod(0o644)

    assert run("uninstall", "fleet-guard", "--host", "copilot", "--scope", "managed").exit_code == 0
    assert sorted(p.name for p in policy.iterdir()) == ["10-admin.json"] and admin.read_text() == admin_text
    run_agent(in_overlay(copilot, etc), project, env)
    assert [c["id"] for c in probe.calls()] == ["admin-pre", "user-pre", "project-pre"]


@pytest.mark.parametrize("switch", ["project disableAllHooks", "managed allowManagedHooksOnly"])
def test_claude_runs_our_managed_hooks_under_a_switch_that_stops_the_rest(switch, run, mock, probe, home, project,
                                                                          etc, monkeypatch, tmp_path) -> None:
    """Issue 34, measured on 2.1.332: with the project's ``disableAllHooks`` or the administrator's
    ``allowManagedHooksOnly``, our managed drop-in's hook runs and our project hook does not; verify
    exits 1 naming the project scope only. With the project bundle gone, verify notes it and exits 0."""
    managed = etc / "claude-code"
    monkeypatch.setenv("HOOKWEAVE_CLAUDE_MANAGED_DIR", str(managed))
    assert run("install", _probe_bundle(probe, 0), "--host", "claude", "--scope", "managed").exit_code == 0
    team = tmp_path / "team"
    team.mkdir()
    (team / "hookweave.toml").write_text(
        '[bundle]\nname = "team"\nversion = "1.0.0"\n[[hooks]]\nid = "pre"\nevent = "pre_tool_use"\n'
        f'matcher = ["shell"]\ncommand = ["python3", "{probe.folder}/probe.py", "project-pre", "{probe.log}"]\n')
    assert run("install", str(team), "--host", "claude", "--scope", "project").exit_code == 0
    if switch.startswith("project"):
        settings = project / ".claude" / "settings.json"
        settings.write_text(json.dumps({**json.loads(settings.read_text()), "disableAllHooks": True}, indent=2) + "\n")
    else:
        (managed / "managed-settings.json").write_text('{"allowManagedHooksOnly": true}\n')
    cause = ("project settings set disableAllHooks" if switch.startswith("project")
             else "managed settings set allowManagedHooksOnly")
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 1 and (f"problem: {cause}: Claude runs only managed hooks: hookweave's at project "
                                      "scope do not run, those at managed scope do") in verify.stdout, verify.stdout
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), "ANTHROPIC_BASE_URL": mock.url,
           "ANTHROPIC_API_KEY": "dummy", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}
    run_agent(in_overlay([str(agent_binary("claude")), "-p", "run the echo", "--allowedTools", "Bash"], etc), project,
              env)
    assert [c["id"] for c in probe.calls()] == ["managed-pre"]
    assert run("uninstall", "team", "--host", "claude", "--scope", "project").exit_code == 0
    verify = run("verify", "--host", "claude")
    assert verify.exit_code == 0 and (f"note: {cause}: Claude runs only managed hooks, and hookweave's are all at "
                                      "managed scope, so they run") in verify.stdout, verify.stdout

"""docs/fleet.md from zero to a rollout (issue 37 item 5), as a reader would copy it.

Every YAML block of the page names the file it is (``<!-- fleet: PATH -->`` above it); the test
writes them out as a rollout folder and lints them with ansible-lint's production profile, with the
collection installed from the tarball ``ansible-galaxy collection build`` makes. Then it runs the
plays as written on a stand-in target (connection ``local``, its own home; ``ansible_become=false``,
as the test is one user): hookweave's wheel and the bundle in place, the rollout twice (the second
``changed=0``), the drift check passing and then failing on a removed hook, an upgrade to the next
release of the bundle, a rollback to the first, and ``hookweave_state=absent`` giving the files back.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML comes with ansible-core, in the test extra")

from hookweave.core import __version__  # noqa: E402

REPO = Path(__file__).parent.parent.parent
TOOLS = Path(sys.executable).parent  # hooks, pip and ansible-lint (its pin), with this Python
BIN = Path(os.environ.get("HOOKWEAVE_TEST_ANSIBLE_BIN") or TOOLS)  # ansible-core's commands, as tests/fleet/test_ansible.py
OPERATOR = '{\n  "model": "opus",\n  "permissions": {"allow": ["Bash(git status)"]}\n}\n'


def fleet_files() -> dict[str, str]:
    """Each YAML block of docs/fleet.md by the path it names; a block without a name fails."""
    text = (REPO / "docs/fleet.md").read_text(encoding="utf-8")
    named = dict(re.findall(r"<!-- fleet: (\S+) -->\n```yaml\n(.*?)```\n", text, re.DOTALL))
    assert len(named) == text.count("```yaml\n"), "a YAML block of docs/fleet.md names no file"
    return named


def _env(home: Path, collections: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANSIBLE_", "CLAUDE_", "CODEX_", "GEMINI_"))}
    env.update(HOME=str(home), ANSIBLE_COLLECTIONS_PATH=str(collections), ANSIBLE_NOCOLOR="1",
               ANSIBLE_REMOTE_TMP=str(home / ".ansible/tmp"),  # else ~ of the account, the real home
               PATH=f"{BIN}{os.pathsep}{TOOLS}{os.pathsep}/usr/bin{os.pathsep}/bin")  # no agent's program on it
    return env


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, built_collection: dict) -> dict[str, Path]:
    """The collection tarball installed as a user installs it (once a run: tests/fleet/conftest.py),
    and hookweave's wheel."""
    root = tmp_path_factory.mktemp("built")
    source = root / "checkout"  # a copy: building in the worktree would leave build/ behind
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".venv", ".git", ".cache", "*.egg-info", "tests",
                                                                 "bench", "docs", "__pycache__", "ansible"))
    wheel = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(root / "dist"),
                            str(source)], capture_output=True, text=True, timeout=600)
    assert wheel.returncode == 0, wheel.stderr
    return {"collections": built_collection["collections"], "dist": root / "dist"}


def _rollout_folder(where: Path) -> Path:
    for name, text in fleet_files().items():
        (where / name).parent.mkdir(parents=True, exist_ok=True)
        (where / name).write_text("---\n" + text, encoding="utf-8")
    return where


def test_every_yaml_block_is_a_lint_clean_file(built: dict, tmp_path: Path) -> None:
    folder = _rollout_folder(tmp_path / "rollout")
    names = sorted(fleet_files())
    assert {"inventory/fleet.yml", "hookweave.yml", "rollout.yml", "drift.yml", "schedule.yml"} <= set(names)
    env = _env(tmp_path / "home", built["collections"])
    env["PATH"] = f"{TOOLS}{os.pathsep}{env['PATH']}"  # ansible-lint runs the ansible-core of its own environment
    lint = subprocess.run([str(TOOLS / "ansible-lint"), "--offline", "--profile", "production", "--nocolor", *names],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert f"0 failure(s), 0 warning(s) in {len(names)} files processed" in lint.stdout + lint.stderr
    inventory = subprocess.run([str(BIN / "ansible-inventory"), "-i", "inventory/fleet.yml", "--list"], cwd=folder,
                               env=env, capture_output=True, text=True, timeout=120, check=True)
    listed = json.loads(inventory.stdout)
    assert set(listed["workstations"]["hosts"]) == {"dev-alice.example.com", "dev-bob.example.com"}
    defined = set(listed["_meta"]["hostvars"]["dev-alice.example.com"])
    used = set(re.findall(r"\b(hookweave_\w+)", "".join(t for n, t in fleet_files().items() if "inventory" not in n)))
    assert used - defined == {"hookweave_state"}, used - defined  # state has its default in the plays


def _stand_in_inventory(folder: Path, target: Path, dist: Path) -> None:
    """The page's inventory with one local target in both groups, its paths in the test's folders."""
    inventory = yaml.safe_load((folder / "inventory/fleet.yml").read_text(encoding="utf-8"))
    host = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable, "hookweave_user": "dev"}
    for group in inventory["all"]["children"].values():
        group["hosts"] = {"t1": host}
    inventory["all"]["vars"].update(hookweave_dist=str(dist), hookweave_venv=str(target / "venv"),
                                    hookweave_bundles=str(target / "bundles"), hookweave_download=str(target),
                                    hookweave_team_repos=[str(target / "team")])
    (folder / "inventory/fleet.yml").write_text(yaml.safe_dump(inventory), encoding="utf-8")


def _bundle(folder: Path, version: str, timeout: int) -> None:
    bundle = folder / "bundles" / f"fleet-guard-{version}"
    shutil.copytree(REPO / "templates/example-guard", bundle)
    manifest = (bundle / "hookweave.toml").read_text(encoding="utf-8")
    (bundle / "hookweave.toml").write_text(manifest.replace('name = "example-guard"', 'name = "fleet-guard"')
                                           .replace('version = "1.0.0"', f'version = "{version}"')
                                           .replace("timeout = 10", f"timeout = {timeout}"), encoding="utf-8")


def test_the_rollout_as_written(built: dict, tmp_path: Path) -> None:
    folder = _rollout_folder(tmp_path / "rollout")
    target = tmp_path / "target"
    home = target / "home"
    settings = home / ".claude/settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(OPERATOR, encoding="utf-8")  # a developer's Claude Code: the agent detected here
    _stand_in_inventory(folder, target, built["dist"])
    _bundle(folder, "1.0.0", 10)
    _bundle(folder, "1.1.0", 15)
    env = {**_env(home, built["collections"]), "HOOKWEAVE_CLAUDE_MANAGED_DIR": str(target / "etc/claude-code")}
    team = target / "team"  # a repository with a .hookweave.toml, for the drift check's sync --check
    team.mkdir()
    subprocess.run([str(TOOLS / "hooks"), "add", "example-guard", "--host", "claude"], cwd=team, env=env, check=True,
                   capture_output=True, timeout=120)

    def play(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN / "ansible-playbook"), "-i", "inventory/fleet.yml", *args,
                               "-e", "ansible_become=false"], cwd=folder, env=env, capture_output=True, text=True,
                              timeout=900)

    def recap(done: subprocess.CompletedProcess) -> dict[str, int]:
        found = re.findall(r"^t1\s+: (.*)$", done.stdout, re.MULTILINE)  # a recap per playbook, the last sums them
        assert found, done.stdout + done.stderr
        return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", found[-1])}

    first = play("hookweave.yml", "rollout.yml")
    assert first.returncode == 0, first.stdout + first.stderr
    assert recap(first)["changed"] == 5  # the wheel, the venv, the bundle, the user and the managed hooks
    assert "fleet-guard/destructive-guard" in settings.read_text(encoding="utf-8")
    assert (target / "etc/claude-code/managed-settings.d/50-hookweave.json").is_file()
    assert not (home / ".codex").exists()  # hosts: [detected]: Codex is not on this machine
    assert __version__ in subprocess.run([str(target / "venv/bin/hooks"), "--version"], capture_output=True,
                                         text=True).stdout
    installed = settings.read_bytes()

    # The second rollout and the drift check in one ansible-playbook run (one start less): the recap
    # sums both, so changed=0 holds for each, and the drift check's asserts pass or the run fails.
    again = play("hookweave.yml", "rollout.yml", "drift.yml")
    assert again.returncode == 0, again.stdout + again.stderr
    assert recap(again)["changed"] == 0 and settings.read_bytes() == installed
    settings.write_text(OPERATOR, encoding="utf-8")  # someone took the hooks out
    drifted = play("drift.yml")
    assert drifted.returncode == 2, drifted.stdout + drifted.stderr
    assert "t1 drifted from fleet-guard-1.0.0" in drifted.stdout
    assert settings.read_text(encoding="utf-8") == OPERATOR  # the drift check wrote nothing

    assert play("rollout.yml").returncode == 0 and settings.read_bytes() == installed
    upgrade = play("hookweave.yml", "rollout.yml", "drift.yml", "-e", "hookweave_bundle=fleet-guard-1.1.0")
    assert upgrade.returncode == 0, upgrade.stdout + upgrade.stderr  # drift.yml after it: no drift from 1.1.0
    assert '"timeout": 15' in settings.read_text(encoding="utf-8")
    assert (target / "bundles/fleet-guard-1.0.0").is_dir()  # the earlier release stays for a rollback

    rollback = play("hookweave.yml", "rollout.yml")  # the inventory still names 1.0.0
    assert rollback.returncode == 0, rollback.stdout + rollback.stderr
    assert settings.read_bytes() == installed

    gone = play("rollout.yml", "-e", "hookweave_state=absent")
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert settings.read_text(encoding="utf-8") == OPERATOR
    assert not (target / "etc/claude-code/managed-settings.d/50-hookweave.json").exists()

"""The Ansible collection (ansible/) in real ansible-playbook runs over three local "machines".

Each machine is a folder with its own home and project, holding operator settings with comments
and foreign hooks; the play gives each its HOME and agent variables through ``environment:``, as a
fleet user would (or through become). Proven here: install in three agents, a second run with
``changed=0`` and no byte written, ``--check --diff`` showing hookweave's diff and writing nothing,
an operator edit failing that machine's task alone with hookweave's message, and ``state: absent``
giving every file back byte for byte. Then ansible-test sanity's validate-modules on the built
tarball's files (ansible-doc from its installed copy: tests/fleet/test_ansible_collection.py).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

pytest.importorskip("ansible", reason="ansible-core is in the test extra: pip install -e '.[test]'")

REPO = Path(__file__).parent.parent.parent
PLAYS = Path(__file__).parent.parent / "ansible"
# The ansible-core under test: this environment's, or another's (scripts/fleet-ci runs these plays on
# the oldest and newest it supports); the modules run under this Python, which has hookweave.
BIN = Path(os.environ.get("HOOKWEAVE_TEST_ANSIBLE_BIN") or Path(sys.executable).parent)

CLAUDE = """{
  "permissions": {"allow": ["Bash(git status)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit-log --tool bash"}]}
    ]
  }
}
"""
GEMINI = """{
  // the operator's own Gemini settings
  "hooks": {
    "BeforeTool": [
      {"matcher": "run_shell_command", "hooks": [{"type": "command", "name": "audit", "command": "audit-log"}]}  // keep
    ]
  }
}
"""
CODEX_HOOKS = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-done"}]}]}}\n'
CODEX_CONFIG = '# my Codex settings\nmodel = "o4"  # the usual\n\n[projects."{project}"]\ntrust_level = "trusted"\n'


def _machines(root: Path) -> Path:
    lines = ["[machines]"]
    for name in ("m1", "m2", "m3"):
        home, project = root / name / "home", root / name / "project"
        files = {project / ".claude/settings.json": CLAUDE, project / ".gemini/settings.json": GEMINI,
                 project / ".codex/hooks.json": CODEX_HOOKS,
                 home / ".codex/config.toml": CODEX_CONFIG.format(project=project),
                 home / ".gemini/trustedFolders.json": '{"%s": "TRUST_FOLDER"}\n' % project}
        for path, text in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        lines.append(f"{name} ansible_connection=local ansible_python_interpreter={sys.executable} "
                     f"machine_home={home} project_dir={project}")
    inventory = root / "inventory.ini"
    inventory.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return inventory


def _snapshot(root: Path) -> dict[str, tuple[bytes, int, int] | None]:
    """Every file and folder of the machines: bytes, mtime and inode (a folder: None)."""
    out: dict[str, tuple[bytes, int, int] | None] = {}
    for path in sorted((root / "machines").rglob("*")):
        st = path.stat()
        out[str(path.relative_to(root))] = None if path.is_dir() else (path.read_bytes(), st.st_mtime_ns, st.st_ino)
    return out


def _bytes(snap: dict) -> dict:
    return {k: v if v is None else v[0] for k, v in snap.items()}


@pytest.fixture
def fleet(tmp_path: Path, built_collection: dict) -> dict:
    """Three machines, and ansible's controller environment with the built tarball installed (once a
    run: tests/fleet/conftest.py), as a user installs it: the plays run that copy."""
    return make_fleet(tmp_path, built_collection)


def make_fleet(tmp_path: Path, built_collection: dict) -> dict:
    """The fleet fixture's machines and environment in a folder of the caller's (a module fixture's)."""
    controller = tmp_path / "controller"  # ansible's own home: never the real one
    controller.mkdir()
    env = {**os.environ, "HOME": str(controller), "ANSIBLE_COLLECTIONS_PATH": str(built_collection["collections"]),
           "ANSIBLE_NOCOLOR": "1", "ANSIBLE_PIPELINING": "1", "ANSIBLE_HOST_KEY_CHECKING": "0",
           "ANSIBLE_REMOTE_TMP": str(tmp_path / "remote-tmp"),  # else ~ of the account, the real home
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    for name in ("ANSIBLE_CONFIG", "GEMINI_CLI_TRUSTED_FOLDERS_PATH", "COPILOT_HOME", "QWEN_HOME", "CLINE_DIR",
                 "KIMI_CODE_HOME", "OPENHARNESS_CONFIG_DIR", "XDG_CACHE_HOME"):
        env.pop(name, None)  # each machine's own home decides (system and managed files stay in tmp_path)
    (tmp_path / "machines").mkdir()
    return {"root": tmp_path, "env": env, "inventory": _machines(tmp_path / "machines"),
            "tarball": built_collection["tarball"]}


def _play(fleet: dict, playbook: str, *args: str) -> subprocess.CompletedProcess:
    cmd = [str(BIN / "ansible-playbook"), "-i", str(fleet["inventory"]), str(PLAYS / playbook), *args]
    return subprocess.run(cmd, cwd=fleet["root"], env=fleet["env"], capture_output=True, text=True, timeout=300)


def _recap(out: str) -> dict[str, dict[str, int]]:
    return {m.group(1): {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m.group(2))}
            for m in re.finditer(r"^(m\d)\s+:\s+(.*)$", out, re.MULTILINE)}


def test_a_fleet_of_three_machines(fleet: dict) -> None:
    root = fleet["root"]
    original = _snapshot(root)

    dry = _play(fleet, "hooks.yml", "--check", "--diff")
    assert dry.returncode == 0, dry.stdout + dry.stderr
    assert {m: r["changed"] for m, r in _recap(dry.stdout).items()} == {"m1": 1, "m2": 1, "m3": 1}
    for machine in ("m1", "m2", "m3"):  # hookweave's diff of every file, with the operator's comment as context
        for path in (".claude/settings.json", ".gemini/settings.json", ".codex/hooks.json"):
            assert f"+++ {root}/machines/{machine}/project/{path}\n" in dry.stdout
        assert f"+++ {root}/machines/{machine}/home/.codex/config.toml\n" in dry.stdout
    assert "   // the operator's own Gemini settings\n" in dry.stdout and '"name": "example-guard/clean-tree"' in dry.stdout
    assert _snapshot(root) == original, "--check wrote"

    first = _play(fleet, "hooks.yml")
    assert first.returncode == 0, first.stdout + first.stderr
    assert {m: (r["changed"], r["failed"]) for m, r in _recap(first.stdout).items()} == {m: (1, 0) for m in ("m1", "m2", "m3")}
    installed = _snapshot(root)
    written = sorted(k for k in installed if installed[k] != original.get(k) and k.startswith("machines/m1/"))
    assert written == [f"machines/m1/{p}" for p in (  # 3 settings files, their records, Codex's trust state
        "home/.codex/config.toml", "project/.claude/settings.hookweave.json", "project/.claude/settings.json",
        "project/.codex/hooks.hookweave.json", "project/.codex/hooks.json", "project/.gemini/settings.hookweave.json",
        "project/.gemini/settings.json")]
    gemini = (root / "machines/m1/project/.gemini/settings.json").read_text(encoding="utf-8")
    assert "// the operator's own Gemini settings" in gemini and '"audit-log"}]}  // keep' in gemini

    again = _play(fleet, "hooks.yml")
    assert again.returncode == 0, again.stdout + again.stderr
    assert {m: r["changed"] for m, r in _recap(again.stdout).items()} == {"m1": 0, "m2": 0, "m3": 0}
    assert _snapshot(root) == installed, "an idempotent run wrote"  # bytes, mtimes and inodes

    edited = root / "machines/m2/project/.claude/settings.json"
    text = edited.read_text(encoding="utf-8")
    assert text.count("guard.py #") == 1
    edited.write_text(text.replace("guard.py #", "guard.py --strict #"), encoding="utf-8")
    after_edit = _snapshot(root)
    refused = _play(fleet, "edited.yml", "-e", "edited_machine=m2")
    assert refused.returncode == 2, refused.stdout + refused.stderr  # 2: a host failed
    recap = _recap(refused.stdout)
    assert {m: (r["failed"], r["ok"]) for m, r in recap.items()} == {"m1": (0, 3), "m2": (1, 2), "m3": (0, 3)}
    message = re.search(r"fatal: \[m2\]: FAILED! => .*\"msg\": \"([^\"]*)\"", refused.stdout).group(1)
    assert message.startswith(f"{root}/machines/m2/project/.claude/settings.json: example-guard/destructive-guard"), message
    assert "nothing written" in message and "rerun with force: true" in message
    assert _snapshot(root) == after_edit, "a refused run wrote"

    edited.write_text(text, encoding="utf-8")  # the operator takes the edit back
    gone = _play(fleet, "hooks.yml", "-e", "hooks_state=absent")
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert {m: r["changed"] for m, r in _recap(gone.stdout).items()} == {"m1": 1, "m2": 1, "m3": 1}
    removed = _snapshot(root)
    assert _bytes(removed) == _bytes(original), "absent did not give every file back byte for byte"

    still = _play(fleet, "hooks.yml", "-e", "hooks_state=absent")  # nothing left to remove: ok, not failed
    assert still.returncode == 0, still.stdout + still.stderr
    assert {m: r["changed"] for m, r in _recap(still.stdout).items()} == {"m1": 0, "m2": 0, "m3": 0}
    assert _snapshot(root) == removed


def test_a_fleet_installs_into_the_managed_layer(fleet: dict) -> None:
    """scope: managed writes hookweave's drop-in on every machine, once; absent takes it away with its folders."""
    root = fleet["root"]
    original = _snapshot(root)
    first = _play(fleet, "managed.yml")
    assert first.returncode == 0, first.stdout + first.stderr
    assert {m: r["changed"] for m, r in _recap(first.stdout).items()} == {"m1": 1, "m2": 1, "m3": 1}
    for machine in ("m1", "m2", "m3"):
        drop_in = root / "machines" / machine / "home/etc/claude-code/managed-settings.d/50-hookweave.json"
        assert "# hookweave:example-guard/" in drop_in.read_text(encoding="utf-8")
    again = _play(fleet, "managed.yml")
    assert {m: r["changed"] for m, r in _recap(again.stdout).items()} == {"m1": 0, "m2": 0, "m3": 0}
    gone = _play(fleet, "managed.yml", "-e", "hooks_state=absent")
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert _bytes(_snapshot(root)) == _bytes(original)


def test_the_module_says_when_hookweave_is_not_importable(fleet: dict, tmp_path: Path) -> None:
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "hooks").write_text(f"#!{sys.executable}\n", encoding="utf-8")  # as a pipx install leaves it
    (tools / "hooks").chmod(0o755)
    env = {**fleet["env"], "PATH": f"{tools}{os.pathsep}{fleet['env']['PATH']}"}
    done = subprocess.run(
        [str(BIN / "ansible"), "localhost", "-c", "local", "-e", f"ansible_python_interpreter={bare}/bin/python",
         "-m", "hookweave.agents.agent_hooks", "-a", "bundle=example-guard hosts=claude scope=user"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "Failed to import the required Python library (hookweave)" in done.stdout
    assert f"The hooks command on PATH runs {sys.executable} (a pipx install?)" in done.stdout


def test_validate_modules_on_the_built_tarball(fleet: dict) -> None:
    """ansible-doc of both modules from the installed tarball: tests/fleet/test_ansible_collection.py."""
    env = fleet["env"]
    # ansible-test fetches its pip bootstrap script from a host outside the package index; the
    # stand-in gets pip from the interpreter's ensurepip and the index, as the script would.
    cache = Path(env["HOME"]) / ".ansible/test/cache"
    cache.mkdir(parents=True)
    pip = subprocess.run([str(BIN / "python"), "-c", "import sys; from types import SimpleNamespace as N\n"
                          "from ansible_test._internal.python_requirements import get_venv_packages\n"
                          "print(get_venv_packages(N(version='%d.%d' % sys.version_info[:2]))['pip'])"],
                         capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    shutil.copy(PLAYS / "get_pip_standin.py", cache / f"get_pip_{pip.replace('.', '_')}.py")
    # The tarball's files, as Galaxy users get them, in ansible-test's layout (it writes its output there)
    collection = fleet["root"] / "source/ansible_collections/hookweave/agents"
    collection.mkdir(parents=True)
    with tarfile.open(fleet["tarball"]) as tar:
        tar.extractall(collection, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))  # 3.10.12+
    sanity = subprocess.run([str(BIN / "ansible-test"), "sanity", "--test", "validate-modules", "--python",
                             f"{sys.version_info.major}.{sys.version_info.minor}"],
                            cwd=collection, env=env, capture_output=True, text=True, timeout=600)
    assert sanity.returncode == 0, sanity.stdout[-3000:] + sanity.stderr[-3000:]
    assert 'Running sanity test "validate-modules"' in sanity.stdout
    # the stand-in puts the pinned pip in ansible-test's venv, with no first pip for it to replace
    assert f"Successfully installed pip-{pip}" in sanity.stdout and "Uninstalling pip-" not in sanity.stdout

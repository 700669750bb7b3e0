"""Attack: the process end (``core/entry.finish``) changes nothing anyone can observe.

Random runs of commands over every built-in host (installs, dry runs, no-op installs, bad bundles,
unknown hosts, verify, status, JSON output, uninstalls, typos) go once through the real ``hooks``
script, which ends without the interpreter's teardown, and once through a normal interpreter exit,
each side on its own copy of the same files. Invariants: the same exit code, the same whole stdout
and stderr, the same bytes in every file of the project and of HOME after every command.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import attack_size

HOOKS = str(Path(sys.executable).parent / "hooks")
NORMAL_EXIT = "import sys; sys.argv[0] = 'hooks'; from hookweave.core.cli.app import main; main()"
HOSTS = ("claude", "codex", "gemini", "cursor", "copilot", "qwen", "factory")

BUNDLE = """\
[bundle]
name = "guard{n}"
version = "1.0.{n}"

[[hooks]]
id = "check"
event = "{event}"
matcher = ["shell"]
command = ["sh", "-c", "exit {n}"]
"""
BAD = '[bundle]\nname = "bad"\nversion = "1"\n[[hooks]]\nid = "x"\nevent = "nope"\ncommand = []\n'


def _files(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder``, its own path written as ``<root>`` (the two sides differ only there)."""
    root = str(folder).encode()
    return {str(p.relative_to(folder)): p.read_bytes().replace(root, b"<root>")
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _command(r: random.Random, bundles: list[Path], bad: Path) -> list[str]:
    hosts = [a for h in r.sample(HOSTS, r.randint(1, 2)) for a in ("--host", h)]
    bundle = str(r.choice(bundles))
    return r.choice([
        ["install", bundle, *hosts],
        ["install", bundle, *hosts],
        ["install", bundle, *hosts, "--dry-run"],
        ["install", bundle, *hosts, "--json"],
        ["install", str(bad), *hosts],
        ["install", bundle, "--host", "nosuch"],
        ["uninstall", f"guard{bundles.index(Path(bundle))}", *hosts],
        ["verify", *hosts],
        ["verify", "--json"],
        ["status"],
        ["status", "--json"],
        ["instal"],
        [],
    ])


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.attack
def test_random_command_runs_end_as_with_a_normal_exit(tmp_path, attack_report):
    r = random.Random(9)
    bundles = []
    for n, event in enumerate(("pre_tool_use", "stop", "session_start")):
        folder = tmp_path / f"b{n}"
        folder.mkdir()
        (folder / "hookweave.toml").write_text(BUNDLE.format(n=n, event=event))
        bundles.append(folder)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "hookweave.toml").write_text(BAD)
    sides = {}
    for side in ("fast", "normal"):  # each side its own HOME and project, the same starting bytes
        root = tmp_path / side
        home, project = root / "home", root / "project"
        (project / ".claude").mkdir(parents=True)
        (project / ".claude" / "settings.json").write_text('{\n  "model": "opus",\n  "permissions": {"allow": ["Bash(ls)"]}\n}\n')
        (home / ".codex").mkdir(parents=True)
        env = {**os.environ, "HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"),
               "CODEX_HOME": str(home / ".codex"), "GEMINI_CLI_HOME": str(home),
               "GEMINI_CLI_TRUSTED_FOLDERS_PATH": str(home / ".gemini" / "trustedFolders.json"),
               "COPILOT_HOME": str(home / ".copilot"), "QWEN_HOME": str(home / ".qwen")}
        sides[side] = (root, project, env)
    cases = attack_size(12, 150)
    codes: set[int] = set()
    for _ in range(cases):
        args = _command(r, bundles, bad)
        results = {}
        for side, (root, project, env) in sides.items():
            argv = [HOOKS, *args] if side == "fast" else [sys.executable, "-c", NORMAL_EXIT, *args]
            code, out, err = _run(argv, project, env)
            results[side] = (code, out.replace(str(root), "<root>"), err.replace(str(root), "<root>"), _files(root))
        assert results["fast"] == results["normal"], args
        codes.add(results["fast"][0])
    attack_report("process end", cases=cases, failures=0, exit_codes=len(codes))

"""Attack: partial failures (issue 22, class 5). A multi-host install or uninstall, at project and
user scope, with chained bundles (a runner file), Codex trust (a companion config.toml) and Cline
(dispatcher files in folders of their own), fails at its Nth write, for every N, with each kind of
error a disk gives (no space, read-only, permission, a host saving the file in between). Before the
command some of the hosts' folders exist and hold the operator's files, others do not.

Oracles: exit 1 with one line (a host's save in between: planned again, exit 0 and the goal); every file, folder, mode and link of the tree (the project and the
home) exactly as before the command, so no folder made for one host is left behind because
another failed; and the same command rerun without the fault lands on the bytes of a run that
never failed.
"""

from __future__ import annotations

import errno
import os
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hookweave.core.cli.app import app
from hookweave.core.errors import Conflict
from hookweave.core.files import fileio
from tests.conftest import attack_size

pytestmark = pytest.mark.attack

CHAIN = ('[bundle]\nname = "c"\nversion = "1"\norder = "chain"\n[[hooks]]\nid = "a"\nevent = "pre_tool_use"\n'
         'command = "true a"\n[[hooks]]\nid = "b"\nevent = "pre_tool_use"\ncommand = "true b"\n'
         '[[hooks]]\nid = "s"\nevent = "stop"\ncommand = "true s"\n')
HOSTS = ["claude", "codex", "gemini", "cursor", "cline", "copilot", "windsurf", "qwen", "factory", "antigravity"]
OPERATOR = {  # an operator file per host, put in place for some worlds
    ".claude/settings.json": '{\n  "model": "x", // not JSON: never written here\n}\n',
    ".gemini/settings.json": '{\n  // mine\n  "theme": "dark"\n}\n',
    ".cursor/hooks.json": '{"version": 1, "hooks": {"stop": [{"command": "mine"}]}}',
    ".clinerules/hooks/TaskStart": "#!/bin/sh\necho mine\n",
}
FAULTS = [
    OSError(errno.ENOSPC, "No space left on device"),
    OSError(errno.EROFS, "Read-only file system"),
    PermissionError(errno.EACCES, "Permission denied"),
    Conflict("saved by another program"),
]


def _tree(*roots: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            for name in dirs + files:
                path = Path(folder) / name
                key = str(path)
                if path.is_symlink():
                    out[key] = ("link", os.readlink(path))
                elif path.is_dir():
                    out[key] = ("dir", path.stat().st_mode)
                else:
                    out[key] = (path.read_bytes(), path.stat().st_mode)
    return out


def _world(rng: random.Random, project: Path, home: Path) -> None:
    for rel, text in OPERATOR.items():
        if rng.random() < 0.4 and "not JSON" not in text:
            path = (home if rng.random() < 0.3 else project) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if rng.random() < 0.5:
        (home / ".codex").mkdir(exist_ok=True)
        (home / ".codex" / "config.toml").write_text('model = "o3"\n', encoding="utf-8")


def _run(args: list[str]):
    return CliRunner().invoke(app, args)


def test_a_failed_write_leaves_every_file_and_folder_as_it_was(tmp_path, home, project, write_bundle, monkeypatch,
                                                                attack_report):
    rng = random.Random(22)
    bundle = write_bundle(CHAIN)
    real_write = fileio.write_text
    cases = failures = 0
    worlds = attack_size(6, 60)
    for world in range(worlds):
        for root in (project, home):
            for child in root.iterdir():
                __import__("shutil").rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
        _world(rng, project, home)
        hosts = rng.sample(HOSTS, rng.randint(2, 5))
        scope = rng.choice(["project", "user"])
        flags = [a for h in hosts for a in ("--host", h)] + ["--scope", scope, "--trust"]
        installed_first = rng.random() < 0.4
        if installed_first:
            assert _run(["install", str(bundle), *flags]).exit_code == 0
        command = (["uninstall", "c"] if installed_first else ["install", str(bundle)]) + flags
        if installed_first:
            command.remove("--trust")
        before = _tree(project, home)
        calls = {"n": 0}

        def counting(path, text, expected, **kw):
            calls["n"] += 1
            return real_write(path, text, expected, **kw)

        monkeypatch.setattr(fileio, "write_text", counting)
        clean = _run(command)  # how many writes the command makes, and the bytes of a run that never failed
        assert clean.exit_code == 0, clean.output
        goal, writes = _tree(project, home), calls["n"]
        monkeypatch.setattr(fileio, "write_text", real_write)
        # put the world back as it was before the command
        _restore(before, project, home)
        for n in range(1, writes + 1):
            fault = rng.choice(FAULTS)
            seen = {"n": 0}

            def failing(path, text, expected, _n=n, _fault=fault, **kw):
                seen["n"] += 1
                if seen["n"] == _n:
                    raise _fault
                return real_write(path, text, expected, **kw)

            monkeypatch.setattr(fileio, "write_text", failing)
            result = _run(command)
            monkeypatch.setattr(fileio, "write_text", real_write)
            cases += 1
            after = _tree(project, home)
            problem = None
            if isinstance(fault, Conflict):  # a host saved in between: planned again, and done
                if result.exit_code != 0 or after != goal:
                    problem = f"after a conflict: exit {result.exit_code}: {result.output!r}"
                _restore(before, project, home)
            elif result.exit_code != 1 or len(result.stderr.strip().splitlines()) != 1:
                problem = f"exit {result.exit_code}: {result.output!r}"
            elif after != before:
                extra = sorted(set(after) - set(before))
                gone = sorted(set(before) - set(after))
                changed = sorted(k for k in set(after) & set(before) if after[k] != before[k])
                problem = f"left behind {extra}, lost {gone}, changed {changed}"
            else:
                rerun = _run(command)
                if rerun.exit_code != 0 or _tree(project, home) != goal:
                    problem = f"the rerun did not converge: {rerun.output!r}"
                _restore(before, project, home)
            if problem:
                failures += 1
                _restore(before, project, home)
                print(f"world {world} {command} write {n} {fault!r}: {problem}")
    attack_report("partial failures", worlds=worlds, cases=cases, failures=failures)
    assert failures == 0


def _restore(tree: dict[str, object], *roots: Path) -> None:
    """Put ``roots`` back to ``tree`` (what ``_tree`` took)."""
    import shutil

    for root in roots:
        for child in list(root.iterdir()):
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
    for key, value in sorted(tree.items()):
        path = Path(key)
        if value[0] == "dir":
            path.mkdir(parents=True, exist_ok=True)
            os.chmod(path, value[1])
        elif value[0] == "link":
            path.symlink_to(value[1])
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(value[0])
            os.chmod(path, value[1])

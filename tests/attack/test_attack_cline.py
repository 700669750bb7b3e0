"""Attack on Cline's hooks folders: hookweave's dispatchers among the operator's own scripts.

Folders: random operator files in the hooks folder (event names in any case, with and without
the extensions Cline runs, names Cline ignores, rules files, CRLF, non-ASCII and non-UTF-8 bytes,
modes from 0400 to 0755), and sometimes none of the folders at all. Bundles: 1 to 3, each 1 to 6
hooks on every event Cline has, matchers of every neutral tool, timeouts, argv words with quotes,
``$`` and backticks; installed in order at the project or user scope, some onto an event whose
file is the operator's. Sometimes a dispatcher is edited by hand. Invariants, per case:
- an install that meets an operator's file at the event's name, or an edited dispatcher, exits 1
  and writes nothing (every byte and mode of both folders as before);
- no operator file's bytes or mode ever change, and each dispatcher lists exactly the installed
  bundles' hooks of its event in install order, and is executable;
- verify is clean after the installs (problem only where a dispatcher was edited);
- uninstalling every bundle, in random order, gives back both folders byte for byte, mode for mode,
  the folders hookweave made gone.
"""

from __future__ import annotations

import random
import stat
from pathlib import Path

import pytest

from hookweave.core.model.render import marker_in
from hookweave.hosts.cline import dispatcher as cline_dispatcher
from hookweave.hosts.cline import NATIVE_EVENTS
from tests.conftest import attack_size

pytestmark = pytest.mark.attack
CASES = attack_size(30, 400)
EVENTS = {"session_start": "TaskStart", "session_end": "SessionShutdown", "user_prompt_submit": "UserPromptSubmit",
          "pre_tool_use": "PreToolUse", "post_tool_use": "PostToolUse", "stop": "TaskComplete"}
TOOLS = ["", 'matcher = ["shell"]\n', 'matcher = ["write", "edit"]\n', 'matcher = ["read", "shell"]\n']
WORDS = ["audit.sh", "naïve ☕", "it''s", "$HOME/x", "a`b", "--flag=1", "{project_dir}/x"]
CONTENTS = [b"#!/bin/sh\necho '{}'\n", b"echo hi\r\necho there\r\n", "print('Größe ✓')\n".encode(),
            b"\xff\xfe not utf-8\n", b"", b"#!/usr/bin/env node\nconsole.log('{}')\n"]
MODES = [0o400, 0o444, 0o600, 0o640, 0o644, 0o700, 0o750, 0o755]


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file's bytes and mode, every folder's mode (``None`` for its bytes), below ``root``."""
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None, stat.S_IMODE(p.stat().st_mode))
            for p in sorted(root.rglob("*"))} if root.exists() else {}


def operator_files(folder: Path, rules: Path, r: random.Random) -> set[str]:
    """Write the operator's files; return the event names whose exact file is theirs."""
    if r.random() < 0.25:
        return set()  # no folders at all: hookweave makes them, and takes them away again
    folder.mkdir(parents=True)
    taken = set()
    for _ in range(r.randint(0, 6)):
        event = r.choice(NATIVE_EVENTS)
        name = r.choice([event, event.lower(), event + ".sh", event.upper() + ".py", event + ".js", "notes.md",
                         "helper", event + "~", "." + event])
        path = folder / name
        if path.exists():
            continue
        path.write_bytes(r.choice(CONTENTS))
        path.chmod(r.choice(MODES))
        taken |= {event} if name == event else set()
    if r.random() < 0.5:
        (rules / "style.md").write_text("Use tabs ☕.\n")
    return taken


def manifest(name: str, r: random.Random) -> tuple[str, list[tuple[str, str]]]:
    text, hooks = f'[bundle]\nname = "{name}"\nversion = "1.0.0"\n', []
    for i in range(r.randint(1, 6)):
        neutral = r.choice(sorted(EVENTS))
        words = ", ".join(f"'{w}'" if "'" not in w else f'"{w}"' for w in r.sample(WORDS, r.randint(1, 3)))
        command = r.choice([f'"run {i} ☕"', f"[{words}]"])
        timeout = r.choice(["", "timeout = 1\n", "timeout = 600\n"])
        matcher = r.choice(TOOLS) if neutral in ("pre_tool_use", "post_tool_use") else ""
        text += f'[[hooks]]\nid = "h{i}"\nevent = "{neutral}"\ncommand = {command}\n{timeout}{matcher}'
        hooks.append((EVENTS[neutral], f"h{i}"))
    return text, hooks


def listed(folder: Path) -> dict[str, list[tuple[str, str]]]:
    out = {}
    for event in NATIVE_EVENTS:
        path = folder / event
        if path.is_file():
            read = cline_dispatcher.read(event, path.read_text(encoding="utf-8", errors="replace"))
            if not read.get("foreign"):
                assert path.stat().st_mode & 0o111, event
                out[event] = [marker_in(h["command"]) for h in read["hooks"][event]]
    return out


def test_cline_folders_round_trip_around_the_operators_scripts(run, tmp_path: Path, monkeypatch,
                                                               attack_report) -> None:
    refused = edited = installs = 0
    for seed in range(CASES):
        r = random.Random(f"cline-{seed}")
        case = tmp_path / f"case{seed}"
        project, cline_dir = case / "project", case / "home" / ".cline"
        project.mkdir(parents=True)
        monkeypatch.chdir(project)
        monkeypatch.setenv("CLINE_DIR", str(cline_dir))
        scope = r.choice(["project", "user"])
        folder = project / ".clinerules" / "hooks" if scope == "project" else cline_dir / "hooks"
        theirs = operator_files(folder, folder.parent, r)
        before = (snapshot(project), snapshot(case / "home"))
        expected: dict[str, list[tuple[str, str]]] = {}
        installed = []
        for b in range(r.randint(1, 3)):
            text, hooks = manifest(f"b{b}", r)
            bundle = case / f"b{b}"
            bundle.mkdir()
            (bundle / "hookweave.toml").write_text(text, encoding="utf-8")
            was = (snapshot(project), snapshot(case / "home"))
            result = run("install", str(bundle), "--host", "cline", "--scope", scope)
            if {event for event, _ in hooks} & theirs:
                assert result.exit_code == 1 and "is the operator's own Cline hook" in result.stderr, (seed, result.output)
                assert "\n" not in result.stderr.rstrip("\n")
                assert (snapshot(project), snapshot(case / "home")) == was, seed
                refused += 1
                continue
            assert result.exit_code == 0, (seed, result.output)
            installs += 1
            installed.append(f"b{b}")
            for event, hook_id in hooks:
                expected.setdefault(event, []).append((f"b{b}", hook_id))
        assert listed(folder) == expected, seed
        now = (snapshot(project), snapshot(case / "home"))
        for old, new in zip(before, now):  # every operator file and folder as it was
            assert {k: new.get(k) for k in old} == old, seed
        verify = run("verify", "--host", "cline")
        if installed:
            assert verify.exit_code == 0, (seed, verify.output)
        if installed and r.random() < 0.2:  # an operator's edit of our file: never overwritten, uninstall refuses
            event = r.choice(sorted(expected))
            path = folder / event
            path.write_text(path.read_text() + "# mine\n")
            was = (snapshot(project), snapshot(case / "home"))
            assert run("verify", "--host", "cline").exit_code == 1
            owners = {bundle for bundle, _ in expected[event]}
            for name in sorted(owners):
                result = run("uninstall", name, "--host", "cline", "--scope", scope)
                assert result.exit_code == 1 and "edited by hand" in result.stderr, (seed, result.output)
            assert (snapshot(project), snapshot(case / "home")) == was, seed
            path.write_text(path.read_text().removesuffix("# mine\n"))
            edited += 1
        for name in r.sample(installed, len(installed)):
            result = run("uninstall", name, "--host", "cline", "--scope", scope)
            assert result.exit_code == 0, (seed, result.output)
        assert (snapshot(project), snapshot(case / "home")) == before, seed
    attack_report("cline hooks folders", cases=CASES, failures=0, installs=installs, refused=refused, edited=edited)

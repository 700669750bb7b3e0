"""Attack: portable ``{bundle_dir}`` and the project folder (issue 13, cases 1 and 2).

1. Portable rendering. A bundle inside the project, in a folder whose name holds what shells
   treat specially (quotes, ``$``, backticks, globs, ``;``, spaces, a leading dash, non-ASCII,
   backslashes, Gemini's own variable names), installed for each host with a project variable.
   Invariants per case: the settings file parses and names no absolute path; the rendered command,
   run by ``sh -c`` in a *copy* of the project at another hostile path with the host's variable
   set there (for Gemini, substituted into the text with Gemini's own quoting, as it does), runs
   the copy's script with the argv the manifest gave; uninstall gives the file back byte for byte.
2. Project-root lookup. Random trees (a git root or none, an empty ``.git``, a ``.git`` file,
   ``.codex`` folders at random levels): for each host, the folder install writes to is the one
   the host reads (Claude, Gemini: the start folder; Codex: the nearest ``.codex`` up to the git
   root, else the root; Cursor and Windsurf: the git root), and nothing is written anywhere else.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import attack_size
from tests.test_security import _gemini_quote

pytestmark = pytest.mark.attack

PIECES = ["a b", "it's", 'say "hi"', "$HOME", "${X}", "$(id)", "`id`", "*", "?", "[ab]", ";", "&&", "|", "-rf", "--x",
          "é ü", "日本", "back\\slash", "$GEMINI_PROJECT_DIR", "$CLAUDE_PROJECT_DIR", "%PATH%", "~", "!", "#", "{x}",
          "'", '"', "\\"]  # control characters: refused by design (test_bad_inputs)
VARIABLES = {"claude": ("CLAUDE_PROJECT_DIR", ".claude/settings.json"), "gemini": ("GEMINI_PROJECT_DIR", ".gemini/settings.json"),
             "cursor": ("CURSOR_PROJECT_DIR", ".cursor/hooks.json")}
SCRIPT = "import json, os, sys\nprint(json.dumps([os.path.abspath(__file__), sys.argv[1:]]))\n"


def _name(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3))).replace("/", "_")


def _command(doc: dict) -> str:
    entries = doc["hooks"][next(iter(doc["hooks"]))]
    return entries[0]["hooks"][0]["command"] if "hooks" in entries[0] else entries[0]["command"]


def test_portable_commands_run_from_any_clone(run, project, tmp_path, monkeypatch, attack_report) -> None:
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
    rng = random.Random(13)
    cases = failures = 0
    for i in range(attack_size(12, 150)):
        host = list(VARIABLES)[i % 3]
        variable, rel = VARIABLES[host]
        folder = project / "tools" / f"{i}-{_name(rng)}"
        folder.mkdir(parents=True)
        argv = [_name(rng), "{project_dir}", "plain"]
        manifest = ('[bundle]\nname = "p"\nversion = "1.0.0"\n[[hooks]]\nid = "h"\nevent = "stop"\n'
                    f'command = {json.dumps(["python3", "{bundle_dir}/hook.py", *argv])}\n')
        (folder / "hookweave.toml").write_text(manifest)
        (folder / "hook.py").write_text(SCRIPT)
        settings = project / rel
        settings.parent.mkdir(exist_ok=True)
        before = '{\n  "model": "keep"\n}\n' if host != "cursor" else '{"version": 1}\n'
        settings.write_text(before)
        result = run("install", str(folder), "--host", host)
        assert result.exit_code == 0, result.output
        assert "warning" not in result.stdout, result.stdout
        text = settings.read_text()
        command = _command(json.loads(text))
        assert str(project) not in command  # nothing of this machine's paths in the committed file
        clone = tmp_path / f"clone-{i}" / _name(rng) / "proj"
        shutil.copytree(project, clone)
        if host == "gemini":  # Gemini puts its variables into the text, quoted, before its shell sees it (HOSTS.md 4.4)
            command = command.replace("$GEMINI_PROJECT_DIR", _gemini_quote(str(clone)))
        done = subprocess.run(["sh", "-c", command], cwd=clone, capture_output=True, text=True, input="{}",
                              env={"PATH": os.environ["PATH"], variable: str(clone)})
        cases += 1
        ran = json.loads(done.stdout) if done.returncode == 0 and done.stdout else None
        want = [str(clone / folder.relative_to(project) / "hook.py"), [argv[0], str(clone), "plain"]]
        if ran != want:
            failures += 1
            pytest.fail(f"{host} {folder.name!r}: {command!r} ran {ran!r} ({done.stderr.strip()}), wanted {want!r}")
        assert run("uninstall", "p", "--host", host).exit_code == 0
        assert settings.read_text() == before
        shutil.rmtree(clone.parents[1])
    attack_report("portable bundle_dir", cases=cases, failures=failures)


def _tree(rng: random.Random, base: Path) -> tuple[Path, Path | None]:
    """A random folder chain under ``base``; returns (start folder, git root or None)."""
    depth = rng.randint(1, 5)
    chain = [base / "t"]
    for n in range(depth):
        chain.append(chain[-1] / f"d{n}")
    chain[-1].mkdir(parents=True)
    root = None
    kind = rng.choice(["dir", "file", "empty", "none"])
    at = rng.randrange(len(chain))
    if kind == "dir":
        (chain[at] / ".git").mkdir()
        (chain[at] / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
        root = chain[at]
    elif kind == "file":
        (chain[at] / ".git").write_text("gitdir: /elsewhere/.git/worktrees/x\n")
        root = chain[at]
    elif kind == "empty":
        (chain[at] / ".git").mkdir()  # no HEAD: no repository
    for folder in chain:
        if rng.random() < 0.3:
            (folder / rng.choice([".codex", ".claude"])).mkdir(exist_ok=True)
    return chain[-1], root


def _expected(start: Path, root: Path | None) -> Path:
    """The one project of every host (issue 36): the nearest folder up to the git root with an
    agent's folder, else the root; outside a repository, the folder it starts in."""
    if root is None:
        return start
    folder = start
    while folder != root and not any((folder / marker).is_dir() for marker in (".codex", ".claude")):
        folder = folder.parent
    return folder


def test_install_goes_to_the_folder_the_host_reads(run, tmp_path, monkeypatch, write_bundle, attack_report) -> None:
    rng = random.Random(11)
    bundle = str(write_bundle('[bundle]\nname = "p"\nversion = "1.0.0"\n[[hooks]]\nid = "h"\nevent = "stop"\n'
                              'command = "echo hi"\n'))
    cases = 0
    for i in range(attack_size(15, 200)):
        base = tmp_path / f"case{i}"
        start, root = _tree(rng, base)
        monkeypatch.chdir(start)
        before = sorted(str(p) for p in base.rglob("*"))
        result = run("install", bundle, "--host", "all", "--dry-run", "--json")
        assert result.exit_code == 0, result.output
        files = {f["host"]: f["path"] for f in json.loads(result.stdout)["files"] if f["scope"] == "project"}
        for host, shown in files.items():
            path = Path(shown) if Path(shown).is_absolute() else start / shown
            agent = next(i for i, part in enumerate(path.parts) if part.startswith("."))  # .github/hooks/x.json
            assert Path(*path.parts[:agent]) == _expected(start, root), (host, start, root, shown)
            cases += 1
        assert sorted(str(p) for p in base.rglob("*")) == before  # a dry run writes nothing
    attack_report("project folder lookup", cases=cases, failures=0)

"""The chezmoi recipe of docs/fleet.md, applied as chezmoi would apply it.

chezmoi is not installable here (not on PyPI, npm or Debian bookworm), so the test does its part:
it reads the source folder the page lists, places each file under its target name by chezmoi's
rules (``dot_`` is a leading dot, ``create_`` writes only where there is no file), checks that
those are the targets the page names, then runs the page's ``run_after_`` script from a copy, in the
home folder, after every apply, as chezmoi does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parent.parent.parent
HOOKS = Path(sys.executable).parent / "hooks"
STARTING = '{\n  "model": "opus"\n}\n'


def _page() -> tuple[list[tuple[str, str]], str]:
    text = (REPO / "docs/fleet.md").read_text(encoding="utf-8")
    layout = re.search(r"<!-- chezmoi-source -->\n```text\n(.*?)```\n", text, re.DOTALL).group(1)
    script = re.search(r"<!-- chezmoi-recipe -->\n```sh\n(.*?)```\n", text, re.DOTALL).group(1)
    rows = [tuple(part.strip() for part in line.split("->")) for line in layout.splitlines()]
    return rows, script


def _target(source: str) -> str:
    """chezmoi's target name for a source path: its attributes dropped, dot_ a leading dot."""
    parts = [re.sub(r"^(create_|executable_|private_|readonly_)+", "", part) for part in source.split("/")]
    return "/".join("." + part[4:] if part.startswith("dot_") else part for part in parts)


def _source_folder(root: Path, version: str) -> Path:
    source = root / "chezmoi-source"
    bundle = source / "dot_config/hookweave/claude-guard"
    shutil.rmtree(bundle, ignore_errors=True)
    shutil.copytree(REPO / "templates/example-guard", bundle)
    manifest = bundle / "hookweave.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('name = "example-guard"', 'name = "claude-guard"')
                        .replace('version = "1.0.0"', f'version = "{version}"'), encoding="utf-8")
    (source / "dot_claude").mkdir(exist_ok=True)
    (source / "dot_claude/create_settings.json").write_text(STARTING, encoding="utf-8")
    return source


def _apply(source: Path, home: Path, rows: list[tuple[str, str]], script: str) -> subprocess.CompletedProcess:
    for src, target in rows:
        if src.startswith(".chezmoiscripts/"):
            continue
        name = _target(src)
        assert target.startswith(f"~/{name}"), (src, target)  # the page names the target chezmoi makes
        placed = home / name
        if src.split("/")[-1].startswith("create_") and placed.exists():
            continue
        placed.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / src, placed)
    copy = home.parent / "chezmoi-script.sh"  # chezmoi runs a copy of the script, never the source file
    copy.write_text(script, encoding="utf-8")
    copy.chmod(0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_")}
    env["HOME"] = str(home)
    return subprocess.run([str(copy)], cwd=home, env=env, capture_output=True, text=True, timeout=120)


def test_the_recipe_installs_keeps_still_and_upgrades(tmp_path: Path) -> None:
    rows, script = _page()
    assert [src for src, _ in rows][-1] == ".chezmoiscripts/run_after_hookweave.sh"
    home = tmp_path / "home"
    (home / ".local/bin").mkdir(parents=True)
    (home / ".local/bin/hooks").symlink_to(HOOKS)  # where pipx puts the command
    settings = home / ".claude/settings.json"

    first = _apply(_source_folder(tmp_path, "1.0.0"), home, rows, script)
    assert first.returncode == 0, first.stdout + first.stderr
    doc = json.loads(settings.read_text(encoding="utf-8"))
    assert doc["model"] == "opus" and "hookweave:claude-guard/destructive-guard" in json.dumps(doc["hooks"])
    verified = subprocess.run([str(HOOKS), "verify", "--host", "claude", "--scope", "user"], env={
        **{k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_")}, "HOME": str(home)},
        capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr

    before = settings.stat()
    again = _apply(_source_folder(tmp_path, "1.0.0"), home, rows, script)
    assert again.returncode == 0 and "nothing written" in again.stdout, again.stdout + again.stderr
    assert (settings.stat().st_mtime_ns, settings.stat().st_ino) == (before.st_mtime_ns, before.st_ino)

    upgraded = _apply(_source_folder(tmp_path, "1.1.0"), home, rows, script)
    assert upgraded.returncode == 0, upgraded.stdout + upgraded.stderr
    assert "upgraded claude-guard 1.0.0 -> 1.1.0" in upgraded.stdout


def test_a_settings_file_already_there_keeps_its_keys(tmp_path: Path) -> None:
    rows, script = _page()
    home = tmp_path / "home"
    (home / ".local/bin").mkdir(parents=True)
    (home / ".local/bin/hooks").symlink_to(HOOKS)
    settings = home / ".claude/settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "theme": "dark"\n}\n', encoding="utf-8")
    done = _apply(_source_folder(tmp_path, "1.0.0"), home, rows, script)
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(settings.read_text(encoding="utf-8"))
    assert doc["theme"] == "dark" and "model" not in doc  # create_ left the file alone
    assert "hookweave:claude-guard/clean-tree" in json.dumps(doc["hooks"])

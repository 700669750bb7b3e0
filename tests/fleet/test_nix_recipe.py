"""The home-manager recipe of docs/fleet.md, run as its activation step would run it.

Nix is not here, so the test takes the shell text of ``home.activation.hookweave`` from docs/fleet.md,
fills in what Nix would (``${hooks}``, ``${./claude-guard}``), defines ``run`` as home-manager does,
and stands a folder in for ``/nix/store``: the read-only link an earlier generation left (the
failure of home-manager#9831) becomes a writable file holding its text plus the hooks.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hookweave.core.errors import BadInput
from hookweave.core.files import fileio

REPO = Path(__file__).parent.parent.parent
HOOKS = Path(sys.executable).parent / "hooks"


def _activation(store: Path, bundle: Path) -> str:
    readme = (REPO / "docs" / "fleet.md").read_text(encoding="utf-8")
    block = readme.split("<!-- nix-recipe -->\n```nix\n", 1)[1].split("```", 1)[0]
    body = re.search(r'entryAfter \[ "linkGeneration" \] \'\'\n(.*?)\n  \'\';', block, re.DOTALL).group(1)
    body = textwrap.dedent(body).replace("${hooks}", str(HOOKS)).replace("${./claude-guard}", str(bundle))
    assert "${" not in body, body  # everything Nix would fill in is filled in
    return 'run() { "$@"; }\n' + body.replace("/nix/store/", f"{store}/")  # home-manager's run, less dry-run


def _activate(script: str, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_CONFIG_DIR"}  # as in a user's session
    env["HOME"] = str(home)
    return subprocess.run(["bash", "-euc", script], env=env, capture_output=True, text=True, timeout=60)


def test_the_activation_turns_the_store_link_into_a_file_with_the_hooks(tmp_path: Path, home: Path) -> None:
    store = tmp_path / "nix-store"
    store.mkdir()
    generation = store / "0abc-home-manager-files-settings.json"
    old = '{\n  "model": "opus",\n  "permissions": {"allow": ["Bash(git status)"]}\n}\n'
    generation.write_text(old, encoding="utf-8")
    generation.chmod(0o444)
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.symlink_to(generation)
    script = _activation(store, REPO / "templates" / "example-guard")

    first = _activate(script, home)
    assert first.returncode == 0, first.stderr
    assert not settings.is_symlink() and settings.stat().st_mode & stat.S_IWUSR
    assert generation.read_text(encoding="utf-8") == old  # the store is never written
    doc = json.loads(settings.read_text(encoding="utf-8"))
    assert doc["model"] == "opus" and doc["permissions"] == {"allow": ["Bash(git status)"]}
    assert "hookweave:example-guard/destructive-guard" in json.dumps(doc["hooks"])

    before = settings.stat()
    again = _activate(script, home)
    assert again.returncode == 0, again.stderr
    after = settings.stat()
    assert (after.st_mtime_ns, after.st_ino) == (before.st_mtime_ns, before.st_ino)  # no byte written

    doc["theme"] = "dark"  # Claude saves the file (a new file renamed over it)
    (settings.parent / "settings.json.tmp").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    os.replace(settings.parent / "settings.json.tmp", settings)
    saved = settings.read_text(encoding="utf-8")
    assert _activate(script, home).returncode == 0
    assert settings.read_text(encoding="utf-8") == saved  # the hooks are still there: nothing to write
    verified = _activate(f"{HOOKS} verify --host claude --scope user", home)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_a_link_into_the_nix_store_is_refused_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text("{}\n", encoding="utf-8")
    settings.chmod(0o444)
    monkeypatch.setattr(fileio, "real", lambda path: Path("/nix/store/0abc-settings.json"))
    monkeypatch.setattr(fileio, "_stat", lambda target, path: os.stat(settings))
    with pytest.raises(BadInput, match="a link into the read-only Nix store; replace it with a writable copy"):
        fileio.check_writable(settings)

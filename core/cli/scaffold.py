"""``hooks init`` and ``hooks templates``: start a bundle, or copy a shipped template into the project.

A bundle inside the project installs portably (``{bundle_dir}`` renders through the host's project
variable, ``portable``), so its settings can be committed. Nothing is ever overwritten: an existing
``hookweave.toml`` or hook script in the target folder stops init before it writes a byte.
"""

from __future__ import annotations

import re
from pathlib import Path

from hookweave.core.errors import BadInput
from hookweave.core.files import fileio, paths

MANIFEST = '''\
# A hookweave bundle. Install it into an agent's project settings:
#   hooks install {folder} --host claude      (or --host all; hooks verify checks it)
[bundle]
name = "{name}"
version = "0.1.0"
description = "What these hooks do, in one line"

# Runs before every shell command the agent wants to run. Exit 2 blocks it (the reason goes to
# stderr); exit 0 lets it run.
[[hooks]]
id = "check-shell"
event = "pre_tool_use"
matcher = ["shell"]
command = ["python3", "{{bundle_dir}}/hook.py"]
timeout = 10
'''

HOOK = '''\
"""A pre-tool-use hook: hookweave's rules for hook authors, kept.

- Read the whole payload from stdin as JSON; a payload you do not understand is not an error.
- stdout belongs to the host's protocol: print nothing there unless it is the JSON answer the host
  reads. Diagnostics go to stderr.
- Exit explicitly: 0 allows, 2 blocks (Claude, Codex, Cursor and Gemini all read exit 2 as "block").
"""

import json
import sys


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    tool_input = payload.get("tool_input") or {{}}
    command = str(tool_input.get("command") or "") if isinstance(tool_input, dict) else ""
    if "--no-verify" in command:
        print("Blocked by {name}: do not skip the git hooks (--no-verify).", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''


def bundle_name(folder: Path) -> str:
    """A manifest name from the folder's name: lowercase letters, digits and dashes."""
    name = re.sub(r"[^a-z0-9]+", "-", folder.name.lower()).strip("-")
    return name if name and name[0].isalnum() else "my-hooks"


def init(folder: Path, name: str | None) -> list[Path]:
    """Write a new bundle (manifest and hook script) into ``folder``; returns the files written."""
    name = name or bundle_name(folder)
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        raise BadInput(f"--name {paths.printable(name)}: a bundle name is lowercase letters, digits and dashes; e.g. my-hooks")
    shown = paths.display(folder) or "."
    files = {folder / "hookweave.toml": MANIFEST.format(name=name, folder=_shell_word(shown)),
             folder / "hook.py": HOOK.format(name=name)}
    _refuse_existing(list(files))
    _write_new(files)
    return list(files)


def copy_template(template: str, folder: Path) -> list[Path]:
    """Copy a shipped template's files into ``folder`` (created), refusing to overwrite any."""
    from hookweave.core.model.loading import template_dir, template_names

    source = template_dir() / template
    if template not in template_names():
        raise BadInput(f"--from {paths.printable(template)}: no such template; choose one of {', '.join(template_names())} "
                       "(hooks templates lists them)")
    names = sorted(p.name for p in source.iterdir() if p.is_file() and not p.name.startswith((".", "__")))
    targets = [folder / n for n in names]
    _refuse_existing(targets)
    _write_new({target: (source / name).read_text(encoding="utf-8") for name, target in zip(names, targets)})
    return targets


def _write_new(files: dict[Path, str]) -> None:
    """Create each file (``expected=None``: only where none exists, atomically)."""
    from hookweave.core.errors import WriteFailed

    for path, text in files.items():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fileio.write_text(path, text, None)
        except OSError as exc:
            raise WriteFailed(f"{paths.display(path)}: cannot write it ({exc.strerror}); choose a folder you can write") from None


def _refuse_existing(files: list[Path]) -> None:
    there = [f for f in files if f.exists() or f.is_symlink()]
    if there:
        raise BadInput(f"{paths.display(there[0])}: already exists; init never overwrites: "
                       "remove it or choose another folder")


def _shell_word(text: str) -> str:
    import shlex

    return shlex.quote(text)


def templates() -> list[dict[str, str]]:
    """Each shipped template's name, version and description (from its manifest)."""
    from hookweave.core.model import manifest
    from hookweave.core.model.loading import template_dir, template_names

    out = []
    for name in template_names():
        path = template_dir() / name / "hookweave.toml"
        bundle = manifest.parse_manifest(path.read_text(encoding="utf-8"), path)
        out.append({"name": name, "version": bundle.version, "description": bundle.description,
                    "hooks": ", ".join(f"{h.id} ({h.event})" for h in bundle.hooks)})
    return out

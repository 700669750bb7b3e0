"""Finding a bundle: a manifest path, a folder holding ``hookweave.toml``, or a shipped template."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.errors import BadInput
from hookweave.core.files import fileio, paths

if TYPE_CHECKING:
    from hookweave.core.model.bundle import Bundle


def load_bundle(spec: str | None, hosts: list[str] | None = None) -> Bundle:
    """A manifest path, a folder holding ``hookweave.toml``, or the name of a shipped template;
    ``hosts``: the registered host names, which every host the manifest names must be one of."""
    candidate = Path(spec) if spec else Path("hookweave.toml")
    if candidate.is_dir():
        candidate = candidate / "hookweave.toml"
        if not os.path.lexists(candidate):  # a dangling link is a manifest that is missing: said below
            raise BadInput(f"{paths.printable(spec or '.')}: a folder without hookweave.toml; "
                           "write one (hooks init scaffolds it) or pass a manifest path or template name")
    if not candidate.exists() and spec and "/" not in spec and not spec.endswith(".toml"):
        candidate = template_dir() / spec / "hookweave.toml"
        if not candidate.exists():
            names = ", ".join(template_names()) or "none"
            raise BadInput(f"no bundle {spec!r}: not a path, and not a template (templates: {names})")
    if not candidate.exists() and not spec:
        raise BadInput(_none_here())
    if not candidate.exists():
        raise BadInput(f"{paths.printable(str(candidate))}: no such manifest; pass a bundle path or a template name")
    path = candidate.absolute()
    if ".." in path.parts:  # the kernel's reading of "..", not a lexical one that a symlink could fool
        path = path.resolve()
    _check_bundle_dir(path)
    text = fileio.read_text(path) or ""
    if path.suffix != ".toml" and (path.suffix.lower() in SCRIPT_SUFFIXES or text.startswith("#!")):
        raise BadInput(_a_script(spec or str(candidate), path))
    from hookweave.core.model import manifest

    bundle = manifest.parse_manifest(text, path)
    if hosts is not None:
        manifest.check_hosts(bundle, hosts)
    return bundle


# A file with one of these endings, or a ``#!`` line, is a hook's program: passed where its manifest
# belongs, it would be read as TOML and fail at its first line ("invalid TOML", issue 36 item 5).
SCRIPT_SUFFIXES = (".py", ".sh", ".bash", ".zsh", ".fish", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php",
                   ".ps1", ".cmd", ".bat", ".exe")


def _a_script(spec: str, path: Path) -> str:
    """What to pass instead of a hook's script: its folder's manifest, when there is one."""
    shown = paths.printable(spec)
    beside = os.path.join(os.path.dirname(spec), "hookweave.toml")
    if (path.parent / "hookweave.toml").is_file():
        return f"{shown}: a script, not a manifest; pass its bundle's manifest, {paths.printable(beside)}"
    return f"{shown}: a script, not a manifest; pass a hookweave.toml whose hook runs it (hooks init writes one)"


def _none_here() -> str:
    """No BUNDLE and no ``./hookweave.toml``: name the nearest manifest above (up to the git root),
    not taken silently: the hooks go where the agent reads them, which may be here (issue 25)."""
    here = paths.cwd()
    root = paths.git_root(here)
    for folder in here.parents if root is not None else ():
        if (folder / "hookweave.toml").is_file():
            shown = os.path.relpath(folder, here)
            return (f"no hookweave.toml here; the nearest is {paths.printable(shown)}/hookweave.toml: pass it "
                    f"(hooks install {paths.printable(shown)} --host ...), or run install in {paths.printable(str(folder))}")
        if folder == root:
            break
    return "no hookweave.toml here; pass a bundle path or a template name (hooks templates lists them), or write one with hooks init"


def _check_bundle_dir(manifest: Path) -> None:
    """Refuse a manifest path with a control character: ``{bundle_dir}`` would put it into commands
    (a newline there splits one when displayed), and every message naming the file would break."""
    bad = next((c for c in str(manifest) if _control(c) or _surrogate(c)), None)
    if bad is not None and _surrogate(bad):  # a byte that is not UTF-8 in a folder name
        raise BadInput(
            f"{paths.printable(str(manifest))}: the bundle's path is not UTF-8, and it would go into every {{bundle_dir}} "
            "command of a UTF-8 settings file; move the bundle to a folder whose name is UTF-8"
        )
    if bad is not None:
        raise BadInput(
            f"{paths.printable(str(manifest))}: the bundle's path holds a control character ({bad!r}), which would go into "
            "every {bundle_dir} command; move the bundle to a folder whose path has none"
        )


def _control(char: str) -> bool:
    """Unicode category Cc (C0, DEL, C1), without loading ``unicodedata`` for it."""
    return char < " " or "\x7f" <= char <= "\x9f"


def _surrogate(char: str) -> bool:
    """Category Cs: how Python spells a path byte that is not UTF-8."""
    return "\ud800" <= char <= "\udfff"


def template_dir() -> Path:
    """The shipped templates' folder. The package is always a folder on disk (we ship no zip), so
    its path is enough; ``importlib.resources`` would add 3 ms (zipfile, tempfile) to every run."""
    import hookweave.templates

    return Path(next(iter(hookweave.templates.__path__)))


def template_names() -> list[str]:
    return sorted(p.name for p in template_dir().iterdir() if (p / "hookweave.toml").is_file())

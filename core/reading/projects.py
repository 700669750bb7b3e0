"""Which folder each host takes as "the project" when it starts in the current folder.

Measured on the real binaries started in ``src/pkg`` of a git repository whose root holds the
hooks (tests/e2e/test_project_root_real.py):

- Claude Code 2.1.197 and Gemini CLI 0.61 read project settings from the folder they start in;
  the root's hooks did not fire from the subfolder (``project_lookup = "cwd"``, the default).
- Codex 0.169 loads ``.codex/`` of every folder from the project root (the nearest ``.git``) down
  to the folder it starts in: the root's hooks fired, with the hook's cwd the subfolder
  (``"codex"``: the nearest folder with a ``.codex`` below the root, else the root).
- Cursor opens a workspace folder, in practice the repository (``"git"``) [not measured].

An explicit ``--project`` wins for every host.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.files import paths
from hookweave.core.model.findings import Finding

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host


def lookup(host: Host) -> str:
    return getattr(host, "project_lookup", "cwd")


def project_for(host: Host, start: Path) -> Path:
    """The folder ``host`` reads project settings from when started in ``start``."""
    how = lookup(host)
    if how == "cwd":
        return start
    root = paths.git_root(start)
    if how == "codex" and root is not None:
        for folder in [start, *start.parents]:
            if (folder / ".codex").is_dir() or folder == root:
                return folder
    return root or start


def folders(hosts: list[Host], explicit: str | None) -> dict[str, Path]:
    """Per host name, its project folder: ``--project`` when given, else the host's own lookup."""
    if explicit:
        folder = paths.project_dir(explicit)
        return {h.name: folder for h in hosts}
    start = paths.project_dir(None)
    return {h.name: project_for(h, start) for h in hosts}


def location_notes(host: Host, folder: Path, explicit: bool) -> list[Finding]:
    """Name the project folder when it is not simply the current one, or when a host that takes the
    folder it starts in is run from below a git root: the hooks then land (or are looked for) here,
    and a session started at the root will not see them."""
    if explicit:
        return []
    start = paths.project_dir(None)
    if folder != start:
        return [Finding("note", f"project folder: {paths.printable(str(folder))}, the one {host.title} "
                                "reads project settings from when started here")]
    root = paths.git_root(start)
    if lookup(host) == "cwd" and root is not None and root != start:
        return [Finding("note", f"{host.title} reads project settings from the folder it starts in, here "
                                f"({paths.printable(str(start))}), not the git root {paths.printable(str(root))}; "
                                f"to use the root's, start it there or pass --project {paths.printable(str(root))}")]
    return []


def annotate(plans: list, folders: dict[str, Path], explicit: bool) -> None:
    """Put the location notes on each project-scope plan (once per host)."""
    seen: set[str] = set()
    for plan in plans:
        host = plan.target.host
        if plan.target.scope == "user" or plan.target.record_path is None or host.name in seen:
            continue
        seen.add(host.name)
        plan.findings[:0] = location_notes(host, folders[host.name], explicit)
        if plan.target.scope == "local":
            plan.findings += git_hint([plan.target.path, plan.target.record_path])


def git_hint(files: list[Path]) -> list[Finding]:
    """Local settings are personal: say whether git would pick them (and their record) up."""
    import shutil
    import subprocess

    folder = files[0].parent
    if paths.git_root(folder) is None or shutil.which("git") is None:
        return []
    try:
        done = subprocess.run(["git", "check-ignore", "--", *map(str, files)], cwd=folder, capture_output=True,
                              text=True, timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if done.returncode not in (0, 1):  # 128: not a repository git can read; nothing to say
        return []
    ignored = {Path(line).name for line in done.stdout.splitlines()}
    tracked_risk = [f for f in files if f.name not in ignored]
    if not tracked_risk:
        return [Finding("note", "local settings and their record are ignored by git: they stay on this machine")]
    names = " ".join(paths.display(f) for f in tracked_risk)
    return [Finding("note", f"local settings are personal, but git does not ignore {names}; "
                            f"keep them out of commits: add them to .gitignore")]


def elsewhere_note(host: Host, folder: Path, explicit: bool) -> list[Finding]:
    """For verify and status: hooks installed at the git root that a host started here does not
    read, so "nothing installed" does not read as "all is well at the root"."""
    from hookweave.core.reading import scopes

    root = paths.git_root(folder)
    if explicit or root is None or root == folder or lookup(host) != "cwd":
        return []
    try:
        found = [scope for scope, _, _ in scopes.installed(host, root) if scope != "user"]
    except Exception:  # noqa: BLE001 - only a hint; verify at the root names what it cannot read
        return []
    if not found:
        return []
    return [Finding("note", f"bundles are installed at the git root {paths.printable(str(root))} ({', '.join(found)} "
                            f"scope), which {host.title} started here does not read; check them with "
                            f"--project {paths.printable(str(root))}")]


def root_bundles(hosts: list[Host], folders: dict[str, Path], explicit: bool) -> tuple[Path | None, dict[str, list[str]]]:
    """From a subfolder of a git repository: the root, and per bundle the ``"host scope"`` places it
    is installed at there that the hosts started here do not read (their project files are per
    folder: Claude Code reads project settings only from the folder it starts in, claude-code#86187).
    ``(None, {})`` with ``--project``, outside a repository, or at its root."""
    from hookweave.core.reading import scopes

    start = paths.project_dir(None)
    root = paths.git_root(start)
    if explicit or root is None or root == start:
        return None, {}
    found: dict[str, list[str]] = {}
    for host in hosts:
        if folders.get(host.name) == root:
            continue  # this host reads the root from here: status and uninstall already look there
        try:
            for scope, _, rec in scopes.installed(host, root):
                if host.settings_path(scope, root) != host.settings_path(scope, folders[host.name]):
                    for name in rec.bundles:
                        found.setdefault(name, []).append(f"{host.name} {scope}")
        except Exception:  # noqa: BLE001 - only a hint; hooks verify --project ROOT names what it cannot read
            continue
    return (root, found) if found else (None, {})


def root_hint(hosts: list[Host], folders: dict[str, Path], explicit: bool, name: str | None, command: str) -> str:
    """For status and uninstall in a subfolder: where the root's bundles are, and the command to run
    there ("" when there is nothing to say)."""
    root, found = root_bundles(hosts, folders, explicit)
    if name is not None:
        found = {name: found[name]} if name in found else {}
    if root is None or not found:
        return ""
    shown = paths.printable(str(root))
    listed = "; ".join(f"{b} ({', '.join(w)})" for b, w in sorted(found.items()))
    names = sorted({w.split()[0] for where in found.values() for w in where})
    titles = ", ".join(h.title for h in hosts if h.name in names)
    run = f"hooks {command}{' ' + name if name else ''} {' '.join('--host ' + n for n in names)} --project {shown}"
    return (f"; the git root {shown} has {listed}, which {titles} started here does not run (it reads project "
            f"settings from the folder it starts in): start it in {shown}, or run {run}")

"""Where "the project" is: one folder for every host, and the agents that do not read it from here.

The rule: the nearest folder from the current one up to the git root that holds ``.hookweave.toml``
or an agent's project folder (``MARKERS``), else the git root; outside a git repository, the
current folder (every agent then reads the folder it starts in). Never the home folder from below
it: its ``~/.claude`` and ``~/.codex`` are the user's own. ``--project`` wins. ``hooks sync`` finds
``.hookweave.toml`` with the same walk (``paths.nearest_up``).

What the agents do, measured on the real binaries started in ``src/pkg`` of a git repository whose
root holds the hooks (tests/e2e/test_project_root_real.py), is named beside the folder when one of
them would not read it from here (``project_lookup``):

- ``"cwd"`` (the default): Claude Code 2.1.197 and Gemini CLI 0.61 read project settings from the
  folder they start in only; the root's hooks did not fire from the subfolder.
- ``"codex"``: Codex 0.169 loads ``.codex/`` of every folder from the git root down to the folder it
  starts in: the root's hooks fired from the subfolder.
- ``"git"``: Cursor and Windsurf open a workspace, in practice the repository [not measured].
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.files import paths
from hookweave.core.model.findings import Finding

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host

# The folders the built-in agents keep project settings in (tests/test_verify_consistent.py holds
# them to the registry): one of them, or .hookweave.toml, makes a folder a project.
MARKERS = (".agents", ".claude", ".cline", ".clinerules", ".codex", ".cursor", ".factory", ".gemini",
           ".github/hooks", ".letta", ".openhands", ".qoder", ".qwen", ".windsurf")


def lookup(host: Host) -> str:
    return getattr(host, "project_lookup", "cwd")


def _marked(folder: Path) -> bool:
    try:
        return (folder / ".hookweave.toml").is_file() or any((folder / marker).is_dir() for marker in MARKERS)
    except OSError:  # a folder we may not look into marks nothing
        return False


def project_root(start: Path) -> Path:
    """The project for a command run in ``start`` (the module's rule)."""
    root = paths.git_root(start)
    if root is None:
        return start
    found = paths.nearest_up(start, lambda folder: folder == root or _marked(folder)) or root
    home = os.environ.get("HOME")
    if found != start and home and (Path(home) == found or found in Path(home).parents):
        return start  # nothing marked below the home folder: its agent folders are the user's
    return found


def reads(host: Host, start: Path, project: Path) -> bool:
    """Whether ``host``, started in ``start``, reads the project settings of ``project``."""
    how = lookup(host)
    if how == "cwd":
        return project == start
    root = paths.git_root(start)
    if how == "codex":  # every .codex/ from the git root down to where it starts
        top = root or start
        return (project == start or project in start.parents) and (project == top or top in project.parents)
    return project == (root or start)


def folders(hosts: list[Host], explicit: str | None) -> dict[str, Path]:
    """Per host name, its project folder: ``--project`` when given, else the one project of the rule."""
    return dict.fromkeys([h.name for h in hosts], folder(explicit))


def folder(explicit: str | None) -> Path:
    """The project folder of every host: ``--project`` when given, else the one project of the rule."""
    return paths.project_dir(explicit) if explicit else project_root(paths.project_dir(None))


def notes_need_no_host(project: Path, explicit: bool) -> bool:
    """Whether ``location_note`` and ``root_hint`` say nothing, whichever the hosts: with
    ``--project``, or when the project is the folder started in and no git root is above it
    (every agent started here then reads it, whatever its ``project_lookup``)."""
    if explicit:
        return True
    start = paths.project_dir(None)
    return project == start and paths.git_root(start) in (None, start)


def _why(project: Path) -> str:
    """Which part of the rule chose ``project`` (docs/cli.md says the rule whole)."""
    if project == paths.git_root(project):
        return "the git root"
    held = [m for m in (".hookweave.toml", *MARKERS) if (project / m).exists()]
    return f"the nearest folder above with {held[0]}" if held else "the folder given"


def _titles(hosts: list[Host]) -> str:
    return ", ".join(h.title for h in hosts)


def location_note(hosts: list[Host], folders: dict[str, Path], explicit: bool) -> Finding | None:
    """Said once per command: the project, when it is not the current folder, and the agents that,
    started here, do not read it, each with what to do. None with ``--project`` or when every agent
    reads the current folder's project."""
    if explicit or not folders:
        return None
    start = paths.project_dir(None)
    project = next(iter(folders.values()))
    own = [h for h in hosts if "project" in h.scopes and not reads(h, start, project)]
    shown = paths.printable(str(project))
    said = [f"project: {shown} ({_why(project)})"] if project != start else []
    here = [h for h in own if lookup(h) == "cwd"]
    if here:
        one = len(here) == 1
        said.append(f"{_titles(here)} read{'s' if one else ''} project settings only from the folder "
                    f"{'it starts' if one else 'they start'} in: start {'it' if one else 'them'} in {shown}")
    workspace = [h for h in own if lookup(h) != "cwd"]
    if workspace:
        one = len(workspace) == 1
        said.append(f"{_titles(workspace)} read{'s' if one else ''} the workspace {'it opens' if one else 'they open'}, "
                    f"taken to be the git root: open {shown} as the workspace")
    return Finding("note", "; ".join(said)) if said else None


def annotate(plans: list, folders: dict[str, Path], explicit: bool) -> None:
    """Local settings: say once per host whether git would pick them (and their record) up."""
    seen: set[str] = set()
    for plan in plans:
        host = plan.target.host
        if plan.target.scope != "local" or plan.target.record_path is None or host.name in seen:
            continue
        seen.add(host.name)
        plan.findings += git_hint([plan.target.path, plan.target.record_path])


def project_notes(plans: list, folders: dict[str, Path], explicit: bool) -> list[str]:
    """The location note of install and uninstall, once, when they write at project or local scope."""
    hosts = list({p.target.host.name: p.target.host for p in plans
                  if p.target.scope != "user" and p.target.record_path is not None}.values())
    note = location_note(hosts, folders, explicit) if hosts else None
    return [note.message] if note else []


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
        if folders.get(host.name) == root or reads(host, start, root):
            continue  # status and uninstall already look at the root, or this host runs its hooks from here
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

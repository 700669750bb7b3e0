"""Committed settings that work on every machine: how ``{bundle_dir}`` is rendered per install.

A bundle inside the project folder renders relative to the host's own project variable
(``"$CLAUDE_PROJECT_DIR"/tools/guard/guard.py``), so the settings file can be committed and works
in every clone. A bundle outside it (a shipped template in site-packages, a folder in the home)
can only be named by its absolute path: at project and local scope that path exists on this
machine only, which the install says in a warning (in ``--json`` too) rather than refusing: an
operator trying a template on their own machine is a fair use. ``hooks init --from TEMPLATE``
copies a template into the project so its install is portable. Under ``--host all`` at project
scope (``usecases/selection``) the same judgement (``machine_only``) refuses or leaves the agent out.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from hookweave.core.files import fileio, paths
from hookweave.core.model.findings import Finding
from hookweave.core.model.runnable import EVERY_PROJECT

if TYPE_CHECKING:
    from hookweave.core.model.bundle import Bundle
    from hookweave.core.plan.plan import Target


def uses_bundle_dir(bundle: Bundle) -> bool:
    return any("{bundle_dir}" in (h.command if isinstance(h.command, str) else " ".join(h.command))
               for h in bundle.hooks)


def inside(folder: Path, project: Path) -> str | None:
    """``folder`` relative to ``project`` as a POSIX path when it lies inside it (symlinks followed)."""
    real_folder, real_project = fileio.realpath(folder), fileio.realpath(project)
    try:
        if os.path.commonpath([real_folder, real_project]) != real_project:
            return None
    except ValueError:  # different drives on Windows
        return None
    return Path(os.path.relpath(real_folder, real_project)).as_posix()


def machine_only(bundle: Bundle, target: Target, project: Path) -> str | None:
    """Why ``target``'s file would name the bundle by a path on this machine only: ``"outside"``
    (the bundle is not in the project), ``"no-variable"`` (the agent has no variable for the project
    folder, or Codex is not at git's top level), or ``None`` (user or managed scope, no ``{bundle_dir}``,
    or portable)."""
    if target.scope in EVERY_PROJECT or not uses_bundle_dir(bundle):
        return None  # the user's own settings live on this machine: an absolute path is right there
    host = target.host
    if inside(bundle.directory, project) is None:
        return "outside"
    root_ok = host.project_lookup != "codex" or paths.git_root(project) == project  # Codex: git's top level
    return None if host.project_root_ref and root_ok else "no-variable"


def for_target(bundle: Bundle, target: Target, project: Path) -> tuple[Bundle, list[Finding]]:
    """The bundle as ``target`` renders it, and a warning when its settings would name a path that
    exists only on this machine."""
    why = machine_only(bundle, target, project)
    if why is None:
        shared = target.scope not in EVERY_PROJECT and uses_bundle_dir(bundle)
        relative = inside(bundle.directory, project) if shared else None
        return (bundle._replace(portable=relative) if relative is not None else bundle), []
    host = target.host
    relative = inside(bundle.directory, project)
    where = paths.printable(str(bundle.directory))
    template = template_name(bundle)
    fix = (f"to commit it, hooks add {template} vendors it into the repository (or hooks init --from {template} "
           f"and install ./{template})" if template
           else "to commit it, move the bundle into the project and install it from there, or hooks add its git URL")
    if relative is not None and host.project_root_ref:  # Codex, outside the top of a git repository
        fix = (f"{host.title} has no project variable; at the top of a git repository the command finds "
               "the folder through git rev-parse, so install from there")
    elif relative is not None:
        fix = f"{host.title} has no variable for the project folder"
    return bundle, [Finding("warning", f"{{bundle_dir}} is {where}, a path on this machine only: "
                                       f"{target.shown} works here but not in another clone; {fix}", bundle.name)]


def template_name(bundle: Bundle) -> str | None:
    from hookweave.core.model.loading import template_dir

    try:
        return bundle.directory.name if bundle.directory.parent.samefile(template_dir()) else None
    except OSError:
        return None

"""Which agents a command acts on: those named, ``all``, or ``detected`` (found on this machine); and
what a broad choice leaves out at project scope (issue 32 item 7, issue 33 item 8).

A repository's agent files are shared by the team, so ``--host all`` (or ``detected``) at project
scope writes only what every clone can run: an agent with no project file (Kimi Code, OpenHarness)
is left out with one note naming the ``--scope user`` command, instead of writing into ``$HOME``;
an agent with no variable for the project folder, which could only name the bundle by this
machine's absolute path, is left out with a note; and a bundle outside the project, whose path no
clone has, is refused (exit 2, nothing written). A host named on its own keeps the old behaviour:
the operator asked for exactly that agent (and gets a warning where its path is machine-only).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Mapping

from hookweave.core.errors import BadInput
from hookweave.core.files import paths
from hookweave.core.reading import projects

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host
    from hookweave.core.contract.registry import HostRegistry
    from hookweave.core.model.bundle import Bundle
    from hookweave.core.plan.plan import Target

BROAD = ("all", "detected")


def _names(requested) -> list[str]:
    return [part.strip() for value in requested for part in value.split(",") if part.strip()]


def wants_all(requested) -> bool:
    """Whether ``all`` is among the ``--host`` values: then every registered host, whatever else is named."""
    return "all" in _names(requested)


def broad(requested) -> bool:
    """Whether the hosts were chosen as a set (``all``, ``detected``) rather than named one by one."""
    return any(name in BROAD for name in _names(requested))


def resolve(registry: HostRegistry, requested, project: str | None = None) -> list[Host]:
    """The hosts for ``--host`` values: ``detected`` is every host ``hooks hosts`` says is detected
    (its program or user folder here, or a project file in the folder it reads from here)."""
    wanted = _names(requested)
    if "detected" not in wanted or "all" in wanted:
        return registry.resolve(wanted)
    from hookweave.core.reading.detection import detected

    everyone = registry.resolve(["all"])
    folder = projects.folders(everyone, project)
    named = {h.name for h in registry.resolve([n for n in wanted if n != "detected"])}
    chosen = [h for h in everyone if h.name in named or detected(h, folder[h.name])]
    if not chosen:
        raise BadInput("--host detected: no agent is detected here (hooks hosts lists them all); "
                       "name one with --host, e.g. --host claude")
    return chosen


def project_hosts(hosts: list[Host], requested, scope: str | None, again: str,
                  *, installed_only: bool = False) -> tuple[list[Host], list[str]]:
    """Under a broad ``--host`` at project scope (given, or the default), the hosts that have no
    project scope are left out, with one note; ``again``: the command to rerun, with ``{hosts}``.
    ``installed_only`` (uninstall): the note names only those with something installed."""
    if not broad(requested) or scope not in (None, "project"):
        return hosts, []
    out = [h for h in hosts if "project" not in h.scopes]
    if not out or len(out) == len(hosts):
        return hosts, []  # none to leave out, or nothing would be left: each host's own default then
    kept = [h for h in hosts if h not in out]
    if installed_only:
        out = [h for h in out if _has_records(h)]
        if not out:
            return kept, []
    flags = " ".join(f"--host {h.name}" for h in out)
    names = ", ".join(h.name for h in out)
    return kept, [
        f"{names}: no project settings file, so --host {_which(requested)} at project scope leaves "
        f"{'it' if len(out) == 1 else 'them'} out ({'its' if len(out) == 1 else 'their'} only file is in your home "
        f"folder); for {'its' if len(out) == 1 else 'their'} user settings: {again.format(hosts=flags)} --scope user"]


def _has_records(host: Host) -> bool:
    from hookweave.core.reading.scopes import installed

    try:
        return any(rec.bundles for _, _, rec in installed(host, paths.project_dir(None)))
    except BadInput:
        return True  # a record it cannot read: worth the note


def _which(requested) -> str:
    return next(name for name in _names(requested) if name in BROAD)


def portable_targets(targets: list[Target], bundle: Bundle, folder: Mapping[str, Path], source: str,
                     requested) -> tuple[list[Target], list[str]]:
    """Under a broad ``--host``, the project-scope targets whose share of ``bundle`` the agent can
    run from every clone: a bundle outside the project is refused, an agent that could name it only
    by an absolute path is left out with a note. Each target's share is the one install writes
    (an agent that runs another's file gets nothing of its own, so nothing machine-only)."""
    if not broad(requested):
        return targets, []
    from hookweave.core.plan import portable
    from hookweave.core.usecases import standins

    split = standins.split(targets, bundle, lambda host: folder[host.name])
    kept, left = [], []
    for t in targets:
        share = split.bundles.get(id(t), bundle)
        if t.scope != "project" or not share.hooks:
            kept.append(t)
            continue
        why = portable.machine_only(share, t, folder[t.host.name])
        if why == "outside":
            raise BadInput(_outside(bundle, folder[t.host.name], _which(requested)))
        if why is None:
            kept.append(t)
        else:
            left.append(t.host)
    if not left:
        return targets, []
    names = ", ".join(h.name for h in left)
    return kept, [f"{names}: no variable for the project folder, so {{bundle_dir}} would be this machine's "
                  f"absolute path in a file the team shares; --host {_which(requested)} leaves "
                  f"{'it' if len(left) == 1 else 'them'} out (to install there anyway, on this machine only: "
                  f"hooks install {source} {' '.join('--host ' + h.name for h in left)})"]


def _outside(bundle: Bundle, project: Path, which: str) -> str:
    from hookweave.core.plan.portable import template_name

    where = paths.printable(str(bundle.directory))
    template = template_name(bundle)
    fix = (f"hooks init --from {template} copies it into the repository (then install ./{template}), "
           f"or hooks add {template} vendors it" if template
           else "move the bundle into the repository, or hooks add GIT-URL (the bundle's repository) to vendor it")
    return (f"{paths.printable(str(bundle.manifest))}: the bundle is outside the project "
            f"({paths.printable(str(project))}), so --host {which} at project scope would write {where}, a path on "
            f"this machine only, into files the team shares; nothing written: {fix}")

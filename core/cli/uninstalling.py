"""``hooks uninstall``: a thin typer command over ``api`` and ``installer``, registered on ``app``
when named (``app.COMMAND_MODULES``), as the other commands' modules are."""

import functools
from typing import Optional

import typer

from hookweave.core.cli import common
from hookweave.core.cli.app import DryRunOpt, HostOpt, JsonOpt, PatchOpt, ProjectOpt, ScopeOpt, app
from hookweave.core.cli.common import handled
from hookweave.core.cli.group import complete_bundles
from hookweave.core.reading import projects


@app.command()
@handled
def uninstall(
    name: Optional[str] = typer.Argument(None, help="Name of the installed bundle (or --all).", autocompletion=complete_bundles),
    *,
    host: Optional[list[str]] = HostOpt,
    scope: Optional[str] = ScopeOpt,
    project: Optional[str] = ProjectOpt,
    every: bool = typer.Option(False, "--all", help="Every bundle installed at the scope (default: every host)."),
    force: bool = typer.Option(False, "--force", help="Also remove entries the operator edited."),
    by_marker: bool = typer.Option(False, "--by-marker", help="Where no record lists the bundle (deleted, never "
                                            "committed), remove the entries that carry its marker."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    dry_run: bool = DryRunOpt,
    patch: bool = PatchOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Remove exactly what a bundle installed; keep everything else, byte for byte."""
    from hookweave.core.errors import BadInput, NotInstalled
    from hookweave.core.usecases import api, installer

    common.patch_needs_dry_run(patch, dry_run)
    if (name is None) != every:
        raise BadInput("uninstall: pass NAME or --all, not both" if every else
                       "uninstall: name the bundle to remove (hooks status lists them), or pass --all for every bundle of the scope")
    if every and by_marker:
        raise BadInput("--by-marker removes one bundle's marked entries: name it instead of --all")
    registry = common.registry()
    hosts, chosen_scope, asked = common.choose_hosts(registry, host or (["all"] if every else None), scope, "uninstall",
                                                     name, as_json=as_json, project=project)
    folder = projects.folders(hosts, project)
    try:
        if every:
            from hookweave.core.usecases import selection

            again = "hooks uninstall --all {hosts}"
            hosts, notes = selection.project_hosts(hosts, host or ["all"], chosen_scope, again, installed_only=True)
            common.notes(notes)
            targets = [installer.target(h, chosen_scope, folder[h.name]) for h in hosts]
            plans = installer.uninstall_all(targets, folder, force=force, dry_run=dry_run)
            projects.annotate(plans, folder, explicit=bool(project))
            where = projects.project_notes(plans, folder, explicit=bool(project))
            common.notes(where)
            notes = where + notes
        else:
            run = functools.partial(api.uninstall, name, host or [h.name for h in hosts], scope=chosen_scope,
                                    project=project, force=force, by_marker=by_marker, registry=registry)
            if asked and not yes and not dry_run:
                from hookweave.core.cli import interactive

                if not interactive.confirmed(run(dry_run=True).plans, f"Remove {name} as shown?"):
                    return interactive.nothing_written()
            done = run(dry_run=dry_run)
            common.notes(done.notes)
            plans, notes = done.plans, done.notes
    except NotInstalled as exc:
        hint = projects.root_hint(hosts, folder, bool(project), name, "uninstall")
        raise NotInstalled(f"{exc}{hint}") from None
    common.show("uninstall", plans, dry_run, as_json, patch, notes=notes)

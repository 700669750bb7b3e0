"""``hooks install``: a thin typer command over ``api``, registered on ``app`` when named
(``app.COMMAND_MODULES``), as the other commands' modules are: a command's definition (typer's
options, evaluated as it is defined: a million instructions for uninstall's) costs the other
commands nothing."""

import functools
from typing import Optional

import typer

from hookweave.core.cli import common, console
from hookweave.core.cli.app import DryRunOpt, HostOpt, JsonOpt, PatchOpt, ProjectOpt, ScopeOpt, app
from hookweave.core.cli.common import handled


@app.command()
@handled
def install(
    bundle: Optional[str] = typer.Argument(None, help="Manifest path, bundle folder or template name (default ./hookweave.toml)."),
    *,
    host: Optional[list[str]] = HostOpt,
    scope: Optional[str] = ScopeOpt,
    project: Optional[str] = ProjectOpt,
    dry_run: bool = DryRunOpt,
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    force: bool = typer.Option(False, "--force", help="Replace entries of this bundle that the operator edited."),
    trust: bool = typer.Option(False, "--trust", help="Codex: mark the installed hooks trusted in ~/.codex/config.toml."),
    patch: bool = PatchOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Install a bundle's hooks and env vars into each host's settings (idempotent)."""
    from hookweave.core.model import loading as bundles
    from hookweave.core.usecases import api

    common.patch_needs_dry_run(patch, dry_run)
    registry = common.registry()
    loaded = bundles.load_bundle(bundle, registry.names())
    hosts, chosen_scope, asked = common.choose_hosts(registry, host, scope, "install", as_json=as_json, project=project)
    run = functools.partial(api.install, loaded, host or [h.name for h in hosts], scope=chosen_scope,
                            project=project, force=force, registry=registry)
    if asked and not yes and not dry_run:
        from hookweave.core.cli import interactive

        trust = trust or interactive.ask_trust(hosts)
        preview = run(dry_run=True, trust=trust)
        common.notes(preview.notes)
        if not interactive.confirmed(preview.plans, "Write these changes?"):
            return interactive.nothing_written()
    done = run(dry_run=dry_run, trust=trust)
    if not (asked and not yes and not dry_run):
        common.notes(done.notes)
    hosts = done.hosts
    common.show("install", done.plans, dry_run, as_json, patch, notes=done.notes)
    if trust and not any(h.needs_trust for h in hosts):  # said once the install stands: it changed nothing
        trusting = [h.name for h in registry.resolve(["all"]) if h.needs_trust]
        console.err(f"warning: --trust: {', '.join(h.name for h in hosts)} {'has' if len(hosts) == 1 else 'have'} no "
                    f"hook trust (only {', '.join(trusting) or 'no registered host'}), so --trust changed nothing; drop it")

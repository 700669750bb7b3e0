"""``hooks adopt``: a thin typer command over ``adopt_run``, registered on the same ``app`` as cli.py's."""

from typing import Optional

import typer

from hookweave.core.cli import console
from hookweave.core.cli.app import (
    DryRunOpt,
    HostOpt,
    JsonOpt,
    ProjectOpt,
    app,
    handled,
)
from hookweave.core.cli.common import choose_hosts, registry, show
from hookweave.core.errors import BadInput
from hookweave.core.files import paths


@app.command()
@handled
def adopt(
    *,
    host: Optional[list[str]] = HostOpt,
    scope: Optional[str] = typer.Option(None, "--scope", "-s", help="user, project (default) or local."),
    project: Optional[str] = ProjectOpt,
    event: Optional[str] = typer.Option(None, "--event", "-e", help="Only this event (neutral or the host's name)."),
    name: str = typer.Option("adopted", "--name", help="Name of the bundle to write."),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="Folder of the hookweave.toml to write (default: current folder)."),
    undo: Optional[str] = typer.Option(None, "--undo", help="Give bundle NAME's hooks back: hand-written again."),
    force: bool = typer.Option(False, "--force", help="Replace an existing hookweave.toml in --out."),
    trust: bool = typer.Option(False, "--trust", help="Codex: trust the adopted hooks (trusted ones stay trusted anyway)."),
    dry_run: bool = DryRunOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Take the hand-written hooks of a settings file (or one --event) into a bundle, or give them back (--undo)."""
    from hookweave.core.usecases import adopt as adopt_run
    from hookweave.core.usecases import installer

    hosts, chosen_scope, _ = choose_hosts(registry(), host, scope, "adopt", as_json=as_json)
    if len(hosts) != 1:
        raise BadInput("adopt: name one --host; a manifest is written from one host's settings file")
    folder = paths.project_dir(project)
    target = installer.target(hosts[0], chosen_scope, folder)
    if undo is not None:
        show("adopt", adopt_run.give_back(target, undo, dry_run=dry_run), dry_run, as_json)
        return
    where = paths.cwd() / out if out else paths.cwd()  # cwd() / an absolute path is that path
    plans, manifest, text = adopt_run.take(target, name, event, where, force=force, trust=trust, dry_run=dry_run)
    if as_json:
        from hookweave.core.cli import report

        doc = report.plans_json("adopt", plans, dry_run=dry_run)
        console.json_out({**doc, "manifest": {"path": str(manifest), "text": text, "written": not dry_run}})
        return
    if dry_run:
        console.out(f"would write {paths.display(manifest)}:\n{text.rstrip()}")
    show("adopt", plans, dry_run, as_json)

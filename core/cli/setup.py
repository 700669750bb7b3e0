"""Commands that set things up rather than install: ``init``, ``templates``, ``doctor``, ``completion``;
and ``help``.

They register on ``cli.app`` (imported at the end of ``cli``); each typer function stays thin, the
work is in ``scaffold`` and ``doctor``.
"""

from pathlib import Path
from typing import Optional

import typer

from hookweave.core.cli import console
from hookweave.core.cli.app import JsonOpt, ProjectOpt, app, handled
from hookweave.core.cli.common import registry as _registry


@app.command()
@handled
def templates(*, as_json: bool = JsonOpt) -> None:
    """List the shipped templates with their descriptions."""
    from hookweave.core.cli import scaffold

    rows = scaffold.templates()
    if as_json:
        console.json_out({"templates": rows})
        return
    for r in rows:
        console.out(f"{r['name']} {r['version']}: {r['description']}", "head")
        console.out(f"  hooks: {r['hooks']}")
        console.out(f"  try it: hooks install {r['name']} --host claude; keep it: hooks init --from {r['name']}")


@app.command()
@handled
def init(
    folder: Optional[str] = typer.Argument(None, help="Where to write the bundle (default: . , or ./TEMPLATE with --from)."),
    *,
    name: Optional[str] = typer.Option(None, "--name", help="Bundle name (default: from the folder's name)."),
    from_: Optional[str] = typer.Option(None, "--from", help="Copy this shipped template instead (see hooks templates)."),
    as_json: bool = JsonOpt,
) -> None:
    """Start a bundle: hookweave.toml and a hook script, or a copy of a template, in the project."""
    from hookweave.core.cli import scaffold
    from hookweave.core.files import paths

    target = Path(folder or (from_ if from_ else "."))
    target = target if target.is_absolute() else paths.cwd() / target
    written = scaffold.copy_template(from_, target) if from_ else scaffold.init(target, name)
    shown = [paths.display(p) for p in written]
    where = paths.display(target) or "."
    if as_json:
        console.json_out({"command": "init", "folder": where, "written": shown})
        return
    for path in shown:
        console.out(f"wrote {path}")
    console.out(f"next: hooks install {where if '/' in where or where == '.' else './' + where} --host claude  "
                "(or --host all); hooks verify")


@app.command()
@handled
def doctor(
    *,
    project: Optional[str] = ProjectOpt,
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show every agent, also those not found here."),
    as_json: bool = JsonOpt,
) -> None:
    """Check this machine and folder: hosts and versions, settings files, gates, plugins, python3."""
    from hookweave.core.cli import doctor as checks

    doc = checks.report(_registry(), project)
    if as_json:
        console.json_out(doc)
    else:
        checks.print_report(doc, verbose=verbose)
    if not doc["ok"]:
        raise typer.Exit(1)


SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


@app.command()
@handled
def completion(
    shell: Optional[str] = typer.Argument(None, help="bash, zsh, fish or powershell (default: your shell)."),
    *,
    install: bool = typer.Option(False, "--install", help="Add it to the shell's start-up file instead of printing it."),
) -> None:
    """Print (or --install) shell completion: commands, options, host names, installed bundles."""
    from hookweave.core.cli.completion import install_script, script

    if install:
        chosen, path = install_script(shell)
        console.out(f"{chosen} completion installed in {path}; open a new shell to use it")
    else:
        console.out(script(shell))


@app.command("help")
def help_command(
    ctx: typer.Context,
    command: Optional[str] = typer.Argument(None, help="The command to explain (default: hooks itself)."),
) -> None:
    """Show the help of hooks, or of one command (as hooks COMMAND --help does)."""
    root = ctx.parent
    if command is None:
        return console.out(root.get_help())
    group = root.command
    chosen = group.get_command(root, command)
    if chosen is None:
        from hookweave.core.cli import usage

        raise usage.unknown_command(command, group.list_commands(root), ctx)
    with chosen.make_context(command, [], parent=root, resilient_parsing=True) as shown:
        console.out(shown.get_help())

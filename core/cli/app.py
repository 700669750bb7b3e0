"""The ``hooks`` command: thin typer commands over ``installer``; errors become exit codes here.

No ``from __future__ import annotations`` here: typer reads each command's annotations, and real
objects spare it evaluating every string at start-up (1 ms).
"""

import functools
import os
from typing import Annotated, Callable, Optional

import typer

from hookweave.core.cli import console
from hookweave.core.cli.group import (
    JsonErrorsGroup,
    complete_bundles,
    complete_hosts,
    completion_option,
)
from hookweave.core.errors import BadInput, HooksError
from hookweave.core.reading import projects

app = typer.Typer(
    cls=JsonErrorsGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Install AI coding-agent hooks into Claude Code and other agents, verify them, and take them out again.",
)

HostOpt = Annotated[Optional[list[str]], typer.Option("--host", "-H", help="Host name or 'all'; repeat for several.",
                                                      autocompletion=complete_hosts)]
ProjectOpt = Annotated[Optional[str], typer.Option("--project", "-p", help="Project folder (default: the one each host uses when started here).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", "-n", help="Write nothing; print the diff (--patch: and the JSON Patch).")]
PatchOpt = Annotated[bool, typer.Option("--patch", help="With --dry-run, print each file's JSON Patch (RFC 6902) too.")]


SCOPE_HELP = ("The scope to write: project (default; user for a host without a project file), user, or another the "
              "host has (hooks hosts lists them).")

def handled(func: Callable) -> Callable:
    """Turn a ``HooksError`` into one red line and its exit code (and a JSON error under --json)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except HooksError as exc:
            if kwargs.get("as_json"):
                console.json_out({"error": str(exc), "exit_code": exc.exit_code})
            console.err(f"hooks: {exc}")
            if os.environ.get("HOOKWEAVE_DEBUG"):
                import traceback

                traceback.print_exc()
            raise typer.Exit(exc.exit_code) from None

    return wrapper


def _registry():
    """The hosts of this command; a plugin that could not be loaded or registered is one line on
    stderr (so ``--json`` output stays one document) and every other host works."""
    from hookweave.core.contract.registry import registry

    hosts = registry()
    for warning in hosts.warnings:
        console.err(f"warning: {warning}")
    return hosts


def _choose_hosts(registry, hosts: list[str] | None, scope: str | None, command: str, bundle: str | None = None):
    """Hosts and scope from the flags, or asked on a terminal (``interactive``); returns (hosts, scope, asked)."""
    if hosts:  # the flags decide: the interactive flow's module is not loaded
        return registry.resolve(hosts), scope, False  # None: each host's default (``installer.target``)
    from hookweave.core.cli import interactive

    return interactive.choose_hosts(registry, hosts, scope, command, bundle)


@app.command()
@handled
def install(
    bundle: Annotated[Optional[str], typer.Argument(help="Manifest path, bundle folder or template name (default ./hookweave.toml).")] = None,
    *,
    host: HostOpt = None,
    scope: Annotated[Optional[str], typer.Option("--scope", "-s", help=SCOPE_HELP)] = None,
    project: ProjectOpt = None,
    dry_run: DryRunOpt = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace entries of this bundle that the operator edited.")] = False,
    trust: Annotated[bool, typer.Option("--trust", help="Codex: mark the installed hooks trusted in ~/.codex/config.toml.")] = False,
    patch: PatchOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Install a bundle's hooks and env vars into each host's settings (idempotent)."""
    from hookweave.core.model import loading as bundles
    from hookweave.core.usecases import api

    _patch_needs_dry_run(patch, dry_run)
    registry = _registry()
    loaded = bundles.load_bundle(bundle, registry.names())
    hosts, chosen_scope, asked = _choose_hosts(registry, host, scope, "install")
    run = functools.partial(api.install, loaded, host or [h.name for h in hosts], scope=chosen_scope,
                            project=project, force=force, registry=registry)
    if asked and not yes and not dry_run:
        from hookweave.core.cli import interactive

        trust = trust or interactive.ask_trust(hosts)
        preview = run(dry_run=True, trust=trust)
        _notes(preview)
        if not interactive.confirmed(preview.plans, "Write these changes?"):
            return interactive.nothing_written()
    done = run(dry_run=dry_run, trust=trust)
    if not (asked and not yes and not dry_run):
        _notes(done)
    hosts = done.hosts
    _show("install", done.plans, dry_run, as_json, patch)
    if trust and not any(h.needs_trust for h in hosts):  # said once the install stands: it changed nothing
        trusting = [h.name for h in registry.resolve(["all"]) if h.needs_trust]
        console.err(f"warning: --trust: {', '.join(h.name for h in hosts)} {'has' if len(hosts) == 1 else 'have'} no "
                    f"hook trust (only {', '.join(trusting) or 'no registered host'}), so --trust changed nothing; drop it")


@app.command()
@handled
def uninstall(
    name: Annotated[str, typer.Argument(help="Name of the installed bundle.", autocompletion=complete_bundles)],
    *,
    host: HostOpt = None,
    scope: Annotated[Optional[str], typer.Option("--scope", "-s", help=SCOPE_HELP)] = None,
    project: ProjectOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Also remove entries the operator edited.")] = False,
    by_marker: Annotated[bool, typer.Option("--by-marker", help="Where no record lists the bundle (deleted, never "
                                            "committed), remove the entries that carry its marker.")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    dry_run: DryRunOpt = False,
    patch: PatchOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Remove exactly what a bundle installed; keep everything else, byte for byte."""
    from hookweave.core.usecases import api

    _patch_needs_dry_run(patch, dry_run)
    registry = _registry()
    hosts, chosen_scope, asked = _choose_hosts(registry, host, scope, "uninstall", name)
    run = functools.partial(api.uninstall, name, host or [h.name for h in hosts], scope=chosen_scope,
                            project=project, force=force, by_marker=by_marker, registry=registry)
    if asked and not yes and not dry_run:
        from hookweave.core.cli import interactive

        if not interactive.confirmed(run(dry_run=True).plans, f"Remove {name} as shown?"):
            return interactive.nothing_written()
    _show("uninstall", run(dry_run=dry_run).plans, dry_run, as_json, patch)


def _notes(done) -> None:
    for line in done.notes:  # hosts --host all left out: nothing of the bundle applies there
        console.err(f"note: {line}")


def _patch_needs_dry_run(patch: bool, dry_run: bool) -> None:
    if patch and not dry_run:
        raise BadInput("--patch prints the JSON Patch of a dry run and nothing else: add --dry-run (--json always carries it)")


def _show(command: str, plans, dry_run: bool, as_json: bool, patch: bool = False) -> None:
    from hookweave.core.cli import report

    if as_json:
        console.json_out(report.plans_json(command, plans, dry_run=dry_run))
    else:
        report.print_plans(plans, dry_run=dry_run, patch=patch)


@app.command()
@handled
def verify(
    *,
    host: HostOpt = None,
    scope: Annotated[Optional[str], typer.Option("--scope", "-s", help="Only this scope (default: all).")] = None,
    project: ProjectOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check installed hooks: present, unmodified, in order, not duplicated, env in effect, not gated."""
    from hookweave.core.cli import report
    from hookweave.core.usecases import api

    reports = api.verify(host or ["all"], scope=scope, project=project, registry=_registry()).reports
    if as_json:
        console.json_out(report.verify_json(reports))
    else:
        report.print_verify(reports)
    if any(r.problems for r in reports):
        raise typer.Exit(1)


@app.command()
@handled
def status(*, host: HostOpt = None, project: ProjectOpt = None, as_json: JsonOpt = False) -> None:
    """List the bundles installed per host and scope, from the records."""
    from hookweave.core.reading import scopes

    registry = _registry()
    chosen = registry.resolve(host or ["all"])
    folder = projects.folders(chosen, project)
    rows = []
    for h in chosen:
        for scope, shown, rec in scopes.installed(h, folder[h.name]):
            for name, b in sorted(rec.bundles.items()):
                rows.append({"host": h.name, "scope": scope, "path": shown, "bundle": name,
                             "version": b.version, "hooks": sum(len(x.members) or 1 for x in b.hooks),
                             "env": len(b.env)})
    if as_json:
        console.json_out({"installed": rows})
        return
    if not rows:
        console.out("nothing installed")
    for r in rows:
        hooks = f"{r['hooks']} hook{'' if r['hooks'] == 1 else 's'}"
        console.out(f"{r['host']:<8} {r['scope']:<8} {r['bundle']} {r['version']}  ({hooks}, {r['env']} env)  {r['path']}")


@app.command()
@handled
def hosts(*, as_json: JsonOpt = False) -> None:
    """List registered hosts and where each came from (built-in or a plugin package)."""
    registry = _registry()
    rows = []
    for name in registry.names():
        info = registry.info(name)
        rows.append({"name": name, "title": info.cls.title, "origin": info.origin,
                     "scopes": list(info.cls.scopes), "detected": info.cls().detect()})
    if as_json:
        console.json_out({"hosts": rows})
        return
    wide = max((len(r["name"]) for r in rows), default=0), max((len(r["title"]) for r in rows), default=0)
    for r in rows:
        seen = "detected" if r["detected"] else "not detected"
        console.out(f"{r['name']:<{wide[0]}} {r['title']:<{wide[1]}} {r['origin']:<12} "
                    f"scopes: {', '.join(r['scopes'])}  ({seen})")


def _version(value: bool) -> None:
    if value:
        from hookweave.core import __version__  # the metadata's version too (pyproject: dynamic)

        console.out(f"hookweave {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")] = False,
    install_completion: Annotated[bool, typer.Option("--install-completion", callback=completion_option(True), is_eager=True,
                                                     help="Install shell completion for your shell (see hooks completion).")] = False,
    show_completion: Annotated[bool, typer.Option("--show-completion", callback=completion_option(False), is_eager=True,
                                                  help="Print the completion script for your shell.")] = False,
) -> None:
    """hookweave: one manifest, every agent's hooks."""


# Commands that live in their own modules (each registers on ``app`` when imported): loaded only
# when named, or for help and did-you-mean, so each adds nothing to the other commands' start-up.
COMMAND_MODULES = {
    "adopt": "hookweave.core.cli.adopt",
    "check": "hookweave.core.cli.check",
    "init": "hookweave.core.cli.setup",
    "templates": "hookweave.core.cli.setup",
    "doctor": "hookweave.core.cli.setup",
    "completion": "hookweave.core.cli.setup",
}


def main() -> None:
    # typer turns every command's signature into click objects before it runs one (0.5 ms a
    # command); when the first word names a command, only that one is built. Anything else (no
    # command, --help, --version, a typo) gets the whole group, with its help and did-you-mean.
    import importlib
    import sys

    wanted = sys.argv[1] if len(sys.argv) > 1 else ""
    own = {c.callback.__name__ for c in app.registered_commands if c.callback is not None}
    if wanted in COMMAND_MODULES:
        importlib.import_module(COMMAND_MODULES[wanted])
    elif wanted not in own:
        for module in dict.fromkeys(COMMAND_MODULES.values()):
            importlib.import_module(module)
    chosen = [c for c in app.registered_commands if c.callback is not None and c.callback.__name__ == wanted]
    app.registered_commands = chosen or app.registered_commands
    app(prog_name="hooks")

"""The ``hooks`` command: thin typer commands over ``installer``; errors become exit codes here.

No ``from __future__ import annotations`` here: typer reads each command's annotations, and real
objects spare it evaluating every string at start-up (1 ms).
"""

import functools
from typing import Annotated, Optional

import typer

from hookweave.core.cli import console
from hookweave.core.cli import common
from hookweave.core.cli.common import handled
from hookweave.core.cli.usage import HooksTyper
from hookweave.core.cli.group import (
    JsonErrorsGroup,
    complete_bundles,
    complete_hosts,
    complete_scopes,
    completion_option,
)
from hookweave.core.files import paths
from hookweave.core.reading import projects

app = HooksTyper(
    cls=JsonErrorsGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Install AI coding-agent hooks into Claude Code and other agents, verify them, and take them out again.",
)

HOST_HELP = ("Host name, 'all', or 'detected' (the agents found on this machine); repeat for several. "
             "At project scope, all and detected leave out agents that have no project file.")
HostOpt = Annotated[Optional[list[str]], typer.Option("--host", "-H", help=HOST_HELP, autocompletion=complete_hosts)]
ProjectOpt = Annotated[Optional[str], typer.Option("--project", "-p", help="Project folder (default: the one each host uses when started here).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", "-n", help="Write nothing; print the diff (--patch: and the JSON Patch).")]
PatchOpt = Annotated[bool, typer.Option("--patch", help="With --dry-run, print each file's JSON Patch (RFC 6902) too.")]


SCOPE_HELP = ("The scope to write: project (default; user for a host without a project file), user, or another the "
              "host has (hooks hosts lists them).")
ScopeOpt = Annotated[Optional[str], typer.Option("--scope", "-s", help=SCOPE_HELP, autocompletion=complete_scopes)]



@app.command()
@handled
def install(
    bundle: Annotated[Optional[str], typer.Argument(help="Manifest path, bundle folder or template name (default ./hookweave.toml).")] = None,
    *,
    host: HostOpt = None,
    scope: ScopeOpt = None,
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
        _notes(preview.notes)
        if not interactive.confirmed(preview.plans, "Write these changes?"):
            return interactive.nothing_written()
    done = run(dry_run=dry_run, trust=trust)
    if not (asked and not yes and not dry_run):
        _notes(done.notes)
    hosts = done.hosts
    common.show("install", done.plans, dry_run, as_json, patch, notes=done.notes)
    if trust and not any(h.needs_trust for h in hosts):  # said once the install stands: it changed nothing
        trusting = [h.name for h in registry.resolve(["all"]) if h.needs_trust]
        console.err(f"warning: --trust: {', '.join(h.name for h in hosts)} {'has' if len(hosts) == 1 else 'have'} no "
                    f"hook trust (only {', '.join(trusting) or 'no registered host'}), so --trust changed nothing; drop it")


@app.command()
@handled
def uninstall(
    name: Annotated[Optional[str], typer.Argument(help="Name of the installed bundle (or --all).", autocompletion=complete_bundles)] = None,
    *,
    host: HostOpt = None,
    scope: ScopeOpt = None,
    project: ProjectOpt = None,
    every: Annotated[bool, typer.Option("--all", help="Every bundle installed at the scope (default: every host).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Also remove entries the operator edited.")] = False,
    by_marker: Annotated[bool, typer.Option("--by-marker", help="Where no record lists the bundle (deleted, never "
                                            "committed), remove the entries that carry its marker.")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    dry_run: DryRunOpt = False,
    patch: PatchOpt = False,
    as_json: JsonOpt = False,
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
            _notes(notes)
            targets = [installer.target(h, chosen_scope, folder[h.name]) for h in hosts]
            plans = installer.uninstall_all(targets, folder, force=force, dry_run=dry_run)
            projects.annotate(plans, folder, explicit=bool(project))
            where = projects.project_notes(plans, folder, explicit=bool(project))
            _notes(where)
            notes = where + notes
        else:
            run = functools.partial(api.uninstall, name, host or [h.name for h in hosts], scope=chosen_scope,
                                    project=project, force=force, by_marker=by_marker, registry=registry)
            if asked and not yes and not dry_run:
                from hookweave.core.cli import interactive

                if not interactive.confirmed(run(dry_run=True).plans, f"Remove {name} as shown?"):
                    return interactive.nothing_written()
            done = run(dry_run=dry_run)
            _notes(done.notes)
            plans, notes = done.plans, done.notes
    except NotInstalled as exc:
        hint = projects.root_hint(hosts, folder, bool(project), name, "uninstall")
        raise NotInstalled(f"{exc}{hint}") from None
    common.show("uninstall", plans, dry_run, as_json, patch, notes=notes)


def _notes(notes) -> None:
    for line in notes:  # hosts --host all left out: no project file, or nothing applies there
        console.err(f"note: {line}")


@app.command()
@handled
def verify(
    *,
    host: HostOpt = None,
    scope: Annotated[Optional[str], typer.Option("--scope", "-s", help="Only this scope (default: all).",
                                                 autocompletion=complete_scopes)] = None,
    project: ProjectOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print the problems and the last line only.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Fold nothing: every note, and every file's "
                                          "line, one by one.")] = False,
    repo: Annotated[bool, typer.Option("--repo", help="Judge only what the repository holds (for CI and pre-commit): "
                                       "nothing outside it is read, and this machine's gates (trust, switches, user "
                                       "settings) are warnings.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Check installed hooks: present, unmodified, in order, not duplicated, env in effect, not gated."""
    if quiet and verbose:
        from hookweave.core.cli.usage import click

        raise click.UsageError("--quiet and --verbose exclude each other; pass one of them")
    if repo:
        from hookweave.core.files import fileio

        if not project:  # the repository is judged from its root, wherever in it this runs
            project = str(paths.git_root(paths.cwd()) or paths.cwd())
        with fileio.confined(paths.project_dir(project)):  # not a byte of this machine's files is read
            return _verify(host, scope, project, quiet, verbose, as_json, repo=True)
    return _verify(host, scope, project, quiet, verbose, as_json, repo=False)


def _verify(host: list[str] | None, scope: str | None, project: str | None, quiet: bool, verbose: bool,
            as_json: bool, *, repo: bool) -> None:
    from hookweave.core.verify import hostreport

    from hookweave.core.usecases import selection

    known = common.registry()
    hosts = selection.resolve(known, host or ["all"], project)
    if scope == "project":  # verify's default is every scope, Kimi's user file too
        hosts, notes = selection.project_hosts(hosts, host or ["all"], scope, "hooks verify {hosts}")
        _notes(notes)
    folder = projects.folders(hosts, project)
    chosen = hostreport.chosen_scopes(hosts, scope)
    reports = []
    for n, h in enumerate(hosts, 1):
        console.progress(f"verify: {h.name} ({n} of {len(hosts)})")
        rep = hostreport.verify_host(h, chosen[h.name], folder[h.name], repo=repo)
        rep.findings[:0] = hostreport.scope_notes(h, scope)
        rep.findings[:0] = hostreport.machine_scope_notes(h, chosen[h.name], folder[h.name]) if repo and scope else []
        if not rep.files:
            rep.findings += projects.elsewhere_note(h, folder[h.name], bool(project))
        reports.append(rep)
    console.progress(None)
    where = projects.location_note(hosts, folder, bool(project))
    if as_json:
        from hookweave.core.cli import report

        console.json_out(report.verify_json(reports, mode="repo" if repo else "machine", where=where))
    else:
        from hookweave.core.cli import verifytext

        if repo and not quiet:
            console.out(f"verify --repo: only the files in {paths.printable(project)} are judged; what this machine "
                        "decides (trust, switches, user settings) is a warning", "note")
        # With no plugin installed the hosts are the built-in ones, whoever asks. With one, they are
        # looked up again, as they always were here (a broken plugin's warning is said again).
        every_host = {h.name for h in hosts} == set((known if known.built_in_only else common.registry()).names())
        verifytext.render(reports, quiet=quiet, verbose=verbose, complete=every_host and scope is None, where=where)
    if any(r.problems for r in reports):
        raise typer.Exit(1)

def _version(value: bool) -> None:
    if value:
        from hookweave.core import __version__  # the metadata's version too (pyproject: dynamic)

        console.out(f"hookweave {__version__}")
        raise typer.Exit()


def _colour(value: Optional[str]) -> Optional[str]:
    console.choose_colour(value or "auto")  # every run decides anew (tests run many in one process)
    return value


COLOR_HELP = ("auto (the default: on a terminal, as NO_COLOR and FORCE_COLOR say), always or never; "
              "always and never win over NO_COLOR and FORCE_COLOR.")


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", "-V", callback=_version, is_eager=True, help="Show the version.")] = False,
    color: Annotated[Optional[str], typer.Option("--color", metavar="WHEN", callback=_colour, is_eager=True,
                                                 help=COLOR_HELP)] = None,
    install_completion: Annotated[bool, typer.Option("--install-completion", callback=completion_option(True), is_eager=True,
                                                     help="Install shell completion for your shell (see hooks completion).")] = False,
    show_completion: Annotated[bool, typer.Option("--show-completion", callback=completion_option(False), is_eager=True,
                                                  help="Print the completion script for your shell.")] = False,
) -> None:
    """hookweave: one manifest, every agent's hooks."""


# Commands that live in their own modules (each registers on ``app`` when imported): loaded only
# when named, or for help and did-you-mean, so each adds nothing to the other commands' start-up.
COMMAND_MODULES = {
    "status": "hookweave.core.cli.listing",
    "hosts": "hookweave.core.cli.listing",
    "adopt": "hookweave.core.cli.adopt",
    "check": "hookweave.core.cli.check",
    "init": "hookweave.core.cli.setup",
    "templates": "hookweave.core.cli.setup",
    "doctor": "hookweave.core.cli.setup",
    "completion": "hookweave.core.cli.setup",  # and help, which needs every command: loaded with them all
    "sync": "hookweave.core.cli.team",
    "add": "hookweave.core.cli.team",
    "remove": "hookweave.core.cli.team",
    "autoupdate": "hookweave.core.cli.team",
}


def main() -> None:
    # typer turns every command's signature into click objects before it runs one (0.5 ms a
    # command); when the first word names a command, only that one is built. Anything else (no
    # command, --help, --version, a typo) gets the whole group, with its help and did-you-mean.
    import importlib
    import sys

    wanted = _command_word(sys.argv[1:])
    own = {c.callback.__name__ for c in app.registered_commands if c.callback is not None}
    if wanted in COMMAND_MODULES:
        importlib.import_module(COMMAND_MODULES[wanted])
    elif wanted not in own:
        for module in dict.fromkeys(COMMAND_MODULES.values()):
            importlib.import_module(module)
    chosen = [c for c in app.registered_commands if c.callback is not None and c.callback.__name__ == wanted]
    app.registered_commands = chosen or app.registered_commands
    app(prog_name="hooks")


def _command_word(argv: list[str]) -> str:
    """The command named on the command line, past the root's ``--color WHEN``."""
    words = iter(argv)
    for word in words:
        if word == "--color":
            next(words, None)
        elif not word.startswith("--color="):
            return word
    return ""

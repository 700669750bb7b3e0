"""``hooks verify``: a thin typer command over ``hostreport``, registered on ``app`` when named
(``app.COMMAND_MODULES``), as the other commands' modules are."""

from typing import Optional

import typer

from hookweave.core.cli import common, console
from hookweave.core.cli.app import HostOpt, JsonOpt, ProjectOpt, app
from hookweave.core.cli.common import handled
from hookweave.core.cli.group import complete_scopes
from hookweave.core.files import paths
from hookweave.core.reading import projects


@app.command()
@handled
def verify(
    *,
    host: Optional[list[str]] = HostOpt,
    scope: Optional[str] = typer.Option(None, "--scope", "-s", help="Only this scope (default: all).",
                                                 autocompletion=complete_scopes),
    project: Optional[str] = ProjectOpt,
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print the problems and the last line only."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Fold nothing: every note, and every file's "
                                          "line, one by one."),
    repo: bool = typer.Option(False, "--repo", help="Judge only what the repository holds (for CI and pre-commit): "
                                       "nothing outside it is read, and this machine's gates (trust, switches, user "
                                       "settings) are warnings."),
    as_json: bool = JsonOpt,
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
        common.notes(notes)
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

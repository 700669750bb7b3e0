"""The team's commands: ``add``, ``remove``, ``sync`` (and ``sync --check``), ``autoupdate``.

Thin: each parses its options, calls ``usecases.sync`` or ``usecases.teamfile``, and prints what
changed; the use cases do the work and raise ``HooksError`` for the one-line errors.
"""

from typing import Optional

import typer

from hookweave.core.cli import common, console
from hookweave.core.cli.app import DryRunOpt, HostOpt, JsonOpt, app
from hookweave.core.cli.common import handled
from hookweave.core.cli.group import complete_scopes

ForceOpt = typer.Option(False, "--force", help="Take new content after reading the diff: restore a "
                        "vendored copy edited by hand, follow a tag that moved, replace edited entries.")
YesOpt = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation.")


@app.command()
@handled
def sync(
    *,
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 with the differences when the agents' "
                                        "files, vendored bundles or records are not what .hookweave.toml yields (CI)."),
    force: bool = ForceOpt,
    dry_run: bool = DryRunOpt,
    yes: bool = YesOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Make this repository's agent files exactly what .hookweave.toml says (run from any folder in it)."""
    from hookweave.core.files import paths
    from hookweave.core.usecases import sync as syncing

    root = syncing.root_or_fail(paths.cwd())
    registry = common.registry()
    if check:
        done = syncing.sync(root, registry, check=True)
        _report(done, as_json, dry_run=True, check=True)
        if done.problems:
            raise typer.Exit(1)
        return
    from hookweave.core.cli import prompts

    if not (yes or dry_run or as_json) and prompts.interactive():
        preview = syncing.sync(root, registry, dry_run=True, force=force)
        if not _confirmed(preview):
            return
    done = syncing.sync(root, registry, dry_run=dry_run, force=force)
    _report(done, as_json, dry_run=dry_run)


@app.command()
@handled
def add(
    source: str = typer.Argument(..., help="A bundle folder in this repository, a template name, or a git URL "
                                          "(https://, ssh://, git@host:path, file://)."),
    *,
    rev: Optional[str] = typer.Option(None, "--rev", help="Git: the tag, branch or commit to pin (default: the "
                                               "newest tag, else the default branch)."),
    host: Optional[list[str]] = HostOpt,
    scope: Optional[str] = typer.Option(None, "--scope", "-s", help="project (default), local or user.",
                                                 autocompletion=complete_scopes),
    dry_run: bool = DryRunOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Add a bundle to .hookweave.toml (pinned and vendored when remote), then sync."""
    from hookweave.core.files import paths
    from hookweave.core.usecases import teamfile

    done, name = teamfile.add(paths.cwd(), common.registry(), source, rev=rev, hosts=host, scope=scope, dry_run=dry_run)
    _report(done, as_json, dry_run=dry_run)


@app.command()
@handled
def remove(
    name: str = typer.Argument(..., help="The bundle's name in .hookweave.toml."),
    *,
    dry_run: bool = DryRunOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Take a bundle out of .hookweave.toml, then sync: its hooks, vendored files and records go."""
    from hookweave.core.files import paths
    from hookweave.core.usecases import teamfile

    _report(teamfile.remove(paths.cwd(), common.registry(), name, dry_run=dry_run), as_json, dry_run=dry_run)


@app.command()
@handled
def autoupdate(
    name: Optional[str] = typer.Argument(None, help="One bundle (default: every git bundle)."),
    *,
    rev: Optional[str] = typer.Option(None, "--rev", help="Move to this tag, branch or commit instead of the "
                                               "newest tag."),
    dry_run: bool = DryRunOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Move remote bundles to their newest tag: print the diff of their files, update the pins, sync."""
    from hookweave.core.files import paths
    from hookweave.core.cli.report import _diff_style as diff_style
    from hookweave.core.usecases import teamfile

    done, moved = teamfile.autoupdate(paths.cwd(), common.registry(), name, rev=rev, dry_run=dry_run)
    if not as_json:
        for bundle, label, diff in moved:
            console.out(f"{bundle}: {label}", "head")
            for line in diff.splitlines():
                console.out(line, diff_style(line))
        if not moved:
            console.out("every bundle is at its newest pin")
    if done is not None:
        _report(done, as_json, dry_run=dry_run)
    elif as_json:
        console.json_out({"changed": False, "moved": []})


def _confirmed(preview) -> bool:
    from hookweave.core.cli import interactive

    if not preview.changed:
        return True  # nothing to ask about: the run says so
    _report(preview, False, dry_run=True, footer=False)
    from hookweave.core.cli import prompts

    if prompts.confirm("Write these changes?"):
        return True
    interactive.nothing_written()
    return False


def _report(done, as_json: bool, *, dry_run: bool, check: bool = False, footer: bool = True) -> None:
    from hookweave.core.cli import synctext

    synctext.render(done, as_json=as_json, dry_run=dry_run, check=check, footer=footer)

"""What the commands share: errors turned into exit codes, the registry with its warnings, the
hosts chosen by flag or asked, and how plans are shown."""

from __future__ import annotations

import functools
import os
from typing import Callable

import typer

from hookweave.core.cli import console
from hookweave.core.errors import BadInput, HooksError


def handled(func: Callable) -> Callable:
    """Turn a ``HooksError`` into one red line and its exit code (and a JSON error under --json)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from hookweave.core.files import fileio

        try:
            with fileio.one_read_per_file():  # one read and parse per file per command (fileio says when it reads again)
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


def registry():
    """The hosts of this command; a plugin that could not be loaded or registered is one line on
    stderr (so ``--json`` output stays one document) and every other host works."""
    from hookweave.core.contract.registry import registry as host_registry

    hosts = host_registry()
    for warning in hosts.warnings:
        console.err(f"warning: {warning}")
    hosts.warn = lambda warning: console.err(f"warning: {warning}")  # a plugin skipped once its host is used
    return hosts


def choose_hosts(registry, hosts: list[str] | None, scope: str | None, command: str, bundle: str | None = None,
                 *, as_json: bool = False, project: str | None = None):
    """Hosts and scope from the flags, or asked on a terminal (``interactive``); returns (hosts, scope, asked).
    ``--json`` never asks: a script reads its output (issue 25)."""
    if hosts:  # the flags decide: the interactive flow's module is not loaded
        from hookweave.core.usecases import selection

        return selection.resolve(registry, hosts, project), scope, False  # None: each host's default
    if as_json:
        raise BadInput(f"{command}: --json never asks; pass --host (e.g. --host claude, or --host all)")
    from hookweave.core.cli import interactive

    return interactive.choose_hosts(registry, hosts, scope, command, bundle)


def notes(lines) -> None:
    """The command's notes on stderr (hosts --host all left out: no project file, or nothing applies there)."""
    for line in lines:
        console.err(f"note: {line}")


def patch_needs_dry_run(patch: bool, dry_run: bool) -> None:
    if patch and not dry_run:
        raise BadInput("--patch prints the JSON Patch of a dry run and nothing else: add --dry-run (--json always carries it)")


def show(command: str, plans, dry_run: bool, as_json: bool, patch: bool = False, notes=()) -> None:
    """``notes``: the command's own (the project, the hosts left out), said on stderr; ``--json`` has them too."""
    from hookweave.core.cli import report

    if as_json:
        console.json_out(report.plans_json(command, plans, dry_run=dry_run, notes=notes))
    else:
        report.print_plans(plans, dry_run=dry_run, patch=patch)

"""The ``hooks`` command group: usage errors under ``--json`` are JSON too (issue 13 case 8); the
completion callbacks, which import their module only when a shell asks."""

import sys
from typing import Callable

import typer
import typer.core

from hookweave.core.cli import console


class JsonErrorsGroup(typer.core.TyperGroup):
    """Usage errors (a missing argument, an unknown option) under ``--json`` are one JSON document
    on stdout, ``{"error": ..., "exit_code": 2}``, like every other error there."""

    # ``hooks --help`` in the order a user needs the commands: a team's repository first (add,
    # sync, remove, autoupdate), then one machine's (install ... status), then the tools around.
    HELP_ORDER = ("init", "add", "sync", "remove", "autoupdate", "install", "uninstall", "verify", "status",
                  "check", "adopt", "templates", "hosts", "doctor", "completion")

    def list_commands(self, ctx):
        names = super().list_commands(ctx)
        rank = {name: i for i, name in enumerate(self.HELP_ORDER)}
        return sorted(names, key=lambda name: (rank.get(name, len(rank)), names.index(name)))

    def _main_shell_completion(self, ctx_args, prog_name, complete_var=None):
        # add_completion=False spares every run typer's completion set-up; a shell asking for
        # completions (it sets _HOOKS_COMPLETE) gets it here, and only then.
        import os

        if os.environ.get(complete_var or f"_{prog_name}_COMPLETE".replace("-", "_").upper()):
            from typer._completion_classes import completion_init

            completion_init()
        return super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        argv = list(sys.argv[1:] if args is None else args)
        if "--json" not in argv or not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            from typer._click import exceptions as click  # typer 0.2x vendors click
        except ImportError:  # pragma: no cover - a typer on the real click
            from click import exceptions as click

        try:
            code = super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as exc:
            message = f"{exc.ctx.command_path if exc.ctx else 'hooks'}: {exc.format_message().rstrip('.')}"
            console.json_out({"error": message, "exit_code": exc.exit_code})
            console.err(f"{message}; see {exc.ctx.command_path if exc.ctx else 'hooks'} --help")
            sys.exit(exc.exit_code)
        except (getattr(click, "Abort", typer.Abort), typer.Abort):  # typer 0.28 vendors click without Abort
            console.json_out({"error": "aborted", "exit_code": 1})
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def complete_hosts(incomplete: str) -> list[str]:
    from hookweave.core.cli.completion import host_names

    return host_names(incomplete)


def complete_scopes(incomplete: str) -> list[str]:
    from hookweave.core.cli.completion import scope_names

    return scope_names(incomplete)


def complete_bundles(incomplete: str) -> list[str]:
    from hookweave.core.cli.completion import bundle_names

    return bundle_names(incomplete)


def completion_option(install: bool) -> Callable[[bool], None]:
    """The root's --install-completion / --show-completion (typer's own, added without its start-up cost)."""
    def show(value: bool) -> None:
        if value:
            from hookweave.core.cli import completion

            if install:
                shell, path = completion.install_script(None)
                console.out(f"{shell} completion installed in {path}; open a new shell to use it")
            else:
                console.out(completion.script(None))
            raise typer.Exit()

    return show

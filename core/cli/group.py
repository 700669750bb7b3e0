"""The ``hooks`` command group: a usage error is one line (``usage.usage_line``), under ``--json``
a JSON document too (issue 13 case 8); the command list unshortened; the completion callbacks,
which import their module only when a shell asks."""

import sys
from typing import Callable

import typer
import typer.core

from hookweave.core.cli import console, usage


class JsonErrorsGroup(typer.core.TyperGroup):
    """Usage errors (a missing argument, an unknown option) are one line on stderr, exit 2; under
    ``--json`` also one JSON document on stdout, ``{"error": ..., "exit_code": 2}``, like every
    other error there."""

    # ``hooks --help`` in the order a user needs the commands: a team's repository first (add,
    # sync, remove, autoupdate), then one machine's (install ... status), then the tools around.
    HELP_ORDER = ("init", "add", "sync", "remove", "autoupdate", "install", "uninstall", "verify", "status",
                  "check", "adopt", "templates", "hosts", "doctor", "completion", "help")

    # Each command in ``hooks --help``, short enough for one line at 80 columns (click would cut the
    # docstring's first sentence to fit, with "..."); a command not here has its first sentence, wrapped.
    SUMMARIES = {
        "init": "Start a bundle: hookweave.toml and a hook script, or a template",
        "add": "Add a bundle to .hookweave.toml, then sync",
        "sync": "Make this repository's agent files what .hookweave.toml says",
        "remove": "Take a bundle out of .hookweave.toml, then sync",
        "autoupdate": "Move remote bundles to their newest tag, then sync",
        "install": "Install a bundle's hooks into each agent's settings",
        "uninstall": "Remove exactly what a bundle installed, nothing else",
        "verify": "Check installed hooks: present, unmodified, in order, in effect",
        "status": "List the bundles installed per agent and scope",
        "check": "Run each hook with the agent's own payloads: what will it do?",
        "adopt": "Take hand-written hooks into a bundle, or give them back",
        "templates": "List the shipped templates",
        "hosts": "List the registered agents and where each came from",
        "doctor": "Check what this machine and folder give hooks, per agent",
        "completion": "Print or install shell completion",
        "help": "Show the help of hooks or of one command",
    }

    def format_commands(self, ctx, formatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, self.SUMMARIES.get(name) or command.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def invoke(self, ctx):
        # ``main`` runs click outside its standalone mode, where a command's return value would
        # become the exit code; as in standalone mode, only typer.Exit sets it.
        super().invoke(ctx)

    def parse_args(self, ctx, args):
        with usage.command_named(ctx):
            return super().parse_args(ctx, args)

    def resolve_command(self, ctx, args):
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            raise usage.unknown_command(args[0], self.list_commands(ctx), ctx)
        return super().resolve_command(ctx, args)

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
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        as_json = "--json" in argv
        try:
            code = super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except usage.click.UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # bare ``hooks``: the help
                exc.show()
                sys.exit(exc.exit_code)
            if as_json:
                console.json_out({"error": usage.usage_line(exc, with_help=False), "exit_code": exc.exit_code})
            console.err(usage.usage_line(exc))
            sys.exit(exc.exit_code)
        except usage.click.ClickException as exc:  # not a usage error (none today): as click shows it
            exc.show()
            sys.exit(exc.exit_code)
        except (getattr(usage.click, "Abort", typer.Abort), typer.Abort):  # typer 0.28 vendors click without Abort
            if as_json:
                console.json_out({"error": "aborted", "exit_code": 1})
            else:
                console.err("Aborted!")
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

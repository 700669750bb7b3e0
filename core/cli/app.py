"""The ``hooks`` command group: the options its commands share, the root's own, and ``main``, which
loads the one command named (``COMMAND_MODULES``); each command is a thin typer function in its
module, over ``usecases``, and its errors become exit codes there (``common.handled``).

No ``from __future__ import annotations`` here: typer reads each command's annotations, and real
objects spare it evaluating every string at start-up (1 ms). Options are written as defaults
(``host: Optional[list[str]] = HostOpt``), typer's older spelling, not as ``Annotated`` aliases:
each alias cost 0.1 million instructions to make as its module loaded, and typer more to read
(2.5 million of a no-op install). typer copies a shared option for each command that takes it.
"""

from typing import Optional

import typer

from hookweave.core.cli import console
from hookweave.core.cli.common import handled  # noqa: F401 - the commands' modules take it from here
from hookweave.core.cli.usage import HooksTyper
from hookweave.core.cli.group import (
    JsonErrorsGroup,
    complete_hosts,
    complete_scopes,
    completion_option,
)

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
HostOpt = typer.Option(None, "--host", "-H", help=HOST_HELP, autocompletion=complete_hosts)
ProjectOpt = typer.Option(None, "--project", "-p", help="Project folder (default: the one each host uses when started here).")
JsonOpt = typer.Option(False, "--json", help="Print one JSON document on stdout.")
DryRunOpt = typer.Option(False, "--dry-run", "-n", help="Write nothing; print the diff (--patch: and the JSON Patch).")
PatchOpt = typer.Option(False, "--patch", help="With --dry-run, print each file's JSON Patch (RFC 6902) too.")


SCOPE_HELP = ("The scope to write: project (default; user for a host without a project file), user, or another the "
              "host has (hooks hosts lists them).")
ScopeOpt = typer.Option(None, "--scope", "-s", help=SCOPE_HELP, autocompletion=complete_scopes)


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
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True, help="Show the version."),
    color: Optional[str] = typer.Option(None, "--color", metavar="WHEN", callback=_colour, is_eager=True, help=COLOR_HELP),
    install_completion: bool = typer.Option(False, "--install-completion", callback=completion_option(True), is_eager=True,
                                            help="Install shell completion for your shell (see hooks completion)."),
    show_completion: bool = typer.Option(False, "--show-completion", callback=completion_option(False), is_eager=True,
                                         help="Print the completion script for your shell."),
) -> None:
    """hookweave: one manifest, every agent's hooks."""


# The commands, each in a module that registers it on ``app`` when imported: loaded only when
# named, or for help and did-you-mean, so each adds nothing to the other commands' start-up.
COMMAND_MODULES = {
    "install": "hookweave.core.cli.installing",
    "uninstall": "hookweave.core.cli.uninstalling",
    "verify": "hookweave.core.cli.verifying",
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

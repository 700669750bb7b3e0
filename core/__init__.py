"""hookweave's core, in layers that import downwards only (``lint-imports`` holds them in CI):

    cli        the ``hooks`` command: typer commands, console, prompts, report rendering
    usecases   install, uninstall, adopt: the write transaction over every file
    verify     what is installed against the record, as each agent will run it
    runtime    running hooks as the agents do (``hooks check``)
    plan       pure decisions: resolve, merge, order, env, chains, portable paths
    hosts      the built-in host plugins (``hookweave.hosts``), registered like third-party ones
    reading    a host's files read as the host reads them: every scope, its record, the project
    contract   the host contract: ``Host``, its shapes, the hookspecs, the registry
    model      data and validation: manifest, names, record, findings
    formats    text formats, pure: JSON/JSONC and TOML edits that change nothing else
    files      the only disk access: atomic swap, locks, owners, interrupts, paths
    errors     the one error base
    standalone what install writes into a user's project: standard library only

``verify`` and ``runtime`` do not know each other, nor do ``formats`` and ``files``.
The import paths plugin authors used before the layers (``hookweave.core.host`` and four more)
are gone; ``contract.pluginmanager.MOVED`` names their homes in the warning a plugin gets.
"""

import sys as _sys


def _stopped_quietly(signum, frame) -> None:
    """^C while ``hooks`` starts (its modules load; nothing is read yet): one line and exit 130, not
    Python's traceback. ``cli.entry`` gives ^C back to KeyboardInterrupt before the command runs."""
    import os

    os.write(2, b"hooks: stopped; nothing written\n")
    os._exit(130)


# The first code of hookweave a ``hooks`` run executes (only the interpreter's start-up, ``site``,
# and the console script's own two imports come before): from here a ^C is quiet (issue 36 item 5).
# Only when run as the command, and only over Python's own handler (a ^C ignored stays ignored).
if _sys.argv and _sys.argv[0].rpartition("/")[2] in ("hooks", "hookweave"):
    import _signal

    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        try:
            _signal.signal(_signal.SIGINT, _stopped_quietly)
        except ValueError:  # not the main thread: the command is not starting here
            pass

__version__ = "0.1.0"  # the one version: setuptools reads it for the metadata, hooks --version prints it

# Our own modules are found and loaded in one step from here on (about 7 million instructions of a
# 75-module command): ``quickimport`` says how, and when it leaves a module to Python's machinery.
from hookweave.core.files import quickimport as _quickimport  # noqa: E402 - after the ^C handler, the first thing done

_quickimport.install()

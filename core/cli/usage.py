"""The command line's manners, for every command at once: metavars that name what to pass
(``--host HOST``, ``[BUNDLE]``), a mistyped ``--scope`` refused with did-you-mean before the command
reads anything, and a usage error as one line in the tool's own style (issue 36 item 1)::

    hooks install: no such option --hots; did you mean --host? (hooks install --help)
"""

from __future__ import annotations

import contextlib

import typer
import typer.core

from hookweave.core.formats.lazypattern import LazyPattern

try:
    from typer._click import exceptions as click  # typer 0.2x vendors click
except ImportError:  # pragma: no cover - a typer on the real click
    from click import exceptions as click

# What a value means, where the parameter's own name does not say it (``--host`` is a HOST already).
METAVARS = {"project": "DIR", "out": "DIR", "hand_written": "COMMAND", "runs": "N", "budget_ms": "MS",
            "undo": "NAME", "from_": "TEMPLATE", "payload": "FILE"}

# click's names of its number types, as a user would say them ("'x' is not a valid int range").
NUMBER_TYPES = LazyPattern(r"\ba valid (int|integer|float)(?: range)?\b")

# The scopes of the built-in hosts: a value among them needs no host loaded to be known.
BUILT_IN_SCOPES = ("user", "project", "local", "managed", "system", "system-defaults")


class HooksCommand(typer.core.TyperCommand):
    """A ``hooks`` command: every parameter that takes a value shows a name for it, a required
    argument shows as ``SOURCE`` (not typer's ``{source}``), and a ``--scope`` no host has is a usage
    error while the command line is read, before the command opens a manifest or a settings file."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if param.name and param.metavar is None and not getattr(param, "is_flag", False):
                param.metavar = METAVARS.get(param.name, param.name.upper())
            if param.name == "scope" and param.callback is None:
                param.callback = known_scope

    def parse_args(self, ctx, args):
        with command_named(ctx):
            return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx) -> list[str]:
        return [piece[1:-1] if piece.startswith("{") and piece.endswith("}") else piece
                for piece in super().collect_usage_pieces(ctx)]


class HooksTyper(typer.Typer):
    """``typer.Typer`` whose commands are ``HooksCommand`` unless one asks for another class."""

    def command(self, name=None, *, cls=None, **kwargs):
        return super().command(name, cls=cls or HooksCommand, **kwargs)


@contextlib.contextmanager
def command_named(ctx):
    """A usage error the parser raised without its command (an option without its value) gets it."""
    try:
        yield
    except click.UsageError as exc:
        exc.ctx = exc.ctx or ctx
        raise


def known_scope(ctx, param, value: str | None) -> str | None:
    """``value`` when some registered host has that scope; else a usage error with the closest one."""
    if value is None or value in BUILT_IN_SCOPES:
        return value
    from hookweave.core.contract.registry import registry

    hosts = registry()
    known: set[str] = set(BUILT_IN_SCOPES)
    for name in hosts.names():
        try:
            cls = hosts.info(name).cls
        except Exception:  # noqa: BLE001 - a host that will not load offers no scope; the command says why
            continue
        known.update(cls.scopes, cls.verify_scopes)
    if value in known:
        return value
    import difflib

    close = difflib.get_close_matches(value, sorted(known), n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"scopes: {', '.join(sorted(known))}"
    raise click.BadParameter(f"no agent has a scope {value!r}; {hint}", ctx=ctx, param=param)


def usage_line(exc: click.UsageError, *, with_help: bool = True) -> str:
    """``exc`` as the tool's one line: ``<command path>: <what is wrong>[; did you mean ...] (<path> --help)``."""
    path = exc.ctx.command_path if exc.ctx else "hooks"
    if isinstance(exc, click.NoSuchOption):
        close = list(exc.possibilities or ())  # closest first
        what = f"no such option {exc.option_name}" + (f"; did you mean {close[0]}?" if close else "")
    elif isinstance(exc, click.BadOptionUsage) and exc.message.startswith("Option ") and " requires " in exc.message:
        what = f"option {exc.option_name} needs a value"
    elif isinstance(exc, click.MissingParameter) and exc.param is not None:  # before BadParameter: a kind of it
        what = f"missing {exc.param.param_type_name} {_param_name(exc.param)}"
    elif isinstance(exc, click.BadParameter) and exc.param is not None:
        message = NUMBER_TYPES.sub(lambda m: "a number" if m[1] == "float" else "a whole number", exc.message)
        what = f"invalid value for {_param_name(exc.param)}: {message.rstrip('.')}"
    else:
        what = exc.format_message().rstrip(".")
        what = what[:1].lower() + what[1:] if what[1:2].islower() else what
    return f"{path}: {what}" + (f" ({path} --help)" if with_help else "")


def _param_name(param) -> str:
    if param.param_type_name == "argument":
        return param.human_readable_name
    longs = [opt for opt in param.opts if opt.startswith("--")]
    return (longs or param.opts)[0]


def unknown_command(name: str, known: list[str], ctx) -> click.UsageError:
    """A command name no command has, with the closest one."""
    import difflib

    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return click.UsageError(f"no such command {name!r}{hint}", ctx=ctx)

"""``hooks check``: registered on the same typer app as the other commands (core/cli/app.py imports
this module), kept apart so cli.py stays small. The logic is in checking and checkreport."""

from pathlib import Path
from typing import Optional

import typer

from hookweave.core.cli import console
from hookweave.core.cli.app import JsonOpt, ProjectOpt, app, handled
from hookweave.core.cli.common import registry as _registry
from hookweave.core.cli.group import complete_hosts
from hookweave.core.errors import BadInput
from hookweave.core.files import paths


@app.command()
@handled
def check(
    bundle: Optional[str] = typer.Argument(None, help="Manifest path, bundle folder or template name (default ./hookweave.toml)."),
    *,
    host: Optional[list[str]] = typer.Option(None, "--host", "-H", autocompletion=complete_hosts,
        help="Host name or 'all'; repeat for several (default: the agents used here, all where none is)."),
    installed: bool = typer.Option(False, "--installed", help="Check the bundles installed here instead of a manifest."),
    scope: Optional[str] = typer.Option(None, "--scope", "-s", help="With --installed: only this scope."),
    payload: Optional[list[str]] = typer.Option(None, "--payload", metavar="JSON|FILE|-", help="Your own stdin payload instead of the shipped ones: inline JSON ('{\"hook_event_name\": \"PreToolUse\", ...}'), a JSON file, or - for stdin; the object names its hook_event_name; repeat for several."),
    hand_written: Optional[str] = typer.Option(None, "--hand-written", help="Check this command of yours instead (it runs for real: it may have side effects)."),
    event: Optional[str] = typer.Option(None, "--event", help="With --hand-written: its event (neutral or host name)."),
    matcher: Optional[str] = typer.Option(None, "--matcher", help="With --hand-written: its host-native matcher."),
    runs: int = typer.Option(5, "--runs", min=1, help="Timed runs per hook and payload (the first is the judged one)."),
    budget_ms: Optional[float] = typer.Option(None, "--budget-ms", min=0.001, help="Warn of a hook slower than this, on every event (default: per event, 100 on tool calls)."),
    project: Optional[str] = ProjectOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Run each hook with the host's own payloads and say what the agent will do (exit 1 on a problem)."""
    from hookweave.core.cli import checkreport
    from hookweave.core.files import fileio
    from hookweave.core.runtime import checking, checktargets, payloads
    from hookweave.core.standalone.verdicts import HOSTS, JUDGED

    from hookweave.core.usecases import selection

    registry = _registry()
    hosts = selection.resolve(registry, host or ["all"], project)
    chosen = {"from": "--host", "line": None}
    if not host:
        hosts, chosen = _used_here(hosts, project)
    unjudged = [h.name for h in hosts if h.answer_protocol() not in JUDGED and h.protocol_data is None]
    if unjudged and host and not selection.broad(host):
        raise BadInput(f"check: {', '.join(unjudged)}: {UNJUDGED}; check on {', '.join(HOSTS)}")
    hosts = [h for h in hosts if h.name not in unjudged]
    for h in hosts:
        if h.protocol_data is not None:  # a plugin's protocol as data: judged by its own name from here on
            from hookweave.core.standalone import protocol

            protocol.learn(h.name, {**h.protocol_data, "agent_tools": dict(h.tools)})  # payloads name its tools
    folder = paths.project_dir(project)
    if not folder.is_dir():
        raise BadInput(f"--project {paths.printable(str(folder))}: no such folder; pass the project folder")
    if (payload or []).count("-") > 1:
        raise BadInput("--payload -: stdin can be read once; pass the other payloads as files or inline JSON")
    own = [_own(payloads, fileio, p, n, len(payload)) for n, p in enumerate(payload or [], 1)]
    targets, skipped = [], []
    if hand_written is not None:
        if not event:
            raise BadInput("--hand-written needs --event, e.g. --event pre_tool_use")
        targets = [checktargets.hand_written(h, hand_written, event, matcher) for h in hosts]
    elif installed:
        found = {h.name: checktargets.installed(h, folder, scope) for h in hosts}
        targets = [t for name in found for t in found[name]]
        empty = [name for name, some in found.items() if not some]
        if empty:
            skipped.append("nothing installed here for " + ", ".join(empty))
    else:
        from hookweave.core.model import loading as bundles

        loaded = bundles.load_bundle(bundle, registry.names())
        for h in hosts:
            found, notes = checktargets.from_bundle(h, loaded)
            targets += found
            skipped += [f"{h.name}: {n}" for n in notes]
    skipped += [f"{name}: not checked: {UNJUDGED}" for name in unjudged]
    if chosen["line"] and not as_json:
        console.out(chosen["line"])
    try:
        done = checking.check(targets, folder, own, runs, budget_ms, console.progress)
    finally:
        console.progress(None)
    if as_json:
        chosen = {**chosen, "checked": [h.name for h in hosts]}
        console.json_out({"hosts": {k: chosen[k] for k in ("checked", "from")}, **checkreport.as_json(done, skipped)})
    else:
        checkreport.show(done, skipped, hand_written is not None, runs)
    if checking.problems(done):
        raise typer.Exit(1)


# Why a host is not checked: only a plugin host can lack a judge (every built-in host has one).
UNJUDGED = ("a plugin host: what it does with a hook's exit code and output is not in hookweave's protocol "
            "table (core/standalone/protocol.py), so check cannot say what the agent will do")


def _used_here(hosts: list, project: str | None) -> tuple[list, dict]:
    """Without ``--host``: the agents this project or machine uses (a settings file of theirs in the
    project, a program on PATH, a user folder: detection.py), or every one where none is found (a
    bundle checked in CI). All 14 took 148 lines and 17 s (issue 36) to answer about one agent."""
    from hookweave.core.reading.detection import detected
    from hookweave.core.reading import projects

    folder = projects.folders(hosts, project)
    used = [h for h in hosts if detected(h, folder[h.name])]
    if used:
        return used, {"from": "used here", "line": f"checking the agents used here: {', '.join(h.title for h in used)} "
                      f"(--host all checks all {len(hosts)})"}  # as --host detected would
    return hosts, {"from": "all: none used here", "line": f"checking all {len(hosts)} agents: none is used here (no "
                   "settings file of one in the project, no program on PATH, no user folder); --host NAME checks one"}


def _own(payloads, fileio, value: str, n: int, count: int):
    """One ``--payload``: ``-`` reads stdin, a value that starts with ``{`` is the JSON itself (no file
    name starts so in practice; ``./{x}`` still names one), anything else a file."""
    label = f" {n}" if count > 1 else ""
    if value == "-":
        import sys

        return payloads.load("--payload - (stdin)", sys.stdin.read(), f"your payload from stdin{label}")
    if value.lstrip().startswith("{"):
        return payloads.load("--payload (inline JSON)", value, f"your inline payload{label}")
    text = fileio.read_text(Path(value))
    if text is None:
        raise BadInput(f"--payload {paths.printable(value)}: no such file; pass a JSON file the host would send, "
                       "the JSON itself ('{...}'), or - to read it from stdin")
    return payloads.load(Path(value), text)

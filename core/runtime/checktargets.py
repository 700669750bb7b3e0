"""What ``hooks check`` runs: a bundle's hooks before install, the bundles installed in a scope,
or an operator's own command. Each becomes a ``Target``: the command exactly as one host would
run it, with its event, matcher, timeout and env.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from hookweave.core.errors import BadInput

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host
    from hookweave.core.model.bundle import Bundle
    from hookweave.core.model.findings import Finding


class Target(NamedTuple):
    label: str  # bundle/id, or "hand-written"
    host: str
    title: str  # the host's human name
    event: str  # native event
    matcher: str | None  # native matcher, None or "" for every tool
    command: str  # as the host runs it
    timeout: float | None  # seconds, None for the host's default
    env: dict  # variables the host adds for this hook (settings env, per-hook env)
    bundle_dir: Path | None  # where a bundle's scripts are, for the static checks
    order: str = "unknown"  # how the host runs the event's hooks: parallel, file or unknown (latency.py)
    neutral: str | None = None  # the neutral event, for its latency budget
    members: tuple[str, ...] = ()  # a chain's members, in the order it runs them
    project_variable: str | None = None  # the host's variable holding the project folder (its description's)
    agent: str = ""  # the host's own name, where ``host`` (the answer protocol) is another's: Qoder answers as Claude
    scope: str = ""  # with --installed: the scope it is installed in
    first: bool = False  # the host runs it before its event's other hooks, and those after it ends (Claude's managed)

    @property
    def shown(self) -> str:
        """The agent a result is reported and grouped under."""
        return self.agent or self.host


def _parts(host: Host, entry: dict) -> tuple[dict, str | None]:
    """The handler of a settings entry and the matcher that applies to it (group or handler)."""
    nested = isinstance(entry.get("hooks"), list)
    handler = host.handler_of(entry) or (entry["hooks"][0] if nested and entry["hooks"] else entry)
    matcher = entry.get("matcher") if nested else handler.get("matcher")
    return handler, matcher if isinstance(matcher, str) else None


def _command(host: Host, handler: dict) -> str:
    """The command the host runs: the first of its command keys the entry fills (Copilot: ``bash``)."""
    keys = getattr(host, "command_keys", ("command",))
    return next((handler[k] for k in keys if isinstance(handler.get(k), str)), str(handler.get("command", "")))


def _seconds(host: Host, handler: dict) -> float | None:
    key = "timeoutSec" if host.name == "copilot" else host.timeout_key
    value = handler.get(key, handler.get("timeout"))
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return None
    if host.timeout_unit == "ms" or (host.name == "qwen" and value >= 1000):  # milliseconds (Qwen: from 1000 on)
        return value / 1000
    return float(value)


def _order(host: Host, entry: dict) -> str:
    """How ``host`` runs the event of ``entry`` with its neighbours: "sequential-flag" resolved by the
    entry's own group (Gemini runs them all one after another when a group says ``sequential``)."""
    if host.order == "sequential-flag":
        return "file" if isinstance(entry, dict) and entry.get("sequential") is True else "parallel"
    described = getattr(getattr(host, "description", None), "order", None)
    return "unknown" if described == "unknown" else host.order  # Host.order says "file" there, for verify


def _neutral(host: Host, native: str) -> str | None:
    return next((neutral for neutral, name in host.events.items() if name == native), None)


def _members(command: str) -> tuple[str, ...]:
    from hookweave.core.plan import chain

    read = chain.members_of(command) if "hookweave-chain" in command else None
    return tuple(m.id for m in read[2]) if read else ()


def from_bundle(host: Host, bundle: Bundle) -> tuple[list[Target], list[str]]:
    """Every hook of ``bundle`` as ``host`` would run it once installed, and what was skipped."""
    from hookweave.core.plan import resolve

    regs, notes = resolve.registrations(host, bundle, runner=_chain_runner(host))
    env = {v.name: v.value for v in resolve.env_vars(host, bundle)[0]}
    out = []
    for reg in regs:
        handler, matcher = _parts(host, reg.entry)
        extra = {**env, **(handler.get("env") if isinstance(handler.get("env"), dict) else {})}
        out.append(Target(f"{bundle.name}/{reg.id}", host.answer_protocol(), host.title, reg.event, matcher,
                          _command(host, handler), _seconds(host, handler),
                          {k: str(v) for k, v in extra.items()}, bundle.directory, _order(host, reg.entry),
                          _neutral(host, reg.event), tuple(m for m, _ in reg.members), _variable(host), host.name))
    return out, [_skipped(bundle, n) for n in notes]


def _variable(host: Host) -> str | None:
    """The variable a described host sets to the project folder for its hooks (``NAME`` of ``${NAME}``)."""
    described = getattr(host, "description", None)
    name = getattr(described, "project_variable", None)
    return name.strip("${}") if isinstance(name, str) else None


def _chain_runner(host: Host) -> str:
    """The chain runner as a shell word, for a bundle checked before install: install writes it
    beside the settings file, so check writes the same two files (the Python runner and the sh
    fast path beside it) into a folder of its own, named after their content, once."""
    import os
    import tempfile

    from hookweave.core.formats.patch import sha256_text
    from hookweave.core.plan import chain, chainsh

    texts = {chain.RUNNER_SUFFIX: chain.runner_text(host), chainsh.SUFFIX: chainsh.runner_text(host.answer_protocol())}
    folder = Path(tempfile.gettempdir()) / f"hookweave-check-{os.getuid() if hasattr(os, 'getuid') else 0}" / \
        sha256_text("".join(texts.values())).removeprefix("sha256:")[:16]
    for suffix, text in texts.items():
        path = folder / ("bundle" + suffix)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            folder.mkdir(parents=True, exist_ok=True)
            part = path.with_name(f"{path.name}.{os.getpid()}")
            part.write_text(text, encoding="utf-8")
            os.replace(part, path)  # whole or not at all: two checks at once may write it together
    return chain.runner_word_plain(folder / ("bundle" + chain.RUNNER_SUFFIX))


def _skipped(bundle: Bundle, note: Finding) -> str:
    """What ``hooks check`` leaves out (it prints ``skipped:`` before it), naming the hook."""
    text = note.message.removeprefix("skipped: ")
    return f"{bundle.name}/{note.hook}: {text}" if note.hook else text


def installed(host: Host, project: Path, scope: str | None) -> list[Target]:
    """The hooks hookweave installed for ``host`` (one scope, or every scope it reads)."""
    from hookweave.core.reading import scopes

    out = []
    for name in [scope] if scope else list(host.verify_scopes):
        if name not in host.verify_scopes:
            raise BadInput(f"--scope {name}: {host.title} has scopes {', '.join(host.verify_scopes)}")
        doc, _, _ = scopes.read_scope(host, name, project)
        if not isinstance(doc, dict):
            continue
        env = doc.get(host.env_key) if host.env_key and isinstance(doc.get(host.env_key), dict) else {}
        events = doc.get(host.hooks_key)
        for event, entries in (events.items() if isinstance(events, dict) else ()):
            for entry in entries if isinstance(entries, list) else ():
                owner = host.owner(entry) if isinstance(entry, dict) else None
                if owner is None:
                    continue
                handler, matcher = _parts(host, entry)
                extra = {**env, **(handler.get("env") if isinstance(handler.get("env"), dict) else {})}
                command = _command(host, handler)
                out.append(Target(f"{owner[0]}/{owner[1]} ({name})", host.answer_protocol(), host.title, event, matcher,
                                  command, _seconds(host, handler), {k: str(v) for k, v in extra.items()}, None,
                                  _order(host, entry), _neutral(host, event), _members(command), _variable(host),
                                  host.name, name, name == "managed" and getattr(host, "managed_first", False)))
    return out


def hand_written(host: Host, command: str, event: str, matcher: str | None) -> Target:
    """An operator's own command, named on the command line (``--hand-written``)."""
    native = host.events.get(event) if event in host.events else (event if event in host.native_events else None)
    if native is None:
        known = sorted(e for e in host.events if host.events[e]) + sorted(host.native_events)
        raise BadInput(f"--event {event}: {host.title} has no such event; use one of {', '.join(known)}")
    return Target("hand-written", host.answer_protocol(), host.title, native, host.native_matcher(matcher) if matcher else None,
                  command, None, {}, None, _order(host, {}), _neutral(host, native), (), _variable(host), host.name)

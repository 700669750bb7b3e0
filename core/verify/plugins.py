"""The hooks an agent runs from its own plugins and extensions, judged beside ours: each plugin
listed with its events and file, a hook of ours that a plugin registers too (the agent runs both),
and the order across them. hookweave reads these hooks and never writes them.

Claude Code 2.1.332, measured (tests/e2e/test_plugins_real.py): a plugin's hook whose command is
the same as a settings hook's runs as well (its key holds the plugin's folder, so Claude's
de-duplication never joins the two), and an event's plugin and settings hooks all start at once,
in no fixed order, whatever ``prependPlugins`` and ``appendPlugins`` say in user or managed settings
(by the binary's messages those place the plugins' hooks modules); a plugin that managed settings
enable does not run first as managed hooks do: those end before any plugin hook starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from hookweave.core.files import paths
from hookweave.core.model.findings import Finding
from hookweave.core.model.render import without_marker
from hookweave.core.verify import duplicates

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host
    from hookweave.core.model.agentplugins import PluginHook
    from hookweave.core.model.record import Record


def findings(host: Host, hooks: list[PluginHook], docs: Mapping[str, Any], records: Mapping[str, Record],
             project: Path) -> list[Finding]:
    """What verify says of ``hooks`` (``Host.plugin_hooks``) next to the bundles of ``records``."""
    if not hooks:
        return []
    out = [_listing(host, name, [h for h in hooks if h.name == name]) for name in dict.fromkeys(h.name for h in hooks)]
    ours = _ours(host, docs, records, project)
    out += _twice(host, hooks, ours)
    out += _order(host, hooks, ours)
    return out


def _listing(host: Host, name: str, hooks: list[PluginHook]) -> Finding:
    events = ", ".join(dict.fromkeys(h.event + (f" ({h.matcher})" if h.matcher not in (None, "", "*") else "")
                                     for h in hooks))
    files = " and ".join(dict.fromkeys(paths.display(Path(h.file)) for h in hooks))
    return Finding("note", paths.printable(f"{hooks[0].source} {name} adds hooks {host.title} runs too: {events}, "
                                           f"from {files}; hookweave reads them and never changes them"), machine=True)


def _ours(host: Host, docs: Mapping[str, Any], records: Mapping[str, Record], project: Path) -> dict:
    """``{(bundle, event, hook id): [(scope, command without our marker, tools), ...]}``: every
    copy of our hooks the host runs (the tools its matcher names; ``None``: any)."""
    tools = _tools(host)
    recorded = {b for rec in records.values() for b in rec.bundles}
    out: dict = {}
    for scope, doc in host.running_docs(docs, project).items():
        hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
        for event, entries in hooks.items() if isinstance(hooks, dict) else ():
            for entry in entries if isinstance(entries, list) else ():
                owner = host.owner(entry)
                handler = host.handler_of(entry) if owner and owner[0] in recorded else None
                keys = getattr(host, "command_keys", ("command",))  # Copilot's command is under "bash"
                command = next((handler[k] for k in keys if isinstance(handler.get(k), str)), None) if handler else None
                if isinstance(command, str):
                    out.setdefault((owner[0], event, owner[1]), []).append(
                        (scope, without_marker(command, host.runs), duplicates.named_tools(entry.get("matcher"), tools)))
    return out


def _tools(host: Host) -> frozenset[str]:
    return frozenset(n for native in host.tools.values() if native for n in native.split("|"))


def _twice(host: Host, hooks: list[PluginHook], ours: dict) -> list[Finding]:
    """A hook of ours that a plugin registers too (its command, without our marker, under the same
    event, for a tool both matchers take): the agent runs both copies."""
    tools = _tools(host)
    out = []
    for (bundle, event, hook_id), copies in ours.items():
        twin = next((h for h in hooks if h.event == event and any(
            command == h.command and _meet(named, duplicates.named_tools(h.matcher, tools))
            for _, command, named in copies)), None)
        if twin is not None:
            out.append(Finding("problem", paths.printable(
                f"fires twice per {event}: {twin.source} {twin.name} runs the same command from "
                f"{paths.display(Path(twin.file))}, and {host.title} runs {_a(twin.source)} hook and a settings "
                f"hook both, even word for word the same; {_turn_off(host, twin)} or uninstall the bundle"),
                bundle, hook_id, machine=True))
    return out


def _a(source: str) -> str:
    return f"{'an' if source[0] in 'aeiou' else 'a'} {source}'s"


def _turn_off(host: Host, hook: PluginHook) -> str:
    """How the operator turns the plugin off (measured on both agents)."""
    if host.name == "claude":
        return f'turn the plugin off ("{hook.name}": false under enabledPlugins)'
    command = "extensions" if hook.source == "extension" else "plugin"  # Gemini and Qwen; Copilot
    return f"turn the {hook.source} off (`{host.name} {command} disable {hook.name}`)"


def _meet(a: frozenset[str] | None, b: frozenset[str] | None) -> bool:
    """Whether two matchers' tools can meet in one call (``None``: any tool)."""
    return a is None or b is None or bool(a & b)


def _order(host: Host, hooks: list[PluginHook], ours: dict) -> list[Finding]:
    """Per event that holds hooks of ours and of plugins: the order across them."""
    out = []
    for event in dict.fromkeys(event for _, event, _ in ours):
        names = list(dict.fromkeys(h.name for h in hooks if h.event == event))
        if not names:
            continue
        scopes = {scope for (_, e, _), copies in ours.items() if e == event for scope, *_ in copies}
        if host.order == "parallel" and "managed" in scopes:  # measured: managed hooks end before others start
            said = (f"{host.title} runs hookweave's managed hooks first, and starts the hooks of {', '.join(names)} "
                    "only when the last managed hook has ended, at once with the user, project and local settings' "
                    "hooks")
        elif host.order == "parallel":
            said = (f"{host.title} starts the hooks of {', '.join(names)} at once with the user, project and local "
                    "settings' hooks, hookweave's included, in no fixed order (prependPlugins and appendPlugins do "
                    "not change that)")
        else:
            said = f"{host.title} also runs the hooks of {', '.join(names)}; their order against hookweave's is unmeasured"
        out.append(Finding("note", f"{event}: {said}", machine=True))
    return out

"""The same bundle at several scopes: how often each of its hooks fires per event, as the host runs it.

Judged on what the host really loads and runs (``Host.running_docs``: Codex skips an untrusted
project layer and untrusted or disabled hooks) with the host's own de-duplication key
(``Host.run_key``: Claude and Gemini run copies with equal keys once, Codex runs every copy). Copies
whose matchers name disjoint sets of the host's tools never fire for the same tool call.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hookweave.core.contract.host import Host
from hookweave.core.model.findings import Finding
from hookweave.core.model.record import Record

# (scope, run key, the tools its matcher names (None: any), timeout)
Copy = tuple[str, Any, "frozenset[str] | None", Any]


def cross_scope(host: Host, docs: dict[str, Any], records: dict[str, Record], project: Path) -> list[Finding]:
    scopes_by_bundle: dict[str, list[str]] = {}
    for scope in host.verify_scopes:
        for name in records[scope].bundles if scope in records else ():
            scopes_by_bundle.setdefault(name, []).append(scope)
    running = host.running_docs(docs, project)
    out: list[Finding] = []
    for name, scopes in scopes_by_bundle.items():
        if len(scopes) < 2:
            continue
        where = " and ".join(scopes)
        copies = running_copies(host, running, name)
        twice = {hook: found for hook, found in copies.items() if fires(found) > 1}
        for (event, hook_id), found in sorted(twice.items()):
            n, from_scopes = fires(found), " and ".join(dict.fromkeys(scope for scope, _, _, _ in found))
            if host.dedup != "unknown":
                out.append(Finding("problem", f"installed at {where} scope; {host.title} runs the copies in "
                                   f"{from_scopes} each, so it fires {n} times per {event}: uninstall it from all "
                                   "but one scope", name, hook_id))
            else:
                out.append(Finding("warning", f"installed at {where} scope; {host.title}'s documentation does not say "
                                   f"whether it runs identical commands once, so it may fire {n} times per {event}: "
                                   "uninstall it from all but one scope", name, hook_id))
        if not twice:
            out.append(Finding("note", _once(host, where, scopes, copies), name))
    return out


def same_file(host: Host, event: str, entries: Any, owner: tuple[str, str]) -> str:
    """Whether the host runs copies of one hook within one event of one file once or each time."""
    tools = _native_tools(host)
    found = [("", host.run_key(event, e), named_tools(e.get("matcher"), tools), None)
             for e in entries if host.owner(e) == owner] if isinstance(entries, list) else []
    if fires(found) <= 1:
        return f"{host.title} runs it once, but hookweave neither updates nor removes the copies"
    trusted = " it trusts" if host.needs_trust else ""  # Codex: an operator's copy runs once trusted in /hooks
    return f"{host.title} {'may run' if host.dedup == 'unknown' else 'runs'} each copy{trusted}"


def _once(host: Host, where: str, scopes: list[str], copies: dict[tuple[str, str], list[Copy]]) -> str:
    live = [s for s in scopes if any(scope == s for found in copies.values() for scope, _, _, _ in found)]
    if len(live) < len(scopes):
        idle = " and ".join(s for s in scopes if s not in live)
        return (f"installed at {where} scope; {host.title} does not run the {idle} copy here (see above), so each "
                "hook fires once")
    if all(len({key for _, key, _, _ in found}) == 1 and None not in {key for _, key, _, _ in found}
           for found in copies.values()):
        return f"installed at {where} scope; {host.title} runs identical commands once" + _whose_timeout(host, copies)
    return (f"installed at {where} scope; the copies' matchers name different tools, so each hook fires once per "
            "tool call")


def _whose_timeout(host: Host, copies: dict[tuple[str, str], list[Copy]]) -> str:
    """Which copy's timeout applies, when the copies' timeouts differ."""
    differ = [found for found in copies.values() if len({repr(timeout) for *_, timeout in found}) > 1]
    if not differ:
        return ""
    keeps = differ[0][-1 if host.dedup == "last" else 0][0]
    return f", with the timeout of the {keeps} copy where the timeouts differ"


def running_copies(host: Host, running: dict[str, Any], name: str) -> dict[tuple[str, str], list[Copy]]:
    """``{(event, hook id): [(scope, run key, tools), ...]}`` for every copy of ``name``'s hooks the host runs."""
    tools = _native_tools(host)
    out: dict[tuple[str, str], list[Copy]] = {}
    for scope, doc in running.items():
        hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
        for event, entries in hooks.items() if isinstance(hooks, dict) else ():
            for entry in entries if isinstance(entries, list) else ():
                owner = host.owner(entry)
                if owner and owner[0] == name:
                    handler = host.handler_of(entry) or {}
                    out.setdefault((event, owner[1]), []).append((scope, host.run_key(event, entry),
                                                                  named_tools(entry.get("matcher"), tools),
                                                                  handler.get(host.timeout_key)))
    return out


def fires(copies: list[Copy]) -> int:
    """How many copies run for one call, at most: for each tool a matcher names (and for any other
    tool), one per distinct key among the copies that match it, and every copy without a key."""
    points: set[str | None] = {None}
    for _, _, tools, _ in copies:
        points |= tools or set()
    best = 0
    for point in points:
        matching = [key for _, key, tools, _ in copies if tools is None or point in tools]
        best = max(best, len({k for k in matching if k is not None}) + matching.count(None))
    return best


def named_tools(matcher: Any, tools: frozenset[str]) -> frozenset[str] | None:
    """The tools a matcher names when it is a plain list of the host's tool names (``Bash``,
    ``Edit|MultiEdit``, ``^(Bash)$``); ``None`` (it may match anything) for every other matcher."""
    if not isinstance(matcher, str):
        return None
    bare = re.fullmatch(r"\^\(?([^()^$]*?)\)?\$", matcher)
    names = frozenset((bare.group(1) if bare else matcher).split("|"))
    return names if names <= tools and "" not in names else None


def _native_tools(host: Host) -> frozenset[str]:
    return frozenset(n for native in host.tools.values() if native for n in native.split("|"))

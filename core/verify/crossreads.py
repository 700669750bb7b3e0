"""Feeding ``readers``: where each of our hooks is installed across every host, and which agents
look in use here. verify and install call ``findings``; the judgement itself is ``readers.judge``.

Only agents that look in use are named (their folder in the project or the home folder, their
program found, or our hooks installed in their files): a Claude-only project should not hear about
Cursor on every verify. ``--json`` carries the same findings.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from hookweave.core.errors import BadInput
from hookweave.core.files import paths
from hookweave.core.model.findings import Finding
from hookweave.core.verify import readers

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host


def host_classes(host: Host | None = None, project: Path | None = None, planned: dict | None = None) -> list[type[Host]]:
    """Every registered host class (built-in and plugins) that may read another's files or hold our
    hooks: the running command's registry when there is one (finding the plugins again costs more
    than the whole check). With ``host`` and ``project``, and no plugin installed, a built-in host
    whose records (``builtin_records``) are all missing, and that reads no file of a host that has
    one, is left unloaded: it holds no hook of ours and runs none; nor is one that only reads such a
    file and is not in use here (``builtin_records.holding``'s ``in_use``): no finding names it."""
    from hookweave.core.contract import registry as plugins

    hosts = plugins.HostRegistry.current or plugins.registry()
    names = hosts.names()
    if host is not None and project is not None and hosts.built_in_only:
        from hookweave.core.verify.builtin_records import holding

        names = holding(names, project, host.name, planned, in_use=True)
    return [hosts.info(name).cls for name in names]


def places(hosts: Iterable[Host], project: Path, planned: dict | None = None, parsed: dict | None = None) -> dict:
    """``{(bundle, hook id): [Place, ...]}``: every recorded hook of ours at every host and scope,
    with the matcher its entry carries there (``planned``/``parsed`` as for ``scopes.read_scope``)."""
    from hookweave.core.reading.scopes import read_scope, same_file_scopes

    out: dict = {}
    for host in hosts:
        recorded = [scope for scope in host.verify_scopes if _may_record(host, scope, project, planned)]
        if not recorded:
            continue  # most hosts: no record of ours at any scope, so no file to resolve (realpath) either
        aliases = same_file_scopes(host, project)
        for scope in recorded:
            if scope in aliases:
                continue
            try:
                doc, rec, _ = read_scope(host, scope, project, planned, parsed)
            except (BadInput, OSError, ValueError):
                continue  # verify names the unreadable file in that host's own section
            if rec.empty:
                continue
            matchers = _matchers(host, doc)
            for name, bundle in rec.bundles.items():
                for hook in bundle.hooks:
                    if "/" in hook.id:
                        continue  # a chain member runs inside its chain's entry
                    place = readers.Place(host.name, scope, matchers.get((name, hook.id)), hook.event)
                    out.setdefault((name, hook.id), []).append(place)
    return out


def _may_record(host: Host, scope: str, project: Path, planned: dict | None) -> bool:
    """Whether ``scope`` may hold a record of ours: its record file is there, or about to be written.
    Without one the scope holds nothing of ours, and its settings file (often an operator's, big or
    broken) need not be parsed: most scopes of most hosts, on every install and verify."""
    try:
        path = host.record_path(host.settings_path(scope, project))
    except (BadInput, OSError, ValueError):
        return True  # read_scope finds the same error and the scope is passed over there
    if planned and path in planned:
        return planned[path] is not None
    return os.path.exists(path)


def _matchers(host: Host, doc: object) -> dict:
    """``{(bundle, hook id): matcher}`` of our entries in ``doc`` (nested groups carry it on the group)."""
    from hookweave.core.contract.shapes import every_entry

    found: dict = {}
    for entry in every_entry(doc, host.hooks_key):
        owner = host.owner(entry)
        if owner and isinstance(entry, dict) and isinstance(entry.get("matcher"), str):
            found.setdefault(owner, entry["matcher"])
    return found


def in_use(agents: list[readers.Agent], hosts: dict, project: Path, found: dict) -> set[str]:
    """Titles of the agents that look in use: a sign folder exists, the host's ``detect()`` says so,
    a settings file's folder exists, or one of our hooks is installed in its own files."""
    home = paths.home()
    ours = {p.host for copies in found.values() for p in copies}
    used: set[str] = set()
    for agent in agents:
        host = hosts.get(agent.host)
        signs = [home / s[2:] if s.startswith("~/") else project / s for s in agent.signs]
        if host is not None:
            signs += [_folder(host, scope, project) for scope in host.verify_scopes]
        if agent.host in ours or any(s is not None and os.path.isdir(s) for s in signs) or _detects(host):
            used.add(agent.title)
    return used


def _folder(host: Host, scope: str, project: Path) -> Path | None:
    try:
        return host.settings_path(scope, project).parent
    except (OSError, ValueError):
        return None


def _detects(host: Host | None) -> bool:
    try:
        return host is not None and bool(host.detect())
    except OSError:
        return False


def findings(host: Host, project: Path, *, bundle: str | None = None, planned: dict | None = None,
             parsed: dict | None = None, classes: list | None = None) -> list[Finding]:
    """The cross-agent findings for the hooks installed in ``host``'s files (``bundle``'s only,
    when given): which agents run each, twice in one, matchers ignored."""
    classes = host_classes(host, project, planned) if classes is None else classes
    hosts = {cls.name: (host if cls.name == host.name else cls()) for cls in classes}
    hosts.setdefault(host.name, host)
    agents = readers.table(type(h) for h in hosts.values())
    found = places(hosts.values(), project, planned, parsed)
    from hookweave.core.reading.standins import borrowed

    # Whether an agent is in use matters only for one that runs a copy of ours (``judge`` passes
    # over the others): asking every agent (its program looked for on PATH, its folders) cost a
    # verify of one host a few milliseconds for agents nothing of ours runs in.
    running = [a for a in agents if any(readers.runs(a, copies) for copies in found.values())]
    used = in_use(running, hosts, project, found)
    used |= {h.title for h in hosts.values() if h.title in {a.title for a in running}
             and getattr(h, "also_reads", ()) and borrowed(h, project)}

    # the hooks it runs from another host's file, as installed for it, are its own here too
    ran = {(b.bundle, i) for b in borrowed(host, project) for i in b.ids}
    out: list[Finding] = []
    for (name, hook_id), copies in sorted(found.items()):
        if (bundle is None or name == bundle) and (any(p.host == host.name for p in copies) or (name, hook_id) in ran):
            out += readers.judge(agents, copies, name, hook_id, used)
    return [Finding(f.level, paths.printable(f.message), f.bundle, f.hook) for f in out]

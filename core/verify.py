"""Pure verification: what the record says against what the settings files hold now."""

from __future__ import annotations

from typing import Any, NamedTuple

from hookweave.core import duplicates, merge
from hookweave.core.host import Host
from hookweave.core.findings import Finding
from hookweave.core.patch import sha256
from hookweave.core.record import Record, RecordedBundle


class HookStatus(NamedTuple):
    id: str
    event: str
    position: str
    status: str  # ok | missing | modified | duplicated | out-of-order
    detail: str = ""


class BundleReport:
    __slots__ = ("name", "version", "hooks")

    def __init__(self, name: str, version: str) -> None:
        self.name, self.version = name, version
        self.hooks: list[HookStatus] = []


class FileReport:
    """One scope file's bundles and findings (built up by ``verify_file``, hence mutable)."""

    __slots__ = ("scope", "shown", "bundles", "findings")

    def __init__(self, scope: str, shown: str) -> None:
        self.scope, self.shown = scope, shown
        self.bundles: list[BundleReport] = []
        self.findings: list[Finding] = []

    @property
    def problems(self) -> int:
        bad_hooks = sum(1 for b in self.bundles for h in b.hooks if h.status != "ok")
        return bad_hooks + sum(1 for f in self.findings if f.level == "problem")


def verify_file(host: Host, scope: str, shown: str, doc: Any, rec: Record) -> FileReport:
    report = FileReport(scope, shown)
    hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
    hooks = hooks if isinstance(hooks, dict) else {}
    for name, bundle in sorted(rec.bundles.items()):
        report.bundles.append(_bundle_report(host, hooks, name, bundle))
        report.findings += _copy_findings(host, hooks, name, bundle)
        report.findings += _env_findings(host, doc, name, bundle)
    recorded = set(rec.bundles)
    strays = sorted(
        {found for entries in hooks.values() if isinstance(entries, list) for e in entries
         if (found := host.owner(e)) and found[0] not in recorded}
    )
    for bundle, hook_id in strays:
        report.findings.append(
            Finding("problem", "carries hookweave's marker but no record lists it; reinstall the bundle "
                    "or remove the entry by hand", bundle, hook_id)
        )
    return report


def _bundle_report(host: Host, hooks: dict, name: str, bundle: RecordedBundle) -> BundleReport:
    report = BundleReport(name, bundle.version)
    order_issues: dict[str, str] = {}
    found: dict[str, Any] = {}
    for event in dict.fromkeys(h.event for h in bundle.hooks):
        entries = hooks.get(event) if isinstance(hooks.get(event), list) else []
        event_hooks = [h for h in bundle.hooks if h.event == event]
        positions = {h.id: h.position for h in event_hooks}
        items = merge.classify(entries, name, bundle.hashes(event), host.owner)
        found.update({item.hook_id: item.entry for item in items if item.hook_id})
        declared = [h.id for h in event_hooks]
        for hook_id, why in merge.order_problems(items, positions, declared, positional=host.positional):
            order_issues.setdefault(hook_id, why)
    copies = _copies(host, hooks, name, bundle)
    for h in bundle.hooks:
        status, detail = "ok", ""
        if h.id not in found:
            elsewhere = [event for event, hook_id in copies if hook_id == h.id]
            status, detail = "missing", f"not found under {h.event}; reinstall the bundle"
            if elsewhere:
                detail = (f"not found under {h.event}, where the record puts it (a copy under {elsewhere[0]} is "
                          "the operator's, not ours); reinstall the bundle")
        elif sha256(found[h.id]) != h.sha256:
            status, detail = "modified", "edited since it was installed; reinstall with --force to restore it"
        elif h.id in order_issues:
            status, detail = "out-of-order", order_issues[h.id] + "; reinstall the bundle to fix the order"
        twins = sum(1 for event, hook_id in copies if hook_id == h.id and event == h.event)
        if status == "ok" and twins:
            runs = duplicates.same_file(host, h.event, hooks.get(h.event), (name, h.id))
            status, detail = "duplicated", f"appears {twins + 1} times under {h.event} ({runs}); remove the copies"
        report.hooks.append(HookStatus(h.id, h.event, h.position, status, detail))
    return report


def _copies(host: Host, hooks: dict, name: str, bundle: RecordedBundle) -> list[tuple[str, str]]:
    """``(event, hook id)`` of every entry with this bundle's marker that the record does not account for."""
    return [(event, hook_id) for event, entries in hooks.items() if isinstance(entries, list)
            for _, hook_id in merge.copies(entries, name, bundle.hashes(event), host.owner)]


def _copy_findings(host: Host, hooks: dict, name: str, bundle: RecordedBundle) -> list[Finding]:
    """Copies outside the place the record names (a second copy in the same event is ``duplicated``)."""
    events = {h.id: h.event for h in bundle.hooks}
    return [
        Finding("problem", f"a copy under {event} that the record does not list: the host runs it too, and hookweave "
                "neither updates nor removes it; remove it by hand if you did not mean to keep it", name, hook_id)
        for event, hook_id in _copies(host, hooks, name, bundle) if events.get(hook_id) != event
    ]


def _env_findings(host: Host, doc: Any, name: str, bundle: RecordedBundle) -> list[Finding]:
    if not host.env_key or not bundle.env:
        return []
    env = doc.get(host.env_key) if isinstance(doc, dict) else None
    env = env if isinstance(env, dict) else {}
    out: list[Finding] = []
    for var, rec in bundle.env.items():
        if not rec.applied:
            out.append(Finding("note", f"{var}: the operator's value {env.get(var)!r} was kept ({rec.policy})", name))
        elif env.get(var) != rec.value:
            out.append(Finding("problem", f"{var} holds {env.get(var)!r}, not the installed {rec.value!r}", name))
    return out


def env_shadowing(host: Host, docs: dict[str, Any], records: dict[str, Record]) -> list[Finding]:
    """Installed env values that a higher-precedence scope overrides (later in ``verify_scopes``)."""
    if not host.env_key:
        return []
    order = list(host.verify_scopes)
    out: list[Finding] = []
    for scope, rec in records.items():
        for name, bundle in rec.bundles.items():
            for var, mine in bundle.env.items():
                if not mine.applied:
                    continue
                for higher in reversed(order[order.index(scope) + 1 :]):
                    env = (docs.get(higher) or {}).get(host.env_key) if isinstance(docs.get(higher), dict) else None
                    if isinstance(env, dict) and var in env and env[var] != mine.value:
                        out.append(Finding(
                            "problem",
                            f"{var}={mine.value} installed at {scope} scope is shadowed: {higher} settings set "
                            f"{env[var]!r}, which {host.title} uses",
                            name,
                        ))
                        break
    return out


"""Pure verification: what the record says against what the settings files hold now."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hookweave.core import merge
from hookweave.core.host import Host
from hookweave.core.model import Finding
from hookweave.core.patch import sha256
from hookweave.core.record import Record, RecordedBundle


@dataclass
class HookStatus:
    id: str
    event: str
    position: str
    status: str  # ok | missing | modified | duplicated | out-of-order
    detail: str = ""


@dataclass
class BundleReport:
    name: str
    version: str
    hooks: list[HookStatus] = field(default_factory=list)


@dataclass
class FileReport:
    scope: str
    shown: str
    bundles: list[BundleReport] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

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
    for event in dict.fromkeys(h.event for h in bundle.hooks):
        entries = hooks.get(event) if isinstance(hooks.get(event), list) else []
        event_hooks = [h for h in bundle.hooks if h.event == event]
        positions = {h.id: h.position for h in event_hooks}
        items = merge.classify(entries, name, host.owner)
        declared = [h.id for h in event_hooks]
        for hook_id, why in merge.order_problems(items, positions, declared, positional=host.positional):
            order_issues.setdefault(hook_id, why)
    for h in bundle.hooks:
        entries = hooks.get(h.event) if isinstance(hooks.get(h.event), list) else []
        matches = [e for e in entries if host.owner(e) == (name, h.id)]
        status, detail = "ok", ""
        if not matches:
            elsewhere = [ev for ev, es in hooks.items() if ev != h.event and isinstance(es, list)
                         and any(host.owner(e) == (name, h.id) for e in es)]
            status = "modified" if elsewhere else "missing"
            detail = f"moved to {elsewhere[0]}" if elsewhere else f"not found under {h.event}; reinstall the bundle"
        elif sha256(matches[0]) != h.sha256:
            status, detail = "modified", "edited since it was installed; reinstall with --force to restore it"
        elif len(matches) > 1:
            status, detail = "duplicated", f"appears {len(matches)} times under {h.event}; remove the copies"
        elif h.id in order_issues:
            status, detail = "out-of-order", order_issues[h.id] + "; reinstall the bundle to fix the order"
        report.hooks.append(HookStatus(h.id, h.event, h.position, status, detail))
    return report


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


def cross_scope_duplicates(host: Host, docs: dict[str, Any], records: dict[str, Record]) -> list[Finding]:
    """The same bundle installed at several scopes: say whether the host runs it once or twice."""
    scopes_by_bundle: dict[str, list[str]] = {}
    for scope, rec in records.items():
        for name in rec.bundles:
            scopes_by_bundle.setdefault(name, []).append(scope)
    out: list[Finding] = []
    for name, scopes in scopes_by_bundle.items():
        if len(scopes) < 2:
            continue
        hashes = {tuple(sorted(h.sha256 for h in records[s].bundles[name].hooks)) for s in scopes}
        where = " and ".join(scopes)
        if len(hashes) == 1 and host.dedup_across_scopes:
            out.append(Finding("note", f"installed at {where} scope; {host.title} runs identical commands once", name))
        else:
            out.append(Finding("problem", f"installed at {where} scope; {host.title} runs each copy, so hooks fire "
                               "more than once: uninstall it from all but one scope", name))
    return out

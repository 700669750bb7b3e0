"""Pure verification: what the record says against what the settings files hold now."""

from __future__ import annotations

import os
from typing import Any, Mapping

from hookweave.core.contract.host import Host
from hookweave.core.formats.patch import sha256
from hookweave.core.model.findings import Finding
from hookweave.core.model.record import Record, RecordedBundle
from hookweave.core.plan import merge
from hookweave.core.verify import duplicates
from hookweave.core.verify.env import env_shadowing, hook_env_findings  # noqa: F401 - verify's env checks
from hookweave.core.verify.reports import BundleReport, FileReport, HookStatus


def verify_file(host: Host, scope: str, shown: str, doc: Any, rec: Record,
                exported: Mapping[str, str] | None = None) -> FileReport:
    """One file against its record. Order is judged on this file alone here; ``judge_order``
    judges it again on every scope (Gemini's ``sequential`` in one scope orders them all).
    ``exported``: the environment verify runs in (the operator's shell), ``os.environ`` by default."""
    report = FileReport(scope, shown)
    hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
    hooks = hooks if isinstance(hooks, dict) else {}
    # Each entry's owner, asked once: the checks below asked it of every entry five times (a marker
    # search each), most of a verify's own work on a file of 10,000 operator entries.
    owners = {event: [host.owner(e) for e in entries] for event, entries in hooks.items() if isinstance(entries, list)}
    for name, bundle in sorted(rec.bundles.items()):
        copies = _copies(host, hooks, owners, name, bundle)
        bundle_report = _bundle_report(host, hooks, owners, copies, name, bundle)
        report.bundles.append(bundle_report)
        report.findings += _copy_findings(copies, name, bundle)
        report.findings += _too_long(host, hooks, owners, name)
        if host.hook_env:
            report.findings += hook_env_findings(host, hooks, name, bundle, os.environ if exported is None else exported)
    judge_order(host, [report], {scope: doc})
    recorded = set(rec.bundles)
    strays = sorted({found for found_in in owners.values() for found in found_in if found and found[0] not in recorded})
    for bundle, hook_id in strays:
        report.findings.append(
            Finding("problem", "carries hookweave's marker but no record lists it; reinstall the bundle "
                    "or remove the entry by hand", bundle, hook_id)
        )
    return report


def _bundle_report(host: Host, hooks: dict, owners: dict, copies: list[tuple[str, str]], name: str,
                   bundle: RecordedBundle) -> BundleReport:
    report = BundleReport(name, bundle.version)
    order_issues: dict[str, str] = {}
    found: dict[str, Any] = {}
    for event in dict.fromkeys(h.event for h in bundle.hooks):
        entries = hooks.get(event) if isinstance(hooks.get(event), list) else []
        event_hooks = [h for h in bundle.hooks if h.event == event]
        positions = {h.id: h.position for h in event_hooks}
        items = merge.classify(entries, name, bundle.hashes(event), host.owner, owners.get(event, []))
        found.update({item.hook_id: item.entry for item in items if item.hook_id})
        declared = [h.id for h in event_hooks]
        for hook_id, why in merge.order_problems(items, positions, declared, positional=host.positional):
            order_issues.setdefault(hook_id, why)
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
            status, detail = "out-of-order", order_issues[h.id]
        twins = sum(1 for event, hook_id in copies if hook_id == h.id and event == h.event)
        if status == "ok" and twins:
            runs = duplicates.same_file(host, h.event, hooks.get(h.event), (name, h.id))
            status, detail = "duplicated", f"appears {twins + 1} times under {h.event} ({runs}); remove the copies"
        report.hooks.append(HookStatus(h.id, h.event, h.position, status, detail))
        if h.members:
            from hookweave.core.verify import chains as chainverify  # only a chain has members

            report.hooks += chainverify.member_rows(host, h, found.get(h.id), status)
    return report


def _copies(host: Host, hooks: dict, owners: dict, name: str, bundle: RecordedBundle) -> list[tuple[str, str]]:
    """``(event, hook id)`` of every entry with this bundle's marker that the record does not account for."""
    return [(event, hook_id) for event, entries in hooks.items() if isinstance(entries, list)
            for _, hook_id in merge.copies(entries, name, bundle.hashes(event), host.owner, owners[event])]


def _copy_findings(copies: list[tuple[str, str]], name: str, bundle: RecordedBundle) -> list[Finding]:
    """Copies outside the place the record names (a second copy in the same event is ``duplicated``)."""
    events = {h.id: h.event for h in bundle.hooks}
    return [
        Finding("problem", f"a copy under {event} that the record does not list: the host runs it too, and hookweave "
                "neither updates nor removes it; remove it by hand if you did not mean to keep it", name, hook_id)
        for event, hook_id in copies if events.get(hook_id) != event
    ]


def _too_long(host: Host, hooks: dict, owners: dict, name: str) -> list[Finding]:
    """Entries of ours whose command is longer than one shell argument may be: the agent cannot start them."""
    from hookweave.core.model.runnable import MAX_COMMAND_BYTES, longest_command

    keys = getattr(host, "command_keys", ("command",))
    out = []
    for event, entries in hooks.items():
        for e, found in zip(entries, owners[event]) if isinstance(entries, list) else ():
            size = longest_command(host.handler_of(e), keys) if found and found[0] == name else 0
            if size > MAX_COMMAND_BYTES:
                out.append(Finding("problem", f"its command is {size} bytes, more than the {MAX_COMMAND_BYTES} one "
                                   "shell argument may hold: the agent cannot start it (E2BIG); move the long "
                                   "commands into script files in the bundle, and reinstall", name, found[1]))
    return out


def judge_order(host: Host, files: list[FileReport], docs: Mapping[str, Any]) -> None:
    """Weigh each hook out of order by what file order means when the host runs the event: a
    problem where it holds (one after another, Gemini ``sequential``), a note where the host
    starts the event's hooks at once. ``docs``: every scope's data, as ``Host.order_holds`` takes it."""
    for file in files:
        for bundle in file.bundles:
            if host.order == "sequential-flag":
                file.findings += _other_scopes_first(host, file.scope, bundle, docs)
            for h in bundle.hooks:
                if h.status != "out-of-order" or "/" in h.id:  # a chain member: the chain keeps its order
                    continue
                why = h.detail.split("; ", 1)[0]  # what is out of order (judged again: the rest is ours)
                if host.order_holds(h.event, docs):
                    h.level = "problem"
                    h.detail = f"{why}; {host.title} runs {h.event}'s hooks in file order: reinstall the bundle to fix it"
                else:
                    h.level = "note"
                    h.detail = (f"{why}; {host.title} starts {h.event}'s hooks at once, so this changes nothing when "
                                "they run (reinstall to restore the file order)")

def _other_scopes_first(host: Host, scope: str, bundle: BundleReport, docs: Mapping[str, Any]) -> list[Finding]:
    """Where a host that orders an event runs the scopes' hooks as one sequence in ``verify_scopes``
    order (Gemini under ``sequential``), a ``first`` hook runs after the operator's hooks of the
    scopes before its own, and a ``last`` one before those of the scopes after: no file can say."""
    out: list[Finding] = []
    order = list(host.verify_scopes)
    for h in bundle.hooks:
        if h.status != "ok" or "/" in h.id or scope not in order or not host.order_holds(h.event, docs):
            continue
        others = order[: order.index(scope)] if h.position == "first" else order[order.index(scope) + 1 :]
        where = [s for s in others if _foreign(host, docs.get(s), h.event)]
        if where:
            side = "before" if h.position == "first" else "after"
            out.append(Finding("warning", f"{host.title} runs every {h.event} hook in one sequence, scope by scope "
                               f"({', '.join(order)}), so the operator's hooks in {' and '.join(where)} settings run "
                               f"{side} this {h.position} hook", bundle.name, h.id))
    return out


def _foreign(host: Host, doc: Any, event: str) -> bool:
    hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
    entries = hooks.get(event) if isinstance(hooks, dict) else None
    return isinstance(entries, list) and any(host.owner(e) is None for e in entries)

"""What Codex really runs, pure: each layer's hooks without the ones it loads but skips.

A project layer counts only when Codex loads it (``codex_layers.project_trust``), a hooks.json
Codex refuses whole counts for nothing (``codex_shape``), and a hook runs only with a
``[hooks.state]`` entry whose ``trusted_hash`` is its current hash, and not with ``enabled = false``.
Measured on codex 0.169 ``hooks/list`` (tests/e2e/test_duplicates_real.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Collection


def running_docs(host: Any, docs: Any, project: Path) -> dict[str, Any]:
    """``CodexHost.running_docs``: every layer's data as Codex runs it here."""
    from hookweave.hosts.codex.trust import trust_hash

    config = docs.get("user-config") if isinstance(docs.get("user-config"), dict) else {}
    hooks = config.get("hooks") if isinstance(config.get("hooks"), dict) else {}
    state = hooks.get("state") if isinstance(hooks.get("state"), dict) else {}
    from hookweave.hosts.codex.layers import project_trust, trust_source

    out: dict[str, Any] = {}
    for scope in host.verify_scopes:
        if scope == "project" and project_trust(docs, project) != "trusted":
            continue
        path = host.settings_path(scope, project)
        if host.rejects(docs.get(scope), str(path)):
            continue
        out[scope] = runnable(docs.get(scope), trust_source(path, scope), state, host.native_events, trust_hash)
    return out


def runnable(doc: Any, source: str, state: dict, events: Collection[str], digest: Callable) -> Any:
    """``doc`` without the handlers Codex loads but skips: no trust entry, a stale hash, or
    ``enabled = false``. ``source`` is the file as Codex spells it in trust keys."""
    from hookweave.hosts.codex.trust import event_label

    if not isinstance(doc, dict) or not isinstance(doc.get("hooks"), dict):
        return doc
    hooks: dict[str, Any] = {}
    for event, groups in doc["hooks"].items():
        if event not in events or not isinstance(groups, list):
            continue
        kept_groups = []
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            kept = [handler for h, handler in enumerate(handlers if isinstance(handlers, list) else [])
                    if isinstance(handler, dict)
                    and _runs(state.get(f"{source}:{event_label(event)}:{g}:{h}"), digest(event, group, handler))]
            if kept:
                kept_groups.append({**group, "hooks": kept})
        hooks[event] = kept_groups
    return {**doc, "hooks": hooks}


def _runs(entry: Any, digest: str) -> bool:
    return isinstance(entry, dict) and entry.get("trusted_hash") == digest and entry.get("enabled") is not False

"""verify's env checks: each installed variable judged on the value the host will use.

Pure over the scopes' data and the environment verify runs in (the operator's shell, where the
agent is started too): a host's settings env (Claude) replaces an exported variable, and so does
a hook's own env (Gemini).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Mapping

from hookweave.core.model.findings import Finding
from hookweave.core.plan import envmerge, merge

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host
    from hookweave.core.model.record import Record, RecordedBundle


def hook_env_findings(host: Host, hooks: dict, name: str, bundle: RecordedBundle, exported: Mapping[str, str]) -> list[Finding]:
    """Exported variables our hooks' own ``env`` replaces (the hook's env wins on Gemini), once per variable."""
    from hookweave.core.model import hookenv  # the hosts that give each hook its env only

    seen: dict[str, str] = {}
    for event in dict.fromkeys(h.event for h in bundle.hooks):
        entries = hooks.get(event) if isinstance(hooks.get(event), list) else []
        for item in merge.classify(entries, name, bundle.hashes(event), host.owner):
            handlers = item.entry.get("hooks") if item.hook_id and isinstance(item.entry, dict) else None
            for handler in handlers if isinstance(handlers, list) else []:
                env = handler.get("env") if isinstance(handler, dict) else None
                for var, value in env.items() if isinstance(env, dict) else ():
                    if isinstance(value, str) and not hookenv.keeps_exported(var, value):
                        seen.setdefault(var, value)
    return [
        Finding("note", f"{var} is exported as {envmerge.short(exported[var])} in this shell; {host.title}'s per-hook "
                f"env gives this bundle's hooks {envmerge.short(value)} instead", name, machine=True)
        for var, value in sorted(seen.items()) if var in exported and exported[var] != value
    ]


def env_shadowing(host: Host, docs: dict[str, Any], records: dict[str, Record],
                  exported: Mapping[str, str] | None = None) -> list[Finding]:
    """Each installed env variable judged on the value the host will use, against its policy.

    The host's value is the highest-precedence scope's (later in ``verify_scopes``), else the
    one exported in the environment verify runs in (``os.environ`` by default: the operator's
    shell; the host's settings env replaces an exported variable). A problem when the policy
    would not allow the value the host uses, or when ours replaces a value (exported, or in a
    lower scope) that the policy would have kept, which a reinstall leaves to it; a note when
    another value the policy allows is in effect, or ours replaces one the policy replaces."""
    if not host.env_key:
        return []
    exported = os.environ if exported is None else exported
    order = [s for s in host.verify_scopes if s in docs or s in records]
    envs = {s: _env_of(host, docs.get(s)) for s in order}
    out: list[Finding] = []
    for scope, rec in records.items():
        for name, bundle in rec.bundles.items():
            for var, mine in bundle.env.items():
                out += _judge_env(host, scope, order, envs, exported, name, var, mine)
    return out


def _env_of(host: Host, doc: Any) -> dict:
    env = doc.get(host.env_key) if isinstance(doc, dict) else None
    return env if isinstance(env, dict) else {}


def _judge_env(host, scope, order, envs, exported, name, var, mine) -> list[Finding]:
    def value_from(scopes: list[str]) -> tuple[str | None, str | None]:
        """The value the host takes from these scopes or the environment, and its scope (``None``: not a file)."""
        for s in reversed(scopes):
            if isinstance(envs[s].get(var), str):
                return envs[s][var], s
        return exported.get(var), None

    short, policy = envmerge.short, f"policy {mine.policy} {envmerge.short(mine.value)}"
    used, source = value_from(order)
    if mine.applied and envs[scope].get(var) == mine.value and used == mine.value:
        # What the host would use without our entry: the file's own value we replaced, else a
        # lower scope's, else the exported one (what install weighed, and a reinstall weighs again).
        below, where = (mine.prior, scope) if mine.prior is not None else value_from(order[: order.index(scope)])
        if below is None or below == mine.value or where == scope:
            return []
        origin = f"set in {where} settings" if where else "exported in this shell"
        if envmerge.keeps(mine.policy, mine.value, below):
            wins = "" if where else f" ({host.title}'s settings env wins over the environment)"
            return [Finding("problem", f"{var}={short(mine.value)} installed at {scope} scope replaces the value "
                            f"{short(below)} {origin}, which {policy} keeps{wins}; reinstall the bundle to leave it "
                            "to that value", name, machine=where is None)]  # exported: this machine's shell
        return [Finding("note", f"{var}={short(mine.value)} installed at {scope} scope replaces the value {short(below)} "
                        f"{origin} ({policy})", name, machine=where is None)]
    if mine.applied and used == mine.value:
        return []
    what = (f"{var}={short(mine.value)} installed at {scope} scope" if mine.applied
            else f"{var}: the operator's value was kept at {scope} scope")
    origin = ("the environment (exported in this shell)" if source is None and used is not None
              else f"{source} settings" if source else "nowhere: it is unset")
    shown = f"{short(used)} from {origin}" if used is not None else "no value"
    if envmerge.allows(mine.policy, mine.value, used):
        return [Finding("note", f"{what}: {host.title} uses {shown}, which {policy} allows", name, machine=source is None)]
    higher = source is not None and order.index(source) > order.index(scope)
    fix = f"change it in {source} settings" if higher else "reinstall the bundle to set it"
    return [Finding("problem", f"{what}: {host.title} uses {shown}, which {policy} does not allow; {fix}", name,
                    machine=source is None and used is not None)]  # the value exported in this machine's shell

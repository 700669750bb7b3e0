"""The interactive flows of install and uninstall (on a terminal, when ``--host`` is not given).

Every question comes before the preview, so the preview is exactly what will be written (the
Codex trust question too: its change to ``~/.codex/config.toml`` is in the diff); then one
confirmation. Uninstall offers the agents the bundle is installed in, ticked, and its scope.
The questions themselves are ``prompts``' (questionary, loaded only here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookweave.core.cli import console
from hookweave.core.errors import BadInput

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host


def choose_hosts(registry, hosts: list[str] | None, scope: str | None, command: str, bundle: str | None = None):
    """Hosts and scope from the flags, or asked on a terminal; returns (hosts, scope, asked)."""
    if hosts:
        return registry.resolve(hosts), scope, False  # None: each host's default (``installer.target``)
    from hookweave.core.cli import prompts

    if not prompts.interactive():
        raise BadInput(
            f"{command}: --host is required without a terminal; e.g. --host claude "
            f"(registered: {', '.join(registry.names())}, or all)"
        )
    if bundle is not None:  # uninstall: where it is installed, ticked
        where = installed_scopes(registry, bundle)
        choices = [(n, registry.info(n).cls.title, bool(where[n])) for n in registry.names()]
        chosen = registry.resolve(prompts.ask_hosts(choices, f"Uninstall {bundle} from which agents?", "not installed"))
        found = [s for h in chosen for s in where[h.name]]
        default = found[0] if found else "project"
    else:
        from hookweave.core.reading.detection import detected
        from hookweave.core.files import paths
        from hookweave.core.reading import projects

        start = paths.project_dir(None)
        choices = [(n, registry.info(n).cls.title, detected(registry.get(n), projects.project_root(start)))
                   for n in registry.names()]
        chosen = registry.resolve(prompts.ask_hosts(choices, "Install into which agents?", "not detected"))
        default = "project"
    if scope is None:
        common = [s for s in chosen[0].scopes if all(s in h.scopes for h in chosen)]
        scope = prompts.ask_scope(tuple(common), default if default in common else common[0])
    return chosen, scope, True


def installed_scopes(registry, bundle: str) -> dict[str, list[str]]:
    """Per host name, the scopes ``bundle`` is installed at, for the folder each host would use."""
    from hookweave.core.files import paths
    from hookweave.core.reading import projects, scopes

    start = paths.project_dir(None)
    out: dict[str, list[str]] = {}
    for name in registry.names():
        host = registry.get(name)
        try:
            out[name] = [s for s, _, rec in scopes.installed(host, projects.project_root(start)) if bundle in rec.bundles]
        except BadInput:
            out[name] = []  # a record it cannot read: not offered ticked; uninstall names the problem
    return out


def ask_trust(hosts: list[Host]) -> bool:
    from hookweave.core.cli import prompts

    if not any(h.needs_trust for h in hosts):
        return False
    return prompts.confirm("Codex runs only hooks you trust. Mark these hooks trusted in Codex?")


def confirmed(preview: list, question: str) -> bool:
    """Show what the command will write (summary per file, coloured diff) and ask once."""
    from hookweave.core.cli import prompts, report

    report.print_plans(preview, dry_run=True, footer=False)
    if not any(p.changed for p in preview):
        return False
    return prompts.confirm(question)


def nothing_written() -> None:
    console.out("nothing written")

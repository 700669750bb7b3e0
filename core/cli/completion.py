"""Shell completion without start-up cost: typer's scripts and installer, loaded only by
``hooks completion`` (or the root's ``--show-completion`` / ``--install-completion``).

The completions themselves are answered by the same ``hooks`` program when the shell sets
``_HOOKS_COMPLETE``; normal runs never import this module.
"""

from __future__ import annotations

import os

from hookweave.core.errors import BadInput

PROG = "hooks"
VAR = "_HOOKS_COMPLETE"
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def _shell(shell: str | None) -> str:
    if shell is None:
        shell = os.path.basename(os.environ.get("SHELL", "")) or "bash"
    if shell not in SHELLS:
        raise BadInput(f"completion {shell}: not a shell typer completes; use one of {', '.join(SHELLS[:4])}")
    return shell


def script(shell: str | None) -> str:
    from typer._completion_shared import get_completion_script

    return get_completion_script(prog_name=PROG, complete_var=VAR, shell=_shell(shell))


def install_script(shell: str | None) -> tuple[str, str]:
    from typer._completion_shared import install

    chosen, path = install(shell=_shell(shell), prog_name=PROG, complete_var=VAR)
    return chosen, str(path)


def host_names(incomplete: str) -> list[str]:
    """``--host`` values: every registered host, and ``all``."""
    from hookweave.core.contract.registry import registry

    names = [*registry().names(), "all", "detected"]
    return [n for n in names if n.startswith(incomplete)]


def scope_names(incomplete: str) -> list[str]:
    """``--scope`` values: every scope of a registered host (project and user first)."""
    from hookweave.core.contract.registry import registry

    hosts = registry()
    found: dict[str, None] = dict.fromkeys(("project", "user"))
    for name in hosts.names():
        cls = hosts.info(name).cls
        found.update(dict.fromkeys((*cls.scopes, *cls.verify_scopes)))
    return [s for s in found if s.startswith(incomplete)]


def bundle_names(incomplete: str) -> list[str]:
    """``uninstall NAME``: the bundles installed for this folder, any host and scope."""
    from hookweave.core.contract.registry import registry as host_registry
    from hookweave.core.files import paths
    from hookweave.core.reading import projects, scopes

    registry = host_registry()
    found: set[str] = set()
    try:
        start = paths.project_dir(None)
        for name in registry.names():
            host = registry.get(name)
            for _, _, rec in scopes.installed(host, projects.project_root(start)):
                found.update(rec.bundles)
    except Exception:  # noqa: BLE001 - a completion never fails the shell; it offers less
        pass
    return sorted(n for n in found if n.startswith(incomplete))

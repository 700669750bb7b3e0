"""pluggy's plugin manager for hookweave: loaded only when an installed plugin needs it.

With no plugin installed (or every one disabled) the hook has only built-in implementations, and
``plugins.HostRegistry`` calls each directly, as pluggy would: pluggy is 14 modules, 1.5 ms of every
command's start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pluggy

from hookweave.core.contract import hookspecs
from hookweave.core.contract.entrypoints import blocked_names

if TYPE_CHECKING:
    from hookweave.core.contract.entrypoints import EntryPoint


class HostPluginManager(pluggy.PluginManager):
    """pluggy's manager, plus where each entry-point plugin came from (``origins``)."""

    def __init__(self) -> None:
        super().__init__(hookspecs.PROJECT)
        self.origins: dict[str, str] = {}  # plugin module -> "<distribution> <version>"

    def load_entrypoints(self, found: list[EntryPoint] | None = None) -> None:
        """Register every installed ``hookweave`` entry point (or those ``found`` already) as
        pluggy's own loader would, found without ``importlib.metadata`` (``core/contract/entrypoints.py``
        says why)."""
        if found is None:
            from hookweave.core.contract.entrypoints import entry_points

            found = entry_points(hookspecs.PROJECT)
        for ep in found:
            if self.has_plugin(ep.name) or self.is_blocked(ep.name):
                continue
            plugin = ep.load()
            self.register(plugin, name=ep.name)
            self.origins[getattr(plugin, "__name__", "")] = f"{ep.dist} {ep.version}"


def get_plugin_manager(*, load_entrypoints: bool = True, found: list[EntryPoint] | None = None) -> HostPluginManager:
    """A fresh manager with the installed plugins (or those ``found``), unless told not to load them.

    The built-in hosts are not imported here: ``HostRegistry`` registers each one with this manager,
    through the same hook as any plugin, the first time a command needs it (a command for one host
    imports one host module, not four).
    """
    pm = HostPluginManager()
    pm.add_hookspecs(hookspecs)
    if load_entrypoints:
        for blocked in blocked_names():
            pm.set_blocked(blocked)
        pm.load_entrypoints(found)
    pm.check_pending()
    return pm

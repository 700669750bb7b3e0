"""Loading host plugins: built-in hosts and third-party ones go through the same pluggy hook."""

from __future__ import annotations

import importlib
import os
from typing import NamedTuple

import pluggy

from hookweave.core import hookspecs
from hookweave.core.errors import BadInput
from hookweave.core.host import Host

BLOCK_ENV = "HOOKWEAVE_DISABLE_PLUGINS"  # comma-separated entry-point names not to load


class HostPluginManager(pluggy.PluginManager):
    """pluggy's manager, plus where each entry-point plugin came from (``origins``)."""

    def __init__(self) -> None:
        super().__init__(hookspecs.PROJECT)
        self.origins: dict[str, str] = {}  # plugin module -> "<distribution> <version>"

    def load_entrypoints(self) -> None:
        """Register every installed ``hookweave`` entry point as pluggy's own loader would, found
        without ``importlib.metadata`` (``core/entrypoints.py`` says why)."""
        from hookweave.core.entrypoints import entry_points

        for ep in entry_points(hookspecs.PROJECT):
            if self.has_plugin(ep.name) or self.is_blocked(ep.name):
                continue
            plugin = ep.load()
            self.register(plugin, name=ep.name)
            self.origins[getattr(plugin, "__name__", "")] = f"{ep.dist} {ep.version}"


def get_plugin_manager(*, load_entrypoints: bool = True) -> HostPluginManager:
    """A fresh manager with the installed plugins, unless told not to load them.

    The built-in hosts are not imported here: ``HostRegistry`` registers each one with this manager,
    through the same hook as any plugin, the first time a command needs it (a command for one host
    imports one host module, not four).
    """
    pm = HostPluginManager()
    pm.add_hookspecs(hookspecs)
    if load_entrypoints:
        for blocked in filter(None, os.environ.get(BLOCK_ENV, "").split(",")):
            pm.set_blocked(blocked.strip())
        pm.load_entrypoints()
    pm.check_pending()
    return pm


class HostInfo(NamedTuple):
    cls: type[Host]
    origin: str  # "built-in" or "<distribution> <version>"


class HostRegistry:
    """Every registered host class by name, with where it came from.

    Built-in hosts are known by name (``hosts.BUILT_IN``) and registered with the plugin manager on
    first use; plugins from entry points are registered before (so a plugin that takes a built-in
    name is still refused, naming both classes).
    """

    current: HostRegistry | None = None  # the latest one made: the running command's

    def __init__(self, pm: pluggy.PluginManager) -> None:
        from hookweave.hosts import BUILT_IN

        self._pm = pm
        HostRegistry.current = self  # the command's registry, for checks that need every host (crossreads)
        self._hosts: dict[str, HostInfo] = {}
        self._dists = dict(getattr(pm, "origins", {}))
        self._pending = {name: module for name, module in BUILT_IN.items() if pm.get_plugin(module) is None}
        pm.hook.hookweave_register_hosts(register=self._register)

    def _register(self, cls: type[Host]) -> None:
        if not (isinstance(cls, type) and issubclass(cls, Host)):
            raise BadInput(f"plugin registered {cls!r}, which is not a hookweave Host subclass")
        if not cls.name:
            raise BadInput(f"host class {cls.__module__}.{cls.__qualname__} does not set `name`")
        if cls.name in self._pending and cls.__module__ != self._pending[cls.name]:
            self._load(cls.name)  # a plugin took a built-in name: load the built-in to name it
        known = self._hosts.get(cls.name)
        if known is not None and known.cls is not cls:
            other = known.cls
            raise BadInput(
                f"host class {cls.__module__}.{cls.__qualname__} defines its name as {cls.name!r}, "
                f"but that name is already used by {other.__module__}.{other.__qualname__}"
            )
        self._hosts[cls.name] = HostInfo(cls, self._origin(cls))

    def _load(self, name: str) -> None:
        """Register the built-in host ``name`` through the plugin hook, as an entry point would be."""
        module_name = self._pending.pop(name, None)
        if module_name is None:
            return
        module = importlib.import_module(module_name)
        self._pm.register(module, name=module_name)
        self._pm.check_pending()
        caller = self._pm.subset_hook_caller(
            "hookweave_register_hosts", [p for p in self._pm.get_plugins() if p is not module]
        )
        caller(register=self._register)

    def _origin(self, cls: type[Host]) -> str:
        module = cls.__module__
        if module.startswith("hookweave."):
            return "built-in"
        for plugin_module, dist in self._dists.items():
            if plugin_module and (module == plugin_module or module.startswith(plugin_module + ".")):
                return dist
        return module

    def names(self) -> list[str]:
        return sorted({*self._hosts, *self._pending})

    def info(self, name: str) -> HostInfo:
        self._load(name)
        return self._hosts[name]

    def get(self, name: str) -> Host:
        self._load(name)
        if name not in self._hosts:
            known = ", ".join(self.names()) or "none"
            raise BadInput(f"unknown host {name!r}; registered hosts: {known} (or all)")
        return self._hosts[name].cls()

    def resolve(self, requested: list[str]) -> list[Host]:
        """Hosts for repeated ``--host`` values; ``all`` means every registered host."""
        if "all" in requested:
            return [self.get(n) for n in self.names()]
        return [self.get(n) for n in dict.fromkeys(requested)]

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
from hookweave.core.errors import one_line

if TYPE_CHECKING:
    from hookweave.core.contract.entrypoints import EntryPoint


class HostPluginManager(pluggy.PluginManager):
    """pluggy's manager, plus where each entry-point plugin came from (``origins``)."""

    def __init__(self) -> None:
        super().__init__(hookspecs.PROJECT)
        self.origins: dict[str, str] = {}  # plugin module -> "<distribution> <version>"
        self.labels: dict[str, str] = {}  # entry-point name -> "plugin <name> (<distribution> <version>)"
        self.failures: list[str] = []  # plugins that could not be loaded, one line each
        self.descriptions: list[tuple[str, str, object]] = []  # (label, origin, Description or Host class) from entry points

    def load_entrypoints(self, found: list[EntryPoint] | None = None) -> None:
        """Register every installed ``hookweave`` entry point (or those ``found`` already) as
        pluggy's own loader would, found without ``importlib.metadata`` (``core/contract/entrypoints.py``
        says why). An entry point naming a ``Description`` or a ``Host`` subclass (or a list of them)
        is kept as data; one that fails to load (``sys.exit()`` too) or to register, or that names
        something that registers no hook, is skipped and said in ``failures``."""
        if found is None:
            from hookweave.core.contract.entrypoints import entry_points

            found = entry_points(hookspecs.PROJECT)
        for ep in found:
            if self.has_plugin(ep.name) or self.is_blocked(ep.name):
                continue
            label = f"plugin {ep.name} ({ep.dist} {ep.version})"
            try:
                plugin = ep.load()
            except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin's import: whatever it raises skips it
                self.failures.append(f"{label} failed to load ({one_line(exc)}{_moved(exc)}); skipped (set "
                                     f"HOOKWEAVE_DISABLE_PLUGINS={ep.name} to stop loading it)")
                continue
            described = _descriptions(plugin)
            if described is not None:
                self.descriptions += [(label, f"{ep.dist} {ep.version}", d) for d in described]
                continue
            try:
                self.register(plugin, name=ep.name)
                self.check_pending()  # an unknown hook name (a typo) is this plugin's, not the next one's
            except Exception as exc:  # noqa: BLE001 - pluggy's validation of a plugin: it is refused
                if self.has_plugin(ep.name):
                    self.unregister(name=ep.name)
                self.failures.append(f"{label} is not a valid plugin ({one_line(exc)}); skipped (set "
                                     f"HOOKWEAVE_DISABLE_PLUGINS={ep.name} to stop loading it)")
                continue
            if not self.get_hookcallers(plugin):  # a function, a number, a module without the hook: nothing to call
                self.unregister(name=ep.name)
                self.failures.append(f"{label} names {_kind(plugin)}, which is neither a Description, a Host subclass "
                                     "nor a module with a hookweave_register_hosts function; skipped (set "
                                     f"HOOKWEAVE_DISABLE_PLUGINS={ep.name} to stop loading it)")
                continue
            self.labels[ep.name] = label
            self.origins[getattr(plugin, "__name__", "")] = f"{ep.dist} {ep.version}"


def _descriptions(plugin: object) -> list[object] | None:
    """The descriptions or host classes an entry point names directly (one, or a list of them), else None."""
    from hookweave.core.contract.description import Description
    from hookweave.core.contract.host import Host

    def host(p: object) -> bool:
        return isinstance(p, Description) or (isinstance(p, type) and issubclass(p, Host))

    if host(plugin):
        return [plugin]
    if isinstance(plugin, (list, tuple)) and plugin and all(host(p) for p in plugin):
        return list(plugin)
    return None


def _kind(plugin: object) -> str:
    import types

    if isinstance(plugin, types.ModuleType):
        return f"module {plugin.__name__}"
    if isinstance(getattr(plugin, "__qualname__", None), str):  # a function or a class: its name, not its address
        return f"{type(plugin).__name__} {getattr(plugin, '__module__', '?')}.{plugin.__qualname__}"
    shown = " ".join(repr(plugin).split())
    return f"{type(plugin).__name__} {shown[:80]}"


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


# The import paths removed in 0.x (issue 35), with their homes since the layers (wave 3): a plugin
# still importing one is told where it went, not only that it is missing.
MOVED = {"hookweave.core.host": "hookweave.core.contract.host (Host) and hookweave.core.contract.shapes",
         "hookweave.core.hostshapes": "hookweave.core.contract.shapes",
         "hookweave.core.hookspecs": "hookweave.core.contract.hookspecs",
         "hookweave.core.paths": "hookweave.core.files.paths",
         "hookweave.core.findings": "hookweave.core.model.findings"}


def _moved(exc: BaseException) -> str:
    """``import hookweave.core.host`` (ModuleNotFoundError naming it) or ``from hookweave.core import
    paths`` (ImportError naming the package, the module only in its message)."""
    name = getattr(exc, "name", None) if isinstance(exc, ImportError) else None
    if name == "hookweave.core" and str(exc).startswith("cannot import name '"):
        name = "hookweave.core." + str(exc).split("'")[1]
    return f": {name} moved to {MOVED[name]}" if name in MOVED else ""

"""Loading host plugins: built-in hosts and third-party ones go through the same hook.

``registry()`` is the hosts of a command: with a plugin installed, through pluggy's manager
(``pluginmanager``); with none, the built-in hosts' hook functions are called directly, as pluggy
would call them, and pluggy is not loaded.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from hookweave.core.contract.entrypoints import BLOCK_ENV, PROJECT, blocked_names, entry_points
from hookweave.core.contract.host import Host
from hookweave.core.errors import BadInput, one_line
from hookweave.core.formats.fieldtuple import FieldTuple

if TYPE_CHECKING:
    from hookweave.core.contract.pluginmanager import HostPluginManager


def registry() -> HostRegistry:
    """The hosts of this run. Entry points are looked up on every run (a folder's listing is kept
    only while its mtime stays: entrypoints.py), so a plugin installed a moment ago, or one disabled
    by ``HOOKWEAVE_DISABLE_PLUGINS``, counts at once."""
    blocked = set(blocked_names())
    found = [ep for ep in entry_points(PROJECT) if ep.name not in blocked]
    if not found:
        return HostRegistry()
    return HostRegistry(get_plugin_manager(found=found))


def get_plugin_manager(*, load_entrypoints: bool = True, found=None) -> HostPluginManager:
    """pluggy's manager with the installed plugins (``pluginmanager.get_plugin_manager``)."""
    from hookweave.core.contract import pluginmanager

    return pluginmanager.get_plugin_manager(load_entrypoints=load_entrypoints, found=found)


class HostInfo(FieldTuple):
    cls: type[Host]
    origin: str  # "built-in" or "<distribution> <version>"


class HostRegistry:
    """Every registered host class by name, with where it came from.

    Built-in hosts are known by name (``contract.builtin.BUILT_IN``) and registered with the plugin manager on
    first use; plugins from entry points are registered before (so a plugin that takes a built-in
    name is still refused, naming both classes).
    """

    current: HostRegistry | None = None  # the latest one made: the running command's

    def __init__(self, pm: HostPluginManager | None = None) -> None:
        from hookweave.core.contract.builtin import BUILT_IN

        self._pm = pm  # None: no plugin installed, the built-in hosts only
        HostRegistry.current = self  # the command's registry, for checks that need every host (crossreads)
        self._hosts: dict[str, HostInfo] = {}
        self._dists = dict(getattr(pm, "origins", {}))
        self._pending = {name: module for name, module in BUILT_IN.items() if pm is None or pm.get_plugin(module) is None}
        self.warnings: list[str] = list(getattr(pm, "failures", ()))  # plugins skipped, one line each
        self.warn = self.warnings.append  # a plugin skipped later (``_check_claims``): the CLI prints it too
        self._unchecked: dict[str, str] = {}  # plugin hosts whose files are not compared yet: name -> label
        if pm is None:
            return
        for label, origin, described in getattr(pm, "descriptions", ()):
            self._admit(described, label, origin)
        for impl in pm.hook.hookweave_register_hosts.get_hookimpls():
            if impl.plugin_name in BUILT_IN.values():
                continue  # a built-in registered already: its hosts are in
            label = getattr(pm, "labels", {}).get(impl.plugin_name, f"plugin {impl.plugin_name}")
            try:
                impl.function(register=lambda registered, label=label: self._admit(registered, label, None))
            except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin's own code: whatever it raises skips it
                self.warnings.append(f"{label}: hookweave_register_hosts failed ({one_line(exc)}); "
                                     f"its hosts are skipped{_hint(label)}")

    def _admit(self, registered: object, label: str, origin: str | None) -> None:
        """Register a plugin's host if it holds up, else skip it with one line of warning."""
        from hookweave.core.contract.admission import host_class_of

        try:
            self._register(host_class_of(registered), origin, plugin=label)
        except BadInput as exc:
            self.warnings.append(f"{label}: {exc}; skipped{_hint(label)}")

    def _register(self, cls: type[Host], origin: str | None = None, *, plugin: str | None = None) -> None:
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
        if plugin:
            self._unchecked[cls.name] = plugin
        self._hosts[cls.name] = HostInfo(cls, origin or self._origin(cls))

    def _check_claims(self) -> None:
        """Skip, with one warning, each plugin host that names a file another host writes, settings
        or record: its install would find that host's entries "already installed" and its uninstall
        take them out. Built-ins win, then the first plugin. Done when the plugin's host is first
        used or the hosts are listed, not at start-up: it loads every built-in host to compare."""
        if not self._unchecked:
            return
        from hookweave.core.contract.admission import claimed

        unchecked, self._unchecked = self._unchecked, {}
        for name in list(self._pending):
            self._load(name)
        taken = {path: f"{info.cls.title}'s {what}" for name, info in self._hosts.items() if name not in unchecked
                 for path, what in claimed(info.cls).items()}
        for name, label in unchecked.items():
            cls, mine = self._hosts[name].cls, claimed(self._hosts[name].cls)
            clash = next((path for path in mine if path in taken), None)
            if clash is None:
                taken.update({path: f"{cls.title}'s {what}" for path, what in mine.items()})
                continue
            del self._hosts[name]
            self.warn(f"{label}: host {name!r} names {clash} as its {mine[clash]}, which is {taken[clash]}: a plugin "
                      f"may never claim another agent's file or record; skipped{_hint(label)}")

    def _load(self, name: str) -> None:
        """Register the built-in host ``name`` through the plugin hook, as an entry point would be."""
        module_name = self._pending.pop(name, None)
        if module_name is None:
            return
        module = importlib.import_module(module_name)
        if self._pm is None:  # the hook's one implementation: called with the hook's arguments
            module.hookweave_register_hosts(register=self._register_built_in)
            return
        from hookweave.core.contract.hookspecs import hookimpl

        # A built-in hook function is a plain function (loading it needs no pluggy); pluggy's own
        # marker goes on it here, where pluggy looks for it.
        hookimpl(module.hookweave_register_hosts)
        self._pm.register(module, name=module_name)
        self._pm.check_pending()
        caller = self._pm.subset_hook_caller(
            "hookweave_register_hosts", [p for p in self._pm.get_plugins() if p is not module]
        )
        caller(register=self._register_built_in)

    def _register_built_in(self, cls: type[Host]) -> None:
        # Not ``admission.checked``: a built-in host that fails it is a bug, which its test finds
        # (tests/shipping/test_startup_imports.py checks every one); checking all fourteen on every command
        # that reads them (verify's look at every agent) cost about 1.5% of the command's work.
        self._register(cls)

    def _origin(self, cls: type[Host]) -> str:
        module = cls.__module__
        if module.startswith("hookweave.") and not module.startswith("hookweave.described."):
            return "built-in"
        for plugin_module, dist in self._dists.items():
            if plugin_module and (module == plugin_module or module.startswith(plugin_module + ".")):
                return dist
        return module

    @property
    def built_in_only(self) -> bool:
        """No plugin installed: every host is one of ``BUILT_IN``, whose files' places are known."""
        return self._pm is None

    def names(self) -> list[str]:
        self._check_claims()
        return sorted({*self._hosts, *self._pending})

    def info(self, name: str) -> HostInfo:
        self._load(name)
        if name in self._unchecked:
            self._check_claims()
        if name not in self._hosts:
            self.get(name)  # says why, as for --host
        return self._hosts[name]

    def get(self, name: str) -> Host:
        self._load(name)
        if name in self._unchecked:
            self._check_claims()
        if name not in self._hosts:
            known = ", ".join(self.names()) or "none"
            close = self.close_to(name)
            hint = f"did you mean {close}? " if close else ""
            raise BadInput(f"unknown host {name!r}; {hint}registered hosts: {known} (or all)")
        return self._hosts[name].cls()

    def close_to(self, name: str) -> str | None:
        """The registered host a mistyped ``--host`` most likely means: its name or title in another
        case or spelling (``Claude``, ``claude-code``, ``Claude Code``), or a close match (``claud``)."""
        import difflib
        import re

        keys: dict[str, str] = {}
        for known in self.names():
            try:
                self._load(known)
                title = self._hosts[known].cls.title
            except Exception:  # noqa: BLE001 - only a hint: a host that will not load offers its name alone
                title = ""
            words = re.findall(r"[a-z0-9]+", title.lower())
            for key in (known, "".join(words), "-".join(words), "_".join(words), *words[:1]):
                keys.setdefault(key, known)
        wanted = name.strip().lower()
        squeezed = re.sub(r"[^a-z0-9]", "", wanted)
        for key in (wanted, squeezed):
            if key in keys:
                return keys[key]
        close = difflib.get_close_matches(wanted, list(keys), n=1, cutoff=0.6)
        return keys[close[0]] if close else None

    def resolve(self, requested: list[str]) -> list[Host]:
        """Hosts for repeated ``--host`` values; ``all`` means every registered host. A value with
        commas (``claude,gemini``) is read as that list, as if ``--host`` had been repeated."""
        requested = [part.strip() for value in requested for part in value.split(",") if part.strip()]
        if "all" in requested:
            return [self.get(n) for n in self.names()]
        return [self.get(n) for n in dict.fromkeys(requested)]


def _hint(label: str) -> str:
    """How to stop the warning: the entry point's name in the block list."""
    entry = label.split(" ", 2)[1] if label.startswith("plugin ") else None
    return f" (set {BLOCK_ENV}={entry} to stop loading it)" if entry else ""

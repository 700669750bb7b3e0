"""What verify found, as data the report renders: per hook, bundle, scope file and host."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookweave.core.model.findings import Finding

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host
    from hookweave.core.model.agentplugins import PluginHook


class HookStatus:
    """One recorded hook as verify finds it (mutable: ``judge_order`` weighs it again on every scope)."""

    __slots__ = ("id", "event", "position", "status", "detail", "level")

    def __init__(self, id: str, event: str, position: str, status: str, detail: str = "", level: str = "problem") -> None:
        self.id, self.event, self.position = id, event, position
        self.status = status  # ok | missing | modified | duplicated | out-of-order
        self.detail = detail
        self.level = level  # of a status other than ok; out-of-order is a note where order does not hold

    def as_json(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in self.__slots__}


class BundleReport:
    __slots__ = ("name", "version", "hooks")

    def __init__(self, name: str, version: str) -> None:
        self.name, self.version = name, version
        self.hooks: list[HookStatus] = []


class FileReport:
    """One scope file's bundles and findings (built up by ``verify_file``, hence mutable)."""

    __slots__ = ("scope", "shown", "bundles", "findings")

    def __init__(self, scope: str, shown: str) -> None:
        self.scope, self.shown = scope, shown
        self.bundles: list[BundleReport] = []
        self.findings: list[Finding] = []

    @property
    def problems(self) -> int:
        bad_hooks = sum(1 for b in self.bundles for h in b.hooks if h.status != "ok" and h.level == "problem")
        return bad_hooks + sum(1 for f in self.findings if f.level == "problem")


class HostReport:
    """What verify found for one host: a report per scope file, and the host-wide findings."""

    __slots__ = ("host", "files", "findings", "plugin_hooks")

    def __init__(self, host: Host) -> None:
        self.host = host
        self.files: list[FileReport] = []
        self.findings: list[Finding] = []
        self.plugin_hooks: list[PluginHook] = []  # the agent's own plugins' hooks: read, never written

    @property
    def problems(self) -> int:
        return sum(f.problems for f in self.files) + sum(1 for f in self.findings if f.level == "problem")

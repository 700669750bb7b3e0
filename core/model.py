"""Frozen data the pure core passes around. No IO here."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Position = Literal["first", "last"]
Policy = Literal["if-absent", "override", "at-least"]
from hookweave.core.findings import Finding  # noqa: F401 - one import for the core's data
from hookweave.core.names import POLICIES, POSITIONS  # noqa: F401 - likewise
HOOK_FIELDS = ("event", "matcher", "command", "timeout", "position")


@dataclass(frozen=True)
class BundleHook:
    """One ``[[hooks]]`` entry of a manifest, as written (neutral names, unrendered command)."""

    id: str
    event: str
    command: str | tuple[str, ...]
    matcher: tuple[str, ...] | str | None = None
    timeout: int | None = None
    position: Position = "last"
    hosts: tuple[str, ...] | None = None
    overrides: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class EnvVar:
    name: str
    value: str
    policy: Policy = "if-absent"
    hosts: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Bundle:
    name: str
    version: str
    description: str
    hooks: tuple[BundleHook, ...]
    env: tuple[EnvVar, ...]
    manifest: Path
    directory: Path
    sequential: bool = False  # ask hosts that can (Gemini) to run an event's hooks in order


@dataclass(frozen=True)
class HookForHost:
    """A bundle hook with the host override applied and names still unmapped."""

    id: str
    event: str
    command: str | tuple[str, ...]
    matcher: tuple[str, ...] | str | None
    timeout: int | None
    position: Position


@dataclass(frozen=True)
class Registration:
    """One bundle hook rendered into one host's native entry."""

    bundle: str
    id: str
    event: str  # native event name
    position: Position
    entry: dict[str, Any]

"""Frozen data the pure core passes around. No IO here.

Values are ``FieldTuple`` classes (named tuples, ``formats/fieldtuple.py``) rather than frozen
dataclasses or ``typing.NamedTuple``: both compile code for each class when its module loads (a
dataclass its methods, about 0.4 ms a class; ``NamedTuple`` its ``__new__``), a cost every command
paid at start-up. Their defaults are never mutated (a dict default is shared, as
``field(default_factory=...)`` avoided).
"""

from pathlib import Path
from typing import Any, Literal

from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.model.findings import Finding  # noqa: F401 - one import for the core's data
from hookweave.core.model.names import POLICIES, POSITIONS  # noqa: F401 - likewise

Position = Literal["first", "last"]
Policy = Literal["if-absent", "override", "at-least"]

HOOK_FIELDS = ("event", "matcher", "command", "timeout", "position")
# Host-native keys only a [hooks.host.<host>] table may set (what ``hooks adopt`` writes so that an
# operator's hand-written entry renders back exactly): extra handler and group keys, and keys of the
# rendered handler to leave out.
NATIVE_FIELDS = ("handler", "group", "omit")


class BundleHook(FieldTuple):
    """One ``[[hooks]]`` entry of a manifest, as written (neutral names, unrendered command)."""

    id: str
    event: str
    command: str | tuple[str, ...]
    matcher: tuple[str, ...] | str | None = None
    timeout: int | None = None
    position: Position = "last"
    hosts: tuple[str, ...] | None = None
    overrides: dict[str, dict[str, Any]] = {}  # noqa: RUF012 - read only
    order: str | None = None  # "chain" or "alone"; None: the bundle's order


class EnvVar(FieldTuple):
    name: str
    value: str
    policy: Policy = "if-absent"
    hosts: tuple[str, ...] | None = None


class Bundle(FieldTuple):
    name: str
    version: str
    description: str
    hooks: tuple[BundleHook, ...]
    env: tuple[EnvVar, ...]
    manifest: Path
    directory: Path
    sequential: bool = False  # ask hosts that can (Gemini) to run an event's hooks in order
    order: str = "alone"  # "chain": an event's hooks run one after another through one registration
    portable: str | None = None  # the bundle folder relative to the install's project (POSIX), when inside it


class HookForHost(FieldTuple):
    """A bundle hook with the host override applied and names still unmapped."""

    id: str
    event: str
    command: str | tuple[str, ...]
    matcher: tuple[str, ...] | str | None
    timeout: int | None
    position: Position
    handler: dict[str, Any] = {}  # noqa: RUF012 - read only: native keys set on the rendered handler
    group: dict[str, Any] = {}  # noqa: RUF012 - read only: native keys set on the rendered group
    omit: tuple[str, ...] = ()  # keys of the rendered handler to leave out


class Registration(FieldTuple):
    """One bundle hook rendered into one host's native entry."""

    bundle: str
    id: str
    event: str  # native event name
    position: Position
    entry: dict[str, Any]
    members: tuple[tuple[str, str], ...] = ()  # a chain's (member id, hash of its words), in order

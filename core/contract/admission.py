"""What a host must be to be registered: a ``Host`` subclass or a ``Description`` whose facts hold.

A plugin's host that fails is refused with one line naming the field and the fix; the registry
skips it with a warning and every other host keeps working. A built-in host that fails is a bug
and stops the command (its test catches it first).
"""

from __future__ import annotations

import os
from pathlib import Path

from hookweave.core.contract.abstractness import mark, marked
from hookweave.core.contract.description import DEDUP, NAME, RUNS, Description, check
from hookweave.core.contract.host import Host
from hookweave.core.errors import BadInput
from hookweave.core.model import names

ORDERS = ("parallel", "file", "sequential-flag")
PROBE_PROJECT = Path("/nonexistent-hookweave-project")  # settings_path must answer for any folder


def host_class_of(registered: object) -> type[Host]:
    """The ``Host`` class for what a plugin registered, checked; ``BadInput`` naming the field."""
    if isinstance(registered, Description):
        checked_description(registered)
        from hookweave.core.contract.describe import host_class

        return host_class(registered)
    if not (isinstance(registered, type) and issubclass(registered, Host)):
        raise BadInput(f"registered {registered!r}, which is neither a hookweave Host subclass nor a Description")
    return checked(registered)


def checked_description(description: Description) -> None:
    from hookweave.core.standalone.verdicts import JUDGED  # the answer protocols a description may name

    problem = check(description, set(names.EVENTS), set(names.TOOLS), set(JUDGED))
    if problem:
        raise BadInput(f"description {getattr(description, 'name', '?')!r}: {problem}")


def checked(cls: type[Host]) -> type[Host]:
    """``cls``, when its facts hold (and those of the description it was built from, if any)."""
    where = f"host class {cls.__module__}.{cls.__qualname__}"
    if not marked(cls):  # a base's __init_subclass__ did not call Host's: refused if abstract, as under abc.ABC
        mark(cls)
    if isinstance(getattr(cls, "description", None), Description):
        checked_description(cls.description)  # type: ignore[attr-defined]
    if not cls.name:
        raise BadInput(f"{where} does not set `name`")
    problem = _class_problem(cls)
    if problem:
        raise BadInput(f"{where}: {problem}")
    return cls


def _class_problem(cls: type[Host]) -> str | None:
    if not isinstance(cls.name, str) or not NAME.fullmatch(cls.name):
        return f"name {cls.name!r} is not lowercase letters, digits and dashes"
    if not isinstance(cls.title, str) or not cls.title.strip():
        return "title is empty"
    for label, table, known in (("events", cls.events, names.EVENTS), ("tools", cls.tools, names.TOOLS)):
        unknown = sorted(set(table) - set(known))
        if unknown:
            return f"{label}: {', '.join(map(repr, unknown))} not a neutral name (known: {', '.join(sorted(known))})"
    if cls.order not in ORDERS:
        return f"order {cls.order!r} is not one of {', '.join(ORDERS)}"
    if cls.dedup not in DEDUP:
        return f"dedup {cls.dedup!r} is not one of {', '.join(DEDUP)}"
    if cls.runs not in RUNS:
        return f"runs {cls.runs!r} is not one of {', '.join(RUNS)}"
    if cls.timeout_unit not in ("s", "ms"):
        return f"timeout_unit {cls.timeout_unit!r} is not s or ms"
    try:
        host = cls()
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin's constructor: any failure refuses it
        return f"cannot be created: {type(exc).__name__}: {exc}"
    for scope in dict.fromkeys([*cls.scopes, *cls.verify_scopes]):
        try:
            path = host.settings_path(scope, PROBE_PROJECT)
        except BadInput:  # the user's to fix (HOME not set): said as it is, not as a fault of the host
            raise
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - likewise: the path of every declared scope must resolve
            return f"settings_path({scope!r}) fails: {type(exc).__name__}: {exc}"
        if not isinstance(path, Path):
            return f"settings_path({scope!r}) returned {type(path).__name__}, not a Path"
    return None


def claimed(cls: type[Host]) -> dict[str, str]:
    """The files a host writes, each scope's settings file and its record (normalised paths, with
    ``PROBE_PROJECT`` as the project), and what each is to it: what no other host may name."""
    try:
        host = cls()
    except (Exception, SystemExit):  # noqa: BLE001 - ``checked`` has refused such a plugin already
        return {}
    found: dict[str, str] = {}
    for scope in dict.fromkeys([*cls.scopes, *cls.verify_scopes]):
        try:
            settings = host.settings_path(scope, PROBE_PROJECT)
            record = host.record_path(settings)
        except (Exception, SystemExit):  # noqa: BLE001 - likewise
            continue
        found.setdefault(os.path.normpath(settings), f"{scope} settings file")
        found.setdefault(os.path.normpath(record), f"{scope} record")
    return found

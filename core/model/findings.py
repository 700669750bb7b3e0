"""What verify, install and uninstall tell the user: a light module, loaded by every command."""

from typing import Any, Literal

from hookweave.core.formats.fieldtuple import FieldTuple

# What a gate says of a trust store it was not given: ``verify --repo`` reads no file outside the repository.
UNREAD = "verify --repo reads no file outside the repository"


class Finding(FieldTuple):
    """Something verify or an operation wants the user to know; ``problem`` makes verify exit 1.

    ``machine``: a fact of this machine (a trust store, a switch in the environment, the user or
    managed settings, a program on PATH), not of the repository's files. The check that finds it
    says so, and ``verify --repo`` weighs such a problem as a warning: a teammate's clone or CI
    has other machine facts, and the repository cannot fix them."""

    level: Literal["problem", "warning", "note"]
    message: str
    bundle: str | None = None
    hook: str | None = None
    machine: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"level": self.level, "bundle": self.bundle, "hook": self.hook, "message": self.message,
                "machine": self.machine}

"""What verify, install and uninstall tell the user: a light module, loaded by every command."""

# No postponed annotations: NamedTuple would compile each string annotation (see model/bundle.py).

from typing import Any, Literal, NamedTuple


class Finding(NamedTuple):
    """Something verify or an operation wants the user to know; ``problem`` makes verify exit 1."""

    level: Literal["problem", "warning", "note"]
    message: str
    bundle: str | None = None
    hook: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"level": self.level, "bundle": self.bundle, "hook": self.hook, "message": self.message}

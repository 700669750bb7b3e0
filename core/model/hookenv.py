"""A bundle variable written into each hook's own ``env`` (Gemini), and that form read back.

The hook's env replaces an exported variable, so ``if-absent`` is written ``${NAME:-value}``, which
the host resolves when it loads settings: the exported value when there is one, else ours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hookweave.core.formats.lazypattern import LazyPattern

if TYPE_CHECKING:
    from hookweave.core.model.bundle import EnvVar

_IF_ABSENT_FORM = LazyPattern(r"^\$\{(\w+):-[^}$]*\}$")


def hook_env_value(var: EnvVar) -> str:
    """A bundle variable as a per-hook ``env`` value. The hook's env replaces an exported
    variable, so ``if-absent`` is written ``${NAME:-value}``, which the host resolves when it loads
    settings: the exported value when there is one, else ours. A value holding ``$`` or ``}``
    cannot be written so and stays as is; ``override`` and ``at-least`` are written as is."""
    if var.policy == "if-absent" and "$" not in var.value and "}" not in var.value:
        return "${" + var.name + ":-" + var.value + "}"
    return var.value


def keeps_exported(name: str, written: str) -> bool:
    """Whether a per-hook env value lets an exported value through (our ``if-absent`` form)."""
    found = _IF_ABSENT_FORM.match(written)
    return bool(found) and found.group(1) == name

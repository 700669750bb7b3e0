"""Pure env-var policies (if-absent, override, at-least) for a settings-level env object.

The record keeps, per variable, the value we set and the value it had before (the *prior*), so
reinstall follows the same policy as the first install and uninstall can put the prior back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hookweave.core.model import EnvVar

_INT = re.compile(r"^\s*-?\d+\s*$")


@dataclass(frozen=True)
class RecordedEnv:
    value: str
    policy: str
    prior: str | None  # None: the variable was absent
    applied: bool  # False: the operator's value was kept and is not ours to remove


def _decide(var: EnvVar, baseline: str | None) -> tuple[bool, str]:
    """Whether to set ``var`` over ``baseline``, and why not when we keep the operator's value."""
    if baseline is None:
        return True, ""
    if var.policy == "override":
        return True, ""
    if var.policy == "if-absent":
        return False, f"kept the operator's value {baseline!r} (policy if-absent)"
    if not _INT.match(baseline):
        return False, f"kept the operator's value {baseline!r}: not a whole number (policy at-least)"
    current, wanted = int(baseline), int(var.value)
    if current <= 0:
        return False, f"kept the operator's value {baseline!r}: 0 or less means no limit (policy at-least)"
    if current >= wanted:
        return False, f"kept the operator's value {baseline!r}, already at least {var.value} (policy at-least)"
    return True, ""


def install_env(
    env: dict[str, str], wanted: tuple[EnvVar, ...], recorded: dict[str, RecordedEnv]
) -> tuple[dict[str, str], dict[str, RecordedEnv], list[tuple[str, str]]]:
    """New env object, new record entries and notes for the variables of one bundle."""
    env = dict(env)
    new_record: dict[str, RecordedEnv] = {}
    notes: list[tuple[str, str]] = []
    for var in wanted:
        current = env.get(var.name)
        mine = recorded.get(var.name)
        if mine and mine.applied and current == mine.value:
            baseline = mine.prior  # re-decide against what the operator had before us
        else:
            baseline = current
        apply, why = _decide(var, baseline)
        if apply:
            if current != var.value:
                was = "was unset" if current is None else f"was {current!r}"
                notes.append((var.name, f"set to {var.value!r} ({was}; policy {var.policy})"))
            env[var.name] = var.value
            new_record[var.name] = RecordedEnv(var.value, var.policy, baseline, True)
        else:
            if mine and mine.applied and current == mine.value:
                _restore(env, var.name, mine.prior)
            new_record[var.name] = RecordedEnv(var.value, var.policy, baseline, False)
            if not (mine and not mine.applied and current == baseline):
                notes.append((var.name, why))
    for name, mine in recorded.items():
        if name not in new_record:  # dropped from the bundle: undo like uninstall would
            notes.extend(_uninstall_one(env, name, mine))
    return env, new_record, notes


def uninstall_env(env: dict[str, str], recorded: dict[str, RecordedEnv]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    env = dict(env)
    notes: list[tuple[str, str]] = []
    for name, mine in recorded.items():
        notes.extend(_uninstall_one(env, name, mine))
    return env, notes


def _uninstall_one(env: dict[str, str], name: str, mine: RecordedEnv) -> list[tuple[str, str]]:
    if not mine.applied:
        return []
    if env.get(name) != mine.value:
        return [(name, f"left as is: it holds {env.get(name)!r}, not the installed {mine.value!r}")]
    _restore(env, name, mine.prior)
    return []


def _restore(env: dict[str, str], name: str, prior: str | None) -> None:
    if prior is None:
        env.pop(name, None)
    else:
        env[name] = prior

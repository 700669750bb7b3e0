"""Pure env-var policies (if-absent, override, at-least) for a settings-level env object.

The record keeps, per variable, the value we set and the value it had before (the *prior*), so
reinstall follows the same policy as the first install and uninstall can put the prior back.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # read by the record on every command; the manifest's data loads with install
    from hookweave.core.model import EnvVar

_INT = re.compile(r"^\s*-?[0-9]+\s*$")  # ASCII digits: what the hosts parse as a number


class RecordedEnv(NamedTuple):
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
        return False, f"kept the operator's value {_short(baseline)} (policy if-absent)"
    if not _INT.match(baseline):
        return False, f"kept the operator's value {_short(baseline)}: not a whole number (policy at-least)"
    if _parts(baseline)[0] <= 0:
        return False, f"kept the operator's value {_short(baseline)}: 0 or less means no limit (policy at-least)"
    if _at_least(baseline, var.value):
        return False, f"kept the operator's value {_short(baseline)}, already at least {var.value if len(var.value) <= 40 else _short(var.value)} (policy at-least)"
    return True, ""


def _parts(text: str) -> tuple[int, int, str]:
    """(sign, digit count, digits) of a whole number of any length; ``int()`` stops at 4300 digits."""
    text = text.strip()
    digits = text.lstrip("-").lstrip("0")
    sign = 0 if not digits else -1 if text.startswith("-") else 1
    return sign, len(digits), digits


def _at_least(a: str, b: str) -> bool:
    """Whether the whole number ``a`` is at least ``b``, compared as digit strings."""
    (sa, la, da), (sb, lb, db) = _parts(a), _parts(b)
    if sa != sb:
        return sa > sb
    return (la, da) >= (lb, db) if sa >= 0 else (la, da) <= (lb, db)


def _short(value: str) -> str:
    """An operator's value for a one-line note: repr, cut in the middle when long."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:28]}...{text[-28:]} ({len(value)} characters)"


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
                was = "was unset" if current is None else f"was {_short(current)}"
                notes.append((var.name, f"set to {_short(var.value)} ({was}; policy {var.policy})"))
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
        return [(name, f"left as is: it holds {_short(env.get(name))}, not the installed {_short(mine.value)}")]
    _restore(env, name, mine.prior)
    return []


def _restore(env: dict[str, str], name: str, prior: str | None) -> None:
    if prior is None:
        env.pop(name, None)
    else:
        env[name] = prior

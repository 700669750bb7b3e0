"""Pure env-var policies (if-absent, override, at-least) for a settings-level env object.

The record keeps, per variable, the value we set and the value it had before (the *prior*), so
reinstall follows the same policy as the first install and uninstall can put the prior back.

When the file has no value, the one the host would use without ours is the operator's too: a
lower scope's settings env, else the variable exported in the shell install runs in (a host
whose settings env replaces an exported variable, Claude, would otherwise lose it to ours).
``if-absent`` and ``at-least`` keep it by writing nothing; an exported value then reaches hooks
only when the agent starts from a shell that exports it, which verify (run in that shell) checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from hookweave.core.formats.lazypattern import LazyPattern
from hookweave.core.model.record import RecordedEnv

if TYPE_CHECKING:  # read by the record on every command; the manifest's data loads with install
    from hookweave.core.model.bundle import EnvVar


def _whole_number(text: str) -> bool:
    """``^\\s*-?[0-9]+\\s*$``, ASCII digits: what the hosts parse as a number (no pattern compiled on
    every verify and install: ``strip`` takes the same whitespace as ``\\s``, ``str.isspace``'s)."""
    digits = text.strip()
    digits = digits[1:] if digits.startswith("-") else digits
    return digits.isascii() and digits.isdigit()


def _decide(var: EnvVar, baseline: str | None) -> tuple[bool, str]:
    """Whether to set ``var`` over ``baseline``, and why not when we keep the operator's value."""
    keep = keeps(var.policy, var.value, baseline)
    return (False, f"kept the operator's value {short(baseline)}{keep}") if keep else (True, "")


def keeps(policy: str, value: str, found: str | None) -> str:
    """Why ``policy`` for ``value`` leaves the operator's ``found`` value alone (``""``: it would
    set ``value`` instead). The one judgement install acts on and verify checks the host's value by."""
    if found is None or policy == "override":
        return ""
    if policy == "if-absent":
        return " (policy if-absent)"
    if not _whole_number(found):
        return ": not a whole number (policy at-least)"
    if _parts(found)[0] <= 0:
        return ": 0 or less means no limit (policy at-least)"
    if _at_least(found, value):
        return f", already at least {value if len(value) <= 40 else short(value)} (policy at-least)"
    return ""


def allows(policy: str, value: str, found: str | None) -> bool:
    """Whether a host using ``found`` agrees with the policy: our value, or one it would keep."""
    return found == value or bool(keeps(policy, value, found))


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


def short(value: str) -> str:
    """An operator's value for a one-line note: repr, cut in the middle when long."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:28]}...{text[-28:]} ({len(value)} characters)"


EXPORTED = "exported in this shell"


def install_env(
    env: dict[str, str], wanted: tuple[EnvVar, ...], recorded: dict[str, RecordedEnv],
    inherited: Mapping[str, tuple[str, str]] | None = None,
) -> tuple[dict[str, str], dict[str, RecordedEnv], list[tuple[str, str]]]:
    """New env object, new record entries and notes for the variables of one bundle.

    ``inherited``: per variable, the value the host uses when this file does not set it and where
    it comes from (a lower scope's settings, or ``EXPORTED``): the operator's value too, which
    our entry would replace. The prior recorded stays this file's own (absent)."""
    env = dict(env)
    inherited = inherited or {}
    new_record: dict[str, RecordedEnv] = {}
    notes: list[tuple[str, str]] = []
    for var in wanted:
        current = env.get(var.name)
        mine = recorded.get(var.name)
        if mine and mine.applied and current == mine.value:
            baseline = mine.prior  # re-decide against what the operator had before us
        else:
            baseline = current
        outside, where = inherited.get(var.name, (None, "")) if baseline is None else (None, "")
        if outside is not None:
            keep = keeps(var.policy, var.value, outside)
            apply, why = not keep, f"kept the value {short(outside)} {where}{keep}"
            if where == EXPORTED:
                why += "; hooks see it only when the agent starts from a shell that exports it"
        else:
            apply, why = _decide(var, baseline)
        if apply:
            if current != var.value:
                was = "was unset" if current is None else f"was {short(current)}"
                if outside is not None and outside != var.value:
                    was += f"; it replaces the value {short(outside)} {where}"
                notes.append((var.name, f"set to {short(var.value)} ({was}; policy {var.policy})"))
            env[var.name] = var.value
            spelled = mine.prior_text if mine and baseline == mine.prior else None
            new_record[var.name] = RecordedEnv(var.value, var.policy, baseline, True, spelled)
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
        return [(name, f"left as is: it holds {short(env.get(name))}, not the installed {short(mine.value)}")]
    _restore(env, name, mine.prior)
    return []


def _restore(env: dict[str, str], name: str, prior: str | None) -> None:
    if prior is None:
        env.pop(name, None)
    else:
        env[name] = prior


# -- hosts with a per-hook env only (Gemini) -----------------------------------------------------

# What Gemini's settings loader replaces from its environment in every settings string: $NAME,
# ${NAME} and ${NAME:-default} (measured on 0.61: an exported value wins, else the default).
_EXPANDED = LazyPattern(r"\$(?:\w|\{)")  # compiled for a host that expands settings (Gemini) only


def hook_env_findings(host, bundle, exported: Mapping[str, str]) -> list:
    """What install says about a bundle's env on a host that puts it into each hook's ``env``."""
    from hookweave.core.model import hookenv  # the hosts that give each hook its env (Gemini) only
    from hookweave.core.model.findings import Finding

    out = []
    for var in bundle.env:
        if var.hosts is not None and host.name not in var.hosts:
            continue
        if _EXPANDED.search(var.value):
            out.append(Finding("warning", f"{var.name}: the value {short(var.value)} holds $, which {host.title} "
                               "replaces from the environment when it loads settings; hooks may not see it as written",
                               bundle.name))
        found = exported.get(var.name)
        if hookenv.keeps_exported(var.name, hookenv.hook_env_value(var)) or found is None or found == var.value:
            continue
        if keeps(var.policy, var.value, found):
            out.append(Finding("warning", f"{var.name}: exported as {short(found)} in this shell, but {host.title}'s "
                               f"per-hook env gives the hooks {short(var.value)}: it replaces an exported value, so "
                               f"policy {var.policy} cannot keep it there", bundle.name))
        else:
            out.append(Finding("note", f"{var.name}: {short(var.value)} replaces the value {short(found)} exported "
                               f"in this shell (policy {var.policy})", bundle.name))
    return out

"""Checking one ``[[hooks]]`` table of a manifest: its neutral fields, its per-host tables (host-native
names, and the native keys ``hooks adopt`` writes), matchers and commands.
"""

from __future__ import annotations

import difflib
from typing import Any

from hookweave.core.model import commandcheck, names
from hookweave.core.model.bundle import HOOK_FIELDS, NATIVE_FIELDS, POSITIONS, BundleHook
from hookweave.core.model.manifestcheck import Checker, check_order, control, key_path

HOOK_KEYS = ("id", *HOOK_FIELDS, "hosts", "host", "order")


def parse_hook(check: Checker, raw: Any, i: int) -> BundleHook:
    where = f"hooks[{i}]"
    raw = check.keys(raw, HOOK_KEYS, where)
    hook_id = check.name(raw.get("id"), f"{where}.id")
    where = f"hooks[{i}] ({hook_id})"
    fields = _hook_fields(check, raw, where, neutral=True)
    hosts = check.hosts(raw["hosts"], f"{where}.hosts") if "hosts" in raw else None
    overrides: dict[str, dict[str, Any]] = {}
    host_tables = raw.get("host", {})
    if not isinstance(host_tables, dict):
        raise check.fail(f"{where}.host", "must be a table", "write [hooks.host.<host>]")
    for host, table in host_tables.items():
        table = check.keys(table, HOOK_FIELDS + NATIVE_FIELDS, f"{where}.host.{key_path(host)}")
        overrides[host] = _hook_fields(check, table, f"{where}.host.{key_path(host)}", neutral=False)
        overrides[host].update(_native_fields(check, table, f"{where}.host.{key_path(host)}"))
    # An event with no neutral name (Claude's PostToolUseFailure) lives in the host tables only:
    # then ``hosts`` must name just hosts whose table gives it.
    native_only = hosts is not None and all("event" in overrides.get(h, {}) for h in hosts)
    for required in ("event", "command"):
        if required not in fields and not (required == "event" and native_only):
            raise check.fail(f"{where}.{required}", "missing", f"add {required} = ...")
    return BundleHook(
        id=hook_id,
        event=fields.get("event", ""),
        command=fields["command"],
        matcher=fields.get("matcher"),
        timeout=fields.get("timeout"),
        position=fields.get("position", "last"),
        hosts=hosts,
        overrides=overrides,
        order=check_order(check, raw["order"], f"{where}.order") if "order" in raw else None,
    )


def _hook_fields(check: Checker, raw: dict, where: str, *, neutral: bool) -> dict[str, Any]:
    """Validate the overridable fields; host tables may use host-native event and tool names."""
    out: dict[str, Any] = {}
    if "event" in raw:
        event = check.string(raw["event"], f"{where}.event", "use a neutral event name")
        if neutral and event not in names.EVENTS:
            close = difflib.get_close_matches(event, list(names.EVENTS), n=1)
            hint = f"did you mean {close[0]!r}?" if close else "use one of " + ", ".join(names.EVENTS)
            raise check.fail(f"{where}.event", f"unknown event {event!r}", hint)
        out["event"] = event
    if "matcher" in raw:
        out["matcher"] = _matcher(check, raw["matcher"], f"{where}.matcher", neutral)
    if "command" in raw:
        out["command"] = _command(check, raw["command"], f"{where}.command")
    if "timeout" in raw:
        timeout = raw["timeout"]
        if isinstance(timeout, bool) or not isinstance(timeout, int) or timeout <= 0:
            raise check.fail(f"{where}.timeout", "must be a whole number of seconds above 0", "e.g. timeout = 30")
        out["timeout"] = timeout
    if "position" in raw:
        if raw["position"] not in POSITIONS:
            raise check.fail(f"{where}.position", f"unknown position {raw['position']!r}", 'use "first" or "last"')
        out["position"] = raw["position"]
    return out


def _native_fields(check: Checker, raw: dict, where: str) -> dict[str, Any]:
    """``handler`` and ``group``: native keys set on the rendered entry as they are (JSON values;
    the keys hookweave renders itself are refused there); ``omit``: rendered handler keys left out."""
    out: dict[str, Any] = {}
    for part, own in (("handler", ("command",)), ("group", ("hooks",))):
        if part not in raw:
            continue
        table = raw[part]
        if not isinstance(table, dict):
            raise check.fail(f"{where}.{part}", "must be a table", f"write {part} = {{ key = value }}")
        for key, value in table.items():
            if key in own:
                raise check.fail(f"{where}.{part}.{key_path(key)}", "is written by hookweave", f"set the hook's {key} instead")
            bad = _not_json(value)
            if bad:
                raise check.fail(f"{where}.{part}.{key_path(key)}", f"holds {bad}, which no settings file can", "remove it")
        out[part] = dict(table)
    if "omit" in raw:
        omit = raw["omit"]
        if not isinstance(omit, list) or not all(isinstance(k, str) and k != "command" for k in omit):
            raise check.fail(f"{where}.omit", "must be a list of handler keys other than command", 'e.g. omit = ["type"]')
        out["omit"] = tuple(omit)
    return out


def _not_json(value: Any) -> str | None:
    """What in a TOML value JSON cannot hold (a date or time), or ``None``."""
    if isinstance(value, dict):
        return next((b for b in map(_not_json, value.values()) if b), None)
    if isinstance(value, list):
        return next((b for b in map(_not_json, value) if b), None)
    if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        return str(value)  # nan, inf: TOML has them, JSON does not
    return None if isinstance(value, (str, int, float, bool)) else f"a {type(value).__name__}"


def _matcher(check: Checker, value: Any, where: str, neutral: bool) -> tuple[str, ...] | str:
    if not neutral and isinstance(value, str):
        bad = control(value)
        if bad:
            raise check.fail(where, f"holds the control character {bad}", "remove it")
        return value  # a host-native matcher string, passed as is
    if not isinstance(value, list) or not value or not all(isinstance(t, str) for t in value):
        raise check.fail(where, "must be a list of tool names", 'e.g. matcher = ["shell"]')
    for tool in value:
        if tool not in names.TOOLS:
            raise check.fail(
                where,
                f"unknown tool {tool!r}",
                f"use {', '.join(names.TOOLS)}, or a native matcher string in [hooks.host.<host>]",
            )
    return tuple(value)


def _command(check: Checker, value: Any, where: str) -> str | tuple[str, ...]:
    # A NUL cannot reach a shell (argv strings end at it), and the other control characters but
    # tab and newline are invisible in every settings file and message: refuse them all.
    words = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    for word in words:
        bad = control(word, "\t\n") if isinstance(word, str) else None
        if bad:
            raise check.fail(where, f"holds the control character {bad}", "remove it, or write it as a shell escape")
    typo = commandcheck.mistake(value) if isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(a, str) for a in value)) else None
    if typo:
        raise check.fail(where, *typo)
    if isinstance(value, str):
        check.string(value, where, "give the shell command to run")
        if value.rstrip(" \t").endswith("\\"):
            raise check.fail(where, "ends with a line continuation", "remove the trailing backslash")
        return value
    if isinstance(value, list) and value and all(isinstance(a, str) for a in value) and value[0]:
        return tuple(value)
    raise check.fail(where, "must be a string or a non-empty list of strings", 'e.g. ["python3", "{bundle_dir}/hook.py"]')

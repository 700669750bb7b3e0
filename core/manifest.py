"""Pure parsing and validation of a bundle manifest (``hookweave.toml``, DESIGN.md section 2).

Every error names the file, the key and the fix, and is raised as ``BadInput`` (exit 2).
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

from hookweave.core import names, tomlload
from hookweave.core.errors import BadInput
from hookweave.core.model import HOOK_FIELDS, NATIVE_FIELDS, POLICIES, POSITIONS, Bundle, BundleHook, EnvVar

NAME_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")  # fullmatch: "$" would let a final newline in
ENV_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
BUNDLE_KEYS = ("name", "version", "description", "sequential", "order")
ORDERS = ("alone", "chain")
HOOK_KEYS = ("id", *HOOK_FIELDS, "hosts", "host", "order")
ENV_KEYS = ("value", "hosts", "policy")


class _Checker:
    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, what: str, fix: str) -> BadInput:
        return BadInput(f"{self.path}: {where}: {what}; {fix}")

    def keys(self, table: Any, allowed: tuple[str, ...], where: str) -> dict[str, Any]:
        if not isinstance(table, dict):
            raise self.fail(where, f"must be a table, not {_kind(table)}", f"write it as [{where}]")
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f"did you mean {close[0]!r}?" if close else f"allowed keys: {', '.join(allowed)}"
                raise self.fail(f"{where}.{_key(key)}", "unknown key", hint)
        return table

    def string(self, value: Any, where: str, fix: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, "must be a non-empty string", fix)
        return value

    def name(self, value: Any, where: str) -> str:
        value = self.string(value, where, 'use lowercase letters, digits and dashes, e.g. "my-guard"')
        if not NAME_RE.fullmatch(value):
            raise self.fail(
                where, f"{value!r} is not a valid name", "use lowercase letters, digits and dashes (up to 64)"
            )
        return value

    def hosts(self, value: Any, where: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not value or not all(isinstance(h, str) for h in value):
            raise self.fail(where, "must be a list of host names", 'e.g. hosts = ["claude", "gemini"]')
        return tuple(value)


def _key(key: str) -> str:
    """A TOML key as written in a dotted path: bare when it can be, else quoted (one line, always)."""
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def _kind(value: Any) -> str:
    return {dict: "a table", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), type(value).__name__
    )


def parse_manifest(text: str, path: Path) -> Bundle:
    """Validate manifest text read from ``path`` and return the bundle it describes."""
    data = tomlload.load(text, path)
    check = _Checker(path)
    check.keys(data, ("bundle", "hooks", "env"), "manifest")
    meta = check.keys(data.get("bundle"), BUNDLE_KEYS, "bundle") if "bundle" in data else None
    if meta is None:
        raise check.fail("bundle", "missing", 'add a [bundle] table with name and version')
    name = check.name(meta.get("name"), "bundle.name")
    version = check.string(meta.get("version"), "bundle.version", 'e.g. version = "1.0.0"')
    description = meta.get("description", "")
    if not isinstance(description, str):
        raise check.fail("bundle.description", "must be a string", "quote it")
    sequential = meta.get("sequential", False)
    if not isinstance(sequential, bool):
        raise check.fail("bundle.sequential", "must be true or false", "write sequential = true")
    order = _order(check, meta.get("order", "alone"), "bundle.order")
    raw_hooks = data.get("hooks", [])
    if not isinstance(raw_hooks, list):
        raise check.fail("hooks", "must be an array of tables", "write each hook as [[hooks]]")
    hooks = tuple(_hook(check, raw, i) for i, raw in enumerate(raw_hooks))
    seen: set[str] = set()
    for i, hook in enumerate(hooks):
        if hook.id in seen:
            raise check.fail(f"hooks[{i}].id", f"duplicate id {hook.id!r}", "give every hook its own id")
        seen.add(hook.id)
    env_table = data.get("env", {})
    if not isinstance(env_table, dict):
        raise check.fail("env", "must be a table of tables", "write [env.NAME] with value = ...")
    env = tuple(_env(check, key, raw) for key, raw in env_table.items())
    if not hooks and not env:
        raise check.fail("hooks", "the bundle has no hooks and no env", "add a [[hooks]] table")
    return Bundle(name, version, description, hooks, env, path, path.parent, sequential, order)


def _order(check: _Checker, value: Any, where: str) -> str:
    if value not in ORDERS:
        shown = json.dumps(value) if isinstance(value, str) else _kind(value)
        raise check.fail(where, f"unknown order {shown}", 'use "chain" (one after another, first block wins) or "alone"')
    return value


def _hook(check: _Checker, raw: Any, i: int) -> BundleHook:
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
        table = check.keys(table, HOOK_FIELDS + NATIVE_FIELDS, f"{where}.host.{_key(host)}")
        overrides[host] = _hook_fields(check, table, f"{where}.host.{_key(host)}", neutral=False)
        overrides[host].update(_native_fields(check, table, f"{where}.host.{_key(host)}"))
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
        order=_order(check, raw["order"], f"{where}.order") if "order" in raw else None,
    )


def _hook_fields(check: _Checker, raw: dict, where: str, *, neutral: bool) -> dict[str, Any]:
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


def _native_fields(check: _Checker, raw: dict, where: str) -> dict[str, Any]:
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
                raise check.fail(f"{where}.{part}.{_key(key)}", "is written by hookweave", f"set the hook's {key} instead")
            bad = _not_json(value)
            if bad:
                raise check.fail(f"{where}.{part}.{_key(key)}", f"holds {bad}, which no settings file can", "remove it")
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


def _matcher(check: _Checker, value: Any, where: str, neutral: bool) -> tuple[str, ...] | str:
    if not neutral and isinstance(value, str):
        bad = _control(value)
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


def _control(value: str, allowed: str = "") -> str | None:
    """The first control character in ``value`` that is not in ``allowed``, as an escape."""
    bad = next((c for c in value if (c < " " or c == "\x7f") and c not in allowed), None)
    return None if bad is None else bad.encode("unicode_escape").decode()


def _command(check: _Checker, value: Any, where: str) -> str | tuple[str, ...]:
    # A NUL cannot reach a shell (argv strings end at it), and the other control characters but
    # tab and newline are invisible in every settings file and message: refuse them all.
    words = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    for word in words:
        bad = _control(word, "\t\n") if isinstance(word, str) else None
        if bad:
            raise check.fail(where, f"holds the control character {bad}", "remove it, or write it as a shell escape")
    if isinstance(value, str):
        check.string(value, where, "give the shell command to run")
        if value.rstrip(" \t").endswith("\\"):
            raise check.fail(where, "ends with a line continuation", "remove the trailing backslash")
        return value
    if isinstance(value, list) and value and all(isinstance(a, str) for a in value) and value[0]:
        return tuple(value)
    raise check.fail(where, "must be a string or a non-empty list of strings", 'e.g. ["python3", "{bundle_dir}/hook.py"]')


def _env(check: _Checker, key: str, raw: Any) -> EnvVar:
    where = f"env.{_key(key)}"
    if not ENV_RE.fullmatch(key):
        raise check.fail(where, f"{key!r} is not a valid variable name", "use letters, digits and _")
    raw = check.keys(raw, ENV_KEYS, where)
    if "value" not in raw:
        raise check.fail(f"{where}.value", "missing", 'add value = "..."')
    value = raw["value"]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise check.fail(f"{where}.value", "must be a string or a whole number", 'e.g. value = "5000"')
    if isinstance(value, str) and "\x00" in value:
        raise check.fail(f"{where}.value", "holds a NUL character, which no environment variable can", "remove it")
    policy = raw.get("policy", "if-absent")
    if policy not in POLICIES:
        raise check.fail(f"{where}.policy", f"unknown policy {policy!r}", "use " + ", ".join(POLICIES))
    if policy == "at-least" and not re.fullmatch(r"-?[0-9]+", str(value)):
        raise check.fail(f"{where}.value", "at-least needs a whole number", f'e.g. value = "5000"')
    hosts = check.hosts(raw["hosts"], f"{where}.hosts") if "hosts" in raw else None
    return EnvVar(key, str(value), policy, hosts)


def check_hosts(bundle: Bundle, known: list[str]) -> None:
    """Refuse host names no registered host has (a typo would install nothing, silently).

    The parser is pure and knows no registry, so the installer calls this once hosts are loaded.
    """
    check = _Checker(bundle.manifest)

    def one(name: str, where: str) -> None:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"registered hosts: {', '.join(known)}"
            raise check.fail(where, f"unknown host {name!r}", hint)

    for i, hook in enumerate(bundle.hooks):
        for name in hook.hosts or ():
            one(name, f"hooks[{i}] ({hook.id}).hosts")
        for name in hook.overrides:
            one(name, f"hooks[{i}] ({hook.id}).host.{_key(name)}")
    for var in bundle.env:
        for name in var.hosts or ():
            one(name, f"env.{_key(var.name)}.hosts")

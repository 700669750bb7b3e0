"""Pure parsing and validation of a bundle manifest (``hookweave.toml``, DESIGN.md section 2): the
bundle and env tables here, each hook in ``manifesthooks``, the shared checker in ``manifestcheck``.

Every error names the file, the key and the fix, and is raised as ``BadInput`` (exit 2).
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from hookweave.core.formats import tomlload
from hookweave.core.model.bundle import POLICIES, Bundle, EnvVar
from hookweave.core.model.manifestcheck import ENV_RE, NAME_RE, Checker, check_order, key_path  # noqa: F401 - NAME_RE for adopt
from hookweave.core.model.manifesthooks import parse_hook

BUNDLE_KEYS = ("name", "version", "description", "sequential", "order")
ENV_KEYS = ("value", "hosts", "policy")
# Variables an agent sets itself, or that every program it starts depends on: a settings value
# would point every hook at one machine's folder, or take PATH and HOME from the agent's tools.
_SET_BY_AGENT = "set by the agent for each hook (the project folder of the session), so a fixed value would lie"
RESERVED = {name: _SET_BY_AGENT for name in (
    "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "GEMINI_CWD", "CURSOR_PROJECT_DIR", "COPILOT_PROJECT_DIR",
    "QWEN_PROJECT_DIR", "FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "AUGMENT_PROJECT_DIR")}
RESERVED.update({name: "the agent's own: a settings value replaces it for the agent and every tool it starts"
                 for name in ("PATH", "HOME", "SHELL", "USER", "PWD")})


def parse_manifest(text: str, path: Path) -> Bundle:
    """Validate manifest text read from ``path`` and return the bundle it describes."""
    data = tomlload.load(text, path)
    check = Checker(path)
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
    order = check_order(check, meta.get("order", "alone"), "bundle.order")
    raw_hooks = data.get("hooks", [])
    if not isinstance(raw_hooks, list):
        raise check.fail("hooks", "must be an array of tables", "write each hook as [[hooks]]")
    hooks = tuple(parse_hook(check, raw, i) for i, raw in enumerate(raw_hooks))
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


def _env(check: Checker, key: str, raw: Any) -> EnvVar:
    where = f"env.{key_path(key)}"
    if not ENV_RE.fullmatch(key):
        raise check.fail(where, f"{key!r} is not a valid variable name", "use letters, digits and _")
    raw = check.keys(raw, ENV_KEYS, where)
    if key in RESERVED:
        raise check.fail(where, f"{key} is {RESERVED[key]}", "leave it out (a hook reads it; it is no setting)")
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
    digits = str(value).removeprefix("-")  # -?[0-9]+ without compiling it
    if policy == "at-least" and not (digits and digits.isascii() and digits.isdigit()):
        raise check.fail(f"{where}.value", "at-least needs a whole number", 'e.g. value = "5000"')
    hosts = check.hosts(raw["hosts"], f"{where}.hosts") if "hosts" in raw else None
    return EnvVar(key, str(value), policy, hosts)


def check_hosts(bundle: Bundle, known: list[str]) -> None:
    """Refuse host names no registered host has (a typo would install nothing, silently).

    The parser is pure and knows no registry, so the installer calls this once hosts are loaded.
    """
    check = Checker(bundle.manifest)

    def one(name: str, where: str) -> None:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"registered hosts: {', '.join(known)}"
            raise check.fail(where, f"unknown host {name!r}", hint)

    for i, hook in enumerate(bundle.hooks):
        for name in hook.hosts or ():
            one(name, f"hooks[{i}] ({hook.id}).hosts")
        for name in hook.overrides:
            one(name, f"hooks[{i}] ({hook.id}).host.{key_path(name)}")
    for var in bundle.env:
        for name in var.hosts or ():
            one(name, f"env.{key_path(var.name)}.hosts")

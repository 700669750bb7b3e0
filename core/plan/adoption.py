"""Pure: the operator's hand-written hooks of one settings file as a bundle manifest (``hooks adopt``).

Each hand-written entry becomes one ``[[hooks]]`` table whose rendering is the entry itself, key for
key, with only hookweave's marker appended to its command: the command as a string (passed as is),
the neutral event where there is one, the timeout in seconds where it converts exactly, and every
other native key (a host-native matcher, ``statusMessage``, ``async``, a Gemini ``name``, a timeout
in milliseconds that is no whole second) in ``[hooks.host.<host>]``. ``manifest_text`` proves that:
the text it returns, read back by the manifest parser and rendered, gives each entry exactly.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hookweave.core.contract.host import Host
from hookweave.core.contract.shapes import FlatHost, NestedGroupsHost
from hookweave.core.errors import BadInput
from hookweave.core.files.paths import printable
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.formats.patch import escape, same
from hookweave.core.formats.tomltables import key as toml_key
from hookweave.core.formats.tomltables import literal as toml
from hookweave.core.model import manifest
from hookweave.core.model.bundle import Bundle, BundleHook
from hookweave.core.model.render import SHELL_CHARACTERS, marker, through_a_shell
from hookweave.core.plan import resolve

VERSION = "1.0.0"


class Found(FieldTuple):
    """One hand-written entry: its event (native), index in the event's list, and its data. A group
    of several handlers is adopted as one group per handler (``part`` of ``parts``, each with the
    group's matcher and other keys): hookweave owns one handler per group."""

    event: str
    index: int
    entry: dict
    part: int = 0
    parts: int = 1


def native_event(host: Host, event: str) -> str:
    """``--event`` as the host's own name: a neutral name is mapped, a native one taken as is."""
    if host.events.get(event):
        return host.events[event]  # type: ignore[return-value]
    if event in host.native_events:
        return event
    known = ", ".join(sorted(n for n in host.events if host.events[n]))
    raise BadInput(f"--event {printable(event)}: {host.title} has no such event; use a neutral name ({known}) "
                   f"or one of its own ({', '.join(sorted(host.native_events))})")


def collect(host: Host, doc: Any, shown: str, event: str | None) -> list[Found]:
    """The hand-written entries (no bundle's marker) of ``event``, or of every event the host knows,
    in file order. Refuses an entry hookweave cannot own as one registration, naming its place."""
    hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
    hooks = hooks if isinstance(hooks, dict) else {}
    events = [event] if event is not None else [e for e in hooks if e in host.native_events]
    found: list[Found] = []
    owned = 0
    skipped = host.skipped_entries(doc if event is None else {host.hooks_key: {event: hooks.get(event)}}, shown)
    for name in events:
        entries = hooks.get(name)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if host.owner(entry) is not None:
                owned += 1
                continue
            if isinstance(host, NestedGroupsHost) and host.is_loose(entry) and host.loose_entries == "skipped":
                continue  # the host never runs it: adopting it would start it (plan_install says so)
            where = f"{shown}: /{escape(host.hooks_key)}/{escape(name)}/{i}"
            for part, piece in enumerate(pieces := _pieces(host, entry)):
                _check_entry(host, piece, where, part)
                found.append(Found(name, i, piece, part, len(pieces)))
    if not found:
        where = f"under {event}" if event is not None else "in it"
        why = f" ({owned} {'entry is' if owned == 1 else 'entries are'} a bundle's already)" if owned else ""
        why += f" ({skipped[0]})" if skipped else ""
        raise BadInput(f"{shown}: no hand-written hooks {where}{why}; nothing to adopt: name another --event "
                       "or --scope")
    return found


def _pieces(host: Host, entry: Any) -> list[Any]:
    """The entry as hookweave owns it: a group of several handlers as one group per handler (the
    hosts run them all the same: Claude, Gemini, Qwen and Codex run a group's handlers side by side
    or, under Gemini's ``sequential``, in file order, which the copies keep); an empty group: none."""
    handlers = entry.get("hooks") if isinstance(host, NestedGroupsHost) and isinstance(entry, dict) else None
    if not isinstance(handlers, list) or len(handlers) == 1:
        return [entry]
    return [{**entry, "hooks": [handler]} for handler in handlers]


def _check_entry(host: Host, entry: Any, where: str, part: int = 0) -> None:
    base = where
    if isinstance(host, NestedGroupsHost):
        handlers = entry.get("hooks") if isinstance(entry, dict) else None
        if not isinstance(handlers, list):
            raise BadInput(f'{where}: a group without a "hooks" list; adopt the other events with --event')
        handler, where = handlers[0], where + f"/hooks/{part}"
    elif isinstance(host, FlatHost):
        handler = entry
    else:
        raise BadInput(f"{where}: {host.title} entries have a shape hookweave cannot adopt; add them to a "
                       "manifest by hand")
    if not isinstance(handler, dict) or handler.get("type", "command") != "command":
        kind = handler.get("type") if isinstance(handler, dict) else None
        raise BadInput(f"{where}: a hook of type {json.dumps(kind)}; hookweave adopts command hooks only: adopt "
                       "the other events with --event")
    command = handler.get("command")
    bad = _unfit_command(command) or _unfit_argv(host, command) if isinstance(command, str) else "no command string"
    if bad:
        raise BadInput(f"{where}/command: {bad}")
    null = _null_at({k: v for k, v in entry.items() if not (v is None and k in host.null_keys)}
                    if isinstance(entry, dict) else entry, base)
    if null:
        raise BadInput(f"{null}: null, which a manifest cannot hold; remove the key or give it a value, then adopt")
    odd = _odd_string(entry)
    if odd:
        raise BadInput(f"{where}: holds a lone surrogate ({odd}), which a manifest cannot hold; fix that string")


def _unfit_command(command: str) -> str | None:
    """Why ``command`` cannot be carried by a manifest as is (its checks: manifesthooks._command)."""
    if not command.strip():
        return "is empty; give it a command or remove the hook"
    if "{bundle_dir}" in command or "{project_dir}" in command:
        word = "{bundle_dir}" if "{bundle_dir}" in command else "{project_dir}"
        return f"holds {word}, which a manifest would fill in; write it another way (e.g. {word[0]}\"\"{word[1:]}), then adopt"
    bad = next((c for c in command if (c < " " or c == "\x7f") and c not in "\t\n"), None)
    if bad is not None:
        return f"holds the control character {bad.encode('unicode_escape').decode()}; remove it, then adopt"
    if command.rstrip(" \t").endswith("\\"):
        return "ends with a line continuation, which would swallow hookweave's marker; remove it, then adopt"
    return None


# Why adopt refuses a host that runs every command with no shell (``runs = "exec"``): hookweave's marker
# goes there only with the command wrapped in ``sh -c '...'`` (``render.through_sh``), and a shell then
# reads the operator's ``$``, quotes, globs and ``~`` that the agent passed to the program as they were.
EXEC_REFUSED = ("{title} runs a hook's words with no shell, and hookweave's marker needs its command wrapped in "
                "sh -c, where a shell would read its $, quotes and patterns otherwise; adopt cannot keep the "
                "operator's command as it runs, so write the hook into a bundle's manifest and install that")
# Words of characters that mean the same to a shell as to an agent that splits a command on spaces.
ARGV_ALIKE = re.compile(r"[\w./:=,+@%^-]+(?: [\w./:=,+@%^-]+)*")


def argv_alike(command: str) -> bool:
    """Whether a shell runs ``command`` as an agent that splits it on spaces does (Auggie: ``runs = "argv"``)."""
    return ARGV_ALIKE.fullmatch(command) is not None


def _unfit_argv(host: Host, command: str) -> str | None:
    """Why ``command`` cannot carry hookweave's marker unchanged on a host that runs a command with no
    shell character without a shell: there the marker goes after `` ;`` (``render.through_a_shell``),
    so the agent runs the command in a shell, which must read it as the agent did, and ``--undo``
    takes that `` ;`` off again, so a command of the operator's may not end in one."""
    if host.runs != "argv":
        return None
    if command.lstrip().startswith("~") or SHELL_CHARACTERS.search(command):  # the agent runs it in a shell already
        if command.endswith(" ;") and argv_alike(command[:-2]):
            return (f"ends with ' ;', which hookweave's marker adds on {host.title}, so --undo could not give it "
                    "back; remove it, then adopt")
        return None
    if argv_alike(command):
        return None
    return (f"{host.title} runs it without a shell (it holds none of | & ; > < $ `), and hookweave's marker needs "
            "one, which would read its quotes, spacing or patterns otherwise; end it with ';', then adopt")


def _null_at(value: Any, where: str) -> str | None:
    if value is None:
        return where
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        found = _null_at(inner, f"{where}/{escape(key) if isinstance(key, str) else key}")
        if found:
            return found
    return None


def _odd_string(value: Any) -> str | None:
    if isinstance(value, str):
        return next((f"\\u{ord(c):04x}" for c in value if "\ud800" <= c <= "\udfff"), None)
    items = [*value.keys(), *value.values()] if isinstance(value, dict) else value if isinstance(value, list) else []
    return next((b for b in map(_odd_string, items) if b), None)


# -- the manifest ------------------------------------------------------------------------------------


def manifest_text(host: Host, name: str, found: list[Found], manifest_path: Path, about: str) -> tuple[str, Bundle]:
    """The manifest holding ``found`` in file order, and the bundle it reads as; each of its
    registrations renders to the entry it came from with the marker appended, or ``BadInput``."""
    if not manifest.NAME_RE.fullmatch(name):
        raise BadInput(f"--name {printable(name)}: not a valid bundle name; use lowercase letters, digits and dashes")
    ids = _ids(host, found)
    tables = [_hook_table(host, name, hook_id, item, manifest_path) for hook_id, item in zip(ids, found)]
    text = (f"# Written by `hooks adopt` from {about}: the operator's own hooks, in file order.\n"
            f"# Undo with `hooks adopt --undo {name}` (same --host and --scope).\n\n"
            f"[bundle]\nname = {toml(name)}\nversion = {toml(VERSION)}\n"
            f"description = {toml('Hooks adopted from ' + about)}\n" + "".join(tables))
    bundle = manifest.parse_manifest(text, manifest_path)
    regs, _ = resolve.registrations(host, bundle)
    for reg, item in zip(regs, found):
        if not same(reg.entry, marked(host, item.entry, marker(name, reg.id))):
            raise BadInput(f"{item.event} entry {item.index}: hookweave cannot render it back exactly; add it to a "
                           "manifest by hand")
    return text, bundle


def marked(host: Host, entry: dict, tag: str) -> dict:
    """``entry`` with ``tag`` appended to its command as hookweave renders one (``render.shell_command``,
    and ``render.through_a_shell`` where the agent splits a command with no shell character on spaces)."""
    handler = entry["hooks"][0] if isinstance(host, NestedGroupsHost) else entry
    command = handler["command"] + ("\n" if "\n" in handler["command"] else " ") + tag
    new = {**handler, "command": through_a_shell(command) if host.runs == "argv" else command}
    return {**entry, "hooks": [new]} if handler is not entry else new


def _ids(host: Host, found: list[Found]) -> list[str]:
    neutral = {native: n for n, native in host.events.items() if native}
    counts: dict[str, int] = {}
    out = []
    for item in found:
        stem = re.sub(r"[^a-z0-9]+", "-", neutral.get(item.event, item.event).lower()).strip("-")[:50] or "hook"
        counts[stem] = counts.get(stem, 0) + 1
        out.append(f"{stem}-{counts[stem]}")
    return out


def _hook_table(host: Host, name: str, hook_id: str, item: Found, manifest_path: Path) -> str:
    entry = item.entry
    handler = entry["hooks"][0] if isinstance(host, NestedGroupsHost) else entry
    neutral = next((n for n, native in host.events.items() if native == item.event), None)
    if neutral and not _lands_in(host, neutral, item, manifest_path):
        neutral = None  # Windsurf's pre_tool_use needs a matcher to find pre_run_command: name the event itself
    top: dict[str, Any] = {"id": hook_id}
    native: dict[str, Any] = {}
    if neutral:
        top["event"] = neutral
    else:
        native["event"] = item.event
    top["hosts"] = [host.name]
    top["command"] = handler["command"]
    factor = _timeout_factor(host, manifest_path)
    timeout = handler.get(host.timeout_key)
    if isinstance(timeout, int) and not isinstance(timeout, bool) and timeout > 0 and factor and timeout % factor == 0:
        top["timeout"] = timeout // factor
    matcher = entry.get("matcher")
    if isinstance(matcher, str) and matcher:
        native["matcher"] = matcher
    base = BundleHook(hook_id, neutral or "", handler["command"], native.get("matcher"), top.get("timeout"),
                      hosts=(host.name,), overrides={host.name: dict(native)})
    probe = Bundle(name, VERSION, "", (base,), (), manifest_path, manifest_path.parent)
    rendered = resolve.registrations(host, probe)[0][0].entry
    want = marked(host, entry, marker(name, hook_id))
    r_handler = host.handler_of(rendered)
    w_handler = want["hooks"][0] if isinstance(host, NestedGroupsHost) else want
    extra = {k: v for k, v in w_handler.items() if k not in r_handler or not same(r_handler[k], v)}
    omit = [k for k in r_handler if k not in w_handler]
    if extra:
        native["handler"] = extra
    if r_handler is not rendered:
        group = {k: v for k, v in want.items() if k != "hooks" and (k not in rendered or not same(rendered[k], v))}
        if group:
            native["group"] = group
    if omit:
        native["omit"] = omit
    text = "\n[[hooks]]\n" + "".join(f"{k} = {toml(v)}\n" for k, v in top.items())
    if native:
        text += f"\n[hooks.host.{toml_key(host.name)}]\n" + "".join(f"{k} = {toml(v)}\n" for k, v in native.items())
    return text


def _lands_in(host: Host, neutral: str, item: Found, manifest_path: Path) -> bool:
    """Whether a hook of the ``neutral`` event, with the entry's matcher, is written under the entry's own event."""
    matcher = item.entry.get("matcher") if isinstance(item.entry.get("matcher"), str) else None
    hook = BundleHook("probe", neutral, "true", hosts=(host.name,), overrides={host.name: {"matcher": matcher}}
                      if matcher else {})
    try:
        regs, _ = resolve.registrations(host, Bundle("probe", VERSION, "", (hook,), (), manifest_path, manifest_path.parent))
    except BadInput:
        return False
    return len(regs) == 1 and regs[0].event == item.event


def _timeout_factor(host: Host, manifest_path: Path) -> int | None:
    """How many of the host's timeout units make a second: 1, or 1000 where it counts milliseconds."""
    probe = Bundle("probe", VERSION, "", (BundleHook("probe", "stop", "true", timeout=1),), (), manifest_path,
                   manifest_path.parent)
    regs, _ = resolve.registrations(host, probe)
    handler = host.handler_of(regs[0].entry) if regs else None
    value = handler.get(host.timeout_key) if handler else None
    return value if isinstance(value, int) and value > 0 else None

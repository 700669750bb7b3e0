"""Operator files for any host: its own settings file full of foreign hooks, in several spellings.

The foreign entries are rendered by the host itself (so they have its shape) and stripped of
hookweave's marker (so they are the operator's), one on every event the contract bundle uses, next
to an unrelated setting. The spellings are the ones real files come in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookweave.core.contract.host import Host
from hookweave.core.contract.shapes import TopLevelEvents
from hookweave.core.formats.patch import escape
from hookweave.core.model.bundle import Bundle, HookForHost
from hookweave.core.model.render import marker_in

EVENTS = ("pre_tool_use", "stop", "session_start")


def _foreign(value: Any) -> Any:
    """``value`` with every string that carries hookweave's marker replaced by an operator's command."""
    if isinstance(value, str):
        return "echo operator-hook" if marker_in(value) else value
    if isinstance(value, dict):
        return {key: _foreign(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_foreign(item) for item in value]
    return value


def operator_text(host: Host, path: Path) -> str:
    """The host's settings file as an operator left it: foreign hooks, and a setting of their own
    where the host allows one (Codex refuses a hooks.json with any other key)."""
    bundle = Bundle("operator", "1.0", "", (), (), path.parent / "hookweave.toml", path.parent)
    hooks: dict[str, list] = {}
    for neutral in EVENTS:
        native = host.events.get(neutral)
        if not native:
            continue
        hook = HookForHost("operator-" + neutral.replace("_", "-"), neutral, "echo operator-hook",
                           ("shell",) if neutral == "pre_tool_use" and host.native_tools("shell") else None, 5, "last")
        event, _ = host.event_for(native, hook)
        if event:
            hooks.setdefault(event, []).append(_foreign(host.render(hook, event, bundle)))
    # where hookweave owns a key of its own (Antigravity's named hook), the operator's hooks are another
    key = "operator" if host.owns_key else host.hooks_key
    ops = [{"op": "add", "path": f"/{escape(k)}", "value": v} for k, v in host.required.items()]
    ops.append({"op": "add", "path": f"/{escape(key)}", "value": hooks})
    setting = [] if isinstance(host, TopLevelEvents) else [{"op": "add", "path": "/operatorSetting", "value": "kept"}]
    for extra in (setting, []):  # where the events are the file itself, another key would be an event
        text = host.apply(host.new_file_text(), [*extra, *ops], str(path))
        if _readable(host, text, path):
            return text
    return text


def _readable(host: Host, text: str, path: Path) -> bool:
    try:
        host.check_document(host.parse(text, str(path)), str(path))
    except Exception:  # noqa: BLE001 - whatever the host refuses, it does not read
        return False
    return True


def spellings(host: Host) -> list[str]:
    """The cases of a host: no file, then each spelling (none but "no file" where the file is ours)."""
    if host.owns_file:
        return ["none"]
    return ["none", "plain", "crlf", "bom", "tabs", *(["comments"] if host.comments else [])]


def variants(host: Host, path: Path) -> dict[str, str]:
    """The file as real files come: as rendered, with CRLF, with a BOM, indented with tabs, and
    commented where the host allows comments. A variant the host cannot read is left out."""
    plain = operator_text(host, path)
    found = {"plain": plain, "crlf": plain.replace("\n", "\r\n"), "bom": "\ufeff" + plain,
             "tabs": "\n".join(_tabs(line) for line in plain.split("\n"))}
    if host.comments:
        found["comments"] = plain.replace("\n", "\n  // an operator's note\n", 1) + "/* the end */\n"
    return {name: text for name, text in found.items() if _readable(host, text, path)}


def _tabs(line: str) -> str:
    stripped = line.lstrip(" ")
    return "\t" * ((len(line) - len(stripped)) // 2) + stripped

"""Operator files for any host: its own settings file full of foreign hooks, in several spellings.

The foreign entries are rendered by the host itself (so they have its shape) and stripped of
hookweave's marker (so they are the operator's), one on every event the contract bundle uses, next
to an unrelated setting. The spellings are the ones real files come in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from hookweave.core.contract.host import Host
from hookweave.core.contract.shapes import TopLevelEvents
from hookweave.core.contract.yamlfile import YamlFile
from hookweave.core.formats.patch import escape
from hookweave.core.model.bundle import Bundle, HookForHost
from hookweave.core.model.render import marker_in

EVENTS = ("pre_tool_use", "stop", "session_start")


def _foreign(value: Any, command: str) -> Any:
    """``value`` with every string that carries hookweave's marker replaced by the operator's ``command``."""
    if isinstance(value, str):
        return command if marker_in(value) else value
    if isinstance(value, dict):
        return {key: _foreign(item, command) for key, item in value.items()}
    if isinstance(value, list):
        return [_foreign(item, command) for item in value]
    return value


def event_of(host: Host, neutral: str) -> str | None:
    """The native event an operator's hook of ``neutral`` goes under (a tool hook's: a shell one's)."""
    native = host.events.get(neutral)
    if not native:
        return None
    return host.event_for(native, _hook(host, neutral, ""))[0]


def _hook(host: Host, neutral: str, command: str) -> HookForHost:
    shell = ("shell",) if neutral == "pre_tool_use" and host.native_tools("shell") else None
    return HookForHost("operator-" + neutral.replace("_", "-"), neutral, command, shell, 5, "last")


def operator_text(host: Host, path: Path, own: Mapping[str, str | None] | None = None) -> str:
    """The host's settings file as an operator left it: foreign hooks, and a setting of their own
    where the host allows one (Codex refuses a hooks.json with any other key). ``own``: the command
    of an event's hook by neutral name (``None``: the event's list is there, empty)."""
    bundle = Bundle("operator", "1.0", "", (), (), path.parent / "hookweave.toml", path.parent)
    hooks: dict[str, list] = {}
    for neutral in EVENTS:
        event = event_of(host, neutral)
        if event:
            command = (own or {}).get(neutral, "echo operator-hook")
            entries = hooks.setdefault(event, [])
            if command is not None:
                entries.append(_foreign(host.render(_hook(host, neutral, command), event, bundle), command))
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
    bom = ["bom"] if _reads_bom(host) else []  # TOML has none: tomlkit refuses it, and so does hookweave
    tabs = [] if isinstance(host, YamlFile) else ["tabs"]  # YAML forbids a tab in indentation
    return ["none", "plain", "crlf", *bom, *tabs, *(["comments"] if host.comments or isinstance(host, YamlFile) else [])]


def _reads_bom(host: Host) -> bool:
    try:
        host.parse("\ufeff" + host.new_file_text(), "settings")
    except Exception:  # noqa: BLE001 - whatever the host refuses, it does not read
        return False
    return True


def variants(host: Host, path: Path, own: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """The file as real files come: as rendered, with CRLF, with a BOM, indented with tabs, and
    commented where the host allows comments. A variant the host cannot read is left out."""
    plain = operator_text(host, path, own)
    found = {"plain": plain, "crlf": plain.replace("\n", "\r\n"), "bom": "\ufeff" + plain,
             "tabs": "\n".join(_tabs(line) for line in plain.split("\n"))}
    if isinstance(host, YamlFile):  # a comment line, one at the end of a line, and one after the last line
        first, _, rest = plain.partition("\n")
        found["comments"] = f"# an operator's note\n{first}   # kept\n{rest}# the end\n"
    elif host.comments:
        found["comments"] = plain.replace("\n", "\n  // an operator's note\n", 1) + "/* the end */\n"
    return {name: text for name, text in found.items() if _readable(host, text, path)}


def _tabs(line: str) -> str:
    stripped = line.lstrip(" ")
    return "\t" * ((len(line) - len(stripped)) // 2) + stripped


def scope_flags(host: Host) -> list[str]:
    """``--scope`` for a host without a project scope (OpenHarness has only the user's), as install
    and uninstall take the project's by default; nothing for every other host."""
    return [] if "project" in host.scopes else ["--scope", host.scopes[0]]


def settled_then_removed(hookweave_run, host: Host, bundle: str, name: str, flags: list[str], path: Path) -> None:
    """What every install owes after its first run: verify says ok, a second install writes nothing
    (the file keeps its bytes), and uninstall of ``name`` succeeds."""
    after = path.read_bytes()
    verify = hookweave_run("verify", "--host", host.name)
    assert verify.exit_code == 0, verify.output
    again = hookweave_run("install", bundle, *flags)
    assert again.exit_code == 0 and "already installed; nothing written" in again.stdout, again.output
    assert path.read_bytes() == after
    removed = hookweave_run("uninstall", name, "--host", host.name, *scope_flags(host))
    assert removed.exit_code == 0, removed.output

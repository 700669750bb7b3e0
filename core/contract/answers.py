"""Admission of an answer protocol given as data (``Description(protocol={...})``): one line per
mistake, naming the field and the fix, as the other description fields are checked.

The fields and their defaults are ``core/standalone/protocol_data.DEFAULTS``, which the judge reads;
that module is stdlib only and loads no judge, so admitting a plugin stays cheap.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

JSON_SCALAR = (str, int, float, bool, type(None))
_VARIABLE = re.compile(r"env:[A-Za-z_][A-Za-z0-9_]*")


def problem(data: object, native_events: set[str]) -> str | None:
    """Why ``data`` is not a data protocol hookweave can judge by (``"protocol.<field>: ..."``), or None."""
    from hookweave.core.model.names import HOSTS as payload_hosts  # the hosts whose payloads check sends
    from hookweave.core.standalone.protocol_data import DEFAULTS

    if not isinstance(data, Mapping):
        return "protocol: give a protocol's name (\"claude\") or a mapping of its fields (docs/PLUGINS.md)"
    unknown = [key for key in data if key not in DEFAULTS]
    if unknown:
        return f"protocol.{unknown[0]}: not a field of a data protocol; use {', '.join(DEFAULTS)}"
    d = {**DEFAULTS, **dict(data)}
    for field in ("block_exit_codes", "json_exit_codes"):
        codes = d[field]
        if not (field == "json_exit_codes" and codes == "any") and not _codes(codes):
            more = ', or "any"' if field == "json_exit_codes" else "; [] when no exit code blocks"
            return f"protocol.{field}: {codes!r} is not a list of exit codes (0-255), e.g. [2]{more}"
    for field in ("block", "ask", "allow"):
        bad = _answer_problem(d[field])
        if bad:
            return f"protocol.{field}: {bad}, e.g. {{\"decision\": \"{field}\"}}"
    for field in ("reason", "context"):
        if not _strings(d[field]):
            return f"protocol.{field}: {d[field]!r} is not a list of JSON field names, e.g. [\"reason\"]"
    if not isinstance(d["default_reason"], str) or not isinstance(d["title"], str):
        which = "default_reason" if not isinstance(d["default_reason"], str) else "title"
        return f"protocol.{which}: {d[which]!r} is not text"
    if not _strings(d["blocking_events"]) or not d["blocking_events"]:
        return "protocol.blocking_events: list the agent's events where a block counts, e.g. [\"PreToolUse\"]"
    strangers = [e for e in d["blocking_events"] if e not in native_events]
    if strangers:
        return f"protocol.blocking_events: {strangers[0]!r} is not one of the agent's events (events, native_events)"
    if d["later_hooks"] not in ("run", "skipped"):
        return f"protocol.later_hooks: {d['later_hooks']!r} is not run or skipped"
    if d["payload"] != "stdin" and not (isinstance(d["payload"], str) and _VARIABLE.fullmatch(d["payload"])):
        return f"protocol.payload: {d['payload']!r} is not stdin or env:NAME"
    if not isinstance(d["tool_field"], str) or not d["tool_field"]:
        return f"protocol.tool_field: {d['tool_field']!r} is not a payload field's name, e.g. \"tool_name\""
    if d["matcher"] not in ("fullmatch", "search", "exact"):
        return f"protocol.matcher: {d['matcher']!r} is not fullmatch, search or exact"
    if d["block_elsewhere"] not in ("ignored", "error"):
        return f"protocol.block_elsewhere: {d['block_elsewhere']!r} is not ignored or error"
    if not _strings(d["notes"]):
        return f"protocol.notes: {d['notes']!r} is not a list of sentences"
    from hookweave.core.standalone.protocol_data import SAID

    if not isinstance(d["said"], Mapping) or any(k not in SAID or not isinstance(v, str) for k, v in d["said"].items()):
        return f"protocol.said: give the wording of any of {', '.join(SAID)} as text (\"\" for no note)"
    bad = next((k for k, v in d["said"].items() if _blanks_problem(v)), None)
    if bad:
        return f"protocol.said.{bad}: the only blanks are {{event}}, {{code}} and {{who}}"
    if d["payloads_like"] not in payload_hosts:
        return f"protocol.payloads_like: {d['payloads_like']!r} is not one of {', '.join(sorted(payload_hosts))}"
    if not d["block_exit_codes"] and not d["block"]:
        return "protocol: nothing blocks; give block_exit_codes (e.g. [2]) or block (e.g. {\"decision\": \"block\"})"
    return None


def _blanks_problem(text: str) -> bool:
    try:
        text.format(event="", code="", who="")
    except (KeyError, IndexError, ValueError):
        return True
    return False


def _codes(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)


def _strings(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(isinstance(s, str) and s for s in value)


def _answer_problem(table: Any) -> str | None:
    if not isinstance(table, Mapping):
        return f"{table!r} is not a mapping of JSON field to value"
    for path, wanted in table.items():
        values = wanted if isinstance(wanted, (list, tuple)) else [wanted]
        if not isinstance(path, str) or not path or not all(isinstance(v, JSON_SCALAR) for v in values):
            return f"{path!r}: {wanted!r} is not a JSON value or a list of them"
    return None


def plain(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` as plain dicts and lists (a literal the chain runner file can hold), defaults filled."""
    from hookweave.core.standalone.protocol_data import filled

    def _plain(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {str(k): _plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [_plain(v) for v in value]
        return value

    return filled(_plain(data))

"""Codex's ``[hooks.state]`` table in the user's config.toml, as hookweave edits it: refused whole when
an edit would lose the operator's data, our entries under an older spelling of their file re-keyed
as Codex keys them, and no trust key TOML cannot hold."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hookweave.core.errors import BadInput
from hookweave.hosts.codex import trust as codex_trust


def check_state(config: Any, shown: str) -> None:
    """Refuse a user config.toml whose trust state we could not edit without losing the operator's data."""
    hooks = config.get("hooks", {}) if isinstance(config, dict) else {}
    if not isinstance(hooks, dict):
        raise BadInput(f"{shown}: hooks must be a table ([hooks]), not {_toml_kind(hooks)}; fix the file by hand")
    state = hooks.get("state", {})
    if not isinstance(state, dict):
        raise BadInput(f"{shown}: [hooks.state] must be a table, not {_toml_kind(state)}; fix the file by hand")
    for key, entry in state.items():
        if not isinstance(entry, dict):
            raise BadInput(f"{shown}: [hooks.state.{json.dumps(key, ensure_ascii=False)}] must be a table with "
                           f"trusted_hash, not {_toml_kind(entry)}; fix the file by hand")


def adopt_aliases(state: dict, before: list, path: Path, source: str) -> dict:
    """``state`` with our entries keyed by another spelling of this file (``sub/../proj``, a
    symlink: what earlier hookweave versions wrote) keyed as Codex keys them, so they move and go with us."""
    ours = {h.key.removeprefix(source) for h in before if h.owner}
    real = os.path.realpath(path)
    out = dict(state)
    for key in state:
        parts = codex_trust.split_key(key)
        if parts is None or parts[0] == source or f":{parts[1]}" not in ours:
            continue
        canonical = f"{source}:{parts[1]}"
        if canonical not in out and os.path.realpath(parts[0]) == real:
            out[canonical] = out.pop(key)
    return out


def check_keys(final: dict, state: dict, shown: str) -> None:
    """Refuse, before anything is written, a trust key TOML cannot hold (a path that is not UTF-8)."""
    for key in final.keys() - state.keys():
        try:
            key.encode("utf-8")
        except UnicodeEncodeError:
            path = json.dumps(codex_trust.split_key(key)[0] if codex_trust.split_key(key) else key)
            raise BadInput(f"{shown}: [hooks.state]: the trust key would name {path}, which is not UTF-8, and a "
                           "TOML key must be; rename the folder, or install without --trust and trust it in Codex's "
                           "/hooks") from None


def _toml_kind(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__)

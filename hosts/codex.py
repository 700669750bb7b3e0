"""OpenAI Codex CLI: hooks in a layer's hooks.json or inline [hooks] tables of its config.toml.

Facts: shared/HOSTS.md section 3. Codex silently skips a hook that the user config.toml does not
trust, and trust is keyed by position: ``<file>:<event>:<group>:<handler>``. So hookweave only
appends (operator hooks keep their keys), writes trust for its own hooks only when the operator
says so (``--trust``), and moves the operator's trust entries along when an uninstall shifts them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any, Callable, Mapping

from hookweave.core import names, paths
from hookweave.core.errors import BadInput
from hookweave.core.hookspecs import hookimpl
from hookweave.core.host import NestedGroupsHost
from hookweave.core.model import Finding

HOOKS_JSON_KEYS = ("description", "hooks")
BIN_ENV = "HOOKWEAVE_CODEX_BIN"  # the codex binary verify asks; default: codex on PATH


def layer_dir(scope: str, project: Path) -> Path:
    if scope == "user":
        return paths.from_env("CODEX_HOME", paths.home() / ".codex")
    if scope == "project":
        return project / ".codex"
    raise ValueError(scope)


def user_config() -> Path:
    return layer_dir("user", Path(".")) / "config.toml"


def _toml_has_hooks(path: Path, *, unreadable: bool = True) -> bool:
    """Whether a layer's config.toml keeps hooks inline: a [hooks] table with more than
    [hooks.state], or a ``hooks`` key of another type. A file that cannot be read or parsed
    counts as ``unreadable``: installing picks it, so that it is refused with its own error
    rather than passed over for a second representation beside it."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomlkit as tomllib  # type: ignore[no-redef]
    from hookweave.core import fileio
    from hookweave.core.errors import BadInput

    try:
        text = fileio.read_text(path)  # never a bare read: a FIFO here would block it forever
        if text is None:
            return False
        hooks = tomllib.loads(text).get("hooks", {})
    except (BadInput, OSError, ValueError, RecursionError):
        return unreadable
    return not isinstance(hooks, dict) or any(key != "state" for key in hooks)


def event_label(event: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def trust_hash(event: str, group: dict, handler: dict) -> str:
    """Codex's hash of a hook's identity (HOSTS.md 3.2; matches ``hooks/list`` currentHash)."""
    identity_handler = {
        "type": "command",
        "command": handler.get("command"),
        "timeout": handler.get("timeout") or 600,
        "async": bool(handler.get("async", False)),
    }
    if handler.get("statusMessage") is not None:
        identity_handler["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": event_label(event), "hooks": [identity_handler]}
    if group.get("matcher") is not None:
        identity["matcher"] = group["matcher"]
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    import hashlib

    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def handler_keys(doc: Any, source: Path, owner: Callable) -> list[tuple[str, Any, str, tuple[str, int]]]:
    """``(trust key, owner, hash, (event, position among foreign handlers))`` for every handler."""
    out = []
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    for event, groups in (hooks if isinstance(hooks, dict) else {}).items():
        if event == "state" or not isinstance(groups, list):
            continue
        foreign = 0
        for g, group in enumerate(groups):
            for h, handler in enumerate(group.get("hooks", []) if isinstance(group, dict) else []):
                if not isinstance(handler, dict):
                    continue
                mine = owner({"hooks": [handler]})
                out.append((f"{source}:{event_label(event)}:{g}:{h}", mine, trust_hash(event, group, handler),
                            (event, -1 if mine else foreign)))
                foreign += 0 if mine else 1
    return out


class CodexHost(NestedGroupsHost):
    name = "codex"
    title = "Codex"
    scopes = ("user", "project")
    verify_scopes = ("user", "project")  # every layer runs; none overrides another
    events = names.column("codex", names.EVENTS)
    tools = names.column("codex", names.TOOLS)
    native_events = frozenset(
        "PreModelRequest PostModelRequest PreToolUse PermissionRequest PostToolUse PreCompact PostCompact "
        "SessionStart SessionEnd UserPromptSubmit SubagentStart SubagentStop Stop Interrupt".split()
    )
    project_ref = '"$PWD"'  # Codex has no project variable; hooks run in the session's folder
    positional = False
    needs_trust = True
    execution = (
        "Codex starts all of an event's matching hooks at once and runs every copy it finds (no "
        "de-duplication); it only re-sorts their results into file order"
    )

    def settings_path(self, scope: str, project: Path) -> Path:
        folder = layer_dir(scope, project)
        if (folder / "hooks.json").exists():
            return folder / "hooks.json"
        if (folder / "config.toml").exists() and _toml_has_hooks(folder / "config.toml"):
            return folder / "config.toml"
        return folder / "hooks.json"  # never a second representation next to an existing one

    def detect(self) -> bool:
        return layer_dir("user", Path(".")).is_dir() or shutil.which("codex") is not None

    def parse(self, text: str, path: str) -> Any:
        if path.endswith(".toml"):
            from hookweave.core import tomledit

            return tomledit.parse(text, path)
        return super().parse(text, path)

    def apply(self, text: str, ops: list[dict], path: str) -> str:
        if path.endswith(".toml"):
            from hookweave.core import tomledit

            return tomledit.apply_ops(text, ops, path)
        return super().apply(text, ops, path)

    def check_document(self, doc: Any, path: str) -> None:
        super().check_document(doc, path)
        if not path.endswith(".toml"):
            extra = [k for k in doc if k not in HOOKS_JSON_KEYS]
            if extra:
                raise BadInput(f"{path}: root key {extra[0]!r}: Codex rejects the whole hooks.json when it has a "
                               "key other than description and hooks; remove it")

    def native_matcher(self, matcher: tuple[str, ...] | str | None) -> str | None:
        plain = super().native_matcher(matcher)
        if plain is None or isinstance(matcher, str):
            return plain
        return f"^{plain}$" if "|" not in plain else f"^({plain})$"  # Codex matchers are regexes

    # -- trust ---------------------------------------------------------------------------------

    def companion_paths(self, target: Any) -> list[Path]:
        return [user_config()]

    def companion_ops(self, old, new, target, bundle, current, *, trust: bool) -> dict[Path, list[dict]]:
        config_path = user_config()
        config = current(config_path)
        _check_state(config, paths.display(config_path))
        state = _get(config, "hooks", "state")
        state = dict(state) if isinstance(state, dict) else {}
        final = _next_state(state, handler_keys(old, target.path, self.owner),
                            handler_keys(new, target.path, self.owner), bundle, trust)
        if final == state:
            return {}
        return {config_path: _state_ops(config, state, final)}

    # -- verify --------------------------------------------------------------------------------

    def context_paths(self, project: Path) -> dict[str, Path]:
        return {"user-config": user_config()}

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        config = docs.get("user-config") if isinstance(docs.get("user-config"), dict) else {}
        found: list[Finding] = []
        features = config.get("features") if isinstance(config.get("features"), dict) else {}
        if features.get("hooks") is False or features.get("codex_hooks") is False:
            found.append(Finding("problem", "[features] turns hooks off in the user config.toml: Codex runs none"))
        state = _get(config, "hooks", "state")
        state = state if isinstance(state, dict) else {}
        for scope in sorted(installed_scopes):
            source = self.settings_path(scope, project)
            for key, mine, digest, _ in handler_keys(docs.get(scope), source, self.owner):
                if mine:
                    found += _trust_finding(state.get(key), digest, mine)
            if source.name == "hooks.json" and _toml_has_hooks(source.with_name("config.toml"), unreadable=False):
                found.append(Finding("warning", f"{scope} layer has hooks in both hooks.json and config.toml; "
                                     "Codex loads both and warns"))
        if "project" in installed_scopes and _get(config, "projects", str(project), "trust_level") != "trusted":
            found.append(Finding("problem", "this project is not trusted in the user config.toml, so Codex ignores "
                                 ".codex/ here; trust it when Codex asks, or run codex exec --trust once"))
        return found

    def verify_extra(self, project: Path, scopes: list[str]) -> list[Finding]:
        binary = os.environ.get(BIN_ENV) or shutil.which("codex")
        if not binary or not Path(binary).is_file():
            return []
        from hookweave.hosts.codex_appserver import hooks_list

        try:
            listed = hooks_list(str(binary), project)
        except OSError as exc:
            return [Finding("warning", f"could not ask codex app-server: {exc}")]
        out = [Finding("problem", f"codex app-server: {e}") for e in listed["errors"]]
        for hook in listed["hooks"]:
            mine = self.owner({"hooks": [{"command": hook.get("command")}]})
            if mine and hook.get("trustStatus") not in ("trusted", "managed"):
                out.append(Finding("problem", f"codex app-server reports it {hook.get('trustStatus')} ({hook['key']})", *mine))
        return out


def _check_state(config: Any, shown: str) -> None:
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


def _toml_kind(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__)


def _trust_finding(entry: Any, digest: str, mine: tuple[str, str]) -> list[Finding]:
    fix = "run hooks install with --trust, or trust it in Codex's /hooks"
    if not isinstance(entry, dict):
        return [Finding("problem", f"not trusted: Codex skips it silently; {fix}", *mine)]
    if entry.get("enabled") is False:
        return [Finding("problem", "disabled in [hooks.state] (enabled = false); Codex skips it", *mine)]
    if entry.get("trusted_hash") != digest:
        return [Finding("problem", f"trusted for an earlier version (hash differs), so Codex skips it; {fix}", *mine)]
    return []


def _next_state(state: dict, old_keys: list, new_keys: list, bundle: str, trust: bool) -> dict:
    """The [hooks.state] table after the change: ours dropped or written, the operator's re-keyed."""
    final = dict(state)
    ours_old = {key: digest for key, mine, digest, _ in old_keys if mine and mine[0] == bundle}
    ours_new = {key: digest for key, mine, digest, _ in new_keys if mine and mine[0] == bundle}
    for key, digest in ours_old.items():
        if ours_new.get(key) != digest:
            final.pop(key, None)  # our hook left this position or changed: its trust is stale
    old_foreign = {where: key for key, mine, _, where in old_keys if not mine}
    new_foreign = {where: key for key, mine, _, where in new_keys if not mine}
    moves = {old_foreign[w]: new_foreign[w] for w in old_foreign if w in new_foreign and old_foreign[w] != new_foreign[w]}
    moved = {new: state[old] for old, new in moves.items() if old in state}
    for old in moves:
        final.pop(old, None)
    final.update(moved)  # after the pops, so a chain of moves (a->b, b->c) lands right
    if trust:
        for key, digest in ours_new.items():
            entry = dict(final.get(key) or {})
            entry["trusted_hash"] = digest
            final[key] = entry
    return final


def _state_ops(config: dict, state: dict, final: dict) -> list[dict]:
    from hookweave.core.patch import diff

    hooks = config.get("hooks")
    if not final:
        if isinstance(hooks, dict) and set(hooks) <= {"state"}:
            return [{"op": "remove", "path": "/hooks"}]
        return [{"op": "remove", "path": "/hooks/state"}]
    if not isinstance(hooks, dict):
        return [{"op": "add", "path": "/hooks", "value": {"state": final}}]
    if "state" not in hooks:
        return [{"op": "add", "path": "/hooks/state", "value": final}]
    return diff(state, final, "/hooks/state")


def _get(doc: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(doc, dict) or key not in doc:
            return None
        doc = doc[key]
    return doc


@hookimpl
def hookweave_register_hosts(register) -> None:
    register(CodexHost)

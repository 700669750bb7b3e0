"""OpenAI Codex CLI: hooks in a layer's hooks.json or inline [hooks] tables of its config.toml.

Facts: shared/HOSTS.md section 3. Codex silently skips a hook that the user config.toml does not
trust, and trust is keyed by position: ``<file>:<event>:<group>:<handler>``. So hookweave only
appends (operator hooks keep their keys), writes trust for its own hooks only when the operator
says so (``--trust``), and moves every trust entry, the operator's and other bundles', along when
an edit shifts its handler (``codex_trust``). A user config.toml it had to create for that goes
again with its last trust entry.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Callable, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.errors import BadInput
from hookweave.core.files import paths
from hookweave.core.model import names
from hookweave.core.model.findings import UNREAD, Finding

HOOKS_JSON_KEYS = ("description", "hooks")
BIN_ENV = "HOOKWEAVE_CODEX_BIN"  # the codex binary verify asks; default: codex on PATH
# The first line of a user config.toml that hookweave created for trust state (it deletes it again).
CREATED_BY = "# Created by hookweave for Codex hook trust"
CREATED = CREATED_BY + "; hookweave deletes it once it holds nothing else.\n"
CREATED_WITH_FOLDER = CREATED.replace("deletes it", "deletes it (and this folder)")


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
    from hookweave.core.errors import BadInput
    from hookweave.core.files import fileio
    from hookweave.core.formats import tomlload

    try:
        text = fileio.read_text(path)  # never a bare read: a FIFO here would block it forever
        if text is None:
            return False
        hooks = tomlload.load(text, path).get("hooks", {})
    except (BadInput, OSError, ValueError, RecursionError):
        return unreadable
    return not isinstance(hooks, dict) or any(key != "state" for key in hooks)


def handler_keys(doc: Any, source: Path | str, owner: Callable) -> list[tuple[str, Any, str, tuple]]:
    """``(trust key, owner, hash, identity)`` for every handler of a known event."""
    return [(h.key, h.owner, h.digest, h.identity)
            for h in _trust().handler_keys(doc, str(source), owner, CodexHost.native_events)]


CODEX = Description(
    name="codex",
    title="Codex",
    files={"user": "${CODEX_HOME:-~/.codex}/hooks.json", "project": "{project}/.codex/hooks.json"},  # or config.toml
    events=names.column("codex", names.EVENTS),
    tools=names.column("codex", names.TOOLS),
    native_events=tuple("PreModelRequest PostModelRequest PreToolUse PermissionRequest PostToolUse PreCompact "
                        "PostCompact SessionStart SessionEnd UserPromptSubmit SubagentStart SubagentStop Stop "
                        "Interrupt".split()),
    project_lookup="codex",  # the nearest .codex up to the git root, else the root (core/reading/projects.py)
    programs=("codex",),
    dedup="none",  # every layer runs; none overrides another
    order="parallel",  # measured on 0.169: overlapping start and end; results re-sorted, any block wins
    execution="Codex starts all of an event's matching hooks at once and runs every copy it finds (no "
              "de-duplication); it only re-sorts their results into file order",
    loose_entries="skipped",  # 0.169, measured: serde reads it as a group without hooks; hooks/list omits it
    source="shared/HOSTS.md section 3; Codex 0.169.0, measured (tests/e2e)",
)


class CodexHost(host_class(CODEX)):  # type: ignore[misc]  # built like a plugin's host, plus trust and TOML
    no_managed = ("Codex's managed layer is one file per kind, the administrator's (/etc/codex/requirements.toml [hooks], or the system config.toml and hooks.json), with no drop-in folder: add the hooks there by hand, or install at user scope")
    project_ref = '"$PWD"'  # Codex has no project variable; hooks run in the session's folder
    project_root_ref = '"$(git rev-parse --show-toplevel)"'  # valid when the project is the git root
    positional = False
    needs_trust = True

    def settings_path(self, scope: str, project: Path) -> Path:
        folder = layer_dir(scope, project)
        for name in ("hooks.json", "config.toml"):  # where we wrote before, whatever appeared beside it since
            if self.record_path(folder / name).exists():
                return folder / name
        if (folder / "hooks.json").exists():
            return folder / "hooks.json"
        if (folder / "config.toml").exists() and _toml_has_hooks(folder / "config.toml"):
            return folder / "config.toml"
        return folder / "hooks.json"  # never a second representation next to an existing one

    def parse(self, text: str, path: str) -> Any:
        if path.endswith(".toml"):
            from hookweave.core.formats import tomledit

            return tomledit.parse(text, path)
        return super().parse(text, path)

    def apply(self, text: str, ops: list[dict], path: str) -> str:
        if path.endswith(".toml"):
            from hookweave.core.formats import tomledit

            return tomledit.apply_ops(text, ops, path)
        return super().apply(text, ops, path)

    def reads_as(self, old_text: str | None, new_text: str, new: Any, path: str, ops: list[dict]) -> bool:
        if path.endswith(".toml"):  # a small file: read it again whole
            from hookweave.core.formats.patch import same

            return same(self.parse(new_text, path), new)
        return super().reads_as(old_text, new_text, new, path, ops)

    def check_document(self, doc: Any, path: str) -> None:
        super().check_document(doc, path)
        if not path.endswith(".toml"):
            extra = [k for k in doc if k not in HOOKS_JSON_KEYS]
            if extra:
                raise BadInput(f"{path}: root key {extra[0]!r}: Codex rejects the whole hooks.json when it has a "
                               "key other than description and hooks; remove it")
        bad = _trust().lone_surrogate(doc, self.native_events)
        if bad:
            raise BadInput(f"{path}: {_trust().shown(bad)}: holds a lone surrogate (an unpaired \\ud800-\\udfff "
                           "escape), so Codex cannot read the file and runs none of its hooks; fix that string")

    def native_matcher(self, matcher: tuple[str, ...] | str | None) -> str | None:
        plain = super().native_matcher(matcher)
        if plain is None or isinstance(matcher, str):
            return plain
        return f"^{plain}$" if "|" not in plain else f"^({plain})$"  # Codex matchers are regexes

    # -- trust ---------------------------------------------------------------------------------

    def companion_paths(self, target: Any) -> list[Path]:
        return [user_config()]

    def companion_ops(self, old, new, target, bundle, current, *, trust: bool) -> dict[Path, list[dict]]:
        from hookweave.hosts.codex import state as codex_state
        from hookweave.hosts.codex.layers import trust_source

        config_path = user_config()
        config = current(config_path)
        codex_state.check_state(config, paths.display(config_path))
        state = _get(config, "hooks", "state")
        state = dict(state) if isinstance(state, dict) else {}
        source = trust_source(target.path, target.scope)
        before = _trust().handler_keys(old, source, self.owner, self.native_events)
        after = _trust().handler_keys(new, source, self.owner, self.native_events)
        working = codex_state.adopt_aliases(state, before, target.path, source)
        final = _trust().next_state(working, before, after, bundle, trust)
        if final == state:
            return {}
        codex_state.check_keys(final, state, paths.display(config_path))
        return {config_path: _trust().state_ops(config, state, final)}

    def companion_text(self, path: Path, old: str | None, new: str) -> tuple[str | None, bool]:
        """A user config.toml we create says so in its first line; once it holds nothing else
        again (our last trust entry went), it goes, and so does ``~/.codex`` if we made that too."""
        if not new.startswith(CREATED_BY) and (old is None or old.startswith(CREATED_BY)):
            ours = old if old is not None else CREATED if path.parent.is_dir() else CREATED_WITH_FOLDER
            new = ours.splitlines(keepends=True)[0] + new.lstrip("\n")
        if new.strip() in (CREATED.strip(), CREATED_WITH_FOLDER.strip()):
            return None, new.startswith(CREATED_WITH_FOLDER)
        return new, False

    # -- verify --------------------------------------------------------------------------------

    def context_paths(self, project: Path) -> dict[str, Path]:
        from hookweave.hosts.codex import layers as codex_layers

        return codex_layers.context_paths(project, user_config())

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        from hookweave.hosts.codex import layers as codex_layers

        config = docs.get("user-config") if isinstance(docs.get("user-config"), dict) else {}
        found = codex_layers.feature_findings(codex_layers.layers(docs, project, user_config()))
        found += codex_layers.requirement_findings(docs.get("codex-requirements"))
        found += codex_layers.startup_findings(docs.get("user-config"))
        state = _get(config, "hooks", "state")
        state = state if isinstance(state, dict) else {}
        read = "user-config" in docs  # not under verify --repo: each operator's trust is then unknown
        level = codex_layers.project_trust(docs, project)  # its own entry, else the project or repository root's
        ours = {scope: {h.owner for h in _trust().handler_keys(docs.get(scope), scope, self.owner,
                                                               self.native_events) if h.owner}
                for scope in ("user", "project")}
        covered = ours["project"] <= ours["user"]  # every hook of ours there runs from the user layer anyway
        # Codex loads no .codex/ here, and the user layer runs every hook of ours: the project copies' trust
        # decides nothing. Not covered, the operator needs both fixes (the project's trust, then the hooks'), so both are said.
        ignored = read and level != "trusted" and covered
        for scope in sorted(installed_scopes):
            path = self.settings_path(scope, project)
            machine = not paths.within(path, project)
            bad = _trust().lone_surrogate(docs.get(scope), self.native_events)
            if bad:
                found.append(Finding("problem", f"{paths.display(path)}: {_trust().shown(bad)} holds a lone surrogate: "
                                     "Codex cannot read the file and runs none of its hooks; fix that string", machine=machine))
            for h in _trust().handler_keys(docs.get(scope), codex_layers.trust_source(path, scope), self.owner,
                                           self.native_events):
                if scope == "project" and ignored:
                    continue  # said once below, for the whole layer
                if h.owner and read:
                    found += _trust_finding(state.get(h.key), h.digest, h.owner)
                elif h.owner:
                    found.append(Finding("warning", "Codex runs it only where the operator trusted it ([hooks.state] in "
                                         f"the user config.toml, not read: {UNREAD}); on each machine run hooks install "
                                         "with --trust, or trust it in Codex's /hooks", *h.owner, machine=True))
            both = (_toml_has_hooks(path.with_name("config.toml"), unreadable=False) if path.name == "hooks.json"
                    else path.with_name("hooks.json").exists())
            if both:
                found.append(Finding("warning", f"{scope} layer has hooks in both hooks.json and config.toml; "
                                     "Codex loads both and warns", machine=machine))
            other = path.with_name("config.toml" if path.name == "hooks.json" else "hooks.json")
            if self.record_path(other).exists():  # an earlier hookweave wrote into both
                found.append(Finding("warning", f"{paths.display(other)} also holds hooks from hookweave, which this "
                                     f"hookweave does not read while {path.name} holds some; uninstall the bundles "
                                     f"here, then those in {other.name} are found", machine=machine))
        if "project" in installed_scopes and not read:
            found.append(Finding("warning", "Codex loads .codex/ only in a project trusted in the user config.toml (not "
                                 f"read: {UNREAD}); on each machine trust it when Codex asks, or run codex exec --trust "
                                 "once", machine=True))
        elif "project" in installed_scopes and level != "trusted":
            why = "marked untrusted" if level == "untrusted" else "not trusted"
            found.append(Finding("warning" if covered else "problem", (  # covered: each hook runs once, as asked
                f"this project is {why} in the user config.toml, so Codex ignores .codex/ here" + (
                    ": hookweave's project copies do not run, and the user layer's copies of them run instead"
                    if covered else
                    "; trust it when Codex asks, or run codex exec --trust once")), machine=True))
        return found

    def rejects(self, doc: Any, path: str) -> str | None:
        if not path.endswith("hooks.json"):
            return None
        from hookweave.hosts.codex.shape import hooks_json_problem

        found = hooks_json_problem(doc, self.native_events)
        return f"{found}: Codex refuses the whole file and runs none of its hooks; fix it" if found else None

    def running_docs(self, docs: Mapping[str, Any], project: Path) -> dict[str, Any]:
        """The user layer, and the project layer when Codex loads it, each without a file Codex
        refuses and without the hooks its trust state skips (``codex_running``)."""
        from hookweave.hosts.codex.running import running_docs

        return running_docs(self, docs, project)

    def verify_extra(self, project: Path, scopes: list[str]) -> list[Finding]:
        binary = os.environ.get(BIN_ENV) or shutil.which("codex")
        if not binary or not Path(binary).is_file():
            return []
        from hookweave.hosts.codex.appserver import findings

        return findings(self, str(binary), project)


def _trust_finding(entry: Any, digest: str, mine: tuple[str, str]) -> list[Finding]:
    """Trust lives in the user config.toml: each operator's own, so every finding is this machine's."""
    fix = "run hooks install with --trust, or trust it in Codex's /hooks"
    if not isinstance(entry, dict):
        return [Finding("problem", f"not trusted: Codex skips it silently; {fix}", *mine, machine=True)]
    if entry.get("enabled") is False:
        return [Finding("problem", "disabled in [hooks.state] (enabled = false); Codex skips it", *mine, machine=True)]
    if entry.get("trusted_hash") != digest:
        return [Finding("problem", f"trusted for an earlier version (hash differs), so Codex skips it; {fix}", *mine,
                        machine=True)]
    return []


def _get(doc: Any, *steps: str) -> Any:
    for key in steps:
        if not isinstance(doc, dict) or key not in doc:
            return None
        doc = doc[key]
    return doc


def _trust():
    """The trust keying and hashing module, loaded by the commands that look at trust, not at start-up."""
    from hookweave.hosts.codex import trust as codex_trust

    return codex_trust


def trust_hash(event: str, group: dict, handler: dict) -> str:
    """Codex's hash of a hook's identity (``codex_trust.trust_hash``; kept here for plugins and tests)."""
    return _trust().trust_hash(event, group, handler)


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(CodexHost)

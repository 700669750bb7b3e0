"""Antigravity CLI (``agy``): a hooks.json of named hooks, one of which is hookweave's own.

Documented facts only: agy is a closed Go binary that does not install from a registry here.
Files: project ``.agents/hooks.json``, user ``~/.gemini/antigravity-cli/hooks.json`` [DOC gemini-cli
``docs/resources/migrating-to-antigravity-cli.md``]. Each top-level key is a hook's *name*; its value
holds events (``PreToolUse``/``PostToolUse`` as ``{matcher, hooks: [handler]}`` groups,
``PreInvocation``, ``PostInvocation``, ``Stop``, ``SessionStart`` as flat handlers) and a boolean
``enabled`` that ``/hooks`` toggles. Timeouts are seconds, a 32-bit whole number. Strict JSON, read
with Go's encoding/json (the last of duplicate keys wins), and a file it rejects is dropped whole,
silently [3P skillsaw, measured on agy 1.1.25]: see ``antigravity_shape``.

Strategy: own a key. hookweave keeps every bundle's hooks under one named hook, ``"hookweave"``,
which is simply this host's ``hooks_key``: the shared core edits ``/hookweave/<event>`` lists as it
edits ``/hooks/<event>`` elsewhere, and the operator's named hooks are never opened. One key rather
than one per bundle or per hook because agy decodes the named hooks into a Go map, which keeps no
order: only the lists inside one named hook keep the order hookweave writes. Across named hooks
the run order is undocumented, so a ``first`` hook is first among hookweave's, no more.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.contract.host import Host
from hookweave.core.errors import BadInput
from hookweave.core.files import paths
from hookweave.core.model import names
from hookweave.core.model.findings import Finding
from hookweave.core.model.render import marker_in
from hookweave.hosts.antigravity import shape as antigravity_shape

if TYPE_CHECKING:
    from hookweave.core.model.bundle import Bundle, HookForHost

KEY = "hookweave"
GROUPED = ("PreToolUse", "PostToolUse")
OTHER_ROOTS = (".agent", "_agents", "_agent")  # customization roots besides .agents [3P skillsaw]


def _user_dir() -> Path:
    return paths.home() / ".gemini"


ANTIGRAVITY = Description(
    name="antigravity",
    title="Antigravity CLI",
    files={"user": "~/.gemini/antigravity-cli/hooks.json", "project": "{project}/.agents/hooks.json"},
    hooks_key=KEY,
    events=names.column("antigravity", names.EVENTS),
    tools=names.column("antigravity", names.TOOLS),
    native_events=GROUPED + ("PreInvocation", "PostInvocation", "Stop", "SessionStart"),
    programs=("agy",),
    dedup="none",
    order="file",
    execution="Antigravity runs the lists inside one named hook in file order; the order of named hooks is not "
              "documented, so hookweave keeps all its hooks in one",
    source="gemini-cli docs/resources/migrating-to-antigravity-cli.md (documentation only)",
)


class AntigravityHost(host_class(ANTIGRAVITY)):  # type: ignore[misc]  # built like a plugin's host, plus what data cannot say
    owns_key = True  # the "hookweave" named hook; the operator's named hooks are other keys
    timeout_max = antigravity_shape.INT32[1]
    timeout_max_why = "Antigravity reads a 32-bit number of seconds and drops the whole file over a larger one"

    def context_paths(self, project: Path) -> dict[str, Path]:
        """Other hooks.json files agy is reported to load [3P]: the shared ``~/.gemini/config`` one
        (its ``/hooks`` writes there in later versions) and the other customization roots."""
        found = {"shared": _user_dir() / "config" / "hooks.json"}
        found.update({root: project / root / "hooks.json" for root in OTHER_ROOTS})
        return found

    def parse(self, text: str, path: str) -> Any:
        doc = super().parse(text, path)
        if isinstance(doc, dict) and text.count(f'"{KEY}"') > 1:
            from hookweave.core.formats import jsontext

            if jsontext.parse(text, path).root.keys.count(KEY) > 1:
                raise BadInput(f'{path}: /{KEY} is written twice, and Antigravity reads only the last one, which '
                               "hides the other's hooks; merge them into one")
        return doc

    def render(self, hook: HookForHost, native_event: str, bundle: Bundle) -> dict[str, Any]:
        handler: dict[str, Any] = {"type": "command", "command": self.command(hook, bundle)}
        if hook.timeout is not None:
            if hook.timeout > antigravity_shape.INT32[1]:
                raise BadInput(f"{bundle.manifest}: hooks ({hook.id}).timeout: Antigravity reads a 32-bit number of "
                               f"seconds and drops the whole file over a larger one; use at most {antigravity_shape.INT32[1]}")
            handler["timeout"] = hook.timeout
        if native_event not in GROUPED:
            return handler  # a matcher here is ignored, so none is written
        return {"matcher": self.native_matcher(hook.matcher) or "*", "hooks": [handler]}

    def loose_in(self, event: str, entry: Any) -> bool:
        """Only the tool events hold groups; the others hold handlers as they are (install writes
        them so), so a handler there is no loose entry."""
        return event in GROUPED and self.is_loose(entry)

    def owner(self, entry: Any) -> tuple[str, str] | None:
        if isinstance(entry, dict) and "hooks" not in entry:
            return marker_in(entry.get("command"))
        return super().owner(entry)

    def handler_of(self, entry: Any) -> dict | None:
        if isinstance(entry, dict) and "hooks" not in entry:
            return entry if marker_in(entry.get("command")) else None
        return super().handler_of(entry)

    def strip_ours(self, entry: Any, bundle: str) -> Any | None:
        if isinstance(entry, dict) and "hooks" not in entry:
            return None
        return super().strip_ours(entry, bundle)

    def check_document(self, doc: Any, path: str) -> None:
        """Never edit a file agy drops (our hooks would not run either), nor make one it would drop."""
        Host.check_document(self, doc, path)
        found = antigravity_shape.problem(doc)
        if found:
            raise BadInput(f"{path}: {found}: Antigravity drops this whole file and runs none of its hooks; "
                           "fix it by hand first")

    def rejects(self, doc: Any, path: str) -> str | None:
        found = antigravity_shape.problem(doc)
        return f"{found}: Antigravity drops the whole file and runs none of its hooks; fix it" if found else None

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        found: list[Finding] = []
        for scope in sorted(installed_scopes):
            machine = not paths.within(self.settings_path(scope, project), project)
            ours = docs.get(scope, {}).get(KEY) if isinstance(docs.get(scope), dict) else None
            if antigravity_shape.disabled(ours):
                found.append(Finding("problem", f'{scope} hooks.json: the named hook "{KEY}" is disabled ("enabled": '
                                     "false), so none of hookweave's hooks run; enable it in /hooks (e) or remove the key",
                                     machine=machine))
            for hidden, winner in antigravity_shape.shadowed(ours):
                found.append(Finding("problem", f"{scope} hooks.json: /{KEY}/{hidden} and /{KEY}/{winner} are one key "
                                     "to Antigravity, which matches names in any case and keeps the last: the hooks "
                                     f"under {hidden} never run; merge them into one", machine=machine))
        for label, path in self.context_paths(project).items():
            doc = docs.get(label)
            if doc is None:
                continue
            shown, machine = paths.display(path), not paths.within(path, project)
            if antigravity_shape.problem(doc):
                found.append(Finding("warning", f"{shown}: {antigravity_shape.problem(doc)}: Antigravity drops that "
                                     "whole file", machine=machine))
            elif isinstance(doc, dict) and KEY in doc and installed_scopes:
                found.append(Finding("warning", f'{shown} holds a "{KEY}" named hook too; if Antigravity loads both '
                                     "files, those hooks run twice", machine=machine))
        return found


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(AntigravityHost)

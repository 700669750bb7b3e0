"""The settings shapes of the built-in hosts, for plugins too: ``NestedGroupsHost`` for events
holding ``{matcher, hooks: [handler]}`` groups (Claude, Codex, Gemini), ``FlatHost`` for flat
handler lists (Cursor), and ``TopLevelEvents``, put in front of either, for a file whose top level
is the events object (Factory's ``hooks.json``). Import them from ``hookweave.core.contract.host``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hookweave.core.contract import skipped
from hookweave.core.contract.host import Host, kind_of
from hookweave.core.errors import BadInput
from hookweave.core.model.render import MARK, marker_in

if TYPE_CHECKING:
    from hookweave.core.model.bundle import Bundle, HookForHost


class FlatHost(Host):
    """Hosts whose events hold handlers directly, with the matcher on the handler (Cursor).

    ``command_keys``: the fields an entry's command may be in (Copilot: ``bash``, ``powershell``,
    ``command``); an entry of ``type`` command needs one of them, and our marker in any makes it ours."""

    command_keys: tuple[str, ...] = ("command",)

    def render(self, hook: HookForHost, native_event: str, bundle: Bundle) -> dict[str, Any]:
        """``{command, matcher?, timeout?}``: Cursor's entry, and the common flat one."""
        entry: dict[str, Any] = {"command": self.command(hook, bundle)}
        matcher = self.native_matcher(hook.matcher)
        if matcher:
            entry["matcher"] = matcher
        if hook.timeout is not None:
            entry["timeout"] = self.native_timeout(hook.timeout)
        return entry

    def owner(self, entry: Any) -> tuple[str, str] | None:
        if not isinstance(entry, dict):
            return None
        return next((found for key in self.command_keys if (found := marker_in(entry.get(key)))), None)

    def check_document(self, doc: Any, path: str) -> None:
        super().check_document(doc, path)
        keys = [f'"{key}"' for key in self.command_keys]
        wanted = " or ".join([", ".join(keys[:-1]), keys[-1]] if len(keys) > 1 else keys)
        for event, handlers in (doc.get(self.hooks_key) or {}).items():
            if event not in self.native_events:
                continue
            where = f"{path}: /{self.hooks_key}/{event}"
            if not isinstance(handlers, list):
                raise BadInput(f"{where} must be a list of hooks, not {kind_of(handlers)}; fix the file by hand")
            for i, handler in enumerate(handlers):
                if not isinstance(handler, dict):
                    raise BadInput(f"{where}/{i} must be an object; fix the file by hand")
                if handler.get("type", "command") == "command" and not any(
                        isinstance(handler.get(key), str) for key in self.command_keys):
                    raise BadInput(f"{where}/{i} has no {wanted} string; fix the file by hand")


class NestedGroupsHost(Host):
    """Hosts whose events hold ``{matcher, hooks: [handler]}`` groups (Claude, Codex, Gemini).

    ``loose_entries``: what the host does with a handler written straight under an event (an object
    with no ``"hooks"`` key), as measured on the real agent (tests/e2e/test_flat_entries_real.py):
    ``"skipped"`` (that entry never runs, the rest do: install goes on), ``"event"`` (none of that
    event's hooks in the file run), ``"refused"`` (none of the file's), or ``None`` (not measured);
    in all but the first, install refuses the file and says why, as verify does."""

    loose_entries: str | None = None
    untyped_handlers: str | None = None  # a handler with no "type" in a group: "skipped", "refused" or not measured
    bad_matchers: str | None = None  # a matcher JavaScript's new RegExp() refuses: as loose_entries; None: not checked

    def render(self, hook: HookForHost, native_event: str, bundle: Bundle) -> dict[str, Any]:
        handler: dict[str, Any] = {"type": "command", "command": self.command(hook, bundle)}
        if hook.timeout is not None:
            handler["timeout"] = self.native_timeout(hook.timeout)
        if self.order == "sequential-flag":  # the agent reads the group's own flag (Qoder): the bundle's asks for it
            return group_with(self, hook, bundle, handler)
        group: dict[str, Any] = {}
        matcher = self.native_matcher(hook.matcher)
        if matcher:
            group["matcher"] = matcher
        group["hooks"] = [handler]
        return group

    def owner(self, entry: Any) -> tuple[str, str] | None:
        handlers = entry.get("hooks") if isinstance(entry, dict) else None
        if not isinstance(handlers, list):
            return None
        for handler in handlers:
            # marker_in's own first look, made here: asked of every group of a 10,000-entry file a few
            # times a command, its call cost more than the look
            command = handler.get("command") if isinstance(handler, dict) else None
            if isinstance(command, str) and MARK in command:
                found = marker_in(command)
                if found:
                    return found
        return None

    def handler_of(self, entry: Any) -> dict | None:
        handlers = entry.get("hooks") if isinstance(entry, dict) else None
        for handler in handlers if isinstance(handlers, list) else []:
            if isinstance(handler, dict) and marker_in(handler.get("command")):
                return handler
        return None

    def strip_ours(self, entry: Any, bundle: str) -> Any | None:
        """The group without the one handler that makes it ours (the first marked one, as ``owner``
        reads it); every other handler stays, a copy of ours included."""
        handlers = entry.get("hooks") if isinstance(entry, dict) else None
        if not isinstance(handlers, list):
            return None
        at = next((i for i, h in enumerate(handlers) if isinstance(h, dict) and marker_in(h.get("command"))), None)
        if at is None or marker_in(handlers[at].get("command"))[0] != bundle:
            return entry
        kept = handlers[:at] + handlers[at + 1 :]
        if not kept:
            return None
        return {**entry, "hooks": kept}

    def check_document(self, doc: Any, path: str) -> None:
        super().check_document(doc, path)
        for event, groups in (doc.get(self.hooks_key) or {}).items():
            if event not in self.native_events:
                continue  # unknown events are ignored by the hosts; we leave them alone
            if type(groups) is list and self._well_formed(groups):
                continue  # nearly every file: each group asked at once, no error to place
            where = f"{path}: /{self.hooks_key}/{event}"
            if not isinstance(groups, list):
                raise BadInput(f"{where} must be a list of hook groups, not {kind_of(groups)}; fix the file by hand")
            for i, group in enumerate(groups):
                loose = self.is_loose(group)  # asked once: a big event has thousands of groups
                if loose and self.loose_entries == "skipped":
                    continue  # the host skips it; we leave it as it is, and verify and install say so
                if loose:
                    raise BadInput(f"{path}: {self.loose_entry_says(f'/{self.hooks_key}/{_escape(event)}/{i}', path, group)}")
                if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                    raise BadInput(f'{where}/{i} must be an object with a "hooks" list; fix the file by hand')
                for j, handler in enumerate(group["hooks"]):
                    if not isinstance(handler, dict):
                        raise BadInput(f"{where}/{i}/hooks/{j} must be an object; fix the file by hand")
                    if "type" not in handler and self.untyped_handlers == "refused":
                        raise BadInput(f"{path}: {skipped.untyped_says(self, f'/{self.hooks_key}/{_escape(event)}/{i}/hooks/{j}', path)}")
                    if handler.get("type", "command") == "command" and not isinstance(handler.get("command"), str):
                        raise BadInput(f'{where}/{i}/hooks/{j} has no "command" string; fix the file by hand')

    def _well_formed(self, groups: list) -> bool:
        """Whether the loop of ``check_document`` would pass every group: each a ``dict`` holding a
        ``"hooks"`` list of ``dict`` handlers, each with a ``str`` command where its type is command
        (and a type, where the host refuses a handler without one). ``False`` leaves the groups to
        that loop, which says where and what: an odd group, a loose entry the host skips, a value
        of a subclass (a TOML table) are all its to judge. Over a 10,000-entry file's thousand
        groups the loop costs 5.2 million instructions, this 2.4 (C passes a level at a time, 3.1)."""
        untyped_refused = self.untyped_handlers == "refused"
        for group in groups:
            if type(group) is not dict:
                return False
            handlers = group.get("hooks")
            if type(handlers) is not list:
                return False
            for handler in handlers:
                if type(handler) is not dict or (untyped_refused and "type" not in handler):
                    return False
                if handler.get("type", "command") == "command" and type(handler.get("command")) is not str:
                    return False
        return True

    @staticmethod
    def is_loose(entry: Any) -> bool:
        """Whether ``entry`` (one element of an event's list) is a handler where a group belongs."""
        return isinstance(entry, dict) and "hooks" not in entry

    def loose_in(self, event: str, entry: Any) -> bool:
        """``is_loose`` for an entry of ``event``: a host whose other events hold flat handlers
        (Antigravity's Stop, SessionStart) says which events take groups."""
        return self.is_loose(entry)

    def loose_entry_says(self, pointer: str, path: str, entry: Any = None) -> str:
        """The one true sentence about a loose entry at ``pointer``, for verify, install and adopt alike."""
        return skipped.loose_entry_says(self, pointer, path, entry)

    def skipped_entries(self, doc: Any, path: str) -> list[str]:
        return skipped.skipped_entries(self, doc, path)

    def rejects(self, doc: Any, path: str) -> str | None:
        return skipped.rejects(self, doc, path)

    def dropped_lists(self, doc: Any, path: str) -> list[tuple[str, str]]:
        return skipped.dropped_lists(self, doc, path)


def every_entry(doc: Any, key: str = "hooks") -> list[Any]:
    """Every entry of every event in a settings document (``key`` → event → list), any shape."""
    hooks = doc.get(key) if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        return []
    return [e for entries in hooks.values() if isinstance(entries, list) for e in entries]


def group_with(host: Host, hook: Any, bundle: Any, handler: dict[str, Any]) -> dict[str, Any]:
    """One group holding ``handler``: the hook's native matcher, and ``sequential`` when the bundle
    asks for it (Gemini and Qwen read it on any group of the event)."""
    group: dict[str, Any] = {}
    matcher = host.native_matcher(hook.matcher)
    if matcher:
        group["matcher"] = matcher
    if bundle.sequential:
        group["sequential"] = True
    group["hooks"] = [handler]
    return group


class TopLevelEvents:
    """A mix-in for files whose top level *is* the events object: no ``"hooks"`` wrapper.

    The shared core reads and edits ``/hooks/<event>``, so such a file is read as
    ``{"hooks": <file>}`` (``{}`` while it is empty, so the last uninstall can remove a file we
    created) and every edit is moved up one level when written. ``events_at_top(path)`` says which
    of the host's files have that shape (all, by default)."""

    def events_at_top(self, path: str) -> bool:
        return True

    def parse(self, text: str, path: str) -> Any:
        doc = super().parse(text, path)  # type: ignore[misc]
        if not self.events_at_top(path) or not isinstance(doc, dict):
            return doc
        return {"hooks": doc} if doc else {}

    def apply(self, text: str, ops: list[dict], path: str) -> str:
        if not self.events_at_top(path):
            return super().apply(text, ops, path)  # type: ignore[misc]
        for op in ops:  # one by one: a whole-hooks op expands to the file's keys as they are then
            text = super().apply(text, self._lifted(text, op, path), path)  # type: ignore[misc]
        return text

    def reads_as(self, old_text: str | None, new_text: str, new: Any, path: str, ops: list[dict]) -> bool:
        if not self.events_at_top(path):
            return super().reads_as(old_text, new_text, new, path, ops)  # type: ignore[misc]
        return self.parse(new_text, path) == new

    def _lifted(self, text: str, op: dict, path: str) -> list[dict]:
        if op["path"] != "/hooks":
            return [{**op, "path": op["path"][len("/hooks"):]}]
        if op["op"] == "remove":
            return [{"op": "remove", "path": "/" + _escape(key)} for key in super().parse(text, path)]  # type: ignore[misc]
        return [{"op": "add", "path": "/" + _escape(key), "value": value} for key, value in op["value"].items()]


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")

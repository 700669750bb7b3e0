"""Cline (CLI 3.0.65): one executable per event, which hookweave owns only when it created it.

Cline has no hooks registry: it runs each file named after an event (``PreToolUse``, or with an
extension such as ``PreToolUse.sh``) in ``<project>/.clinerules/hooks/``, ``<project>/.cline/hooks/``,
``~/.cline/hooks/`` (``$CLINE_DIR/hooks``) and ``~/Documents/Cline/Hooks/``, all of them, sorted by
full path. hookweave keeps what it installed as data in a file Cline never reads
(``.cline/hookweave-hooks.json``, ``$CLINE_DIR/hookweave-hooks.json``; flat entries as Cursor's) and
writes from it, per event, the dispatcher ``.clinerules/hooks/<Event>`` (``$CLINE_DIR/hooks/<Event>``
for the user scope) that runs every member in declared order (``cline_dispatcher``). The dispatcher
is a companion file of the data file: it is written with it, deleted with its last member, and the
folders hookweave made for it go too. An operator's own file at that place is never replaced nor
edited: install refuses, naming it, and writes nothing.

Verify reads each dispatcher (``context_paths``): missing, replaced by another script, or edited by
hand is a problem, as is one hookweave wrote that no data file lists any more.

Measured in Cline 3.0.65's code (node_modules/@cline/core) and on the program
(tests/e2e/test_cline_real.py): only PreToolUse and PostToolUse are waited for and answered (one
file after another; 120 s default timeout, then SIGKILL; the exit code is ignored, stdout is the
answer; a PreToolUse ``cancel`` aborts the whole run); every other event's files are started at
once, detached, stdout ignored; PreCompact maps to no event and never runs. A file without a
shebang runs with ``bash`` whatever its mode. Files in ``.clinerules/`` are read as rules only when
they end in ``.md``, ``.markdown`` or ``.txt``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from hookweave.core.contract.describe import host_class
from hookweave.core.contract.description import Description
from hookweave.core.errors import BadInput, Refused
from hookweave.core.files import paths
from hookweave.core.model import names
from hookweave.core.model.findings import Finding
from hookweave.core.model.render import marker_in

DATA_FILE = "hookweave-hooks.json"
NATIVE_EVENTS = ("TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "TaskError", "PreToolUse",
                 "PostToolUse", "UserPromptSubmit", "PreCompact", "SessionShutdown")


def _user_dir() -> Path:
    return paths.from_env("CLINE_DIR", paths.home() / ".cline")


CLINE = Description(
    name="cline",
    title="Cline",
    files={"user": f"${{CLINE_DIR:-~/.cline}}/{DATA_FILE}", "project": f"{{project}}/.cline/{DATA_FILE}"},
    shape="flat",
    events=names.column("cline", names.EVENTS),
    tools=names.column("cline", names.TOOLS),
    native_events=NATIVE_EVENTS,
    programs=("cline",),
    dedup="none",  # every file runs; two scopes' dispatchers both run (no de-duplication)
    order="file",
    execution="Cline runs one file per event name in each hooks folder, sorted by path; hookweave's "
              "file runs the event's hooks one after another, in declared order, the first cancel ending it",
    source="Cline 3.0.65's code (node_modules/@cline/core), measured (tests/e2e/test_cline_real.py)",
)


class ClineHost(host_class(CLINE)):  # type: ignore[misc]  # built like a plugin's host, plus its dispatchers
    owns_file = True  # hookweave's own file; the operator's hooks are in other files it never edits
    companion_action = "the event's hook file (hookweave's own)"
    companion_scope = None

    def hooks_dir(self, settings: Path) -> Path:
        """The folder of the dispatchers that go with the data file ``settings``."""
        if settings.parent.name == ".cline" and settings.parent != _user_dir():
            return settings.parent.parent / ".clinerules" / "hooks"
        return settings.parent / "hooks"

    def dispatcher_paths(self, settings: Path) -> dict[str, Path]:
        folder = self.hooks_dir(settings)
        return {event: folder / event for event in NATIVE_EVENTS}

    def context_paths(self, project: Path) -> dict[str, Path]:
        return {f"{scope}:{event}": path for scope in self.verify_scopes
                for event, path in self.dispatcher_paths(self.settings_path(scope, project)).items()}

    # -- the dispatchers, as companion files of the data file ------------------------------------

    def _event_of(self, path: str) -> str | None:
        name = Path(path).name
        return name if name in self.native_events and Path(path).parent.name.lower() == "hooks" else None

    def parse(self, text: str, path: str) -> Any:
        event = self._event_of(path)
        if event is None:
            return super().parse(text, path)
        from hookweave.hosts.cline import dispatcher as cline_dispatcher

        return cline_dispatcher.read(event, text)

    def apply(self, text: str, ops: list[dict], path: str) -> str:
        event = self._event_of(path)
        if event is None:
            return super().apply(text, ops, path)
        from hookweave.hosts.cline import dispatcher as cline_dispatcher

        return cline_dispatcher.render(event, ops[-1]["value"]["hooks"], 0)

    def companion_paths(self, target: Any) -> list[Path]:
        return list(self.dispatcher_paths(target.path).values())

    def companion_ops(self, old, new, target, bundle, current, *, trust: bool) -> dict[Path, list[dict]]:
        before, after = _hooks_of(old), _hooks_of(new)
        edits: dict[Path, list[dict]] = {}
        for event, path in self.dispatcher_paths(target.path).items():
            members, written = _members(after, event), _members(before, event)
            if not members and not written:
                continue  # an event we have no hook on: its file, whatever it holds, is not read
            try:
                there = current(path)
            except BadInput:  # not UTF-8, not a regular file: not ours, whatever it is
                there = {"foreign": True}
            if there.get("foreign"):
                if any(marker_in(h["command"]) for h in members):
                    shown = paths.display(path)
                    raise Refused(f"{shown}: is the operator's own Cline hook, and hookweave never replaces nor edits "
                                  f"it; nothing written. Move its command into a bundle, or move the file away "
                                  f"(Cline also runs {event}.sh beside it), and install again")
                continue  # the operator's file: never touched, even when our members go
            listed = there.get("hooks", {}).get(event)
            if listed == members and before.get(event, []) == after.get(event, []) and not there.get("earlier"):
                continue
            if there and not (there.get("exact") and listed == written):  # not what we wrote last time
                raise Refused(f"{paths.display(path)}: was edited by hand since hookweave wrote it, and hookweave never "
                              "overwrites an edit; nothing written. Undo the edit, or delete the file (install writes "
                              "it anew), and run the command again")
            edits[path] = [{"op": "replace", "path": "", "value": {"hooks": members}}]
        return edits

    def companion_text(self, path: Path, old: str | None, new: str) -> tuple[str | None, bool]:
        """The dispatcher with the count of folders hookweave made for it: counted when it is
        created (or taken over from a sibling dispatcher of ours, so the last one to go removes
        them), kept after; ``None`` once it has no member left."""
        from hookweave.hosts.cline import dispatcher as cline_dispatcher

        event = path.name
        hooks = cline_dispatcher.read(event, new)["hooks"][event]
        mine = cline_dispatcher.read(event, old) if old is not None else {}
        folders = mine.get("folders", 0) if old is not None else _folders_to_make(path)
        if not hooks:
            return None, folders
        return cline_dispatcher.render(event, hooks, folders), False

    # -- verify ---------------------------------------------------------------------------------

    def gates(self, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
        from hookweave.hosts.cline import verify as cline_verify

        found: list[Finding] = []
        for scope in sorted(installed_scopes):
            hooks = _hooks_of(docs.get(scope))
            data = self.settings_path(scope, project)
            for event in NATIVE_EVENTS:
                members = _members(hooks, event)
                found += cline_verify.findings(scope, event, members, docs.get(f"{scope}:{event}"),
                                               self.dispatcher_paths(data)[event])
                found += cline_verify.unmarked(data, event, hooks.get(event, []), self.hooks_dir(data))
        if any(_hooks_of(docs.get(scope)) for scope in installed_scopes):
            found += cline_verify.interpreter()
        return found


def _hooks_of(doc: Any) -> dict[str, list]:
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    return {e: v for e, v in hooks.items() if isinstance(v, list)} if isinstance(hooks, dict) else {}


def _members(doc_hooks: dict[str, list], event: str) -> list[dict]:
    """The entries the dispatcher runs: ours only. The data file is hookweave's and Cline never reads
    it, so an entry someone wrote there by hand runs nowhere, and verify says so (``gates``)."""
    return [h for h in doc_hooks.get(event, []) if isinstance(h, dict) and marker_in(h.get("command"))]


def _folders_to_make(path: Path) -> int:
    """How many of the dispatcher's two folders (``hooks`` and the one above) do not exist yet, or
    the count a sibling dispatcher of ours holds, if larger."""
    from hookweave.core.files import fileio
    from hookweave.hosts.cline import dispatcher as cline_dispatcher

    missing = 0 if path.parent.is_dir() else 1 if path.parent.parent.is_dir() else 2
    for event in NATIVE_EVENTS:
        sibling = path.with_name(event)
        try:
            text = fileio.read_text(sibling) if sibling != path and path.parent.is_dir() else None
        except (BadInput, OSError):
            continue  # an operator's file that is not text: not ours, so it claims nothing
        if text is not None:
            missing = max(missing, cline_dispatcher.read(event, text).get("folders", 0))
    return missing


def hookweave_register_hosts(register) -> None:
    """The plugin hook (``core/contract/hookspecs.py``); the registry marks it for pluggy when a plugin is installed."""
    register(ClineHost)

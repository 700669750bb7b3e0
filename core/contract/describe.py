"""A ``Host`` class built from a ``Description``: the facts become the attributes and methods every
command reads, so a described agent installs, verifies, uninstalls and adopts like a built-in one."""

from __future__ import annotations

import os
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from hookweave.core.contract.description import Description, this_system, variables
from hookweave.core.contract.host import Host
from hookweave.core.contract.shapes import FlatHost, NestedGroupsHost, TopLevelEvents
from hookweave.core.contract.yamlfile import YamlFile
from hookweave.core.files import paths
from hookweave.core.model.findings import Finding

_EXECUTION = {
    "parallel": "{title} starts all of an event's matching hooks at once, so file order is not execution order",
    "file": "{title} runs an event's hooks one after another, in file order",
    "sequential-flag": "{title} runs an event's hooks in parallel unless any matching group sets "
                       "\"sequential\": true; then all of them run one after another",
    "unknown": "{title}'s documentation does not say whether an event's hooks run in file order or at once; "
               "hookweave checks file order only",
}


def expand(template: str | Mapping[str, str], project: Path) -> Path:
    """A path template of a description as a path: ``${VAR:-default}`` from the environment, ``~``
    the home folder (``HOME``, as the agents read it), ``{project}`` the project folder; of a
    per-platform template, this platform's. Normalised: a variable holding ``a/../b`` names one file
    for every command (the kernel cannot walk through an ``a`` that does not exist: install made it
    on its way, status and uninstall then found nothing)."""
    template = this_system(template)
    values = tuple(os.environ.get(name) for name in _variables(template))
    return _expanded(template, str(project), os.environ.get("HOME"), values)


def expand_text(template: str, project: str, environ: Mapping[str, str]) -> str:
    """``str(expand(template, project))`` with the variables read from ``environ``, without making
    the ``Path``: for the cross-agent check's look at every host's record places (about fifty, each
    a new ``Path`` and a few environment lookups: 3 million instructions of a ``verify``)."""
    if "$" not in template:  # no variable (most templates): nothing more to look up or keep
        return _finished(template, project, environ.get("HOME"))
    values = tuple(environ.get(name) for name in _variables(template))
    return _expanded_text(template, project, environ.get("HOME"), values)


@lru_cache(maxsize=None)
def _variables(template: str) -> tuple[str, ...]:
    return tuple(name for _, _, name, _ in _spans(template))


@lru_cache(maxsize=None)
def _spans(template: str) -> tuple[tuple[int, int, str, str], ...]:
    return tuple(variables(template))


@lru_cache(maxsize=4096)
def _expanded(template: str, project: str, home: str | None, values: tuple[str | None, ...]) -> Path:
    """``expand``'s work, once per template, project and the environment it reads (a command asks
    for the same few paths tens of thousands of times: building the ``Path`` was most of it)."""
    return Path(_expanded_text(template, project, home, values))


@lru_cache(maxsize=4096)
def _expanded_text(template: str, project: str, home: str | None, values: tuple[str | None, ...]) -> str:
    text, done = "", 0  # VARIABLE.sub(lambda m: value or m.group(2), template)
    for (start, end, _, default), value in zip(_spans(template), values):
        text, done = text + template[done:start] + (value or default), end
    return _finished(text + template[done:], project, home)


def _finished(text: str, project: str, home: str | None) -> str:
    """A template's text with its variables filled: ``~`` and ``{project}`` replaced, normalised."""
    if text == "~" or text.startswith("~/"):
        text = _home(home) + text[1:]
    return os.path.normpath(text.replace("{project}", project))


@lru_cache(maxsize=None)
def _home(home: str | None) -> str:
    return str(paths.home())  # ``home`` is its $HOME: an unset one raises here, as it did


def host_class(d: Description) -> type[Host]:
    """The ``Host`` subclass of ``d``, with the shape, file format and facts it states."""
    shape: tuple[type, ...] = (NestedGroupsHost,) if d.shape.endswith("groups") else (FlatHost,)
    if d.shape.startswith("top-level"):
        shape = (TopLevelEvents, *shape)
    if d.format == "yaml":
        shape = (YamlFile, *shape)
    variable = d.project_variable
    project_ref = "." if not variable else f'"{variable}"' if variable.startswith("$") else f'"${variable}"'
    facts: dict[str, Any] = {
        "name": d.name, "title": d.title, "description": d, "__doc__": f"{d.title}, described as data ({d.source}).",
        "scopes": tuple(s for s in d.files if s not in d.read_only), "verify_scopes": tuple(d.files),
        "events": dict(d.events), "tools": dict(d.tools),
        "native_events": frozenset([*(n for n in d.events.values() if n), *d.native_events, *d.documented_events]),
        "documented_events": frozenset(d.documented_events), "documented_in": d.documented_in,
        "comments": d.format in ("jsonc", "json5"), "json5": d.format == "json5", "comment_fix": d.comment_fix, "env_key": d.env_key,
        "hooks_key": d.hooks_key, "required": dict(d.required), "also_reads": tuple(d.also_reads),
        "timeout_unit": d.timeout_unit, "project_ref": project_ref, "project_lookup": d.project_lookup,
        "order": "file" if d.order == "unknown" else d.order,
        "execution": d.execution or _EXECUTION[d.order].format(title=d.title),
        "dedup": d.dedup, "restart": d.restart, "runs": d.runs, **_protocol_facts(d),
        **({"loose_entries": d.loose_entries, "untyped_handlers": d.untyped_handlers, "bad_matchers": d.bad_matchers}
           if d.shape.endswith("groups") else {}),
        "settings_path": _settings_path, "detect": _detect, "gates": _gates, "verify_extra": _notes,
        "__module__": f"hookweave.described.{d.name}",
    }
    return type(f"{''.join(p.title() for p in d.name.split('-'))}Host", shape, facts)


def _protocol_facts(d: Description) -> dict[str, Any]:
    """The protocol a described host names, or its protocol as data; the data says which exit codes
    block and where, so install's warning on a hook that blocks only by exiting 2 follows it."""
    if not isinstance(d.protocol, Mapping):
        return {"protocol": d.protocol, "protocol_data": None, "exit_codes": d.exit_codes,
                "blocking_events": frozenset(d.blocking_events)}
    from hookweave.core.contract.answers import plain

    data = plain({"title": d.title, **d.protocol})
    return {"protocol": "", "protocol_data": data, "exit_codes": "read" if data["block_exit_codes"] else "ignored",
            "blocking_events": frozenset(data["blocking_events"])}


def _settings_path(self: Host, scope: str, project: Path) -> Path:
    files = self.description.files  # type: ignore[attr-defined]
    if scope not in files:
        raise ValueError(scope)
    return expand(files[scope], project)


def _detect(self: Host) -> bool:
    """In use here when one of its programs is on PATH or the folder of its user file exists."""
    programs = self.description.programs  # type: ignore[attr-defined]
    if any(shutil.which(program) for program in programs):
        return True
    return "user" in self.scopes and self.settings_path("user", Path("/")).parent.is_dir()


def _notes(self: Host, project: Path, scopes: list[str]) -> list[Finding]:
    return [Finding("note", note) for note in self.description.notes]  # type: ignore[attr-defined]


def _gates(self: Host, docs: Mapping[str, Any], installed_scopes: set[str], project: Path) -> list[Finding]:
    """A switch that turns every hook off (``switches``), set in any file the agent reads."""
    d: Description = self.description  # type: ignore[attr-defined]
    found = []
    for scope in self.verify_scopes:
        doc = docs.get(scope)
        for key, off in d.switches.items():
            value = _at(doc, key.split("."))
            if value is not _ABSENT and value == off and installed_scopes:
                shown = paths.display(self.settings_path(scope, project))
                found.append(Finding("problem", f"{shown}: {key} is {off!r}, so {d.title} runs no hooks; "
                                     f"remove it or set it otherwise"))
    return found


_ABSENT = object()


def _at(doc: Any, keys: list[str]) -> Any:
    """The value at a dotted switch (``hooksConfig.enabled``: a key of an object), or _ABSENT."""
    for key in keys:
        if not isinstance(doc, dict) or key not in doc:
            return _ABSENT
        doc = doc[key]
    return doc

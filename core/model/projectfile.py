"""Pure: the team's project file, ``.hookweave.toml`` at a repository's root, read and checked.

It names the agents a repository uses and its bundles, each with a source: a folder inside the
repository, a shipped template, or a git URL pinned to a full commit with a hash of the bundle's
files (docs/team.md). A bundle's own manifest stays ``hookweave.toml``; this file only says which
bundles, from where, for which agents. Every error names the file, the key and the fix (exit 2).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hookweave.core.formats import tomlload
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.model.manifestcheck import Checker, key_path, kind

FILE_NAME = ".hookweave.toml"
VENDOR_DIR = ".hookweave/bundles"  # remote and template bundles are copied here, committed
TOP_KEYS = ("hosts", "scope", "bundles")
BUNDLE_KEYS = ("name", "source", "rev", "commit", "hash", "path", "hosts", "scope", "env", "position")
SCOPES = ("project", "local", "user")  # a team file's scopes; managed is a machine's, not a repository's
COMMIT_RE = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # SHA-1 or SHA-256 repositories
HASH_RE = re.compile(r"sha256:[0-9a-f]{64}")
_URL_RE = re.compile(r"(https?|ssh|git|file)://.+|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:.+")


class Entry(FieldTuple):
    """One ``[[bundles]]`` table."""

    name: str
    source: str
    kind: str  # "git", "template" or "folder"
    rev: str | None = None
    commit: str | None = None
    hash: str | None = None
    path: str | None = None  # the bundle's folder inside a git repository (default: its top)
    hosts: tuple[str, ...] | None = None  # None: the file's hosts
    scope: str | None = None  # None: the file's scope
    env: dict[str, str] = {}  # noqa: RUF012 - read only: the manifest's env values, overridden
    position: dict[str, str] = {}  # noqa: RUF012 - read only: hook id -> "first" or "last"

    @property
    def vendored(self) -> bool:
        """Copied into ``.hookweave/bundles/NAME`` (a folder source is the repository's own)."""
        return self.kind != "folder"


class ProjectFile(FieldTuple):
    path: Path
    hosts: tuple[str, ...]
    scope: str
    entries: tuple[Entry, ...]

    def entry(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)

    def hosts_of(self, entry: Entry) -> tuple[str, ...]:
        return entry.hosts if entry.hosts is not None else self.hosts

    def scope_of(self, entry: Entry) -> str:
        return entry.scope or self.scope


def source_kind(source: str) -> str:
    """A git URL (``https://``, ``ssh://``, ``file://``, ``git@host:path``), a folder (a path with a
    slash, or ``.``), or else a template's name."""
    if _URL_RE.fullmatch(source):
        return "git"
    if "/" in source or source in (".", "..") or source.startswith("."):
        return "folder"
    return "template"


def parse(text: str, path: Path, known_hosts: list[str] | None = None) -> ProjectFile:
    data = tomlload.load(text, path)
    check = Checker(path)
    check.keys(data, TOP_KEYS, "project file")
    hosts = _hosts(check, data.get("hosts", []), "hosts", known_hosts, allow_empty=True)
    scope = _scope(check, data.get("scope", "project"), "scope")
    raw = data.get("bundles", [])
    if not isinstance(raw, list) or not all(isinstance(t, dict) for t in raw):
        raise check.fail("bundles", f"must be an array of tables, not {kind(raw)}", "write each bundle as [[bundles]]")
    entries = tuple(_entry(check, table, i, known_hosts) for i, table in enumerate(raw))
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        if entry.name in seen:
            raise check.fail(f"bundles[{i}].name", f"{entry.name!r} is also bundles[{seen[entry.name]}]",
                             "give each bundle its own name, or remove one of them")
        seen[entry.name] = i
        if not hosts and entry.hosts is None:
            raise check.fail(f"bundles[{i}]", "names no agent", 'add hosts = ["claude", ...] at the top of the file')
    return ProjectFile(path, hosts, scope, entries)


def _entry(check: Checker, table: dict[str, Any], i: int, known_hosts: list[str] | None) -> Entry:
    where = f"bundles[{i}]"
    check.keys(table, BUNDLE_KEYS, where)
    name = check.name(table.get("name"), f"{where}.name")
    source = check.string(table.get("source"), f"{where}.source",
                          'a folder in the repository ("tools/guard"), a template name, or a git URL')
    source_kind_ = source_kind(source)
    fields: dict[str, Any] = {}
    for key in ("rev", "commit", "hash", "path"):
        if key in table:
            fields[key] = check.string(table[key], f"{where}.{key}", f"quote it: {key} = \"...\"")
    if source_kind_ != "git":
        for key in ("rev", "commit", "path"):
            if key in fields:
                raise check.fail(f"{where}.{key}", f"only a git source has a {key}",
                                 f"remove it, or make source a git URL (it is a {source_kind_}: {source!r})")
    if source_kind_ == "folder" and "hash" in fields:
        raise check.fail(f"{where}.hash", "a folder of the repository is not vendored, so it has no hash", "remove it")
    if "commit" in fields and not COMMIT_RE.fullmatch(fields["commit"]):
        raise check.fail(f"{where}.commit", f"{fields['commit']!r} is not a full commit id",
                         "let hooks sync or hooks autoupdate write it (40 hex digits)")
    if "hash" in fields and not HASH_RE.fullmatch(fields["hash"]):
        raise check.fail(f"{where}.hash", f"{fields['hash']!r} is not a sha256: hash",
                         "let hooks sync write it, or remove it to take the files as they are")
    if "path" in fields:
        fields["path"] = _inner_path(check, fields["path"], f"{where}.path")
    if "hosts" in table:
        fields["hosts"] = _hosts(check, table["hosts"], f"{where}.hosts", known_hosts)
    if "scope" in table:
        fields["scope"] = _scope(check, table["scope"], f"{where}.scope")
    fields["env"] = _strings(check, table.get("env", {}), f"{where}.env", "NAME = \"value\"")
    position = _strings(check, table.get("position", {}), f"{where}.position", 'hook-id = "first"')
    for hook, value in position.items():
        if value not in ("first", "last"):
            raise check.fail(f"{where}.position.{key_path(hook)}", f"{value!r} is no position", 'use "first" or "last"')
    fields["position"] = position
    return Entry(name, source, source_kind_, **fields)


def _hosts(check: Checker, value: Any, where: str, known: list[str] | None, allow_empty: bool = False) -> tuple[str, ...]:
    if allow_empty and value == []:
        return ()
    hosts = check.hosts(value, where)
    for host in hosts:
        if known is not None and host not in (*known, "all", "detected"):
            import difflib

            close = difflib.get_close_matches(host, known, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"hosts: {', '.join(known)}, all, detected"
            raise check.fail(where, f"unknown host {host!r}", hint)
    return hosts


def _scope(check: Checker, value: Any, where: str) -> str:
    if value not in SCOPES:
        import difflib

        shown = repr(value) if isinstance(value, str) else kind(value)
        close = difflib.get_close_matches(value, SCOPES, n=1) if isinstance(value, str) else []
        hint = f"did you mean {close[0]!r}?" if close else f"use one of {', '.join(SCOPES)}"
        raise check.fail(where, f"unknown scope {shown}", hint)
    return value


def _strings(check: Checker, value: Any, where: str, example: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise check.fail(where, "must be a table of strings", f"write [{where.replace('[', '.').split('.')[0]}...] "
                         f"entries as {example}")
    return dict(value)


def _inner_path(check: Checker, value: str, where: str) -> str:
    parts = Path(value).parts
    if value.startswith("/") or ".." in parts or "\\" in value:
        raise check.fail(where, f"{value!r} leaves the repository", "name a folder inside it, e.g. path = \"bundles/guard\"")
    return Path(value).as_posix()


"""Reading every scope of a host as the host reads it: for verify, status and install's gates.

A file that cannot be read is a finding, not a crash: the host ignores it too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from hookweave.core.errors import BadInput
from hookweave.core.files import fileio, paths
from hookweave.core.model import record

if TYPE_CHECKING:
    from hookweave.core.contract.host import Host


def _text(path: Path, planned: dict[Path, str | None] | None) -> str | None:
    if planned and path in planned:
        return planned[path]
    return fileio.read_text(path)


def read_scope(
    host: Host, scope: str, project: Path, planned: dict[Path, str | None] | None = None,
    parsed: dict[Path, object] | None = None,
) -> tuple[object, record.Record, str | None]:
    """One scope's data, record and error (data ``None`` when missing, unparseable or not an
    object at the top, which no host reads as settings). ``planned`` texts stand in for files a
    command is about to write, and ``parsed`` holds what some of them read as, already proven."""
    path = host.settings_path(scope, project)
    doc, broken = None, None
    try:
        extras = host.extra_paths(scope)
    except BadInput as exc:
        return None, record.Record(), _unreadable(host, scope, exc)
    for layer in extras if path in extras else [path, *extras]:  # the host's merge order, lowest first
        try:
            data = _layer(host, layer, planned, parsed)
        except BadInput as exc:
            if layer == path:
                return None, record.Record(), _unreadable(host, scope, exc)
            # An administrator's file beside ours (a managed drop-in): named, and ours still judged
            broken = broken or _unreadable(host, scope, exc)
            continue
        if data is not None:
            doc = data if doc is None else (host.merge_layer or _over)(doc, data)
    try:
        rec_path = host.record_path(path)
        return doc, record.from_text(_text(rec_path, planned), str(rec_path)), broken
    except BadInput as exc:
        return doc, record.Record(), f"{exc} (so this scope's hooks cannot be checked)"


def _layer(host: Host, layer: Path, planned: dict[Path, str | None] | None,
           parsed: dict[Path, object] | None) -> dict | None:
    text = _text(layer, planned)
    if text is None:
        return None
    if parsed and layer in parsed:
        return _settings_object(parsed[layer], paths.display(layer))
    return _settings_object(host.parse(text, paths.display(layer)), paths.display(layer))


def _unreadable(host: Host, scope: str, exc: BadInput) -> str:
    if host.json5:  # a trailing comma, say: the agent runs the file, hookweave can neither check nor edit it
        return (f"{exc} ({host.title} reads JSON5 and runs this file's hooks, but hookweave "
                "reads JSON with comments only: it can neither check nor edit the file)")
    why = host.unreadable.get(scope) or f"{host.title} ignores a file it cannot read"
    return f"{exc} ({why})"


def _over(lower: dict, upper: dict) -> dict:
    return {**lower, **upper}


def _settings_object(doc: object, shown: str) -> dict:
    if not isinstance(doc, dict):
        raise BadInput(f"{shown}: the top level must be a JSON object, not {_json_kind(doc)}")
    return doc


def _json_kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def read_context(host: Host, path: Path, planned: dict[Path, str | None] | None = None) -> object:
    """Another file a host's gates look at, parsed as that host parses files of its kind;
    ``None`` when missing or unreadable. Its shape is the gate's to judge, as the host would."""
    from hookweave.core.formats import jsontext

    try:
        text = _text(path, planned)
        if text is None:
            return None
        if path.suffix in (".toml", ""):  # TOML, or an executable a host reads (Cline's dispatchers)
            return host.parse(text, str(path))
        return jsontext.load(text, str(path), comments=True)
    except BadInput:
        return None


def has_markers(host: Host, doc: object) -> bool:
    hooks = doc.get(host.hooks_key) if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        return False
    return any(host.owner(e) for es in hooks.values() if isinstance(es, list) for e in es)


def installed(host: Host, project: Path, only: Iterable[str] | None = None) -> list[tuple[str, str, record.Record]]:
    """``(scope, shown path, record)`` for every scope of ``host`` (of ``only``, when given) with something installed.

    A scope whose record file is not there holds nothing of ours and is passed over before its
    settings file is resolved: the ``realpath`` of every scope (``same_file_scopes``) was a tenth of
    a ``status``. Only a scope with a record is compared with the earlier scopes' files."""
    import os

    out = []
    places = _settings_places(host, project)  # every scope's path first: one that raises, raises here
    real: dict[str, str | None] = {}
    for scope in host.verify_scopes:
        if only is not None and scope not in only:
            continue
        path = host.settings_path(scope, project)
        rec_path = host.record_path(path)
        try:
            os.lstat(rec_path)
        except FileNotFoundError:
            continue  # read_text would read None: nothing installed, whatever file this scope shares
        except (OSError, ValueError):
            pass  # the read below says what is wrong, as before
        if _earlier_same(scope, host.verify_scopes, places, real) is not None:
            continue  # the same file as an earlier scope (CLAUDE_CONFIG_DIR pointing into the project)
        rec = record.from_text(fileio.read_text(rec_path), str(rec_path))
        if not rec.empty:
            out.append((scope, paths.display(path), rec))
    return out


def _settings_places(host: Host, project: Path) -> dict[str, Path]:
    """Every scope's settings path, as ``same_file_scopes`` asks for them (one that fails is left out)."""
    places: dict[str, Path] = {}
    for scope in host.verify_scopes:
        try:
            places[scope] = host.settings_path(scope, project)
        except (OSError, ValueError):
            continue
    return places


def _earlier_same(scope: str, order: Iterable[str], places: dict[str, Path], real: dict[str, str | None]) -> str | None:
    """The first scope before ``scope`` in ``order`` whose settings file is ``scope``'s (``real``:
    the ``realpath`` of each scope asked so far, ``None`` where it failed), or None."""
    mine = _real(scope, places, real)
    if mine is None:
        return None
    for earlier in order:
        if earlier == scope:
            return None
        if _real(earlier, places, real) == mine:
            return earlier
    return None


def _real(scope: str, places: dict[str, Path], real: dict[str, str | None]) -> str | None:
    if scope not in real:
        try:
            real[scope] = fileio.realpath(places[scope]) if scope in places else None
        except (OSError, ValueError):
            real[scope] = None
    return real[scope]


def same_file_scopes(host: Host, project: Path) -> dict[str, str]:
    """``{scope: earlier scope}`` for scopes whose settings file is an earlier scope's file (a user
    folder variable pointing into the project): one file, read and reported once."""
    places, real = _settings_places(host, project), {}
    aliases: dict[str, str] = {}
    for scope in host.verify_scopes:
        earlier = _earlier_same(scope, host.verify_scopes, places, real)
        if earlier is not None:
            aliases[scope] = earlier
    return aliases

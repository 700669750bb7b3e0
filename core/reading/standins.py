"""Hooks another host's record says an agent runs from that host's file instead of its own copy.

Install writes a hook for Claude and Copilot CLI into Claude's project settings only, where Copilot
runs it as its own (``plan/standin.py``), and Claude's record lists it under ``runs_for``. verify,
status and uninstall read it back here, for the reader: what it runs, from which file.
"""

from pathlib import Path

from hookweave.core.errors import BadInput
from hookweave.core.files import paths
from hookweave.core.formats.fieldtuple import FieldTuple
from hookweave.core.reading.scopes import installed


class Borrowed(FieldTuple):
    """``reader`` runs ``ids`` of ``bundle`` from ``source``'s file at ``scope`` (``shown``)."""

    source: object  # Host
    scope: str
    shown: str
    bundle: str
    version: str
    ids: tuple


def sources(reader) -> list:
    """``(source host, its scopes)`` whose file can stand in for ``reader``'s own (``covers``)."""
    from hookweave.core.contract import registry as plugins

    hosts = plugins.HostRegistry.current or plugins.registry()
    out = []
    for row in getattr(reader, "also_reads", ()):
        if getattr(row, "covers", ()) and row.host in hosts.names():
            out.append((hosts.get(row.host), row.scopes))
    return out


def borrowed(reader, project: Path, bundle: str | None = None, *, repo: bool = False) -> list[Borrowed]:
    """What ``reader`` runs from other hosts' files as installed for it (``bundle``'s only, when
    given); with ``repo``, from the files inside ``project`` only (``verify --repo`` reads no other)."""
    out = []
    for source, scopes in sources(reader):
        if repo:
            scopes = [s for s in scopes if paths.within(source.settings_path(s, project), project)]
        try:
            found = installed(source, project, scopes)
        except BadInput:
            continue  # the source's own verify names a record it cannot read
        for scope, shown, rec in found:
            if scope not in scopes:
                continue
            for name, b in sorted(rec.bundles.items()):
                ids = b.runs_for.get(reader.name)
                if ids and (bundle is None or name == bundle):
                    out.append(Borrowed(source, scope, shown, name, b.version, ids))
    return out
